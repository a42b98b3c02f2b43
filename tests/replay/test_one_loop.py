"""``riichi replay`` and ``engine.api.replay`` are one loop (``engine.replay.batch``): on the same files they give
the same report, byte for byte, with one worker or two; a file is read by its content, as a log held in memory is,
so a log renamed or gzipped replays as it would uploaded, and every unreadable file is worded the same way."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from engine import api
from engine.cli import main
from engine.replay.batch import replay_source
from engine.replay.reading import detect_format
from engine.replay.rounds import ReplayReport, log_files, replay, replay_file
from engine.scoring import library
from tests.oracle.corpus import read_games
from tests.oracle.riichienv_cli import write_log

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "tenhou"
MJLOG = sorted((DATA / "mjlog").glob("*.mjlog"))
TENHOU6 = sorted((DATA / "json").glob("*.json"))
MJAI_GAMES = ROOT / "tests" / "data" / "riichienv" / "tenhou4p.jsonl.gz"


def _bad_files(folder: Path) -> None:
    """Every way a file can fail to be a log, and logs whose names say another format than their content."""
    game = MJLOG[0].read_bytes()
    gz = gzip.compress(game)
    (folder / "empty.mjlog").write_bytes(b"")
    (folder / "blank.json").write_text("\n  \n", encoding="utf-8")
    (folder / "truncated.mjlog.gz").write_bytes(gz[: len(gz) // 2])
    (folder / "junk.mjlog").write_bytes(bytes(range(256)) * 4)
    (folder / "junk.json").write_bytes(b"{" + bytes(range(128, 256)))
    (folder / "not_a_log.json").write_text('{"a": 1}\n', encoding="utf-8")
    (folder / "broken.mjlog").write_text("<mjloggm ver='2.3'><UN n0='", encoding="utf-8")
    (folder / "tenhou6_named.mjson").write_bytes(TENHOU6[0].read_bytes())  # a .mjson whose events are not mjai
    (folder / "mjlog_named.json").write_bytes(game)
    (folder / "gzipped_tenhou6.json").write_bytes(gzip.compress(TENHOU6[1].read_bytes()))
    (folder / "notes.txt").write_text("not a log", encoding="utf-8")
    (folder / "no_logs").mkdir()
    (folder / "no_logs" / "readme.md").write_text("nothing here", encoding="utf-8")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A dozen logs of each format (mjlog, tenhou.net/6, mjai under its three suffixes), a folder of bad files, a
    folder with no log and a path that does not exist, as a user would list them."""
    folder = tmp_path_factory.mktemp("one_loop")
    mjai = folder / "mjai"
    mjai.mkdir()
    for number, game in enumerate(read_games(MJAI_GAMES, 12)):
        path = write_log(game, mjai)
        if number % 3:
            path.rename(path.with_suffix(".jsonl" if number % 3 == 1 else ".json"))
    bad = folder / "bad"
    bad.mkdir()
    _bad_files(bad)
    return [*map(str, MJLOG[:12]), *map(str, TENHOU6[:12]), str(mjai), str(bad), str(bad / "no_logs"), str(folder / "missing.mjlog")]


def _cli(paths: list[str], workers: int, capsys: pytest.CaptureFixture[str]) -> str:
    """The report ``riichi replay --json`` prints (given only paths that exist, as the command requires)."""
    main(["replay", "--json", "--workers", str(workers), *[p for p in paths if Path(p).exists()]])
    return capsys.readouterr().out


@pytest.mark.parametrize("workers", [1, 2])
def test_the_cli_and_the_api_give_the_same_report(corpus: list[str], workers: int, capsys: pytest.CaptureFixture[str]) -> None:
    existing = [p for p in corpus if Path(p).exists()]
    printed = _cli(corpus, workers, capsys)
    assert printed == json.dumps(api.replay(existing, workers=workers).to_json(), ensure_ascii=False) + "\n"
    report = json.loads(printed)
    assert report["games"] == 12 + 12 + 12 + 3  # the three logs misnamed or gzipped replay as their content says
    named = {Path(e["file"]).name for e in report["errors"]}
    assert named == {"empty.mjlog", "blank.json", "truncated.mjlog.gz", "junk.mjlog", "junk.json", "not_a_log.json", "broken.mjlog"}
    assert {Path(s["file"]).name for s in report["skipped"]} == {"notes.txt", "readme.md"}


