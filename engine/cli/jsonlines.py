"""The one loop that serves a JSON-lines interface (``riichi score --json``, ``riichi analyze --json``).

Other programs keep one process open and pipe requests through it, so the loop promises what the contract's
"Limits of the JSON-lines interfaces" says, whatever the bytes it is fed: every input line gets exactly one
answer line, in order; a line that is not UTF-8, holds a lone surrogate, or is blank is answered
``invalid_request``; a line longer than ``MAX_LINE_BYTES`` is answered ``limit_exceeded`` without being parsed
(nor even kept in memory); an error raised while answering becomes an answer with a contract code (a bug of ours
is ``internal_error``, asking for a report) and the batch goes on; every answer is valid UTF-8 JSON.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator

from engine.core.errors import CODES, InternalError
from engine.services.answers import SURROGATE as _SURROGATE
from engine.services.answers import encode, error
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import IO, Any

# The longest input line answered: a score request is about 100 bytes, a tile string 20.
MAX_LINE_BYTES = 64 * 1024
_CHUNK = 1 << 16
# The answers a batch gathers before writing them (``serve``), in bytes.
BLOCK_BYTES = 1 << 16

Answer = Callable[[str], "dict[str, Any]"]

# A lone surrogate can only enter through a \u escape of the line; a line without one skips the slower check.
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def serve(
    answer: Answer,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    *,
    flush_each: bool = False,
    encode: Callable[[dict[str, Any]], bytes] = encode,
) -> int:
    """Answer every line of ``stdin`` with ``answer`` (which gets the decoded line, without its line end),
    writing one JSON line per input line to ``stdout``; returns the exit code (0: every line was answered).

    An answer whose computation raised something unexpected is ``internal_error`` (a bug of ours: an error the
    input can cause carries its own code); ``flush_each`` writes every answer at once, for a caller that waits for
    each answer before sending the next line; ``encode`` writes an answer (``answers.encode_shared`` where
    ``answer`` gives ``Scorer.score_shared``'s answers)."""
    source = stdin if stdin is not None else _stdin_bytes()
    sink = stdout if stdout is not None else _stdout_bytes()
    write = sink.write
    if flush_each:
        for line in read_lines(source):
            write(encode(answer_bytes(line, answer)))
            sink.flush()
        return 0
    # answers written in blocks of about ``BLOCK_BYTES``: a pipe's write costs a system call, and a scored answer
    # is about 1.3 KB, so the stream's own buffer of 8 KiB made one every six answers
    block: list[bytes] = []
    size = 0
    for line in read_lines(source):
        text = encode(answer_bytes(line, answer))
        block.append(text)
        size += len(text)
        if size >= BLOCK_BYTES:
            write(b"".join(block))
            block.clear()
            size = 0
    write(b"".join(block))
    sink.flush()
    return 0


def _stdin_bytes() -> IO[bytes]:
    buffer = getattr(sys.stdin, "buffer", None)
    return buffer if buffer is not None else _TextSource(sys.stdin)  # type: ignore[return-value]


class _TextSource:
    """A text stream (a test's fake stdin) seen as a byte stream of UTF-8 (a lone surrogate stays invalid)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def readline(self, limit: int = -1) -> bytes:
        return self.stream.readline(limit).encode("utf-8", "surrogatepass")


def _stdout_bytes() -> IO[bytes]:
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    return buffer if buffer is not None else _TextSink(sys.stdout)  # type: ignore[return-value]


class _TextSink:
    """A text stream (a test's captured stdout) seen as a byte stream of UTF-8."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, data: bytes) -> int:
        return self.stream.write(data.decode("utf-8"))

    def flush(self) -> None:
        self.stream.flush()


def read_lines(source: IO[bytes]) -> Iterator[bytes | None]:
    """Every line of ``source`` as bytes without its line end, or None for a line past ``MAX_LINE_BYTES``, whose
    rest is read and dropped in chunks so that memory stays bounded whatever its length."""
    readline = source.readline
    while True:
        line = readline(MAX_LINE_BYTES + 2)
        if not line:
            return
        if line.endswith(b"\n"):
            line = line[:-1]
        elif len(line) > MAX_LINE_BYTES:  # too long: skip to the end of the line
            while True:
                rest = readline(_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None
            continue
        if line.endswith(b"\r"):
            line = line[:-1]
        yield line if len(line) <= MAX_LINE_BYTES else None


def answer_bytes(line: bytes | None, answer: Answer) -> dict[str, Any]:
    """The answer to one raw line (None: a line past the size bound)."""
    if line is None:
        return error("limit_exceeded", f"the line is longer than {MAX_LINE_BYTES:,} bytes (the bound of a request line)")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error("invalid_request", f"the line is not UTF-8 text (byte {exc.start} cannot be decoded)")
    if not text.strip():
        return error("invalid_request", "blank line: expected a request")
    if "\\u" in text and _ESCAPED_SURROGATE.search(text) and _has_lone_surrogate(text):  # a plain search first
        return error("invalid_request", "the line holds a lone surrogate escape (`\\ud800`...), which is not text")
    return answer_text(text, answer)


def answer_text(text: str, answer: Answer) -> dict[str, Any]:
    """``answer(text)``, with anything it raises turned into an answer that carries a contract code."""
    try:
        return answer(text)
    except RecursionError:
        return error("limit_exceeded", "the request is nested too deeply")
    except MemoryError:
        return error("limit_exceeded", "the request needs more memory than the process may use")
    except Exception as exc:  # noqa: BLE001 - a batch never stops: an error of any kind is an answer
        code = getattr(exc, "code", None)
        message = getattr(exc, "message", None)
        if isinstance(code, str) and code in CODES:
            return error(code, message if isinstance(message, str) else str(exc))
        return error("internal_error", InternalError.of(exc).message)


def _has_lone_surrogate(text: str) -> bool:
    try:
        decoded = json.loads(text)
    except (ValueError, RecursionError):
        return False  # not JSON: the answer function reports that
    return _holds_surrogate(decoded, 0)


def _holds_surrogate(value: Any, depth: int) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if depth > 100:
        return False
    if isinstance(value, dict):
        return any(_holds_surrogate(k, depth + 1) or _holds_surrogate(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_surrogate(v, depth + 1) for v in value)
    return False


__all__ = ["MAX_LINE_BYTES", "serve", "read_lines", "answer_bytes", "answer_text", "encode", "error"]
