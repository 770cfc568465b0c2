"""`http_protocol._OneWrite`: a response's head goes out with its body, and nothing waits."""

from __future__ import annotations

import asyncio

from redline.service.http_protocol import _OneWrite


class Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        assert not self.closed, "a write after close"
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> str:
        return f"info:{name}"


HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


def test_the_head_and_the_body_are_one_write() -> None:
    async def main() -> list[bytes]:
        sent = Recorder()
        out = _OneWrite(sent, asyncio.get_running_loop())
        out.write(HEAD)
        assert sent.writes == []  # held for the body
        out.write(b"{}")
        await asyncio.sleep(0)
        return sent.writes

    assert asyncio.run(main()) == [HEAD + b"{}"]


def test_a_head_alone_goes_out_at_the_end_of_the_loops_turn() -> None:
    async def main() -> list[list[bytes]]:
        sent = Recorder()
        out = _OneWrite(sent, asyncio.get_running_loop())
        out.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        before = list(sent.writes)
        await asyncio.sleep(0)
        after = list(sent.writes)
        out.write(HEAD)  # the real answer, later: held again, then with its body
        out.write(b"ok")
        return [before, after, sent.writes]

    before, after, final = asyncio.run(main())
    assert before == [] and after == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    assert final == [b"HTTP/1.1 100 Continue\r\n\r\n", HEAD + b"ok"]


def test_chunks_keep_their_order_and_close_sends_what_is_held() -> None:
    async def main() -> Recorder:
        sent = Recorder()
        out = _OneWrite(sent, asyncio.get_running_loop())
        out.write(HEAD)
        out.write(b"a")
        out.write(b"b")  # nothing held: straight through
        out.write(b"HTTP/1.1 204 No Content\r\n\r\n")  # a pipelined answer's head
        out.close()
        await asyncio.sleep(0)  # the pending flush finds nothing left
        assert out.get_extra_info("peername") == "info:peername"  # the rest is the transport's
        return sent

    sent = asyncio.run(main())
    assert sent.writes == [HEAD + b"a", b"b", b"HTTP/1.1 204 No Content\r\n\r\n"]
    assert sent.closed
