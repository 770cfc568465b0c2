"""A fake model server that speaks the OpenAI and Anthropic HTTP APIs on 127.0.0.1.

    with FakeModelServer([Reply(verdicts={"billing:no-refund-promise": "violates"})]) as server:
        judge: {kind: openai, model: fake, base_url: server.openai_url}

It answers `POST /v1/chat/completions` (OpenAI chat completions) and `POST /v1/messages`
(Anthropic messages) from a script, so the real SDKs, their timeouts and redline's
retries and parsing run end to end: verdicts, raw (broken) text, HTTP errors, slow
replies, and servers that refuse JSON-schema output. Each request takes the next
`Reply` of the script (the last one repeats), or `script` may be a function of the
request. Rule ids are read from the system prompt and the draft from the envelope,
as a real model would see them; every request is recorded. Standard library only.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_RULE_LINE = re.compile(r"^- ([a-z0-9:-]+) \((?:block|flag|refuse)\):", re.MULTILINE)


@dataclass(frozen=True)
class Reply:
    """One scripted answer. `verdicts` (rule -> verdict, others `default`) is rendered as
    the API's structured output; `content` is sent as raw text instead; `status` other
    than 200 sends an API error; `delay_s` waits first."""

    verdicts: Mapping[str, str] | None = None
    default: str = "clear"
    content: str | None = None
    status: int = 200
    delay_s: float = 0.0
    evidence: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Request:
    api: str  # "openai" | "anthropic"
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def system(self) -> str:
        if self.api == "anthropic":
            system = self.body.get("system", "")
            return system if isinstance(system, str) else json.dumps(system)
        return next((str(m["content"]) for m in self.body.get("messages", []) if m.get("role") == "system"), "")

    @property
    def user(self) -> str:
        content = next((m["content"] for m in self.body.get("messages", []) if m.get("role") == "user"), "")
        if isinstance(content, list):
            return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        return str(content)

    @property
    def rules(self) -> list[str]:
        return _RULE_LINE.findall(self.system)

    @property
    def envelope(self) -> dict[str, Any]:
        """The JSON body between the two boundary lines of the user message."""
        lines = self.user.split("\n")
        boundary = lines[-1]
        start = lines.index(boundary)
        return dict(json.loads("\n".join(lines[start + 1 : -1])))


Script = Sequence[Reply] | Callable[[Request], Reply]


class FakeModelServer:
    def __init__(self, script: Script = (Reply(),), *, json_schema: bool = True, json_mode: bool = True) -> None:
        self.script = script
        self.json_schema = json_schema  # False: answer 400 to response_format json_schema
        self.json_mode = json_mode  # False: answer 400 to response_format json_object
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-model-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def openai_url(self) -> str:
        return self.url + "/v1"

    def __enter__(self) -> FakeModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if callable(self.script):
                return self.script(request)
            index = min(len(self.requests) - 1, len(self.script) - 1)
            return self.script[index]

    def _answer(self, request: Request) -> tuple[int, dict[str, Any]]:
        reply = self._next(request)
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if reply.status != 200:
            return reply.status, _error(request.api, reply.status, "scripted failure")
        kind = (request.body.get("response_format") or {}).get("type")
        if (kind == "json_schema" and not self.json_schema) or (kind == "json_object" and not self.json_mode):
            return 400, _error(request.api, 400, f"response_format {kind} is not supported by this server")
        verdicts = {
            "verdicts": [
                {
                    "rule": rule,
                    "verdict": (reply.verdicts or {}).get(rule, reply.default),
                    "confidence": 0.9,
                    "rationale": "scripted",
                    "evidence": list(reply.evidence.get(rule, ())),
                }
                for rule in request.rules
            ]
        }
        text = reply.content if reply.content is not None else json.dumps(verdicts)
        model = str(request.body.get("model", "fake"))
        if request.api == "openai":
            return 200, {
                "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        tools = request.body.get("tools") or []
        if tools and reply.content is None:
            block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_{len(self.requests)}", "name": tools[0]["name"], "input": verdicts}
        else:
            block = {"type": "text", "text": text}
        return 200, {
            "id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant", "model": model,
            "content": [block], "stop_reason": "tool_use" if block["type"] == "tool_use" else "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read requests instead
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                api = "openai" if path.endswith("/chat/completions") else "anthropic" if path.endswith("/messages") else ""
                if not api:
                    status, payload = 404, {"error": {"message": f"no route {path}"}}
                else:
                    status, payload = server._answer(Request(api, path, {k.lower(): v for k, v in self.headers.items()}, body))
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (its timeout)
                    pass

        return Handler


def _error(api: str, status: int, message: str) -> dict[str, Any]:
    kind = "invalid_request_error" if status < 500 else "api_error"
    if api == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "code": None, "param": None}}
