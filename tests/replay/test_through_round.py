"""The wall a replay builds from a log, and the mismatches a replay reports."""

from __future__ import annotations

import pytest

from engine.core.tiles import parse_tiles
from engine.replay.events import Call, RoundStart, Tsumo
from engine.replay.positions import Position
from engine.replay.through_round import Mismatch, replay_round, wall_of
from engine.round.rules import round_rules
from engine.round.wall import WallState
from engine.scoring import library


def test_replacement_draws_past_the_dead_walls_own_come_from_the_end_of_the_live_wall() -> None:
    """Six replacement draws (set-aside Norths): four replacements lie in the dead wall, the next two were moved in from the live wall."""
    rules = round_rules(library.scorer("tenhou_sanma"))
    replacements = parse_tiles("6s7s8s9s1z2z")
    body = []
    for tile in replacements:
        body += [Call(0, "kita", (parse_tiles("4z")[0],), parse_tiles("4z")[0], 0), Tsumo(0, tile)]
    start = RoundStart(
        round_index=0, honba=0, sticks=0, dora_indicator=parse_tiles("9p")[0], scores=(35_000,) * 3, dealer=0,
        hands=(tuple(parse_tiles("1112223334445p")), tuple(parse_tiles("1112223334445s")), tuple(parse_tiles("111999m1235677z"))),
    )
    wall = wall_of(rules, start, [Tsumo(0, parse_tiles("6p")[0]), *body])  # the calls' own tiles are not drawn here
    state = WallState(wall, rules)
    assert state.draw() == parse_tiles("6p")[0]
    assert [state.replacement() for _ in replacements] == replacements
    assert state.dora_indicators() == (parse_tiles("9p")[0],)


def test_a_log_with_a_tile_the_set_does_not_hold_is_a_mismatch_not_a_crash() -> None:
    rules = round_rules(library.scorer("tenhou"))
    start = RoundStart(
        round_index=0, honba=0, sticks=0, dora_indicator=parse_tiles("1z")[0], scores=(25_000,) * 4, dealer=0,
        hands=tuple(tuple(parse_tiles(h)) for h in ("1111222233334m", "5555666677778p", "1111s" * 3 + "2s", "1111222233334z")),
    )
    played = replay_round(rules, start, [])
    assert played.round is None
    assert [m.what for m in played.mismatches] == ["the deal"]
    text = played.mismatches[0].text()
    assert "the deal: the log has tiles dealt and drawn, the rulebook gives a tile set that cannot hold them (" in text
    assert "more than the rulebook's tile set holds" in played.mismatches[0].note


def test_a_mismatch_reads_as_a_sentence_and_as_json() -> None:
    m = Mismatch("E1-0", 12, "illegal move", "pon seat 2 5m", ["dahai seat 2 5m", "none seat 2"])
    assert m.text() == "E1-0, event 12: illegal move: the log has pon seat 2 5m, the rulebook gives dahai seat 2 5m, none seat 2"
    nowhere = {"line": None, "column": None, "offset": None, "path": None}  # not read from a file: no place in one
    assert m.to_json() == {"round": "E1-0", "event": 12, **nowhere, "what": "illegal move", "expected": "pon seat 2 5m", "got": ["dahai seat 2 5m", "none seat 2"]}


def test_a_mismatch_names_its_place_in_the_file_when_the_reader_knows_it() -> None:
    m = Mismatch("E1-0", 12, "illegal move", "pon seat 2 5m", "none seat 2", at=Position(line=40))
    assert m.text() == "E1-0, line 40: illegal move: the log has pon seat 2 5m, the rulebook gives none seat 2"
    assert m.to_json()["event"] == 12 and m.to_json()["line"] == 40
    xml = Mismatch("E1-0", 12, "draw", "a", "b", at=Position(line=1, column=3457, offset=3456))
    assert xml.text().startswith("E1-0, line 1, column 3457: draw") and xml.to_json()["offset"] == 3456
    json6 = Mismatch("E1-0", 12, "draw", "a", "b", at=Position(path="log[0][6][7]"))
    assert json6.text().startswith("E1-0, log[0][6][7]: draw") and json6.to_json()["path"] == "log[0][6][7]"


def _placed_one_by_one(rules, start, body) -> str:
    """What placing the log's tiles one by one says (the full check): the message of the first tile the set does
    not hold, or of too many indicators, or ``ok``."""
    from engine.core.errors import InvalidRequest
    from engine.replay import through_round as tr
    from engine.replay.events import NewDoraIndicator, Win

    live, replacements, dora, ura, pending = [], [], [start.dora_indicator], (), set()
    for event in body:
        if type(event) is Tsumo:
            (replacements if event.actor in pending else live).append(event.pai)
            pending.discard(event.actor)
        elif type(event) is Call and (event.is_kan or event.kind == "kita"):
            pending.add(event.seat)
        elif type(event) is NewDoraIndicator:
            dora.append(event.tile)
        elif type(event) is Win and len(event.ura_indicators) > len(ura):
            ura = event.ura_indicators
    _, copies = tr._tile_set_of(rules)
    try:
        tr._take_each(list(copies), start.hands, live, replacements, dora, ura)
    except InvalidRequest as exc:
        return exc.message
    return "ok"