def test_the_cli_loop_and_the_api_agree_on_a_missing_path(corpus: list[str]) -> None:
    """The command refuses a missing path before replaying (exit 2); the loop beneath it, as the API, reports it."""
    missing = corpus[-1]
    one = replay([missing], None, library.scorer).to_json()
    assert one == api.replay([missing]).to_json() and one["games"] == 0
    assert one["errors"][0]["code"] == "invalid_request" and "cannot read the file" in one["errors"][0]["message"]
    assert main(["replay", missing]) == 2


def test_a_file_replays_as_its_bytes_held_in_memory(corpus: list[str]) -> None:
    """A file's part of the report is the one of its bytes given to ``replay_log`` under its name, with the file
    name as the log id: the content, never the name, chooses the reader."""
    bad = Path(corpus[-3])
    for path in [Path(corpus[0]), Path(corpus[12]), *sorted(Path(corpus[24]).iterdir())[:3], *sorted(p for p in bad.iterdir() if p.is_file())]:
        from_file = replay_file(str(path), None, library.scorer).part
        held = api.replay_log(path.read_bytes(), name=str(path), log_id=path.name)
        assert held.to_json() == from_file.to_json(), path.name


def test_the_words_for_what_is_no_log() -> None:
    with pytest.raises(api.EngineError, match=r"^upload: not a game log: the log is empty$"):
        detect_format(" \n", "upload")
    with pytest.raises(api.EngineError, match=r"^upload: not a game log: neither mjlog XML"):
        detect_format("plain words", "upload")
    assert [detect_format(text) for text in ("\ufeff<mjloggm/>", '{"log": []}', '{"type":"start_game"}\n{}')] == ["mjlog", "tenhou6", "mjai"]


def test_a_round_observer_sees_the_rounds_of_the_shared_loop() -> None:
    seen: list[str] = []
    report = api.replay(str(MJLOG[0]), on_round=lambda source, played: seen.append(f"{Path(source).name} {played.label}"))
    assert len(seen) == report.rounds > 0 and seen[0].startswith(MJLOG[0].name)
    narrated = replay_source((str(MJLOG[0]), MJLOG[0]), None, library.scorer)
    assert narrated.story == "" and narrated.part.to_json() == report.to_json() != ReplayReport().to_json()


def test_a_folder_takes_the_files_named_as_logs(tmp_path: Path) -> None:
    """A folder's files are chosen by name alone, gzipped or not (no file opened to choose: the content decides
    each one's format when it is replayed); the others are noted as skipped."""
    logs = ["a.mjlog", "b.MJLOG", "c.xml", "d.mjlog.gz", "e.json", "f.mjson", "g.jsonl", "h.json.gz", "i.mjson.gz", "j.JSONL.GZ", "k.xml.gz"]
    others = ["l.gz", "m.txt", "n", "o.json.bak", "p.tar.gz"]
    for name in logs + others:
        (tmp_path / name).write_text('{"type":"start_game"}\n', encoding="utf-8")
    report = ReplayReport()
    assert sorted(p.name for p in log_files([str(tmp_path)], report)) == sorted(logs)
    assert sorted(Path(entry["file"]).name for entry in report.skipped) == sorted(others)


def test_a_gzipped_tenhou6_log_in_a_folder_is_replayed(tmp_path: Path) -> None:
    """A folder's ``.json.gz`` log is taken and read by its content, as the same file given by its path is."""
    (tmp_path / "game.json.gz").write_bytes(gzip.compress(TENHOU6[0].read_bytes()))
    report = api.replay(str(tmp_path))
    assert report.games == 1 and not report.errors and not report.skipped
    assert report.mismatches == api.replay(str(TENHOU6[0])).mismatches == []


@pytest.mark.parametrize("name", ["tenhou6_named.mjson", "mjlog_named.json", "gzipped_tenhou6.json"])
def test_riichi_replay_reads_a_misnamed_log_by_its_content(
    corpus: list[str], name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``riichi replay`` once chose a file's reader by its name and refused these logs (a tenhou.net/6 log named
    ``.mjson`` was "an mjai event needs a string `type`"); the content decides now, as it does for an upload."""
    assert main(["replay", "--json", str(Path(corpus[-3]) / name)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["games"], report["errors"], report["mismatches"]) == (1, [], [])
