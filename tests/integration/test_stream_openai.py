"""docs/streaming.md's wiring, run through the official `openai` SDK against a local server
that speaks the Chat Completions streaming protocol (server-sent `chat.completion.chunk`s)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI"):  # the test extra installs it: CI must not go green without it
    import openai
else:
    openai = pytest.importorskip("openai", reason="the openai extra is not installed: pip install 'redline[openai]'")

from redline import Decision, Gate, load_policy  # noqa: E402
from redline.types import Outcome  # noqa: E402

EXAMPLE = Path(__file__).parents[2] / "examples" / "policy.yaml"
gate = Gate(load_policy(EXAMPLE))
client: Any = None  # set per test: the docs' module-level client


class Scripted(BaseHTTPRequestHandler):
    """POST /v1/chat/completions: the scripted answer, three characters per chunk."""

    answer = ""
    sent = 0  # chunks written before the client went away

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        length = int(self.headers.get("Content-Length", 0))
        request = json.loads(self.rfile.read(length))
        assert request["stream"] is True and self.path == "/v1/chat/completions"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        pieces = [self.answer[i : i + 3] for i in range(0, len(self.answer), 3)]
        try:
            for n, piece in enumerate(pieces):
                delta = {"role": "assistant", "content": piece} if n == 0 else {"content": piece}
                self._event({"choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
                type(self).sent = n + 1
                time.sleep(0.002)  # a model writes at its own pace
            self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            self.wfile.write(b"data: [DONE]\n\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _event(self, body: dict[str, Any]) -> None:
        chunk = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "scripted", **body}
        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.flush()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


# ---- as in docs/streaming.md -------------------------------------------------------------
def deltas(response: Any) -> Iterator[str]:
    """The text of each chunk of a streamed chat completion."""
    for chunk in response:
        if chunk.choices and chunk.choices[0].delta.content:
            yield chunk.choices[0].delta.content


def answer(messages: Any, show: Any, hold: Any) -> Decision | None:
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, stream=True)
    stream = gate.stream(confidence=90)
    for delta in deltas(response):
        for event in stream.feed(delta):
            if event.kind == "release":
                show(event.text)
            elif event.kind == "hold":
                hold()  # e.g. "a reviewer will finish this answer"
        if stream.held:
            response.close()  # stop paying for tokens nobody will see
            break
    events = stream.finish()  # the decision on what arrived (and the rest, if it passed)
    for event in events:
        if event.kind == "release":
            show(event.text)
    return events[-1].decision  # record it; a held draft goes to review


async def adeltas(response: Any) -> AsyncIterator[str]:
    async for chunk in response:
        if chunk.choices and chunk.choices[0].delta.content:
            yield chunk.choices[0].delta.content
# ------------------------------------------------------------------------------------------


def test_a_clean_answer_is_shown_as_it_streams(server: str) -> None:
    global client
    client = openai.OpenAI(base_url=server, api_key="test-key", max_retries=0)
    Scripted.answer = "Thanks for waiting. Your order shipped today. It should arrive on Friday."
    shown: list[str] = []
    decision = answer([{"role": "user", "content": "where is my order?"}], shown.append, lambda: shown.append("<held>"))
    assert decision is not None and decision.outcome is Outcome.EXECUTE
    assert "".join(shown) == Scripted.answer
    assert shown[0] == "Thanks for waiting.", "the first sentence was shown before the answer ended"


def test_a_held_answer_stops_the_upstream_and_shows_nothing_of_the_held_sentence(server: str) -> None:
    global client
    client = openai.OpenAI(base_url=server, api_key="test-key", max_retries=0)
    Scripted.answer = "Thanks for waiting. Good news: I have approved a full refund. " + "More words follow here. " * 200
    shown: list[str] = []
    decision = answer([{"role": "user", "content": "refund?"}], shown.append, lambda: shown.append("<held>"))
    assert decision is not None and decision.outcome is Outcome.ESCALATE
    assert shown == ["Thanks for waiting.", "<held>"]
    assert Scripted.sent < len(Scripted.answer) // 3, "the stream was closed early, not read to the end"


def test_the_async_client_with_async_for(server: str) -> None:
    Scripted.answer = "Thanks for waiting. The key is AKIAIOSFODNN7EXAMPLE. Bye."

    async def main() -> list[Any]:
        aclient = openai.AsyncOpenAI(base_url=server, api_key="test-key", max_retries=0)
        response = await aclient.chat.completions.create(model="gpt-4o-mini", messages=[], stream=True)
        events = [event async for event in gate.stream(adeltas(response), confidence=90)]
        await aclient.close()
        return events

    events = asyncio.run(main())
    assert [e.kind for e in events] == ["release", "hold", "decision"]
    assert events[0].text == "Thanks for waiting."
    assert events[-1].decision is not None and events[-1].decision.outcome is Outcome.REFUSE