def test_the_tiles_counted_at_once_give_the_one_by_one_placements_verdict() -> None:
    """``wall_of`` counts the log's tiles in one pass and places them one by one only to word a refusal: on real
    rounds and on rounds given a fifth copy, a second red five or too many indicators, it refuses exactly
    when the one-by-one placement does, with the same message."""
    import random
    from pathlib import Path

    from engine.core.errors import InvalidRequest
    from engine.replay.events import NewDoraIndicator
    from engine.replay.rounds import read_events, split_rounds

    rules = round_rules(library.scorer("tenhou"))
    folder = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"
    rng = random.Random(7)
    checked = refused = 0
    for path in sorted(folder.iterdir())[:6]:
        for _, start, body in split_rounds(read_events(path))[1]:
            variants = [(start, body)]
            hands = [list(h) for h in start.hands]
            seat = rng.randrange(4)
            hands[seat][rng.randrange(13)] = rng.choice([hands[(seat + 1) % 4][0], hands[seat][0], 34])
            variants.append((_with_hands(start, hands), body))
            variants.append((start, [*body, *(NewDoraIndicator(start.dora_indicator) for _ in range(5))]))
            for variant, events in variants:
                want = _placed_one_by_one(rules, variant, events)
                try:
                    wall_of(rules, variant, events)
                    got = "ok"
                except InvalidRequest as exc:
                    got = exc.message
                if want == "ok" and got.startswith("the log draws"):
                    continue  # a later check of the wall's size, the same on both paths
                assert got == want
                checked += 1
                refused += want != "ok"
    assert checked > 100 and refused > 50


def _with_hands(start: RoundStart, hands: list[list[int]]) -> RoundStart:
    from ruledsl.record import replace

    return replace(start, hands=tuple(tuple(h) for h in hands))


def test_a_logged_draw_the_round_does_not_make_is_a_draw_mismatch() -> None:
    """The driver matches a draw on an own turn in its loop: a draw for another seat than the round's next, or a
    draw where the round makes none, reads as the draw mismatch ``_draw`` writes."""
    from engine.replay.events import Dahai

    rules = round_rules(library.scorer("tenhou"))
    start = RoundStart(
        round_index=0, honba=0, sticks=0, dora_indicator=parse_tiles("1z")[0], scores=(25_000,) * 4, dealer=0,
        hands=tuple(tuple(parse_tiles(h)) for h in ("1112223334445m", "1112223334445p", "1112223334445s", "1122334455667z")),
    )
    first, second = parse_tiles("9m")[0], parse_tiles("9p")[0]
    wrong_seat = replay_round(rules, start, [Tsumo(0, first), Dahai(0, first, True), Tsumo(2, second)])
    assert [(m.what, m.expected, m.got) for m in wrong_seat.mismatches] == [("draw", "seat 2 draws 9p", "seat 1 draws 9p")]
    assert wrong_seat.actions == 1
    twice = replay_round(rules, start, [Tsumo(0, first), Tsumo(0, first)])
    assert [(m.what, m.event, m.expected, m.got) for m in twice.mismatches] == [("draw", 1, "seat 0 draws 9m", "no draw here")]


def test_a_wall_from_the_log_of_the_sets_size_is_the_set() -> None:
    """``Round(..., _wall_checked=True)`` compares only the size of a wall ``wall_of`` built: on the rounds of 40
    vendored mjlog games, and on rounds whose hands are dealt a tile too many or too few, the size check accepts
    exactly the walls the full comparison with the tile set accepts."""
    from pathlib import Path

    from engine.core.errors import EngineError
    from engine.replay.rounds import read_events, split_rounds

    rules = round_rules(library.scorer("tenhou"))
    folder = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"

    def verdict(start: RoundStart, body: list, checked: bool) -> str:
        try:
            WallState(wall_of(rules, start, body), rules, checked=checked)
        except EngineError as exc:
            return exc.message
        except IndexError:
            return "index"
        return "ok"

    checked = refused = 0
    for path in sorted(folder.iterdir())[:40]:
        for _, start, body in split_rounds(read_events(path))[1]:
            hands = [list(h) for h in start.hands]
            longer = [hands[0] + [hands[1][0]], hands[1][1:], *hands[2:]]  # a tile moved from one hand to another
            shorter = [hands[0][1:], *hands[1:]]
            extra = [_with_hands(start, [[*hands[0], code], *hands[1:]]) for code in (0, 13, 26, 31)]  # a 14th tile
            for variant in (start, _with_hands(start, longer), _with_hands(start, shorter), *extra):
                want = verdict(variant, body, False)
                assert verdict(variant, body, True) == want
                checked += 1
                refused += want != "ok"
    assert checked > 2000 and refused > 1000


