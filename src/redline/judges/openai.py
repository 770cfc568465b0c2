"""The OpenAI judge: the official `openai` SDK, so any OpenAI-compatible server works.

`base_url` points it at vLLM, Ollama, llama.cpp's server or LM Studio as well as at
OpenAI. The verdict is asked for as JSON schema output; a server that refuses that is
asked for JSON mode, then for plain text (read strictly), and the judge remembers the
mode that worked. The SDK's own retries are off: the gate's guard retries once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from redline.judges._keys import client_settings
from redline.judges.base import CallStatus, JudgeContext, JudgeRule, JudgeVerdict, failed
from redline.judges.envelope import VERDICT_SCHEMA, build_prompt, parse_reply

_MODES = ("json_schema", "json_object", "text")


def _response_format(mode: str) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "verdicts", "schema": VERDICT_SCHEMA, "strict": True}}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


class OpenAIJudge:
    name = "openai"
    reads_context = True

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        timeout_s: float = 10.0,
        max_output_tokens: int = 1024,
        output: str = "auto",
    ) -> None:
        import openai  # the optional extra, imported only when this judge is built

        self.model = model
        self._openai = openai
        self._client: Any = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)
        self._local = base_url is not None
        self._max_tokens = max_output_tokens
        self._modes = list(_MODES) if output == "auto" else [output]

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], policy_dir: Path | None) -> OpenAIJudge:
        return cls(**client_settings(settings, "OPENAI_API_KEY"), output=str(settings.get("output") or "auto"))

    def judge(
        self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None = None
    ) -> JudgeVerdict:
        prompt = build_prompt(text, rules, context)
        messages = [{"role": "system", "content": prompt.system}, {"role": "user", "content": prompt.user}]
        # local servers know max_tokens; OpenAI's newer models only max_completion_tokens
        limit = {"max_tokens": self._max_tokens} if self._local else {"max_completion_tokens": self._max_tokens}
        while True:
            mode = self._modes[0]
            extra: dict[str, Any] = {}
            response_format = _response_format(mode)
            if response_format is not None:
                extra["response_format"] = response_format
            try:
                reply = self._client.chat.completions.create(
                    model=self.model, messages=messages, temperature=0, **limit, **extra
                )
            except self._openai.BadRequestError as exc:
                if len(self._modes) > 1 and "response_format" in str(exc):
                    self._modes.pop(0)  # this server cannot do that mode: ask the next way
                    continue
                return failed(self.name, self.model, rules, CallStatus.ERROR, f"BadRequestError: {exc}")
            except self._openai.APITimeoutError as exc:
                return failed(self.name, self.model, rules, CallStatus.TIMEOUT, f"APITimeoutError: {exc}")
            except self._openai.OpenAIError as exc:
                return failed(self.name, self.model, rules, CallStatus.ERROR, f"{type(exc).__name__}: {exc}")
            break
        content = reply.choices[0].message.content if reply.choices else None
        status, verdicts = parse_reply(content or "", rules, text)
        if status is not CallStatus.OK:
            return failed(self.name, self.model, rules, status, f"unreadable answer: {(content or '')[:200]!r}")
        return JudgeVerdict(self.name, self.model, CallStatus.OK, verdicts)
