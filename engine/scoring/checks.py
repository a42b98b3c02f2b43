"""Situation checks: what makes a request impossible before any rule is read.

A riichi with an open hand, a haitei won by ron, more North tiles set aside than exist, a dora indicator outside
the rulebook's tile set or one copy too many of a tile across the hand and the indicators: mechanical
impossibilities, answered with ``invalid_situation`` (or ``invalid_hand``) whatever the rulebook says about
scoring. They run for every request, so each verdict is kept: a situation's verdict depends on the hand only
through its call shape (closed, holds a kan, has melds), and the situations that differ only in what the checks do
not read (round wind, honba, sticks) share one table of verdicts.
"""

from __future__ import annotations

import operator

from engine.core import tiles as T
from engine.core.errors import InvalidHand, InvalidSituation
from engine.core.hand import Hand
from engine.core.memo import BoundedCache
from engine.core.situation import SITUATION_FIELDS, Situation, situation_problems
from engine.scoring.prepared import Prepared
from ruledsl.typing_names import cast

# Caches of situations and their verdicts, bounded: emptied when they reach this many entries.
SITUATION_CACHE_LIMIT = 4096

_UNCHECKED = object()
# The situation fields ``check_situation`` reads (``situation_problems``, and ``kita``, whose check is not kept), as
# the key of its verdicts: every field but those no check reads, so that a new field is in the key unless said here.
_UNCHECKED_FIELDS = frozenset({"round_wind", "honba", "riichi_sticks", "dealer_consecutive_wins"})
_CHECKED_INPUTS = operator.attrgetter(*(name for name in SITUATION_FIELDS if name not in _UNCHECKED_FIELDS))
# the same values picked from the situation's field values in ``SITUATION_FIELDS``' order (``verdicts_of_fields``)
_CHECKED_AT = operator.itemgetter(*(at for at, name in enumerate(SITUATION_FIELDS) if name not in _UNCHECKED_FIELDS))