GATHER_PARTS = 6  # the default run plays one part: every sixth game; ``-m slow`` adds the others


@pytest.mark.no_cover  # an equivalence check over many cases: run outside the coverage tracer (.ci/run)
@pytest.mark.parametrize("part", [pytest.param(p, marks=pytest.mark.slow) if p else p for p in range(GATHER_PARTS)])
def test_what_the_replay_gathers_on_its_way_is_what_a_pass_over_the_body_finds(part: int) -> None:
    """The driver keeps the log's wins, its first draw event and whether a kan indicator came by as it plays the
    events: on every round of the vendored mjlog games (every sixth game by default, all under ``-m slow``), what
    it kept is what ``outcome_events`` and a search of the events it went through find (the outcome only for a
    round whose every event was played)."""
    from pathlib import Path

    from engine.replay.compare import rulebook_for
    from engine.replay.events import NewDoraIndicator
    from engine.replay.rounds import game_start, outcome_events, read_events, split_rounds
    from engine.replay.through_round import _Driver

    folder = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"
    played = kept = indicated = 0
    for path in sorted(folder.iterdir())[part::GATHER_PARTS]:
        events = read_events(path)
        rules = round_rules(library.scorer(rulebook_for(game_start(events))))
        for k, (index, start, body) in enumerate(split_rounds(events)[1]):
            driver = _Driver(rules, start, body, index + 1, k == 0)
            out = driver.run()
            if out.round is None:
                continue
            played += 1
            upto = min(driver.index, len(body))
            assert driver.indicators == any(type(e) is NewDoraIndicator for e in body[:upto])
            indicated += driver.indicators
            if out.outcome is not None:
                assert upto == len(body)
                assert out.outcome == outcome_events(body)
                kept += 1
    assert played > 1500 // GATHER_PARTS and kept > 1500 // GATHER_PARTS and indicated > 20 // GATHER_PARTS


def test_a_hand_dealt_more_or_fewer_than_13_tiles_is_a_deal_mismatch() -> None:
    """A log that deals a seat 14 tiles (or 12) is refused at the deal with its seat and count, where the wall's
    unseen tiles once ran out while its places were filled (an internal error, as if the engine were at fault)."""
    from engine.core.errors import InvalidRequest

    rules = round_rules(library.scorer("tenhou"))
    dealt = ("1112223334445m", "1112223334445p", "1112223334445s", "1122334455667z")
    for extra, count in (("6m", 14), ("", 12)):
        hands = [parse_tiles(h) for h in dealt]
        hands[1] = [*hands[1], *parse_tiles(extra)] if extra else hands[1][:12]
        start = RoundStart(
            round_index=0, honba=0, sticks=0, dora_indicator=parse_tiles("1z")[0], scores=(25_000,) * 4, dealer=0,
            hands=tuple(tuple(h) for h in hands),
        )
        with pytest.raises(InvalidRequest, match=f"the log deals seat 1 {count} tiles, a hand is dealt 13"):
            wall_of(rules, start, [])
        replayed = replay_round(rules, start, [Tsumo(0, parse_tiles("9m")[0])])
        assert [(m.what, m.note) for m in replayed.mismatches] == [("the deal", f"the log deals seat 1 {count} tiles, a hand is dealt 13")]


@pytest.mark.parametrize("rulebook", ["tenhou", "tenhou_sanma"])
def test_the_unseen_tiles_are_the_set_less_the_placed_ones_by_kind_then_code(rulebook: str) -> None:
    """``_unseen`` (the tiles made bytes, counted down in a loop, each code's byte repeated) against the full
    computation: the rulebook's tile set with each placed tile taken out one by one, sorted by kind then code; None
    exactly when a placed tile is not in the set or one too many (a fifth copy, a second red five, a code outside
    the set, a negative one that would index the counts from their end)."""
    import random

    from engine.core.tiles import KIND_OF
    from engine.replay import through_round as tr
    from engine.round.wall import tile_set

    rules = round_rules(library.scorer(rulebook))
    _, copies = tr._tile_set_of(rules)
    full = tile_set(rules)
    rng = random.Random(11)
    for _ in range(200):
        placed = rng.sample(full, rng.randrange(len(full) + 1))
        if rng.random() < 0.3:
            n = len(KIND_OF)  # codes of the set, then beside it: below 0 (as far as an index from the end reaches), past it
            placed.append(rng.choice([*range(n), -1, -n, -n - 1, -2 * n, n, 2 * n, 99, 255, 256, 1000]))
        left = list(full)
        want: list[int] | None = None
        try:
            for code in placed:
                left.remove(code)
            want = sorted(left, key=lambda c: (KIND_OF[c], c))
        except ValueError:
            want = None
        assert tr._unseen(copies, iter(placed)) == want
