"""Tenhou mjlog XML to events.

The mjlog is the table's own transcript: one tag per draw, discard, call, riichi step, kan indicator and result,
in table order. We translate tag by tag and keep no game logic here (that is ``situation``'s job); the only
state kept is what the format itself needs (the last tile each seat drew, to tell a tsumogiri discard).

Malformed input (not XML, cut short, a tag missing an attribute, a tile id out of range) raises
``InvalidRequest`` naming the file and the tag, never a bare traceback.
"""

from __future__ import annotations

import os
import re
import stat
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import TypeVar

from engine.core.errors import EngineError, InvalidRequest, LimitExceeded
from engine.protocol.log_bounds import check_xml
from engine.replay.events import (
    AbortiveDraw,
    Call,
    CallKind,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    NewDoraIndicator,
    Reach,
    RiichiStick,
    RoundStart,
    Win,
)
from engine.replay.positions import Places
from engine.round.events import dahai_event, tsumo_event
from ruledsl.caches import once

_Parsed = TypeVar("_Parsed")  # what a format's parser makes of a file's text: its events (with their positions)
RED_FIVE_IDS = {16: 34, 52: 35, 88: 36}
DRAW_LETTERS = "TUVW"
DISCARD_LETTERS = "DEFG"
IGNORED_TAGS = frozenset({"SHUFFLE", "UN", "BYE", "TAIKYOKU"})
ABORTIVE_TYPES = {
    "yao9": "nine_terminals",
    "reach4": "four_riichi",
    "ron3": "triple_ron",
    "kan4": "four_kans",
    "kaze4": "four_winds",
}

# GO type bits
GO_NO_RED = 0x02
GO_NO_KUITAN = 0x04
GO_HANCHAN = 0x08
GO_SANMA = 0x10


def _lobby(text: str) -> int:
    """The GO tag's lobby number; anything but digits reads as a private lobby (-1): its rules are not known."""
    return int(text) if text.isdigit() and len(text) <= 9 else -1


class _TagError(Exception):
    """A reason a single tag cannot be read; turned into InvalidRequest with the file and tag position."""


def tile_code(tile_id: int, red_fives: bool) -> int:
    """mjlog tile id (0..135) to a tile code: ``id // 4``, except the three red fives when the game has them."""
    if not 0 <= tile_id < 136:
        raise _TagError(f"tile id {tile_id} is outside 0..135")
    if red_fives and tile_id in RED_FIVE_IDS:
        return RED_FIVE_IDS[tile_id]
    return tile_id // 4


# tile codes by mjlog tile id, with and without red fives: a draw or discard tag looks its tile up here
_CODES = {red: tuple(tile_code(tile_id, red) for tile_id in range(136)) for red in (False, True)}
# every draw and discard tag written as Tenhou writes it (``T12``, ``D0``): whether it draws, the seat, the tile id.
# A tag not listed (``T012``, ``X1``) takes the general path of ``_Parser.feed``, with the same outcome.
_MOVES: dict[str, tuple[bool, int, int]] = {
    f"{letter}{tile_id}": (draw, seat, tile_id)
    for draw, letters in ((True, DRAW_LETTERS), (False, DISCARD_LETTERS))
    for seat, letter in enumerate(letters)
    for tile_id in range(136)
}


