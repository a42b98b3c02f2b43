"""One JSON answer as a line of bytes: the form every JSON-lines batch (``riichi score --json``) and the web
server's worker pipe write; and one request line's JSON read (``loads``).

An answer that cannot be JSON (a bug of ours) still becomes an ``internal_error`` answer, and text that cannot be
UTF-8 (a lone surrogate) is replaced, so a reader on the other side of the pipe always gets one valid line.

A scored answer is mostly text that repeats from answer to answer (each yaku's and fu item's name and clause, the
limit's clause), and encoding it whole was about a seventh of the work of a JSON-lines request: such an answer is
written from the encoded text of its parts (``_scored_text``), each kept per its exact content, and is the very
text the encoder writes for the whole answer (``tests/engine/test_answer_encoding.py``).
"""

from __future__ import annotations

import json
import json.scanner
import re

from engine.core.errors import InternalError
from engine.core.memo import BoundedCache
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any



def _encoder() -> Callable[[Any], str]:
    """``JSONEncoder(ensure_ascii=False, check_circular=False).encode`` (answers are trees, never cyclic): its C
    encoder made once, where ``encode`` makes one per call (the text is the same: ``encode`` of a tree is
    ``"".join`` of that encoder's chunks); the plain method where the interpreter lacks the C module."""
    plain = json.JSONEncoder(ensure_ascii=False, check_circular=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return plain.encode
    chunks = make(None, plain.default, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)
    join = "".join

    def encode(value: Any) -> str:
        return join(chunks(value, 0))

    return encode


_ENCODE = _encoder()


def _scanner() -> Callable[[str, int], tuple[Any, int]] | None:
    """The C scanner of ``json.loads``'s own decoder (default settings), or None where the interpreter lacks it."""
    make = getattr(json.scanner, "c_make_scanner", None)
    return None if make is None else make(json.JSONDecoder())


_SCAN = _scanner()


def loads(text: str) -> Any:
    """``json.loads(text)``: the same value, or the same error. A request line is one object with nothing around
    it, which the decoder's scanner reads alone; ``json.loads`` adds two whitespace searches and three Python calls
    around it (about a third of the decoding of a request), and reads anything else (an error is raised by it)."""
    if _SCAN is not None and text[:1] == "{":
        try:
            value, end = _SCAN(text, 0)
        except (StopIteration, ValueError):  # not JSON: json.loads raises its own error
            return json.loads(text)
        if end == len(text):
            return value
    return json.loads(text)
SURROGATE = re.compile("[\ud800-\udfff]")


def error(code: str, message: str) -> dict[str, Any]:
    """The contract's error answer."""
    return {"ok": False, "error": {"code": code, "message": message}}


def encode(answer: dict[str, Any]) -> bytes:
    """One answer as a UTF-8 JSON line; text that cannot be UTF-8 (a lone surrogate) is replaced, never raised."""
    return _encoded(answer, False)


def encode_shared(answer: dict[str, Any]) -> bytes:
    """``encode``, for answers whose result lines are never changed once made (``Scorer.score_shared``'s: the
    rulebook's kept lines, shared by the answers that report them): a line met before is found by the line itself,
    not by its content, which makes the same text in a fraction of the work."""
    return _encoded(answer, True)


def _encoded(answer: dict[str, Any], shared: bool) -> bytes:
    try:
        text = _scored_text(answer, shared) if type(answer) is dict and tuple(answer) == _SCORED_KEYS else None
    except Exception:  # noqa: BLE001 - not the shape the parts are kept for: written whole below, which says why
        text = None
    try:
        if text is None:
            text = _ENCODE(answer)
    except (TypeError, ValueError) as exc:  # an answer that is not JSON: a bug, still answered
        text = _ENCODE(error("internal_error", InternalError.of(exc, "writing the answer").message))
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8")


# A scored answer's keys in their order (``Scorer.response``); any other answer is encoded whole.
_SCORED_KEYS = (
    "ok", "rulebook", "han", "fu", "yakuman", "limit", "limit_id", "limit_clause", "limit_clause_from",
    "yaku", "fu_items", "base_points", "payments", "total",
)  # fmt: skip
_LINE_TYPES = frozenset({str, int, type(None)})  # a line's values, when its text is kept: no bool (True == 1), no float
# The encoded text of answers' heads (up to ``limit_clause_from``) and of result lines, by exact content: a few
# hundred of each recur (yaku, han, fu, limits), so they stay far below the bound.
_HEADS: BoundedCache[tuple, str] = BoundedCache(1024)
_LINES: BoundedCache[tuple, str] = BoundedCache(1024)
# ... and of lines never changed once made (``encode_shared``), by the line's id, beside the line itself: the entry
# keeps it alive, so no other object can take its id while the entry lives.
_SHARED_LINES: BoundedCache[int, tuple[dict[str, Any], str]] = BoundedCache(1024)


def _scored_text(answer: dict[str, Any], shared: bool = False) -> str | None:
    """``_ENCODE(answer)`` for a scored answer (``_SCORED_KEYS``), from the kept text of its head and lines; None
    when a value is not of the types the kept text stands for (then the whole answer is encoded). ``shared``: its
    lines are never changed once made (``encode_shared``)."""
    han, fu, yakuman = answer["han"], answer["fu"], answer["yakuman"]
    base, total, payments = answer["base_points"], answer["total"], answer["payments"]
    yaku, fu_items = answer["yaku"], answer["fu_items"]
    if (
        answer["ok"] is not True
        or type(han) is not int or type(fu) is not int or type(yakuman) is not int
        or type(base) is not int or type(total) is not int
        or type(yaku) is not list or type(fu_items) is not list or type(payments) is not dict
    ):  # fmt: skip
        return None
    limit = answer["limit"]
    if limit is not None and type(limit) is not str:
        if not isinstance(limit, str):
            return None
        limit = str.__str__(limit)  # a tier (``engine.scoring.valuation.Tier``) is written as its text
    head = (answer["rulebook"], han, fu, yakuman, limit, answer["limit_id"], answer["limit_clause"], answer["limit_clause_from"])
    if not _LINE_TYPES.issuperset(map(type, head)):  # the text fields: str or None (True == 1 as a key)
        return None
    text = _HEADS.get(head)
    if text is None:
        text = _HEADS.put(head, _ENCODE(dict(zip(_SCORED_KEYS, (True, *head), strict=False)))[:-1])
    parts = [text, ', "yaku": [']
    lines_text = _shared_lines_text if shared else _lines_text
    if not lines_text(yaku, parts):
        return None
    parts.append('], "fu_items": [')
    if not lines_text(fu_items, parts):
        return None
    parts += ('], "base_points": ', repr(base), ', "payments": ', _ENCODE(payments), ', "total": ', repr(total), "}")
    return "".join(parts)


def _lines_text(lines: list[Any], parts: list[str]) -> bool:
    """Append the encoded text of result lines (with their separators) to ``parts``; False for a line that is not
    a dict of plain values."""
    first = True
    for line in lines:
        # keys and values, in order, of plain types (True == 1 as a key, so the types are checked at every line)
        if type(line) is not dict or not _LINE_TYPES.issuperset(map(type, line.values())):
            return False
        key = (*line, *line.values())
        text = _LINES.get(key)
        if text is None:
            text = _LINES.put(key, _ENCODE(line))
        if not first:
            parts.append(", ")
        parts.append(text)
        first = False
    return True


def _shared_lines_text(lines: list[Any], parts: list[str]) -> bool:
    """``_lines_text`` of lines never changed once made: a line met before is found by its id (the entry holds the
    line, so the id is still its own); a new one by its content, as ``_lines_text`` finds it."""
    first = True
    for line in lines:
        kept = _SHARED_LINES.get(id(line))
        if kept is not None and kept[0] is line:
            text = kept[1]
        else:
            found: list[str] = []
            if not _lines_text([line], found):
                return False
            text = found[0]
            _SHARED_LINES.put(id(line), (line, text))
        if not first:
            parts.append(", ")
        parts.append(text)
        first = False
    return True


__all__ = ["SURROGATE", "encode", "encode_shared", "error", "loads"]
