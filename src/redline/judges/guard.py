"""What every judge gets from the gate: a deadline, one retry, and a cache of good answers.

`GuardedJudge` wraps any `Judge`. Each attempt runs on a worker thread with a deadline,
so a judge that hangs (a stalled socket, a wedged model) costs the check at most the
timeout; an exception or a returned `error`/`timeout` status is retried once; what still
fails is `uncertain` for every rule, never `clear`. Only `ok` answers are cached, keyed
by the digest of the text and conversation, the policy hash, the judge, its model and
the envelope version, so a changed policy, model or prompt never reuses an old verdict.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace
from threading import Lock
from time import perf_counter

from redline.judges.base import (
    CallStatus,
    Judge,
    JudgeContext,
    JudgeRule,
    JudgeVerdict,
    RuleVerdict,
    Verdict,
    failed,
)
from redline.judges.envelope import ENVELOPE_VERSION

log = logging.getLogger("redline.judges")

MAX_TEXT_CHARS = 100_000  # past this a model judge would truncate: the text is held instead
_RETRIED = frozenset({CallStatus.ERROR, CallStatus.TIMEOUT})

# Shared by every guarded judge: a thread a timed-out call leaves behind finishes on its
# own (the SDKs get the same timeout), and a fixed pool bounds how many can pile up.
_pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="redline-judge")


def cache_key(
    text: str, context: JudgeContext | None, *, policy_hash: str, judge: str, model: str | None
) -> str:
    digest = hashlib.sha256()
    for part in (ENVELOPE_VERSION, policy_hash, judge, model or "", text):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    for message in context.messages if context is not None else ():
        digest.update(f"{message.role}\x00{message.text}\x00".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class GuardedJudge:
    """A judge with a deadline per attempt, one retry and an LRU cache of `ok` answers."""

    def __init__(
        self,
        inner: Judge,
        *,
        policy_hash: str,
        timeout_s: float = 10.0,
        retries: int = 1,
        cache_size: int = 2048,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.reads_context = inner.reads_context
        self.policy_hash = policy_hash
        self.timeout_s = timeout_s
        self.retries = retries
        self._cache: OrderedDict[str, JudgeVerdict] = OrderedDict()
        self._cache_size = cache_size
        self._lock = Lock()

    def judge(
        self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None = None
    ) -> JudgeVerdict:
        started = perf_counter()
        if len(text) > MAX_TEXT_CHARS:
            return failed(self.name, self.model, rules, CallStatus.ERROR,
                          f"text of {len(text)} characters is over the judge limit of {MAX_TEXT_CHARS}", attempts=0)
        key = cache_key(text, context, policy_hash=self.policy_hash, judge=self.name, model=self.model)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
        if hit is not None:
            return replace(hit, cached=True, latency_ms=(perf_counter() - started) * 1e3)
        verdict = self._attempt(text, rules, context)
        attempts = 1
        while verdict.status in _RETRIED and attempts <= self.retries:
            log.warning("judge %s: %s (%s); retrying", self.name, verdict.status.value, verdict.error)
            verdict = self._attempt(text, rules, context)
            attempts += 1
        verdict = replace(verdict, attempts=attempts, latency_ms=(perf_counter() - started) * 1e3, cached=False)
        if verdict.status is CallStatus.OK:
            with self._lock:
                self._cache[key] = verdict
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return verdict

    def _attempt(self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None) -> JudgeVerdict:
        future = _pool.submit(self.inner.judge, text, rules, context)
        try:
            answer = future.result(timeout=self.timeout_s)
        except FutureTimeout:
            future.cancel()
            return failed(self.name, self.model, rules, CallStatus.TIMEOUT, f"no answer within {self.timeout_s:g} s")
        except Exception as exc:  # a judge's own failure: converted here, never raised
            return failed(self.name, self.model, rules, CallStatus.ERROR, f"{type(exc).__name__}: {exc}")
        if not isinstance(answer, JudgeVerdict):
            return failed(self.name, self.model, rules, CallStatus.ERROR,
                          f"judge returned {type(answer).__name__}, not a JudgeVerdict")
        if answer.status is not CallStatus.OK:
            # a failed call is never a verdict, whatever verdicts the judge attached to it
            return failed(self.name, self.model, rules, answer.status, answer.error or answer.status.value)
        return _complete(answer, rules)


def _complete(answer: JudgeVerdict, rules: Sequence[JudgeRule]) -> JudgeVerdict:
    """Exactly one verdict per rule asked, in order; a rule left out is `uncertain`."""
    by_rule = {v.rule: v for v in answer.verdicts}
    verdicts = tuple(
        by_rule.get(r.id) or RuleVerdict(r.id, Verdict.UNCERTAIN, 0.0, "the judge did not answer for this rule")
        for r in rules
    )
    return replace(answer, verdicts=verdicts)
