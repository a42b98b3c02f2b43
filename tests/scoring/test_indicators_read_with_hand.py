"""Indicators checked while a request's hand is read (``hand_of_parts`` with ``shown``) against the check that
names their faults (``SituationChecks.check_indicators``): the reader takes a hand with its indicators only when
the hand alone is taken and the check passes, and then the very same hand; a scorer that skips the check for such
a request gives every answer and refusal the full path gives."""

from __future__ import annotations

import random

import pytest

from engine.core import tiles as T
from engine.core.errors import EngineError
from engine.core.hand import hand_of_parts, kept_meld
from engine.scoring.library import scorer
from tests.peer_oracle import random_requests

RULEBOOKS = ("house", "sanma", "tenhou_nored")


def _indicators(rng: random.Random, hand_codes: list[int]) -> tuple[int, ...]:
    """Mostly tiles of the hand (so that copies run out), some reds, some codes of any tile."""
    count = rng.choice((0, 1, 1, 2, 3, 5, 6))
    return tuple(
        rng.choice(hand_codes) if rng.random() < 0.5 else rng.choice((34, 35, 36)) if rng.random() < 0.2 else rng.randrange(len(T.KIND_OF))
        for _ in range(count)
    )


def _check_passes(name: str, hand, dora: tuple[int, ...], ura: tuple[int, ...]) -> bool:
    try:
        scorer(name).checks.check_indicators(hand, dora, ura)
    except EngineError:
        return False
    return True


@pytest.mark.parametrize("name", RULEBOOKS)
def test_the_hand_is_taken_with_its_indicators_exactly_when_the_check_passes(name: str) -> None:
    s = scorer(name)
    prepared = s.prepared
    rng = random.Random(name)
    taken = refused = 0
    for request in random_requests(5, 600):
        parsed = [kept_meld(m["type"], m["tiles"]) for m in request.get("melds", [])]
        alone = hand_of_parts(request["hand"], request["win"], parsed, prepared.hand_codes, prepared.copies)
        if alone is None:
            continue
        for _ in range(3):
            codes = list(alone.concealed) + [code for meld in alone.melds for code in meld.tiles]
            dora, ura = _indicators(rng, codes), _indicators(rng, codes)
            if len(dora) > 5 or len(ura) > 5:
                continue  # the reader leaves these to the check without asking ``hand_of_parts``
            read = hand_of_parts(request["hand"], request["win"], parsed, prepared.hand_codes, prepared.copies, bytes(dora + ura))
            passes = _check_passes(name, alone, dora, ura)
            if read is None:
                # refused: the check may still pass (a red indicator of a rulebook without red fives), never wrongly
                refused += 1
                assert not passes or any(code >= T.RED_BASE and code not in prepared.hand_codes for code in dora + ura)
            else:
                taken += 1
                assert passes, (request["hand"], T.format_tiles(dora), T.format_tiles(ura))
                assert read == alone and read.__dict__ == alone.__dict__
    assert taken > 100 and refused > 20


@pytest.mark.parametrize("name", RULEBOOKS)
def test_skipping_the_check_after_the_reader_changes_no_answer(name: str) -> None:
    """Each request scored as read (the check skipped when the reader took its indicators) and with the check
    forced: the same answer or the same refusal, for requests whose indicators break every rule of the check."""
    s = scorer(name)
    rng = random.Random(f"{name} answers")
    skipped = 0
    for request in random_requests(9, 400):
        hand = request["hand"]
        pool = T.format_tiles(T.tile_codes(hand)).replace("m", "m ").replace("p", "p ").replace("s", "s ").split()
        dora = "".join(rng.choice(pool) for _ in range(rng.choice((1, 2, 4))))
        request = {**request, "dora_indicators": dora, "ura_indicators": rng.choice(("", "0m", "5p5p", "1z")), "rulebook": name}
        try:
            skipped += s.inputs.read_request(request)[5]
        except EngineError:
            pass
        assert s.score_json(request) == _forced(s, request)
    assert skipped > 5  # sanma refuses most of these hands (2m..8m), tenhou_nored those with a red five


def _forced(s, request: dict) -> dict:
    """The answer with the indicators' check run whatever the reader knew."""
    try:
        return s._score(*s.inputs.read(request))
    except EngineError as exc:
        return {"ok": False, "error": exc.to_json()}


def test_one_plain_indicator_is_found_as_indicator_codes_reads_it() -> None:
    from engine.scoring.inputs import _ONE_INDICATOR, indicator_codes

    assert len(_ONE_INDICATOR) == len(T.KIND_OF)
    for text, codes in _ONE_INDICATOR.items():
        assert codes == indicator_codes(text) == T.tile_codes(text)
