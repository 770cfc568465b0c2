"""The gate: one text in, one Decision out, and never an exception to the caller."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable, Callable, Iterable, Mapping
from time import perf_counter
from typing import Any

from pydantic import ValidationError

from redline.decide.actions import decide_action
from redline.decide.combine import combine, judge_rules, screen_states, stricter
from redline.decide.caps import cap_findings
from redline.decide.ids import new_decision_id
from redline.decide.resolve import Resolution, error_decision, resolve
from redline.decide.stream import TextStream, crossing_patterns
from redline.domains.base import Domain
from redline.domains.registry import DomainRegistry
from redline.errors import PolicyError
from redline.judges.base import Judge, JudgeContext
from redline.judges.guard import GuardedJudge
from redline.judges.registry import build_judge
from redline.policy.building import collector_paused
from redline.policy.guards import unguarded_rules
from redline.policy.schema import Policy
from redline.signals import TextSignalSource
from redline.review.license import License, licensed_outcome
from redline.review.principal import principal_facts
from redline.screen.analysis import TextAnalysis
from redline.screen.engine import ScreenResult, compile_screen
from redline.types import Decision, Finding, Outcome, RiskLevel, build_decision

log = logging.getLogger("redline.gate")

_FROM_POLICY: Any = object()


class Gate:
    """Checks texts against one policy, and actions against their domains.

    Build once; `check` and `decide` are safe to call from threads. Without a policy,
    `Gate()` decides actions and checks texts with the built-in detectors only (the
    defaults of an empty version-1 policy: every clean draft goes to human review).

    The judge is the one the policy's `judge:` names, unless `judge` gives another (any
    object with the `Judge` protocol; None for none). Either way it runs with the
    policy's timeout, one retry and a cache. It reads the draft and the screen's view of
    it, never the conversation: context may only relax, through the license, and never a
    red line or boundary (docs/policy.md, the one-way license), so a verdict must not move with it.
    """

    # building a large policy's screen allocates about a million objects, none garbage
    # (policy.building): the collector walks them once, when the gate is built
    @collector_paused()
    def __init__(
        self,
        policy: Policy | None = None,
        *,
        domains: DomainRegistry | None = None,
        text_signals: TextSignalSource | None = None,
        license: License | None = None,
        judge: Judge | None = _FROM_POLICY,
    ) -> None:
        policy = policy if policy is not None else Policy(version=1, name="default")
        self.policy = policy
        self._domains = domains
        self.text_signals = text_signals
        self.license = license or licensed_outcome  # another rule only in tests (service.testing)
        self.policy_hash = policy.hash
        self._crossing: tuple[str, ...] | None = None  # patterns that stop a stream releasing
        unguarded = unguarded_rules(policy)  # a policy built in code gets the same check as a file
        if unguarded:
            raise PolicyError(unguarded[0].message, key=unguarded[0].key)
        try:
            self._screen = compile_screen(policy)
        except Exception as exc:  # validated policies compile; say so loudly if one does not
            raise PolicyError(f"policy {policy.name!r} validated but could not be compiled: {exc}") from exc
        if judge is _FROM_POLICY:
            try:
                judge = build_judge(policy.judge.model_dump(), policy.source_dir)
            except PolicyError as exc:  # name the file: the service loads many
                raise PolicyError(exc.problem, path=policy.source_path, key=exc.key) from exc
        self.judge: GuardedJudge | None = None
        if judge is not None:
            self.judge = judge if isinstance(judge, GuardedJudge) else GuardedJudge(
                judge, policy_hash=self.policy_hash, timeout_s=policy.judge.timeout_s
            )
        self._judge_rules = judge_rules(policy, self._screen.rules)
        self._suppress = {spec.id: spec.suppress for spec in self._screen.rules}

    def check(
        self,
        text: str | TextAnalysis,
        context: Any = None,
        confidence: float | None = None,
    ) -> Decision:
        """The decision for `text`. A failure inside yields the policy's `on_error` outcome.

        `context` is the conversation (docs/policy.md): `{operator_uid, recipient,
        messages: [{role, sender_uid, text}]}`. It can only relax an outcome; a malformed
        one is recorded and ignored, which is the restrictive choice.

        `text` may be a `TextAnalysis` (redline.screen.analysis) of the text: gates of
        several policies that check one text then share the work that depends on the
        text alone (normalisation, detectors, context scans), and each decision is the
        one the plain text gets.
        """
        decision_id = new_decision_id()
        started = perf_counter()
        try:
            if isinstance(text, TextAnalysis):
                analysis = text
                text = analysis.text
            else:
                if isinstance(text, bytes):
                    text = text.decode("utf-8", errors="replace")
                if not isinstance(text, str):
                    raise TypeError(f"text must be str, not {type(text).__name__}")
                analysis = TextAnalysis(text, shared=False)  # this gate alone reads it
            if confidence is not None and not isinstance(confidence, (int, float)):
                raise TypeError(f"confidence must be a number, not {type(confidence).__name__}")
            if confidence is not None and not 0 <= confidence <= 100:  # NaN fails this too
                # 101, the bar of a policy that reviews every draft, must stay out of reach
                raise ValueError(f"confidence must be 0 to 100, got {confidence!r}")
            shadow = analysis.shadow  # normalised first (once per analysis), so that its time is its own
            normalized = perf_counter()
            result = self._screen_text(analysis)
            screened = perf_counter()
            all_findings = result.findings
            resolution = resolve(
                all_findings,
                confidence=confidence,
                min_confidence=self.policy.auto_send.min_confidence,
            )
            layers: dict[str, Any] = {"judge": None, "agreement": None, "decided_by": "screen"}
            judged = screened
            hold = None
            if self.judge is not None:
                resolution, all_findings, layers, hold = self._judge(text, result, confidence, resolution)
                judged = perf_counter()
            context_meta = None
            if context is not None:
                resolution, context_meta = self._license(resolution, all_findings, context, confidence, hold)
            findings, findings_omitted = cap_findings(all_findings)
            suppressed, suppressed_omitted = cap_findings(result.suppressed)
            findings_omitted += result.unassessed  # hits of rules that had fired often enough
            suppressed_omitted += result.unrecorded
            done = perf_counter()
        except Exception as exc:  # the gate's contract: never raise, never let a draft through
            log.exception("check %s failed", decision_id)
            return self._error_decision(decision_id, exc, perf_counter() - started)
        return build_decision(  # Decision(...), built at a fraction of its cost (types.py)
            id=decision_id,
            outcome=resolution.outcome,
            reason=resolution.reason,
            risk_level=resolution.risk_level,
            findings=findings,
            suppressed=suppressed,
            policy_name=self.policy.name,
            policy_hash=self.policy_hash,
            timings_ms={
                "normalize": (normalized - started) * 1e3,
                "screen": (screened - normalized) * 1e3,
                **({"judge": (judged - screened) * 1e3} if self.judge is not None else {}),
                "resolve": (done - judged) * 1e3,
                "total": (done - started) * 1e3,
            },
            layers={
                "screen": {
                    "verdict": "violates" if result.findings else "clear",
                    "hits": result.hits,
                },
                **layers,
            },
            error=None,
            context=context_meta,
            action=None,
            omitted={"findings": findings_omitted, "suppressed": suppressed_omitted},
        )

    def stream(
        self,
        chunks: Iterable[str | bytes] | AsyncIterable[str | bytes] | None = None,
        *,
        context: Any = None,
        confidence: float | None = None,
        decide: Callable[[str], Decision] | None = None,
    ) -> TextStream:
        """Check a text as it arrives (decide/stream.py): iterate the result (`for`, or
        `async for` over an async iterable) for events, `release` per sentence that may be
        shown, at most one `hold`, and last the `decision`, which is `check` on the whole
        text (or what `decide` makes of the whole text); or call `feed(chunk)` and
        `finish()` on it yourself.

        With a judge that will be asked (`judge.when` other than never), nothing is
        released before the whole text: a judge reads the whole text, so a later sentence
        may change what it says of an earlier one (and each release point would cost a
        judge call). `blocked_by` then names it."""
        return TextStream(
            self, chunks, context=context, confidence=confidence, blocked_by=self.stream_blockers(), decide=decide
        )

    def stream_blockers(self) -> tuple[str, ...]:
        """What stops a stream releasing before the whole text: the policy's patterns that
        can match across a release point (`SKILL:ID: pattern`) and a judge that will be
        asked (`judge: NAME reads the whole text`)."""
        if self._crossing is None:
            asked = self.judge is not None and self.policy.judge.when != "never" and bool(self._judge_rules)
            judge = (f"judge: {self.judge.name} reads the whole text",) if asked and self.judge else ()
            self._crossing = crossing_patterns(self.policy) + judge
        return self._crossing

    def _judge(
        self, text: str, result: ScreenResult, confidence: float | None, screen_alone: Resolution
    ) -> tuple[Resolution, tuple[Finding, ...], dict[str, Any], Resolution | None]:
        """The judge's verdict combined with the screen's, or why the judge was not asked;
        last, what its `uncertain` holds (no finding says it, so the license must be told)."""
        assert self.judge is not None
        when = self.policy.judge.when
        saw_hit = bool(result.findings or result.suppressed)
        if when == "never" or (when == "on_hits" and not saw_hit) or not self._judge_rules:
            why = "no red lines or boundaries to judge" if not self._judge_rules else (
                "judge.when is never" if when == "never" else "judge.when is on_hits and the screen saw no hit")
            layer = {"called": False, "judge": self.judge.name, "model": self.judge.model, "why": why}
            return screen_alone, result.findings, {"judge": layer, "agreement": None, "decided_by": "screen"}, None
        verdict = self.judge.judge(text, self._judge_rules, JudgeContext(screen=screen_states(result)))
        combined = combine(
            text,
            self._judge_rules,
            result,
            verdict,
            reads_context=self.judge.reads_context,
            suppress=self._suppress,
            confidence=confidence,
            min_confidence=self.policy.auto_send.min_confidence,
        )
        return combined.resolution, result.findings + combined.judge_findings, combined.layers, combined.hold

    def _screen_text(self, analysis: TextAnalysis) -> ScreenResult:
        """The screen over the shadow and, when a symbol or emoji stands inside a word
        (`re🎉fund`), over the reading without it too: a hit only that reading finds is
        added (the same run may instead separate two words, so neither reading is enough)."""
        result = self._screen.run(analysis)
        if not analysis.has_symbols:
            return result
        joined = self._screen.run(analysis.joined)
        seen = {(f.rule, f.start, f.end) for f in (*result.findings, *result.suppressed)}
        # detector findings read the original text: the same in both readings
        new = [f for f in joined.findings if f.entity is None and (f.rule, f.start, f.end) not in seen]
        quiet = [f for f in joined.suppressed if (f.rule, f.start, f.end) not in seen]
        return ScreenResult(
            (*result.findings, *new),
            (*result.suppressed, *quiet),
            result.hits + len(new) + len(quiet),
            result.unassessed,
            result.unrecorded,
        )

    @property
    def domains(self) -> DomainRegistry:
        """The domains `decide` knows: those given, else the built-in and plugin ones."""
        if self._domains is None:  # loaded on first use: a text-only gate never scans plugins
            self._domains = DomainRegistry.default()
        return self._domains

    def decide(self, domain: str | Domain, data: Mapping[str, Any] | Any) -> Decision:
        """The decision for one proposed action (docs/actions.md).

        `domain` is a registered name ("refund_approval") or a Domain; `data` its input,
        a mapping of fields (absent or None: evidence not given, so perhaps `ask`).
        Raises UnknownDomain or ActionInputError (naming each bad field) for a caller's
        mistake, before anything is decided; after that it never raises, and a failure
        yields the policy's `on_error` outcome with reason `check_error`.
        """
        resolved = domain if isinstance(domain, Domain) else self.domains.get(domain)
        return decide_action(
            resolved, data, on_error=Outcome(self.policy.on_error), text_source=self.text_signals
        )

    def _license(
        self,
        resolution: Resolution,
        findings: tuple[Finding, ...],
        context: Any,
        confidence: float | None,
        hold: Resolution | None = None,
    ) -> tuple[Resolution, dict[str, Any]]:
        try:
            facts = principal_facts(context)
        except ValidationError as exc:  # a bad conversation licenses nothing; the check goes on
            # where and what only: the input values may quote message bodies
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'context'}: {e['msg']}" for e in exc.errors(include_input=False)
            )
            return resolution, {"licensed_by_context": False, "error": f"invalid context: {problems}"[:500]}
        except Exception as exc:
            return resolution, {"licensed_by_context": False, "error": f"invalid context: {type(exc).__name__}"}
        relaxed = self.license(
            resolution,
            findings,
            facts,
            licensable=frozenset(self.policy.context.licensable),
            confidence=confidence,
            min_confidence=self.policy.auto_send.min_confidence,
        )
        held_by = None
        if relaxed is not None and hold is not None:
            # an ask licenses findings; the judge's hold is none, so it stays (a failed judge
            # never lets a draft through, with or without a conversation)
            relaxed, held_by = stricter(relaxed, hold), hold.reason
            if relaxed.outcome.rank >= resolution.outcome.rank:
                relaxed = None
        meta = {"licensed_by_context": relaxed is not None, **facts.to_dict()}
        if held_by is not None:
            meta["license_held_by"] = held_by
        if relaxed is not None:
            meta["unlicensed_outcome"] = resolution.outcome.value
        return (relaxed or resolution), meta

    def _error_decision(self, decision_id: str, exc: BaseException, elapsed: float) -> Decision:
        return error_decision(
            decision_id,
            Outcome(self.policy.on_error),
            policy_name=self.policy.name,
            policy_hash=self.policy_hash,
            elapsed_s=elapsed,
            exc=exc,
            layers={"screen": {"verdict": "error"}, "judge": None, "agreement": None, "decided_by": None},
        )
