"""The Anthropic judge: the official `anthropic` SDK and its messages API.

The verdict is asked for as a forced tool call whose input schema is the verdict
schema (Anthropic's way to structured output); a text answer is read strictly. The
SDK's own retries are off: the gate's guard retries once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from redline.judges._keys import client_settings
from redline.judges.base import CallStatus, JudgeContext, JudgeRule, JudgeVerdict, failed
from redline.judges.envelope import TOOL_NAME, VERDICT_SCHEMA, build_prompt, parse_reply, verdicts_from_object

_TOOL = {
    "name": TOOL_NAME,
    "description": "Record one verdict for every rule.",
    "input_schema": VERDICT_SCHEMA,
}


class AnthropicJudge:
    name = "anthropic"
    reads_context = True

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        timeout_s: float = 10.0,
        max_output_tokens: int = 1024,
    ) -> None:
        import anthropic  # the optional extra, imported only when this judge is built

        self.model = model
        self._anthropic = anthropic
        self._client: Any = anthropic.Anthropic(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)
        self._max_tokens = max_output_tokens

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], policy_dir: Path | None) -> AnthropicJudge:
        return cls(**client_settings(settings, "ANTHROPIC_API_KEY"))

    def judge(
        self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None = None
    ) -> JudgeVerdict:
        prompt = build_prompt(text, rules, context)
        try:
            reply = self._client.messages.create(
                model=self.model,
                max_tokens=self._max_tokens,
                system=prompt.system,
                messages=[{"role": "user", "content": prompt.user}],
                tools=[_TOOL],
                tool_choice={"type": "tool", "name": TOOL_NAME},
            )
        except self._anthropic.APITimeoutError as exc:
            return failed(self.name, self.model, rules, CallStatus.TIMEOUT, f"APITimeoutError: {exc}")
        except self._anthropic.AnthropicError as exc:
            return failed(self.name, self.model, rules, CallStatus.ERROR, f"{type(exc).__name__}: {exc}")
        texts: list[str] = []
        for block in reply.content:
            if block.type == "tool_use" and block.name == TOOL_NAME:
                verdicts = verdicts_from_object(block.input, rules, text)
                if verdicts is not None:
                    return JudgeVerdict(self.name, self.model, CallStatus.OK, verdicts)
            elif block.type == "text":
                texts.append(block.text)
        status, parsed = parse_reply("".join(texts), rules, text)
        if status is not CallStatus.OK:
            return failed(self.name, self.model, rules, status, f"unreadable answer: {''.join(texts)[:200]!r}")
        return JudgeVerdict(self.name, self.model, CallStatus.OK, parsed)
