"""What an embedder meets: a request's ``rulebook`` never silently ignored, rulebook files read safely and freshly,
logs replayed from memory, and the typed answers of ``engine.services.outcome``."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.api import (
    ErrorCode,
    Failed,
    InvalidRequest,
    InvalidRulebook,
    Ok,
    ScoreResponse,
    Settled,
    UnknownRulebook,
    attempt,
    forget,
    load_rulebook_text,
    replay,
    replay_log,
    rulebook,
    score_model,
    scorer,
    settle_model,
)
from engine.scoring import library

ROOT = Path(__file__).resolve().parents[2]
# 4 han 30 fu: 7,700 under house, a mangan (8,000) under wrc2025's kiriage
KIRIAGE = {"hand": "234m456m678p234s55p", "win": "4s", "seat_wind": "S", "riichi": True, "dora_indicators": "3s"}


# ---- a request naming a rulebook


def test_a_request_naming_a_bundled_rulebook_is_answered_under_it():
    house = scorer("house")
    assert house.score(KIRIAGE)["total"] == 7700
    answer = house.score({**KIRIAGE, "rulebook": "wrc2025"})
    assert (answer["rulebook"], answer["total"]) == ("wrc2025", 8000)
    assert house.score({**KIRIAGE, "rulebook": "house"})["total"] == 7700
    liable = house.score({**KIRIAGE, "rulebook": "wrc2025", "from": "E"})  # the model path too
    assert (liable["rulebook"], liable["total"]) == ("wrc2025", 8000)


def test_a_request_naming_a_file_is_answered_only_by_that_files_scorer(tmp_path):
    club = tmp_path / "club.rulebook"
    club.write_text('rulebook club "Club" extends wrc2025\n', encoding="utf-8")
    assert scorer(str(club)).score({**KIRIAGE, "rulebook": str(tmp_path / "." / "club.rulebook")})["total"] == 8000
    refused = scorer("house").score_json({**KIRIAGE, "rulebook": str(club)})
    assert refused["error"]["code"] == "unknown_rulebook" and "answers under `house`" in refused["error"]["message"]
    with pytest.raises(UnknownRulebook):
        scorer("house").score({**KIRIAGE, "rulebook": "wrc2025x"})


def test_the_cli_and_the_python_api_answer_a_named_rulebook_alike(tmp_path):
    lines = [{**KIRIAGE, "rulebook": "wrc2025"}, {**KIRIAGE, "rulebook": str(tmp_path / "x.rulebook")}]
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "--json", "--rulebook", "house"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    cli = [json.loads(line) for line in done.stdout.splitlines()]
    python = [scorer("house").score_json(line) for line in lines]
    assert cli[0] == python[0] and cli[0]["total"] == 8000
    assert cli[1]["error"]["code"] == python[1]["error"]["code"] == "unknown_rulebook"


# ---- reading rulebook files (item 4)


def test_a_file_that_is_not_a_rulebook_is_never_read_or_quoted(tmp_path):
    secret = tmp_path / "passwd"
    secret.write_text("root:SECRET-LINE:0:0\n", encoding="utf-8")
    for path in (secret, "/etc/passwd"):
        with pytest.raises(UnknownRulebook) as caught:
            scorer(str(path))
        assert "SECRET-LINE" not in caught.value.message and "root:" not in caught.value.message
        assert "not a rulebook file" in caught.value.message
    os.symlink(secret, tmp_path / "pw.rulebook")
    with pytest.raises(UnknownRulebook) as caught:
        scorer(str(tmp_path / "pw.rulebook"))
    assert "SECRET-LINE" not in caught.value.message and "does not end in `.rulebook`" in caught.value.message


def test_an_edited_rulebook_file_is_read_again(tmp_path):
    club = tmp_path / "club.rulebook"
    club.write_text('rulebook club "Club" extends house\n', encoding="utf-8")
    first = scorer(str(club))
    assert first.score(KIRIAGE)["total"] == 7700
    assert scorer(str(club)) is first  # unchanged: the cached scorer
    club.write_text('rulebook club "Club" extends wrc2025\n', encoding="utf-8")
    assert scorer(str(club)).score(KIRIAGE)["total"] == 8000
    club.write_text('rulebook club "Club" extends wrc2025\nyaku broken {\n', encoding="utf-8")
    with pytest.raises(InvalidRulebook) as caught:
        scorer(str(club))
    assert "club.rulebook:2" in caught.value.message
    club.write_text('rulebook club "Club" extends house\n', encoding="utf-8")  # fixed: the failure is not kept
    assert scorer(str(club)).score(KIRIAGE)["total"] == 7700


def test_an_edit_to_a_file_the_chain_extends_is_noticed(tmp_path):
    (tmp_path / "base.rulebook").write_text('rulebook base "Base" extends house\n', encoding="utf-8")
    (tmp_path / "club.rulebook").write_text('rulebook club "Club" extends base\n', encoding="utf-8")
    assert scorer(str(tmp_path / "club.rulebook")).score(KIRIAGE)["total"] == 7700
    (tmp_path / "base.rulebook").write_text('rulebook base "Base" extends wrc2025\n', encoding="utf-8")
    assert scorer(str(tmp_path / "club.rulebook")).score(KIRIAGE)["total"] == 8000


def test_forget_drops_one_rulebook_or_all(tmp_path):
    club = tmp_path / "club.rulebook"
    club.write_text('rulebook club "Club" extends house\n', encoding="utf-8")
    first, house = scorer(str(club)), scorer("house")
    forget(str(tmp_path / "." / "club.rulebook"))
    assert scorer(str(club)) is not first and scorer("house") is house
    forget()
    assert scorer("house") is not house


def test_rulebook_text_is_compiled_once_per_content():
    text = 'rulebook club "Club" extends wrc2025\n'
    assert load_rulebook_text(text) is load_rulebook_text(text)
    assert load_rulebook_text(text).score(KIRIAGE)["total"] == 8000
    assert load_rulebook_text(text.replace("wrc2025", "house")).score(KIRIAGE)["total"] == 7700


def test_http_score_answers_under_the_edited_file(tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from tests.web.conftest import make_client

    club = tmp_path / "club.rulebook"
    club.write_text('rulebook club "Club" extends house\n', encoding="utf-8")
    with make_client(rulebook_dirs=(str(tmp_path),)) as client:
        assert client.post("/score", json={**KIRIAGE, "rulebook": "club"}).json()["total"] == 7700
        club.write_text('rulebook club "Club" extends wrc2025\n', encoding="utf-8")
        assert client.post("/score", json={**KIRIAGE, "rulebook": "club"}).json()["total"] == 8000
        club.write_text('rulebook club "Club" extends nowhere\n', encoding="utf-8")
        assert client.post("/score", json={**KIRIAGE, "rulebook": "club"}).json()["error"]["code"] == "invalid_rulebook"


# ---- replay from memory (item 6)

TENHOU6 = ROOT / "tests" / "data" / "tenhou" / "json" / "2010112714gm-00a9-0000-d497e395.json"
MJLOG = ROOT / "tests" / "data" / "tenhou" / "mjlog" / "2020052700gm-00a9-0000-75a4695c.mjlog"


@pytest.mark.parametrize("path", [TENHOU6, MJLOG], ids=["tenhou6", "mjlog"])
def test_a_log_replays_from_bytes_text_or_gzip_as_from_its_file(path):
    data = path.read_bytes()
    from_file = replay(path).to_json()
    assert from_file["rounds"] > 0 and from_file["rounds"] == from_file["rounds_matched"]
    for held in (data, data.decode("utf-8"), gzip.compress(data)):
        report = replay(held).to_json()
        assert {k: report[k] for k in ("rounds", "rounds_matched", "wins")} == {k: from_file[k] for k in ("rounds", "rounds_matched", "wins")}
        assert report["errors"] == []


def test_an_mjai_log_is_told_from_its_content():
    import io

    from engine.game import Game
    from engine.protocol.mjai import write_lines

    game = Game(rulebook("tenhou"), seed=5, agents="shanten")
    game.play()
    out = io.StringIO()
    write_lines(game.mjai_events(), out)
    report = replay(out.getvalue().encode("utf-8"), rulebook="tenhou")
    assert report.errors == [] and report.mismatches == []
    assert report.rounds == report.rounds_matched == len(game.settlements)


def test_messages_name_the_log_as_the_caller_does(tmp_path):
    report = replay_log(b"\x1f\x8bnot gzip", name="upload-7")
    assert report.errors[0]["file"] == "upload-7" and "upload-7" in report.errors[0]["message"]
    report = replay([b"plain words", "<mjloggm ver='2.3'><GO type='169'/>"])
    assert [e["file"] for e in report.errors] == ["<log 1>", "<log 2>"]
    assert "not a game log" in report.errors[0]["message"]
    assert all(str(tmp_path) not in e["message"] for e in report.errors)


def test_workers_replay_files_and_held_logs_as_one_process_does(tmp_path):
    """``replay(..., workers=2)``: logs held in memory, files, a folder and bad logs in one call, each log's part
    merged in the order given, so the report is the one process's, byte for byte; progress comes once per log."""
    (tmp_path / "copy.mjlog").write_bytes(MJLOG.read_bytes())
    (tmp_path / "broken.mjlog").write_text("<mjloggm ver='2.3'><UN n0='", encoding="utf-8")
    logs = [TENHOU6.read_bytes(), b"plain words", str(tmp_path), MJLOG, gzip.compress(TENHOU6.read_bytes())]
    one = replay(logs).to_json()
    seen = []
    two = replay(logs, workers=2, progress=lambda *step: seen.append(step)).to_json()
    assert json.dumps(two) == json.dumps(one)
    assert one["games"] == 4 and [e["file"] for e in one["errors"]] == ["<log 2>", str(tmp_path / "broken.mjlog")]
    assert [step[:2] for step in seen] == [(k, 6) for k in range(1, 7)]