def decode_meld(m: int, who: int, red_fives: bool = True, players: int = 4) -> Call:
    """Decode Tenhou's 16-bit meld word into a ``Call`` by seat ``who``.

    Layout (low bits first): ``m & 3`` is the discarder counted from the caller (0 = self, 1 = right,
    2 = across, 3 = left); bit 2 chi, bit 3 pon, bit 4 added kan, bit 5 north; none of them is a kan
    (closed when ``m & 3 == 0``). The high bits encode the tile kind and which copies were used.
    """
    if not 0 <= m < 0x10000:
        raise _TagError(f"meld code {m} is not a 16-bit value")
    rel = m & 3
    from_seat = (who + rel) % players
    kind: CallKind
    if m & 0x4:
        t = m >> 10
        called_index = t % 3
        t //= 3
        if t >= 21:
            raise _TagError(f"meld code {m}: chi base {t} does not exist")
        base_kind = t // 7 * 9 + t % 7
        ids = [(base_kind + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        called_id = ids[called_index]
        kind = "chi"
    elif m & 0x18:
        t = m >> 9
        called_index = t % 3
        t //= 3
        if t >= 34:
            raise _TagError(f"meld code {m}: pon kind {t} does not exist")
        unused = (m >> 5) & 3
        three = [t * 4 + i for i in range(4) if i != unused]
        if m & 0x8:
            ids, called_id, kind = three, three[called_index], "pon"
        else:
            ids, called_id, kind = [t * 4 + i for i in range(4)], t * 4 + unused, "kakan"
    elif m & 0x20:
        called_id = m >> 8
        ids, kind, from_seat = [called_id], "kita", who
    else:
        called_id = m >> 8
        base = called_id // 4 * 4
        ids = [base + i for i in range(4)]
        kind = "ankan" if rel == 0 else "daiminkan"
    tiles = tuple(sorted(tile_code(i, red_fives) for i in ids))
    return Call(
        seat=who, kind=kind, tiles=tiles, called_tile=tile_code(called_id, red_fives), from_seat=from_seat
    )


# A game log is at most a few hundred kB; these bounds refuse a hostile file (a gzip bomb) before it costs much.
MAX_LOG_BYTES = 16 * 1024 * 1024  # read from disk
MAX_DECOMPRESSED_BYTES = 32 * 1024 * 1024  # after gunzip


def read_log_bytes(path: Path) -> bytes:
    """A log file's bytes: a regular file only (never a device or FIFO), at most ``MAX_LOG_BYTES``."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise InvalidRequest(f"{path}: not a regular file")
        with open(path, "rb") as handle:
            raw = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise InvalidRequest(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > MAX_LOG_BYTES:
        raise LimitExceeded(f"{path}: larger than {MAX_LOG_BYTES:,} bytes, the bound of a game log")
    return raw


def gunzip(raw: bytes, source: str) -> bytes:
    """Decompressed gzip data (every member), stopping with ``limit_exceeded`` past ``MAX_DECOMPRESSED_BYTES``."""
    out: list[bytes] = []
    total = 0
    data = raw
    try:
        while data:
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
            while True:
                chunk = inflater.decompress(data, MAX_DECOMPRESSED_BYTES + 1 - total)
                total += len(chunk)
                out.append(chunk)
                if total > MAX_DECOMPRESSED_BYTES:
                    raise LimitExceeded(f"{source}: decompresses to more than {MAX_DECOMPRESSED_BYTES:,} bytes, the bound of a game log")
                data = inflater.unconsumed_tail
                if inflater.eof or not data:
                    break
            if not inflater.eof:
                raise InvalidRequest(f"{source}: gzip data is damaged (truncated)")
            data = inflater.unused_data
            if data[:2] != b"\x1f\x8b":
                break  # trailing garbage after the last member is ignored, as gzip itself does
    except zlib.error as exc:
        raise InvalidRequest(f"{source}: gzip data is damaged ({exc})") from None
    return b"".join(out)


def read_log(path: Path, parse: Callable[[str, str], _Parsed], what: str, gzipped: bool = True) -> _Parsed:
    """One log file through ``parse(text, source)``, within the bounds above, for every format: a regular file,
    gunzipped where the format may come compressed (``gzipped``), UTF-8; anything the parser raises that is not an
    ``EngineError`` is bad input (``invalid_request``, or ``limit_exceeded`` for nesting), never an internal error."""
    text = decode_log(read_log_bytes(path), str(path), what, gzipped)
    return parse_guarded(parse, text, str(path), what)


def decode_log(raw: bytes, source: str, what: str, gzipped: bool = True) -> str:
    """A log's bytes as text: gunzipped where the format may come compressed, UTF-8 (a file's, or a log held in
    memory: ``engine.replay.source``)."""
    if gzipped and raw[:2] == b"\x1f\x8b":
        raw = gunzip(raw, source)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRequest(f"{source}: not a text {what} (byte {exc.start} is not UTF-8)") from None


# What reading a malformed log raises: the XML and JSON readers' errors, and a missing, misplaced or mistyped
# value met while taking the log's structure apart (``int("x")``, ``attrs["hai"]``, ``parts[3]``, ``None + 1``).
MALFORMED = (ValueError, KeyError, IndexError, TypeError, ET.ParseError)


def parse_guarded(parse: Callable[[str, str], _Parsed], text: str, source: str, what: str) -> _Parsed:
    """``parse(text, source)``; what a malformed log makes it raise is bad input (``invalid_request``, or
    ``limit_exceeded`` for nesting). Anything else (an ``AttributeError``, an ``AssertionError``...) is a bug of
    ours and propagates, to be answered as an internal error."""
    try:
        return parse(text, source)
    except EngineError:
        raise
    except RecursionError:
        raise LimitExceeded(f"{source}: nested too deeply to be a {what}") from None
    except MALFORMED as exc:
        raise InvalidRequest(f"{source}: not a readable {what} ({type(exc).__name__}: {str(exc)[:200]})") from None


def read_mjlog(path: str | Path) -> list[Event]:
    """Read one mjlog file (plain or gzip, as Tenhou serves both) into events; a file that is not a readable
    mjlog within the bounds above raises ``EngineError`` (``invalid_request`` or ``limit_exceeded``)."""
    return read_mjlog_at(path)[0]


def read_mjlog_at(path: str | Path) -> tuple[list[Event], Places]:
    """``read_mjlog`` with each event's tag position (``engine.replay.positions``)."""
    return read_log(Path(path), lambda text, source: parse_mjlog_at(text, source=source), "mjlog")


def parse_mjlog(text: str, source: str = "<mjlog>") -> list[Event]:
    """Parse mjlog XML text into the event list, in table order."""
    return parse_mjlog_at(text, source)[0]


def parse_mjlog_at(text: str, source: str = "<mjlog>") -> tuple[list[Event], Places]:
    """The events and, per event, where its tag starts (an offset in ``text``; line and column follow from it).

    A log written as Tenhou writes it is read by ``_read_plain``; any other text (and any text that log would
    refuse) by ElementTree (``parse_tree_at``), the reference, which gives the same events and places where both
    read a text and words each refusal."""
    check_xml(text, source)
    plain = _read_plain(text)
    if plain is not None:
        return plain
    return parse_tree_at(text, source)


def parse_tree_at(text: str, source: str = "<mjlog>") -> tuple[list[Event], Places]:
    """``parse_mjlog_at`` through ElementTree, tag by tag: every well-formed text, and the words of every refusal."""
    check_xml(text, source)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        raise InvalidRequest(
            f"{source}: not well-formed mjlog XML at line {line}, column {column + 1} "
            f"(truncated or not an mjlog file)"
        ) from None
    if root.tag != "mjloggm":
        raise InvalidRequest(
            f"{source}: the root tag is <{root.tag}>, expected <mjloggm> (not an mjlog file)"
        )
    starts = _tag_starts(text, root)
    parser = _Parser()
    positions: list[int | None] = []
    for index, element in enumerate(root):
        try:
            parser.feed(element)
        except _TagError as exc:
            raise InvalidRequest(f"{source}: tag #{index + 1} <{element.tag}>: {exc}") from None
        except (KeyError, ValueError, IndexError) as exc:
            reason = f"missing attribute {exc}" if isinstance(exc, KeyError) else f"bad value ({exc})"
            raise InvalidRequest(f"{source}: tag #{index + 1} <{element.tag}>: {reason}") from None
        positions.extend([starts[index] if starts else None] * (len(parser.events) - len(positions)))
    if parser.game is None:
        raise InvalidRequest(f"{source}: no <GO> tag, so the game's rules are unknown")
    return parser.events, Places.of_offsets(text, positions)


# ---- the plain reader ------------------------------------------------------------------------------------------
# Tenhou writes an mjlog as one line: ``<mjloggm ver="2.3">``, then every tag empty (``<T12/>``, ``<INIT seed="..."
# .../>``), then ``</mjloggm>``. On such a text, where names are ASCII words and attribute values printable ASCII
# without ``"``, ``&``, ``<`` or ``>``, XML has nothing to decode (no entity, no character reference, no whitespace
# to normalise, no namespace), so ElementTree's tags and attributes are the text's own words. Its tags are then cut
# apart where one ends and the next begins (``/><``, which no value holds): a draw or discard (nine tags in ten) is
# a name looked up in a table, and every other tag is matched whole by a regular expression, instead of an element
# tree built, then walked, node by node.
_NAME = r"(?![Xx][Mm][Ll])[A-Za-z_][A-Za-z0-9_]*"  # no name XML reserves (``xml...``)
_VALUE = r"[ !#-%'-;=?-~]*"  # printable ASCII but ``"`` (0x22), ``&`` (0x26), ``<`` (0x3c) and ``>`` (0x3e)
_ATTRIBUTES = rf'((?: +{_NAME}="{_VALUE}")*)'


@once
def _plain_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The root's start tag, the inside of an empty tag (its name, its attributes) and one attribute: compiled on
    first use, not at import (compiling them costs some milliseconds that most processes never need)."""
    return (
        re.compile(rf"<mjloggm{_ATTRIBUTES} *>"),
        re.compile(rf"({_NAME}){_ATTRIBUTES} *"),
        re.compile(rf' +({_NAME})="({_VALUE})"'),
    )


_PLAIN_END = "</mjloggm>"
_BETWEEN = "/><"  # where one empty tag ends and the next begins
_XML_SPACE = " \t\r\n"


def _plain_moves(red: bool) -> dict[str, tuple[int, int, Event, Event | None]]:
    """Per draw and discard tag of ``_MOVES``: its seat and tile id, and the events it makes, one object each (an
    event is a frozen record, a fact that nothing rewrites): a draw's ``Tsumo`` and None, a discard's ``Dahai``
    of the drawn tile (tsumogiri) and of another."""
    table: dict[str, tuple[int, int, Event, Event | None]] = {}
    for tag, (draw, seat, tile_id) in _MOVES.items():
        code = _CODES[red][tile_id]
        if draw:
            table[tag] = (seat, tile_id, tsumo_event(seat, code), None)
        else:
            table[tag] = (seat, tile_id, dahai_event(seat, code, True), dahai_event(seat, code, False))
    return table


_PLAIN_MOVES: dict[bool, dict[str, tuple[int, int, Event, Event | None]]] = {}  # made on first use, not at import


def _plain_moves_of(red: bool) -> dict[str, tuple[int, int, Event, Event | None]]:
    """``_plain_moves(red)``, made once (two threads may make it twice: the same table)."""
    table = _PLAIN_MOVES.get(red)
    if table is None:
        table = _PLAIN_MOVES[red] = _plain_moves(red)
    return table


def _unique_attributes(attributes: str) -> dict[str, str] | None:
    """A tag's attributes as ElementTree gives them, or None when a name comes twice (which XML refuses)."""
    pairs = _plain_patterns()[2].findall(attributes)
    found = dict(pairs)
    return found if len(found) == len(pairs) else None


def _read_plain(text: str) -> tuple[list[Event], Places] | None:
    """``parse_tree_at``'s events and places of a log written as Tenhou writes it (see above), or None for any
    other text, or one that the reference would refuse, or whose tags would make events in other places: the
    reference then reads it (and words the refusal)."""
    root = _plain_patterns()[0].match(text)
    if root is None or _unique_attributes(root.group(1)) is None or "xmlns" in text:
        return None
    end = len(text)
    while end and text[end - 1] in _XML_SPACE:
        end -= 1
    body_start, body_end = root.end(), end - len(_PLAIN_END)
    if body_end - body_start < 3 or not text.startswith(_PLAIN_END, body_end):
        return None
    if text[body_start] != "<" or not text.startswith("/>", body_end - 2):
        return None
    insides = text[body_start + 1 : body_end - 2].split(_BETWEEN)  # each tag less its ``<`` and ``/>``
    parser = _Parser()
    unlike = _read_tags(parser, insides)
    if unlike is None or parser.game is None:
        return None
    starts = list(accumulate(map(len(_BETWEEN).__add__, map(len, insides)), initial=body_start))
    return parser.events, Places.of_offsets(text, _placed(starts, unlike))


def _read_tags(parser: _Parser, insides: list[str]) -> list[tuple[int, int]] | None:
    """Feed every tag (its inside: ``T12``, ``INIT seed="..." ...``) to ``parser``; the tags that made other than
    one event, as (tag index, events made), or None where the text is not plain (see above) or the reference would
    refuse the log. A draw or discard is read here, in place (the checks of ``_Parser._move``, its events looked
    up); every other tag, once matched whole, by ``_Parser.feed_tag``."""
    events = parser.events
    append = events.append
    unlike: list[tuple[int, int]] = []
    moves = _plain_moves_of(parser.red)
    inside_tag = _plain_patterns()[1].fullmatch
    last = parser.last_draw
    in_round, players = parser.in_round, parser.players
    for index, inside in enumerate(insides):
        move = moves.get(inside)
        if move is not None:
            seat, tile_id, event, other = move
            if not in_round or seat >= players:
                return None
            if other is None:
                last[seat] = tile_id
                append(event)
            else:
                append(event if last[seat] == tile_id else other)
                last[seat] = None
            continue
        tag = inside_tag(inside)
        if tag is None:
            return None
        name, attributes = tag.groups()
        attrib = _unique_attributes(attributes) if attributes else {}
        if attrib is None:
            return None
        made = len(events)
        try:
            parser.feed_tag(name, attrib)
        except (_TagError, KeyError, ValueError, IndexError, TypeError):
            return None
        if len(events) - made != 1:
            unlike.append((index, len(events) - made))
        moves = _plain_moves_of(parser.red)
        last = parser.last_draw
        in_round, players = parser.in_round, parser.players
    return unlike


def _placed(starts: list[int], unlike: list[tuple[int, int]]) -> list[int | None]:
    """Each event's tag start: one per tag, but as many as a tag of ``unlike`` made (none, or two)."""
    placed: list[int | None] = []
    done = 0
    for index, made in unlike:
        placed += starts[done:index]
        placed += [starts[index]] * made
        done = index + 1
    placed += starts[done : len(starts) - 1]  # the last start is past the body's end
    return placed


START_TAG = re.compile(r"<(?![/?!])")


def _tag_starts(text: str, root: ET.Element) -> list[int]:
    """Where each child tag of the root starts in ``text``, or nothing when that cannot be told for sure.

    Well-formed XML has no bare ``<`` in attribute values or text, so every start tag is a ``<`` not followed by
    ``/``, ``?`` or ``!``; a comment or CDATA section may hide more. An mjlog is flat, every tag a child of the
    root: when the ``<`` found are exactly the root and its children, the k-th child is the (k+1)-th found (the
    parse itself stays ElementTree's, in C; this is one more regular-expression pass over the text)."""
    found = [m.start() for m in START_TAG.finditer(text)]
    if len(found) != 1 + len(root) or any(len(child) for child in root):
        return []
    return found[1:]


class _Parser:
    """Tag-by-tag translation; holds only the format's own context (rules, seat count, last draws)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.game: GameStart | None = None
        self.in_round = False
        self.last_draw: list[int | None] = [None] * 4
        self.handlers: dict[str, Callable[[dict[str, str]], None]] = {
            "GO": self._go,
            "INIT": self._init,
            "N": self._call,
            "REACH": self._reach,
            "DORA": self._dora,
            "AGARI": self._agari,
            "RYUUKYOKU": self._ryuukyoku,
        }

    @property
    def red(self) -> bool:
        return self.game.red_fives if self.game else True

    @property
    def players(self) -> int:
        return self.game.players if self.game else 4

    def feed(self, el: ET.Element) -> None:
        self.feed_tag(el.tag, el.attrib)

    def feed_tag(self, tag: str, attrib: dict[str, str]) -> None:
        """One tag by its name and attributes (ElementTree's, or ``_read_plain``'s, which are the same)."""
        move = _MOVES.get(tag)
        if move is not None:  # nine tags in ten: a draw or a discard, read without parsing the tag's name
            self._move(*move)
            return
        if tag in IGNORED_TAGS:
            return
        handler = self.handlers.get(tag)
        if handler is not None:
            handler(attrib)
            return
        letter, digits = tag[:1], tag[1:]
        if letter and digits.isdigit() and letter in DRAW_LETTERS + DISCARD_LETTERS:
            self._tile_move(letter, int(digits))
            return
        raise _TagError("unknown tag")

    def _need_round(self) -> None:
        if self.game is None:
            raise _TagError("comes before the <GO> tag")
        if not self.in_round:
            raise _TagError("comes outside a round (no <INIT> since the last result)")

    def _seat(self, value: str) -> int:
        seat = int(value)
        if not 0 <= seat < self.players:
            raise _TagError(f"seat {seat} does not exist in a {self.players}-player game")
        return seat

    def _tiles(self, value: str | None) -> tuple[int, ...]:
        """The tile codes of a list of tile ids (``hai0="..."``), looked up in ``_CODES`` at C level when every id
        is in range; else one by one by ``tile_code``, which names the first id out of range."""
        if not value:
            return ()
        try:
            ids = list(map(int, value.split(",")))
        except ValueError:
            ids = []  # a value that is no number: read one by one below, to fail where the reference fails
        if ids and min(ids) >= 0 and max(ids) < len(_CODES[True]):
            return tuple(map(_CODES[self.red].__getitem__, ids))
        return tuple(tile_code(int(v), self.red) for v in value.split(","))

    def _go(self, attrib: dict[str, str]) -> None:
        raw = int(attrib["type"])
        self.game = GameStart(
            red_fives=not raw & GO_NO_RED,
            kuitan=not raw & GO_NO_KUITAN,
            hanchan=bool(raw & GO_HANCHAN),
            players=3 if raw & GO_SANMA else 4,
            raw_type=raw,
            lobby=_lobby(attrib.get("lobby", "0")),
        )
        self.events.append(self.game)

    def _init(self, attrib: dict[str, str]) -> None:
        if self.game is None:
            raise _TagError("comes before the <GO> tag")
        seed = [int(v) for v in attrib["seed"].split(",")]
        if len(seed) != 6:
            raise _TagError(f"seed has {len(seed)} numbers, expected 6")
        scores = tuple(int(v) * 100 for v in attrib["ten"].split(","))[: self.players]
        hands = tuple(self._tiles(attrib.get(f"hai{s}")) for s in range(self.players))
        for seat, hand in enumerate(hands):
            if len(hand) != 13:
                raise _TagError(f"hai{seat} has {len(hand)} tiles, expected 13")
        self.in_round = True
        self.last_draw = [None] * 4
        self.events.append(
            RoundStart(
                round_index=seed[0],
                honba=seed[1],
                sticks=seed[2],
                dora_indicator=tile_code(seed[5], self.red),
                scores=scores,
                dealer=self._seat(attrib["oya"]),
                hands=hands,
            )
        )

    def _tile_move(self, letter: str, tile_id: int) -> None:
        self._need_round()
        code = tile_code(tile_id, self.red)
        if letter in DRAW_LETTERS:
            seat = self._seat(str(DRAW_LETTERS.index(letter)))
            self.last_draw[seat] = tile_id
            self.events.append(tsumo_event(seat, code))
        else:
            seat = self._seat(str(DISCARD_LETTERS.index(letter)))
            tsumogiri = self.last_draw[seat] == tile_id
            self.last_draw[seat] = None
            self.events.append(dahai_event(seat, code, tsumogiri))

    def _move(self, draw: bool, seat: int, tile_id: int) -> None:
        """``_tile_move`` for a tag of ``_MOVES``: the same checks in the same order, the same events."""
        if not self.in_round:
            self._need_round()
        if seat >= self.players:
            raise _TagError(f"seat {seat} does not exist in a {self.players}-player game")
        code = _CODES[self.red][tile_id]
        if draw:
            self.last_draw[seat] = tile_id
            self.events.append(tsumo_event(seat, code))
        else:
            tsumogiri = self.last_draw[seat] == tile_id
            self.last_draw[seat] = None
            self.events.append(dahai_event(seat, code, tsumogiri))

    def _call(self, attrib: dict[str, str]) -> None:
        self._need_round()
        who = self._seat(attrib["who"])
        self.last_draw[who] = None
        self.events.append(decode_meld(int(attrib["m"]), who, self.red, self.players))

    def _reach(self, attrib: dict[str, str]) -> None:
        self._need_round()
        step = int(attrib["step"])
        if step not in (1, 2):
            raise _TagError(f"riichi step {step} is neither 1 nor 2")
        seat = self._seat(attrib["who"])
        self.events.append(Reach(seat) if step == 1 else RiichiStick(seat))

    def _dora(self, attrib: dict[str, str]) -> None:
        self._need_round()
        self.events.append(NewDoraIndicator(tile=tile_code(int(attrib["hai"]), self.red)))

    def _score_pairs(self, value: str) -> tuple[int, ...]:
        numbers = [int(v) for v in value.split(",")]
        if len(numbers) < 2 * self.players:
            raise _TagError(f"sc has {len(numbers)} numbers, expected {2 * self.players}")
        return tuple(numbers[2 * s + 1] * 100 for s in range(self.players))

    def _ba(self, attrib: dict[str, str]) -> tuple[int, int]:
        honba, sticks = (int(v) for v in attrib["ba"].split(","))
        return honba, sticks

    def _agari(self, attrib: dict[str, str]) -> None:
        double_ron = bool(self.events) and isinstance(
            self.events[-1], Win
        )  # the second tag follows the first
        if not double_ron:
            self._need_round()
        a = attrib
        who = self._seat(a["who"])
        from_who = self._seat(a["fromWho"])
        pao = a.get("paoWho")
        fu, points, limit = (int(v) for v in a["ten"].split(","))
        yaku_numbers = [int(v) for v in a["yaku"].split(",")] if a.get("yaku") else []
        if len(yaku_numbers) % 2:
            raise _TagError("yaku has an odd count of numbers (expected id,han pairs)")
        yaku = tuple(zip(yaku_numbers[::2], yaku_numbers[1::2], strict=True))
        yakuman = tuple(int(v) for v in a["yakuman"].split(",")) if a.get("yakuman") else ()
        if not yaku and not yakuman:
            raise _TagError("a win with neither yaku nor yakuman")
        melds = (
            tuple(decode_meld(int(v), who, self.red, self.players) for v in a["m"].split(","))
            if a.get("m")
            else ()
        )
        hand = self._tiles(a["hai"])
        win_tile = tile_code(int(a["machi"]), self.red)
        if win_tile not in hand:
            raise _TagError("the winning tile (machi) is not in the hand (hai)")
        honba, sticks = self._ba(attrib)
        self.events.append(
            Win(
                who=who,
                from_who=from_who,
                pao_who=self._seat(pao) if pao is not None else None,
                hand=hand,
                melds=melds,
                win_tile=win_tile,
                fu=fu,
                points=points,
                limit=limit,
                yaku=yaku,
                yakuman=yakuman,
                dora_indicators=self._tiles(a["doraHai"]),
                ura_indicators=self._tiles(a.get("doraHaiUra")),
                honba=honba,
                sticks=sticks,
                deltas=self._score_pairs(a["sc"]),
            )
        )
        self._end_of_round(attrib)

    def _ryuukyoku(self, attrib: dict[str, str]) -> None:
        self._need_round()
        a = attrib
        honba, sticks = self._ba(attrib)
        deltas = self._score_pairs(a["sc"])
        hands = tuple((s, self._tiles(a[f"hai{s}"])) for s in range(self.players) if f"hai{s}" in a)
        shown = tuple(s for s, _ in hands)
        kind = a.get("type")
        if kind is None or kind == "nm":
            self.events.append(
                ExhaustiveDraw(
                    kind="nagashi_mangan" if kind == "nm" else "exhaustive",
                    honba=honba,
                    sticks=sticks,
                    deltas=deltas,
                    tenpai=shown,
                    hands=hands,
                )
            )
        elif kind in ABORTIVE_TYPES:
            self.events.append(
                AbortiveDraw(
                    kind=ABORTIVE_TYPES[kind],  # type: ignore[arg-type]
                    honba=honba,
                    sticks=sticks,
                    deltas=deltas,
                    tenpai=shown,
                    hands=hands,
                )
            )
        else:
            raise _TagError(f"unknown draw type {kind!r}")
        self._end_of_round(attrib)

    def _end_of_round(self, attrib: dict[str, str]) -> None:
        """A result closes the round (a double ron's second AGARI tag is let through by ``_agari``)."""
        self.in_round = False
        owari = attrib.get("owari")
        if owari is None:
            return
        numbers = owari.split(",")
        if len(numbers) < 2 * self.players:
            raise _TagError(f"owari has {len(numbers)} numbers, expected {2 * self.players}")
        self.events.append(
            GameEnd(
                scores=tuple(int(numbers[2 * s]) * 100 for s in range(self.players)),
                placement_points=tuple(float(numbers[2 * s + 1]) for s in range(self.players)),
            )
        )
