"""A JSON-lines batch writes its answers in blocks (``engine.cli.jsonlines.serve``): the same bytes, in order, as
one write per answer gave, whatever the block's size; and a caller that waits for each answer gets it at once."""

from __future__ import annotations

import io
import json

from engine.cli import jsonlines
from engine.services.answers import encode


class _Sink(io.BytesIO):
    """A byte stream that counts its writes and flushes."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.flushes = 0

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.writes.append(bytes(data))
        return super().write(data)

    def flush(self) -> None:
        self.flushes += 1


def _answer(text: str) -> dict[str, object]:
    return {"ok": True, "echo": json.loads(text)["n"] * "x"}


def _lines(count: int) -> bytes:
    return b"".join(json.dumps({"n": n * 37 % 3000}).encode() + b"\n" for n in range(count)) + b"\xff\n\n" + b"{" * 10 + b"\r\n"


def test_blocks_hold_the_answers_in_order() -> None:
    data = _lines(400)
    sink = _Sink()
    assert jsonlines.serve(_answer, io.BytesIO(data), sink) == 0
    expected = b"".join(encode(jsonlines.answer_bytes(line, _answer)) for line in jsonlines.read_lines(io.BytesIO(data)))
    assert sink.getvalue() == expected and expected.count(b"\n") == 403
    assert 1 < len(sink.writes) < 403  # gathered, not one write per answer
    assert all(len(block) < jsonlines.BLOCK_BYTES + 4096 for block in sink.writes)


def test_an_empty_input_writes_nothing_and_each_answer_is_flushed_when_asked() -> None:
    sink = _Sink()
    jsonlines.serve(_answer, io.BytesIO(b""), sink)
    assert sink.getvalue() == b""
    sink = _Sink()
    jsonlines.serve(_answer, io.BytesIO(_lines(5)), sink, flush_each=True)
    assert len(sink.writes) == 8 and sink.flushes == 8