def test_workers_replay_from_a_thread_that_is_not_the_main_one():
    """A server's worker thread may replay with workers too: only the main thread may set a signal handler, so the
    pool starts there without touching Ctrl-C's (its workers ignore it all the same)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        two = thread.submit(replay, [MJLOG, TENHOU6], workers=2).result().to_json()
    assert two == replay([MJLOG, TENHOU6]).to_json()


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_a_bad_worker_count_is_bad_input(workers):
    with pytest.raises(InvalidRequest, match="workers"):
        replay(MJLOG, workers=workers)


def test_a_round_observer_is_for_one_process():
    with pytest.raises(InvalidRequest, match="on_round"):
        replay([MJLOG, TENHOU6], workers=2, on_round=lambda source, played: None)
    seen = []
    replay(MJLOG, on_round=lambda source, played: seen.append(played.label))
    assert seen


# ---- typed answers (item 2)


def test_typed_answers_are_the_contracts_models():
    house = scorer("house")
    typed = score_model(house, KIRIAGE)
    assert isinstance(typed, ScoreResponse) and typed.total == 7700 and typed.model_dump() == ScoreResponse.model_validate(house.score(KIRIAGE)).model_dump()
    settled = settle_model(house, 3, 30, dealer=False, tsumo=False)
    assert isinstance(settled, Settled) and settled.total == 3900
    ok = attempt(lambda: score_model(house, KIRIAGE))
    assert isinstance(ok, Ok) and ok.value.total == 7700
    failed = attempt(lambda: house.score({"hand": "123m", "win": "1m"}))
    assert isinstance(failed, Failed) and failed.error.code is ErrorCode.INVALID_HAND
    assert failed.model_dump(mode="json") == {"ok": False, "error": house.score_json({"hand": "123m", "win": "1m"})["error"]}


def test_round_and_game_errors_have_their_codes():
    from engine.api import Action, Round, RoundSetup
    from engine.game.selfplay import GameStuck

    r = Round(rulebook("house"), RoundSetup(dealer=0), seed=7)
    illegal = attempt(lambda: r.apply(Action(type="dahai", actor=3, pai=0)))
    assert isinstance(illegal, Failed) and illegal.error.code is ErrorCode.ILLEGAL_ACTION

    def stuck() -> None:
        raise GameStuck("the game did not end")

    assert attempt(stuck).error.code is ErrorCode.GAME_STUCK  # type: ignore[union-attr]


@pytest.fixture(autouse=True)
def _fresh_caches():
    yield
    library.clear_caches()


@pytest.mark.parametrize("named", [[], {}, 3, True])
def test_a_rulebook_field_that_is_not_a_string_is_an_invalid_request(named):
    answer = scorer("house").score_json({**KIRIAGE, "rulebook": named})
    assert answer["error"]["code"] == "invalid_request" and "`rulebook`" in answer["error"]["message"]