class SituationChecks:
    """The checks of one prepared rulebook (its tile set, copies and North tiles), with their verdicts kept."""

    def __init__(self, prepared: Prepared) -> None:
        self.prepared = prepared
        # bounded and registered (``ruledsl.memo``), emptied when full and by ``clear_all``
        self._verdicts: BoundedCache[tuple, dict[tuple, str | None]] = BoundedCache(SITUATION_CACHE_LIMIT)

    def verdicts_for(self, s: Situation) -> dict[tuple, str | None]:
        """The verdicts of ``check_situation`` by call shape, shared by the situations that differ only in what it
        does not read (round wind, honba, riichi sticks); filled in by ``check_cached``."""
        return self._verdicts_by(_CHECKED_INPUTS(s))

    def verdicts_of_fields(self, fields: tuple[object, ...]) -> dict[tuple, str | None]:
        """``verdicts_for`` the situation of these field values (in ``SITUATION_FIELDS``' order: what
        ``checked_situation`` takes), picked from the values rather than read off the object, one attribute at a
        time."""
        return self._verdicts_by(_CHECKED_AT(fields))

    def _verdicts_by(self, key: tuple) -> dict[tuple, str | None]:
        verdicts = self._verdicts.get(key)
        if verdicts is None:
            verdicts = self._verdicts.put(key, {})
        return verdicts

    def check_cached(self, hand: Hand, s: Situation, verdicts: dict[tuple, str | None]) -> None:
        """``check_situation``, whose verdict depends on the hand only through whether it is closed, holds a kan
        and has melds (and on North tiles held, with ``kita``): kept in ``verdicts`` by those three."""
        if s.kita:
            self.check_situation(hand, s)
            return
        key = hand.call_shape
        problem = verdicts.get(key, _UNCHECKED)
        if problem is _UNCHECKED:
            try:
                self.check_situation(hand, s)
                problem = None
            except InvalidSituation as exc:
                problem = exc.message
            verdicts[key] = problem
        if problem is not None:
            raise InvalidSituation(cast(str, problem))  # a stored verdict: a message, or None when it holds

    def check_situation(self, hand: Hand, s: Situation) -> None:
        """Raise ``InvalidSituation`` naming every impossibility of this situation with this hand."""
        prepared = self.prepared
        problems = situation_problems(hand, s)
        if s.kita and not prepared.kita_allowed:
            problems.append("`kita` is set, but this rulebook sets no North tiles aside")
        if s.kita:
            north_held = sum(1 for k in hand.concealed if T.kind_of(k) == T.wind_kind("N"))
            north_held += sum(1 for m in hand.melds for k in m.kinds if k == T.wind_kind("N"))
            if north_held + s.kita > prepared.copies:
                problems.append(f"{s.kita} North tiles set aside and {north_held} in the hand exceed the {prepared.copies} copies")
        if problems:
            raise InvalidSituation("; ".join(problems))

    def check_indicators(self, hand: Hand, dora: tuple[int, ...], ura: tuple[int, ...]) -> None:
        """Dora and ura indicators: tiles of this rulebook's set, at most five of each, and within the copies of
        each kind together with the hand (the caller skips this when there are none).

        It runs for nearly every request, so the common case is answered in one plain loop: every code in the tile
        set, no red indicator, and no kind past its copies (a plain tile's code is its kind, so ``count`` of the code
        counts the kind among the indicators; only a kind held more often than there are other indicators needs
        counting). Anything else goes the long way, which names the problem."""
        prepared = self.prepared
        indicators = dora + ura
        if len(dora) <= 5 and len(ura) <= 5:
            copies, held, allowed, red = prepared.copies, hand.counts, prepared.allowed_codes, T.RED_BASE
            room = copies - len(indicators)  # a kind held at most this often cannot pass its copies, whatever the rest
            melded = [T.KIND_OF[code] for meld in hand.melds for code in meld.tiles] if hand.melds else None
            for code in indicators:
                if code >= red or code not in allowed:
                    break
                count = held[code]
                if melded:
                    count += melded.count(code)
                if count > room and count + indicators.count(code) > copies:
                    break
            else:
                return
        self._in_tile_set(dora, "dora_indicators")
        self._in_tile_set(ura, "ura_indicators")
        self._within_copies(hand, indicators)

    def _in_tile_set(self, codes: tuple[int, ...], name: str) -> None:
        allowed = self.prepared.allowed_kinds
        for code in codes:
            if T.KIND_OF[code] not in allowed:
                raise InvalidHand(f"`{name}`: `{T.format_tiles([code])}` is not part of this rulebook's tile set")
        if len(codes) > 5:
            raise InvalidSituation(f"`{name}`: {len(codes)} indicators; at most 5 can be revealed")

    def _within_copies(self, hand: Hand, indicators: tuple[int, ...]) -> None:
        """Indicators are tiles of the same set as the hand: with the hand and its melds they count against the
        copies of each kind (and the one copy of each red five); five East indicators are not fifteen dora."""
        copies, kind_of = self.prepared.copies, T.KIND_OF
        counts = list(hand.counts)
        reds = {code for code in hand.concealed if code >= T.RED_BASE}
        for meld in hand.melds:
            for code in meld.tiles:
                counts[kind_of[code]] += 1
                if code >= T.RED_BASE:
                    reds.add(code)
        for code in indicators:
            kind = kind_of[code]
            counts[kind] += 1
            if counts[kind] > copies:
                raise InvalidSituation(
                    f"`{T.format_kind(kind)}` appears {counts[kind]} times across the hand, its melds and the indicators; "
                    f"there are only {copies} copies"
                )
            if code >= T.RED_BASE:
                if code in reds:
                    raise InvalidSituation(f"red five `{T.format_tiles([code])}` appears twice across the hand, its melds and the indicators")
                reds.add(code)
