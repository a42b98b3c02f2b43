"""One hand of riichi as a deterministic state machine, from the deal to its settlement.

The round draws, waits for the seats it needs (``waiting``), offers each its legal moves (``legal_actions``),
applies a chosen one after checking it (``apply``), records mjai-style events, and settles the hand. Every rule
choice is read from ``RoundRules`` (the rulebook); scoring goes through the rulebook's ``Scorer``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import tiles as T
from engine.errors import EngineError, InvalidRequest, NotAWin, NoYaku
from engine.round import legal
from engine.round.actions import Action
from engine.round.facts import round_facts
from engine.round.rules import RoundRules, round_rules
from engine.round.settle import WinClaim, field, next_counters, win_deltas
from engine.round.state import MeldRecord, Seat, formally_tenpai
from engine.round.wall import Wall, WallState
from engine.situation import WINDS, Situation


class IllegalAction(EngineError):
    """An action the rules do not allow now; the message names the rule (setting or item) and its clause."""

    code = "illegal_action"


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """What the game hands a round: prevailing wind, dealer seat, honba and riichi sticks on the table, scores."""

    round_wind: str = "E"
    dealer: int = 0
    honba: int = 0
    sticks: int = 0
    scores: tuple[int, ...] = ()
    first_round: bool = False

    def __post_init__(self) -> None:
        if self.round_wind not in WINDS:
            raise InvalidRequest(f"`round_wind` must be one of E, S, W, N, not {self.round_wind!r}")
        if self.honba < 0 or self.sticks < 0:
            raise InvalidRequest("`honba` and `sticks` must not be negative")


_CALL_WORD = {"pon": "pon", "daiminkan": "kan", "chi": "chi"}
NAME = tuple(T.format_tiles([code]) for code in range(len(T.KIND_OF)))  # mpsz of each tile code, for events


class Round:
    """One hand. ``Round(rules, setup, wall)``; with no wall, one shuffled from ``seed``."""

    def __init__(self, rules: RoundRules | Any, setup: RoundSetup | None = None, wall: Wall | None = None, seed: int | str | None = None) -> None:
        self.rules: RoundRules = round_rules(rules)
        r = self.rules
        setup = setup or RoundSetup()
        self.setup: RoundSetup = setup
        players = r.players
        if not 0 <= setup.dealer < players:
            raise InvalidRequest(f"`dealer` must be a seat from 0 to {players - 1}")
        scores = setup.scores or (r.rulebook.setting("table", "start_points", 0),) * players
        if len(scores) != players:
            raise InvalidRequest(f"`scores` needs one entry per player ({players})")
        self.kinds = frozenset(r.kinds)
        self.scores = list(scores)
        self.start_scores = tuple(scores)
        self.sticks: int = setup.sticks
        self.deposits = [0] * players  # riichi deposits paid this hand, per seat
        wall = wall if wall is not None else Wall.shuffled(r, seed)
        self._tiles = wall.tiles
        self.wall = WallState(wall, r)
        self.seats: list[Seat] = [Seat() for _ in range(players)]
        self._kita_tiles: list[int] = []
        self.tenpai: list[bool] = []
        self.events: list[dict[str, Any]] = []
        self.any_call: bool = False
        self.second_draw: bool = False  # some player has drawn a second time
        self.kan_makers: list[int] = []
        self.pending_dora = 0
        self.finished = False
        self.settlement: dict[str, Any] | None = None
        self.actor = setup.dealer
        self.phase = "own"
        self.drawn: int | None = None
        self.rinshan = False
        self.replacement = False
        self.after_call = False
        self.reach_pending = False
        self.kuikae_forbidden: frozenset[int] = frozenset()
        self.tsumo_result: dict[str, Any] | None = None
        self.pending: dict[int, tuple[Action, ...]] = {}
        self.answers: dict[int, Action] = {}
        self.window: tuple[str, int, int] | None = None  # (event, tile, source) of an open response window
        self.pending_kan: Action | None = None
        self._ron_cache: dict[tuple, dict[str, Any] | None] = {}
        self._own_cache: tuple[Action, ...] | None = None
        self._deal(wall)

    # ---- setup ---------------------------------------------------------------------------------------------------
    def _deal(self, wall: Wall | None) -> None:
        r = self.rules
        tiles = self._wall_tiles
        for k in range(r.players):
            seat = (self.setup.dealer + k) % r.players
            for code in tiles[13 * k : 13 * (k + 1)]:
                self.seats[seat].add(code)
        for s in self.seats:
            s.rest(self.kinds)
        self.events.append(
            {
                "type": "start_kyoku",
                "bakaze": self.setup.round_wind,
                "kyoku": self.setup.dealer + 1,
                "honba": self.setup.honba,
                "kyotaku": self.sticks,
                "oya": self.setup.dealer,
                "dora_marker": T.format_tiles([self.wall.dora_indicators()[0]]),
                "scores": list(self.scores),
                "tehais": [T.format_tiles(s.hand) for s in self.seats],
            }
        )
        self._draw(self.setup.dealer)

    @property
    def _wall_tiles(self) -> tuple[int, ...]:
        return self._tiles

    # ---- public API ----------------------------------------------------------------------------------------------
    def waiting(self) -> tuple[int, ...]:
        """Seats whose decision the round waits for (empty once finished)."""
        if self.finished:
            return ()
        if self.phase == "own":
            return (self.actor,)
        return tuple(s for s in self.pending if s not in self.answers)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every move ``seat`` may make now; empty when it has nothing to decide."""
        if self.finished:
            return ()
        if self.phase == "own":
            if seat != self.actor:
                return ()
            if self._own_cache is None:
                self._own_cache = legal.own_turn(self, seat)
            return self._own_cache
        if seat in self.answers:
            return ()
        return self.pending.get(seat, ())

    def apply(self, action: Action) -> None:
        """Check ``action`` against the legal moves, then play it; an illegal one raises ``IllegalAction`` and
        changes nothing."""
        if not isinstance(action, Action):
            raise IllegalAction("an action must be an engine.round.Action")
        legal_now = self.legal_actions(action.actor)
        for offered in legal_now:  # the usual caller passes one of the offered objects: identity first, it is cheap
            if offered is action:
                break
        else:
            if action not in legal_now:
                raise IllegalAction(self._why(action))
        self._own_cache = None
        if self.phase in ("respond", "declare"):
            self.answers[action.actor] = action
            if len(self.answers) == len(self.pending):
                if self.phase == "declare":
                    self._end_exhaustive()
                else:
                    self._resolve()
            return
        handler = getattr(self, "_own_" + action.type)
        handler(action)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, every seat's discards, melds, riichi and kita, the indicators,
        scores and the counters on the table."""
        return {
            "seat": seat,
            "round_wind": self.setup.round_wind,
            "dealer": self.setup.dealer,
            "honba": self.setup.honba,
            "sticks": self.sticks,
            "scores": list(self.scores),
            "dora_indicators": T.format_tiles(self.wall.dora_indicators(), sort=False),
            "wall_remaining": self.wall.remaining,
            "hand": T.format_tiles(self.seats[seat].hand),
            "drawn": T.format_tiles([self.drawn]) if self.drawn is not None and self.actor == seat else None,
            "discards": [T.format_tiles(s.discards, sort=False) for s in self.seats],
            "melds": [[{"type": m.type, "tiles": T.format_tiles(m.tiles), "from": m.source} for m in s.melds] for s in self.seats],
            "riichi": [s.riichi for s in self.seats],
            "kita": [s.kita for s in self.seats],
            "legal_actions": [a.to_json() for a in self.legal_actions(seat)],
        }

    def facts(self, seat: int | None = None, ron_count: int = 0, completing_call: str = "") -> dict[str, Any]:
        """The round facts of the rule language now (``engine.round.facts``)."""
        return round_facts(self, seat, ron_count, completing_call)

    def tiles_in_play(self) -> list[int]:
        """Every tile of the set where it is now (hands, melds, discards still held, kita, wall): for conservation."""
        out = list(self.wall.unseen())
        for s in self.seats:
            out += s.hand
            for m in s.melds:
                tiles = list(m.tiles)
                if m.source is not None and m.called is not None:
                    tiles.remove(m.called)  # the called tile is counted among the discards it came from
                out += tiles
            out += s.discards
        out += self._kita_tiles
        return out

    # ---- draws ---------------------------------------------------------------------------------------------------
    def _draw(self, seat: int, replacement: bool = False, rinshan: bool = False) -> None:
        s = self.seats[seat]
        if replacement:
            tile = self.wall.replacement()
        else:
            tile = self.wall.draw()
            s.draws += 1
            if s.draws == 2:
                self.second_draw = True  # the first go-around is over
        if "draw" in self.rules.temporary_release:  # a replacement draw is the player's own draw too
            s.furiten_temporary = False
        self.events.append({"type": "tsumo", "actor": seat, "pai": NAME[tile]})
        waits = s.waits
        s.add(tile)
        self.actor = seat
        self.phase = "own"
        self.drawn = tile
        self.rinshan = rinshan
        self.replacement = replacement
        self.after_call = False
        self.reach_pending = False
        self.kuikae_forbidden = frozenset()
        self.pending = {}
        self.answers = {}
        self.window = None
        self._own_cache = None
        self.tsumo_result = self._score(seat, tile, seat, "tsumo") if T.KIND_OF[tile] in waits else None

    # ---- scoring -------------------------------------------------------------------------------------------------
    def seat_wind(self, seat: int) -> str:
        return WINDS[(seat - self.setup.dealer) % self.rules.players]

    def _score(self, seat: int, tile: int, source: int, event: str, honba: int | None = None, sticks: int | None = None) -> dict[str, Any] | None:
        """The scorer's answer for ``seat`` winning on ``tile``, or None when it is no win (no yaku)."""
        s = self.seats[seat]
        r = self.rules
        tsumo = source == seat
        concealed = s.hand if tsumo else [*s.hand, tile]
        first = not self.any_call
        dealer = seat == self.setup.dealer
        situation = Situation(
            tsumo=tsumo,
            seat_wind=self.seat_wind(seat),
            round_wind=self.setup.round_wind,
            riichi=s.riichi,
            double_riichi=s.double_riichi,
            ippatsu=s.ippatsu and s.riichi,
            haitei=tsumo and not self.replacement and self.wall.remaining == 0,
            houtei=not tsumo and event == "dahai" and self.wall.remaining == 0,
            rinshan=tsumo and self.rinshan,
            chankan=event == "kakan" or event == "ankan",
            tenhou=tsumo and dealer and first and s.draws == 1 and not s.discards,
            chiihou=tsumo and not dealer and first and s.draws == 1 and not s.discards,
            renhou=not tsumo and not dealer and first and s.draws == 0 and event == "dahai",
            kita=s.kita,
            honba=self.setup.honba if honba is None else honba,
            riichi_sticks=self.sticks if sticks is None else sticks,
        )
        ura = self.wall.ura_indicators() if s.riichi and r.ura_dora else ()
        try:
            hand = r.scorer.hand(list(concealed), win=tile, melds=[(m.type, m.tiles) for m in s.melds])
            result = r.scorer.score_hand(hand, situation, dora=self.wall.dora_indicators(), ura=ura)
        except (NoYaku, NotAWin):
            return None
        result["__honba__"] = situation.honba
        result["__sticks__"] = situation.riichi_sticks
        if s.riichi and r.ura_dora:
            result["ura_indicators"] = T.format_tiles(ura, sort=False)
        return result

    def ron_result(self, seat: int, tile: int, source: int, event: str) -> dict[str, Any] | None:
        key = (seat, tile, source, event, len(self.events))
        if key not in self._ron_cache:
            if len(self._ron_cache) > 64:
                self._ron_cache.clear()
            self._ron_cache[key] = self._score(seat, tile, source, event)
        return self._ron_cache[key]

    # ---- own-turn moves --------------------------------------------------------------------------------------------
    def _own_dahai(self, a: Action) -> None:
        seat, tile = a.actor, a.pai
        assert tile is not None
        s = self.seats[seat]
        s.remove(tile)
        s.discards.append(tile)
        s.discard_kinds.add(T.KIND_OF[tile])
        if s.riichi:
            s.ippatsu = False
        if self.reach_pending:
            s.riichi_declared = True
            s.double_riichi = len(s.discards) == 1 and not self.any_call
        # after a live draw the hand changed by one tile in and one out since its last rest: shanten fell by one
        # at most (a call or a kan's replacement draw: counted afresh)
        s.rest(self.kinds, s.shanten - 1 if self.drawn is not None and not self.replacement else -1)
        self.reach_pending = False
        self.after_call = False
        self.drawn = None
        self.events.append({"type": "dahai", "actor": seat, "pai": NAME[tile], "tsumogiri": a.tsumogiri})
        while self.pending_dora:
            self._reveal()
            self.pending_dora -= 1
        self._open_window("dahai", tile, seat)

    def _own_reach(self, a: Action) -> None:
        self.reach_pending = True
        self.events.append({"type": "reach", "actor": a.actor})

    def _own_hora(self, a: Action) -> None:
        assert self.tsumo_result is not None
        self._end_wins([WinClaim(a.actor, a.actor, a.pai, self.tsumo_result)])  # type: ignore[arg-type]

    def _own_ryukyoku(self, a: Action) -> None:
        env = self.facts(a.actor)
        for item, when in self.rules.abortives_at.get("player_choice", ()):
            if when(env):
                self._end_abortive(item)
                return

    def _own_ankan(self, a: Action) -> None:
        seat = a.actor
        s = self.seats[seat]
        for c in a.consumed:
            s.remove(c)
        s.melds.append(MeldRecord("ankan", a.consumed))
        self.events.append({"type": "ankan", "actor": seat, "consumed": [T.format_tiles([c]) for c in a.consumed]})
        self._kan_declared(seat)
        s.rest(self.kinds)
        self.pending_kan = a
        self._open_window("ankan", a.pai, seat)  # type: ignore[arg-type]

    def _own_kakan(self, a: Action) -> None:
        seat, tile = a.actor, a.pai
        assert tile is not None
        s = self.seats[seat]
        s.remove(tile)
        for i, m in enumerate(s.melds):
            if m.type == "pon" and m.tiles == a.consumed:
                s.melds[i] = MeldRecord("kakan", tuple(sorted((*m.tiles, tile), key=lambda c: (T.kind_of(c), c < T.RED_BASE))), m.called, m.source)
                break
        self.events.append({"type": "kakan", "actor": seat, "pai": T.format_tiles([tile]), "consumed": [T.format_tiles([c]) for c in a.consumed]})
        self._kan_declared(seat)
        s.rest(self.kinds)
        self.pending_kan = a
        self._open_window("kakan", tile, seat)

    def _own_nukidora(self, a: Action) -> None:
        seat, tile = a.actor, a.pai
        assert tile is not None
        s = self.seats[seat]
        s.remove(tile)
        s.kita += 1
        self._kita_tiles.append(tile)
        s.rest(self.kinds)
        self.events.append({"type": "nukidora", "actor": seat, "pai": T.format_tiles([tile])})
        if self.rules.kita_interrupts:
            self._break_first_turn()
        self.pending_kan = a
        if self.rules.kita_ron != "nobody":
            self._open_window("kita", tile, seat)
        else:
            self._after_window()

    def _kan_declared(self, seat: int) -> None:
        """A closed or added kan is counted at once; an earlier open kan's indicator, the interruption of the first
        go-around and of ippatsu wait until nobody robbed it (``_after_window``): a robbed kan never happened."""
        self.kan_makers.append(seat)

    def _break_first_turn(self) -> None:
        self.any_call = True
        for s in self.seats:
            s.ippatsu = False

    def _reveal(self) -> None:
        code = self.wall.reveal()
        self.events.append({"type": "dora", "dora_marker": T.format_tiles([code])})

    # ---- answers -------------------------------------------------------------------------------------------------
    def _open_window(self, event: str, tile: int, source: int) -> None:
        """Ask every other seat what it answers to ``tile``; with nobody to ask the tile passes at once."""
        self.window = (event, tile, source)
        self.pending = {}
        self.answers = {}
        players = self.rules.players
        kind = T.KIND_OF[tile]
        left = (source + 1) % players
        for k in range(1, players):
            seat = (source + k) % players
            s = self.seats[seat]
            if kind not in s.waits and (event != "dahai" or s.riichi or (s.counts[kind] < 2 and seat != left)):
                continue  # cannot ron nor call: ``legal.responses`` would offer nothing, asked or not
            options = legal.responses(self, seat, tile, source, event)
            if options:
                self.pending[seat] = options
        if self.pending:
            self.phase = "respond"
        else:
            self._resolve()

    def _resolve(self) -> None:
        assert self.window is not None
        event, tile, source = self.window
        players = self.rules.players
        order = [(source + k) % players for k in range(1, players)]
        answers = self.answers
        rons = [seat for seat in order if seat in answers and answers[seat].type == "hora"]
        kind = T.KIND_OF[tile]
        robbable = event in ("dahai", "kakan")  # a closed kan or a North: only the hands that could rob it
        for seat in order:  # a passed winning tile: temporary furiten, and for good in riichi
            s = self.seats[seat]
            if seat not in rons and kind in s.waits and (robbable or any(a.type == "hora" for a in self.pending.get(seat, ()))):
                s.furiten_temporary = True
                if s.riichi:
                    s.furiten_riichi = True
        self.pending = {}
        self.phase = "own"
        if rons:
            env = self.facts(source, ron_count=len(rons))
            for item, when in self.rules.abortives_at.get("immediately", ()):
                if when(env):
                    self._end_abortive(item)
                    return
            if len(rons) >= 3 and self.rules.triple_ron == "abort":
                self._end_abortive(None)
                return
            winners = rons[: self.rules.multiple_ron]
            claims = [WinClaim(w, source, tile, self.ron_result(w, tile, source, event) or {}, chankan=event in ("kakan", "ankan")) for w in winners]
            self._end_wins(claims)
            return
        calls = [a for a in self.answers.values() if a.type in _CALL_WORD]
        self.answers = {}
        if event == "dahai":
            self._establish_riichi(source)
            if calls:
                prec = self.rules.precedence
                calls.sort(key=lambda a: prec.index(_CALL_WORD[a.type]) if _CALL_WORD[a.type] in prec else len(prec))
                self._call(calls[0])
            else:
                self._discard_passed(source)
            return
        self._after_window()

    def _establish_riichi(self, seat: int) -> None:
        s = self.seats[seat]
        if s.riichi_declared and not s.riichi:
            s.riichi = True
            s.ippatsu = True
            deposit = self.rules.riichi_deposit
            self.scores[seat] -= deposit
            self.deposits[seat] += deposit
            self.sticks += 1
            deltas = [0] * self.rules.players
            deltas[seat] = -deposit
            self.events.append({"type": "reach_accepted", "actor": seat, "deltas": deltas, "scores": list(self.scores)})

    def _discard_passed(self, source: int) -> None:
        items = self.rules.abortives_at.get("discard_passed", ())
        env = self.facts(source) if items else {}
        for item, when in items:
            if when(env):
                self._end_abortive(item)
                return
        if self.wall.remaining == 0:
            self._exhaustive()
            return
        self._draw((source + 1) % self.rules.players)

    def _after_window(self) -> None:
        """A kan or a set-aside North nobody robbed: its indicator (by ``calls kan_dora``), then the replacement."""
        a = self.pending_kan
        assert a is not None
        self.pending_kan = None
        if a.type != "nukidora":
            self._break_first_turn()
            while self.pending_dora:  # an earlier open kan's indicator comes before this kan's
                self._reveal()
                self.pending_dora -= 1
        if a.type == "ankan" or (a.type == "kakan" and self.rules.kan_dora == "immediately"):
            self._reveal()
        elif a.type == "kakan":
            self.pending_dora += 1
        self._draw(a.actor, replacement=True, rinshan=a.type != "nukidora" or self.rules.kita_rinshan)

    def _call(self, a: Action) -> None:
        seat, tile, source = a.actor, a.pai, a.target
        assert tile is not None and source is not None
        s = self.seats[seat]
        for c in a.consumed:
            s.remove(c)
        meld = MeldRecord(a.type, tuple(sorted((*a.consumed, tile), key=lambda c: (T.kind_of(c), c < T.RED_BASE))), tile, source)
        s.melds.append(meld)
        s.made_calls = True
        self.seats[source].discards_called = True
        if "call" in self.rules.temporary_release:
            s.furiten_temporary = False
        self._break_first_turn()
        self.events.append({"type": a.type, "actor": seat, "target": source, "pai": T.format_tiles([tile]), "consumed": [T.format_tiles([c]) for c in a.consumed]})
        if a.type == "daiminkan":
            self.kan_makers.append(seat)
            if self.rules.kan_dora == "immediately":
                self._reveal()
            else:
                self.pending_dora += 1
            self._draw(seat, replacement=True, rinshan=True)
            return
        self.actor = seat
        self.phase = "own"
        self.drawn = None
        self.rinshan = False
        self.after_call = True
        self.tsumo_result = None
        self.kuikae_forbidden = legal.kuikae_forbidden(self.rules.kuikae, tile, a.consumed, a.type)
        self._own_cache = None

    # ---- endings ---------------------------------------------------------------------------------------------------
    def _finish(self, kind: str, deltas: list[int], counters: dict[str, Any], abortive: str | None, wins: list[dict[str, Any]], clauses: list[str], extra: dict[str, Any] | None = None) -> None:
        for seat, d in enumerate(deltas):
            self.scores[seat] += d
        total = [deltas[i] - self.deposits[i] for i in range(len(deltas))]
        self.finished = True
        self.phase = "finished"
        self.pending = {}
        self.settlement = {
            "kind": kind,
            "abortive": abortive,
            "wins": wins,
            "deltas": total,
            **counters,
            "scores": list(self.scores),
            "clauses": clauses,
            **(extra or {}),
        }
        self.events.append({"type": "end_kyoku"})

    def _end_wins(self, claims: list[WinClaim]) -> None:
        r = self.rules
        players = r.players
        deltas = [0] * players
        wins = []
        clauses: list[str] = []
        nearest = claims[0].seat
        for claim in claims:
            honba_here = self.setup.honba if (r.honba_to == "each" or claim.seat == nearest) else 0
            sticks_here = self._sticks_share(claims, claim.seat)
            result = claim.result
            if result.get("__honba__") != honba_here or result.get("__sticks__") != sticks_here:
                result = self._score(claim.seat, claim.tile, claim.source, "kakan" if claim.chankan else "dahai", honba=honba_here, sticks=sticks_here) or result
                claim = WinClaim(claim.seat, claim.source, claim.tile, result, claim.chankan)
            d, cl = win_deltas(self, claim)
            clauses += cl
            for i in range(players):
                deltas[i] += d[i]
            deltas[claim.seat] += sticks_here * r.riichi_deposit
            public = {k: v for k, v in result.items() if not k.startswith("__")}
            wins.append({**public, "seat": claim.seat, "from": claim.source, "win_tile": T.format_tiles([claim.tile]), "deltas": d})
            self.events.append({"type": "hora", "actor": claim.seat, "target": claim.source, "pai": T.format_tiles([claim.tile]), "deltas": d, "ura_markers": result.get("ura_indicators", "")})
        dealer_won = any(c.seat == self.setup.dealer for c in claims)
        tags = {"dealer_win"} if dealer_won else {"non_dealer_win"}
        counters = next_counters(self, tags, None, 0)
        self._finish("win", deltas, counters, None, wins, clauses)

    def _sticks_share(self, claims: list[WinClaim], seat: int) -> int:
        """Riichi sticks this winner takes (``win sticks_to``): all to the nearest, or split evenly."""
        nearest = claims[0].seat
        if self.rules.sticks_to == "split":
            each, extra = divmod(self.sticks, len(claims))
            return each + (extra if seat == nearest else 0)
        return self.sticks if seat == nearest else 0

    def _end_abortive(self, item: Any) -> None:
        env = self.facts(self.actor)
        deltas = [0] * self.rules.players
        kept = self.sticks
        if item is not None and field(item, "sticks", env, "stay") == "return":
            for seat, paid in enumerate(self.deposits):
                deltas[seat] += paid
                kept -= paid // self.rules.riichi_deposit if self.rules.riichi_deposit else 0
        name = item.name if item is not None else None
        self.events.append({"type": "ryukyoku", "reason": name or "triple_ron", "deltas": deltas})
        counters = next_counters(self, {"abortive"}, item, kept)
        self._finish("abortive", deltas, counters, name, [], [item.clause or item.name] if item is not None else [])

    def _exhaustive(self) -> None:
        """The live wall is empty and the last discard passed: tenpai, nagashi and noten payments."""
        r = self.rules
        tenpai = [self._tenpai_at_draw(s) for s in self.seats]
        self.tenpai = tenpai
        if r.voluntary_noten:
            self.pending = {i: (Action("tenpai", i), Action("noten", i)) for i, s in enumerate(self.seats) if tenpai[i] and not s.riichi}
            self.answers = {}
            if self.pending:
                self.phase = "declare"
                return
        self._end_exhaustive()

    def _tenpai_at_draw(self, s: Seat) -> bool:
        if s.tenpai:
            return True
        return self.rules.all_copies_held_is_tenpai and (bool(s.waits) or formally_tenpai(s.counts, len(s.melds)))

    def _end_exhaustive(self) -> None:
        r = self.rules
        players = r.players
        tenpai = list(self.tenpai)
        for seat, a in self.answers.items():
            if a.type == "noten":
                tenpai[seat] = False
        self.pending = {}
        deltas = [0] * players
        clauses: list[str] = []
        nagashi: list[tuple[int, Any]] = []
        for item in r.draws:
            if "pays_as" not in item.fields:
                continue
            for seat in range(players):
                if item.when(self.facts(seat)):
                    nagashi.append((seat, item))
        dealer = self.setup.dealer
        for seat, item in nagashi:
            env = self.facts(seat)
            honba = self.setup.honba if field(item, "honba_bonus", env, False) else 0
            paid = r.scorer.pay_tier(field(item, "pays_as", env), dealer=seat == dealer, honba=honba)["payments"]
            for other in range(players):
                if other != seat:
                    amount = paid.get("dealer" if other == dealer else "non_dealer", 0)
                    deltas[other] -= amount
                    deltas[seat] += amount
            clauses.append(item.clause or item.name)
        noten_ok = all(field(item, "noten_payments", self.facts(seat), False) for seat, item in nagashi)
        if noten_ok:
            for item in r.draws:
                if "total" not in item.fields or not item.when(self.facts(dealer)):
                    continue
                k = sum(tenpai)
                if 0 < k < players:
                    total = field(item, "total", self.facts(dealer), 0)
                    pay = total // (players - k)
                    pot = pay * (players - k)
                    gains = [pot // k + (1 if i < pot % k else 0) for i in range(k)]
                    winners = [i for i in range(players) if tenpai[i]]
                    for i in range(players):
                        if not tenpai[i]:
                            deltas[i] -= pay
                    for i, g in zip(winners, gains, strict=True):
                        deltas[i] += g
                    clauses.append(item.clause or item.name)
        tags = {"exhaustive", "dealer_tenpai" if tenpai[dealer] else "dealer_noten"}
        counters = next_counters(self, tags, None, self.sticks)
        for seat, item in nagashi:
            cont = field(item, "dealer_continues", self.facts(seat), None)
            if cont in ("always", "never"):
                counters["renchan"] = cont == "always"
                counters["dealer_next"] = dealer if cont == "always" else (dealer + 1) % players
        self.events.append({"type": "ryukyoku", "reason": "exhaustive", "tenpais": tenpai, "deltas": deltas})
        self._finish("exhaustive", deltas, counters, None, [], clauses, {"tenpai": tenpai, "nagashi": [seat for seat, _ in nagashi]})

    # ---- messages --------------------------------------------------------------------------------------------------
    def _why(self, a: Action) -> str:
        """What was refused and the rule that forbids it now, with its clause, for ``IllegalAction``."""
        return f"`{a}` refused: {self._reason(a)}"

    def _reason(self, a: Action) -> str:
        r = self.rules
        if self.finished:
            return "the round is over"
        if a.actor not in self.waiting():
            return f"seat {a.actor} has nothing to decide now (the round waits for seats {list(self.waiting())})"
        s = self.seats[a.actor]
        if a.type == "chi" and not r.chi:
            return f"`settings calls chi = false` forbids chi ({r.clause('calls')})"
        if a.type == "chi" and a.target is not None and a.actor != (a.target + 1) % r.players:
            return "chi is made only from the player on the left"
        if a.type in _CALL_WORD and self.wall.remaining == 0 and not r.last_discard_callable:
            return f"`settings calls last_discard_callable = false` forbids calling the last discard ({r.clause('calls')})"
        if a.type in ("ankan", "kakan", "daiminkan") and len(self.kan_makers) >= r.max_kans:
            return f"`settings calls max_kans = {r.max_kans}` ({r.clause('calls')})"
        if a.type == "ankan" and s.riichi:
            return f"`settings riichi closed_kan_after = {r.closed_kan_after!r}` ({r.clause('riichi')})"
        if a.type == "dahai" and self.after_call and a.pai is not None and T.KIND_OF[a.pai] in self.kuikae_forbidden:
            return f"kuikae: `settings calls kuikae = {list(r.kuikae)}` forbids this discard right after the call ({r.clause('calls')})"
        if a.type == "dahai" and self.reach_pending:
            return f"a riichi discard must leave the hand tenpai{'' if r.allowed_while_furiten else ' and not furiten (`settings riichi allowed_while_furiten = false`)'} ({r.clause('riichi')})"
        if a.type == "reach":
            refusal = legal.riichi_refusal(self, a.actor)
            return f"riichi refused: {refusal or 'no discard leaves the hand tenpai'} ({r.clause('riichi')})"
        if a.type == "hora" and s.furiten and self.phase == "respond":
            return f"seat {a.actor} is furiten and may not ron ({r.clause('furiten')})"
        if a.type == "hora" and a.pai is not None:
            if self.phase == "respond" and T.KIND_OF[a.pai] not in s.waits or self.phase == "own" and self.tsumo_result is None and T.KIND_OF[a.pai] not in s.waits:
                return f"seat {a.actor}'s hand is not complete with {NAME[a.pai]}"
            return f"the win of seat {a.actor} on {NAME[a.pai]} has no yaku under this rulebook"
        if a.type in _CALL_WORD and s.riichi:
            return "a player in riichi may not call"
        if a.type == "dahai" and s.riichi:
            return "after riichi the drawn tile is discarded (the hand may not change)"
        return f"not among the legal actions of seat {a.actor} now"
