"""Test fakes for the judge layer, shipped so users can test their own integrations.

    judge = ScriptedJudge({"billing:no-refund-promise": "violates"})
    gate = Gate(policy, judge=judge)

`ScriptedJudge` answers from a script (per rule, or a function of the text), can fail,
hang or raise on demand, and records every call. `FakeModelServer` (in
`redline.judges.fake_server`) is its counterpart for the real SDKs over HTTP.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from threading import Lock

from redline.judges.base import (
    CallStatus,
    JudgeContext,
    JudgeRule,
    JudgeVerdict,
    RuleVerdict,
    Verdict,
    failed,
)

Script = Mapping[str, str] | Callable[[str, JudgeRule], str]


@dataclass(frozen=True, slots=True)
class JudgeCall:
    text: str
    rules: tuple[str, ...]
    context: JudgeContext | None


@dataclass
class ScriptedJudge:
    """A judge whose verdicts are written in advance.

    `script` maps a rule id to `violates`/`clear`/`uncertain`, or is a function of
    (text, rule) giving one; rules it does not name get `default`. `status` other than
    `ok` makes every call fail that way; `delay_s` makes it slow; `raises` makes it raise.
    `fail_first` makes only the first N calls fail (for retries).
    """

    script: Script = field(default_factory=dict)
    default: str = "clear"
    name: str = "scripted"
    model: str | None = "script"
    reads_context: bool = True
    status: CallStatus = CallStatus.OK
    delay_s: float = 0.0
    raises: BaseException | None = None
    fail_first: int = 0
    calls: list[JudgeCall] = field(default_factory=list)
    _lock: Lock = field(default_factory=Lock, repr=False)

    def _verdict_for(self, text: str, rule: JudgeRule) -> Verdict:
        if callable(self.script):
            return Verdict(self.script(text, rule))
        return Verdict(self.script.get(rule.id, self.default))

    def judge(
        self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None = None
    ) -> JudgeVerdict:
        with self._lock:
            self.calls.append(JudgeCall(text, tuple(r.id for r in rules), context))
            number = len(self.calls)
        if self.delay_s:
            time.sleep(self.delay_s)
        if number <= self.fail_first:
            return failed(self.name, self.model, rules, CallStatus.ERROR, f"scripted failure {number}")
        if self.raises is not None:
            raise self.raises
        if self.status is not CallStatus.OK:
            return failed(self.name, self.model, rules, self.status, f"scripted {self.status.value}")
        return JudgeVerdict(
            judge=self.name,
            model=self.model,
            status=CallStatus.OK,
            verdicts=tuple(
                RuleVerdict(rule.id, verdict, 0.9, f"scripted {verdict.value}")
                for rule in rules
                for verdict in (self._verdict_for(text, rule),)
            ),
        )
