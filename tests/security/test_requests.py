"""Requests from other programs: which rulebooks they may name, one answer per line whatever the
bytes, strict types, indicators counted against the copies, one scorer shared by threads."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from engine.api import scorer
from engine.cli import jsonlines
from engine.cli.score import answer_line
from engine.core.errors import CODES, EngineError
from engine.scoring import library
from tests.spec_files import spec_text

HAND = {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True}
# Wall-clock seconds within which a refusal must come: reading a special file whole, or waiting on it, never ends;
# a machine loaded by the whole suite on two cores takes a few seconds for what takes milliseconds alone.
PROMPTLY = 10
CLUB = 'rulebook club "Club" extends house\n@clause("club 1")\nyaku club_yaku { han = 1 when = riichi and tsumo }\n'


def _serve(data: bytes, answer=None) -> list[dict]:
    out = io.BytesIO()
    jsonlines.serve(answer or (lambda line: answer_line(line, None)), io.BytesIO(data), out)
    text = out.getvalue().decode("utf-8")  # always valid UTF-8
    return [json.loads(line) for line in text.splitlines()]


def _code(answer: dict) -> str | None:
    return None if answer["ok"] else answer["error"]["code"]


# ---- the rulebook a request may name ---------------------------------------------------------------------------


@pytest.mark.parametrize("named", ["/dev/stdin", "/dev/zero", "/etc/passwd", "../../../../etc/passwd", "/proc/self/environ", "house/../../x"])
def test_a_request_names_only_allowed_rulebooks(named):
    start = time.perf_counter()
    answer = answer_line(json.dumps({**HAND, "rulebook": named}), None)
    assert time.perf_counter() - start < PROMPTLY
    assert _code(answer) == "unknown_rulebook"
    assert "root:" not in answer["error"]["message"]


def test_stdin_as_a_rulebook_does_not_swallow_the_batch():
    lines = [json.dumps({**HAND, "rulebook": "/dev/stdin"})] + [json.dumps(HAND)] * 50
    answers = _serve(("\n".join(lines) + "\n").encode())
    assert len(answers) == 51
    assert _code(answers[0]) == "unknown_rulebook" and all(a["ok"] for a in answers[1:])


def test_rulebook_dir_allows_its_files_and_nothing_outside(tmp_path):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "club.rulebook").write_text(CLUB, encoding="utf-8")
    (tmp_path / "outside.rulebook").write_text(CLUB.replace("club", "outside"), encoding="utf-8")
    (allowed / "link.rulebook").symlink_to(tmp_path / "outside.rulebook")
    os.mkfifo(allowed / "fifo.rulebook")
    policy = library.RulebookPolicy.of(None, [str(allowed)])
    ok = answer_line(json.dumps({**HAND, "rulebook": "club.rulebook"}), None, None, policy)
    assert ok["ok"] and ok["rulebook"] == "club"
    assert answer_line(json.dumps({**HAND, "rulebook": str(allowed / "club")}), None, None, policy)["ok"]
    for named in ["../outside.rulebook", str(tmp_path / "outside.rulebook"), "link.rulebook", "fifo.rulebook"]:
        assert _code(answer_line(json.dumps({**HAND, "rulebook": named}), None, None, policy)) == "unknown_rulebook", named


def test_the_operators_own_rulebook_is_allowed(tmp_path):
    path = tmp_path / "club.rulebook"
    path.write_text(CLUB, encoding="utf-8")
    assert answer_line(json.dumps({**HAND, "rulebook": str(path)}), str(path))["ok"]
    assert answer_line(json.dumps(HAND), str(path))["rulebook"] == "club"


def test_a_broken_allowed_rulebook_is_invalid_rulebook_with_its_diagnostics(tmp_path):
    (tmp_path / "bad.rulebook").write_text('rulebook bad extends house\nyaku y { han = 1 when = closd }\n', encoding="utf-8")
    policy = library.RulebookPolicy.of(None, [str(tmp_path)])
    answer = answer_line(json.dumps({**HAND, "rulebook": "bad"}), None, None, policy)
    assert _code(answer) == "invalid_rulebook"
    assert "bad.rulebook:2:" in answer["error"]["message"] and "closed" in answer["error"]["message"]


def test_a_missing_file_is_no_such_file(tmp_path):
    with pytest.raises(EngineError) as info:
        library.rulebook(str(tmp_path / "nothing.rulebook"))
    assert info.value.code == "unknown_rulebook" and "no such file" in info.value.message


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/stdin", "/dev/null"])
def test_special_files_are_never_read_as_rulebooks(special):
    start = time.perf_counter()
    with pytest.raises(EngineError) as info:
        library.rulebook(special)
    assert time.perf_counter() - start < PROMPTLY
    assert info.value.code == "unknown_rulebook" and "not a regular file" in info.value.message


def test_spellings_of_one_path_compile_once_and_the_cache_is_bounded(tmp_path, monkeypatch):
    path = tmp_path / "club.rulebook"
    path.write_text(CLUB, encoding="utf-8")
    spellings = [str(path), str(tmp_path / "." / "club.rulebook"), str(tmp_path / "x" / ".." / "club.rulebook")]
    (tmp_path / "x").mkdir()
    assert len({id(library.scorer(s)) for s in spellings}) == 1
    bound = 4  # the cache's own bound (library.CACHE_SIZE) lowered, so that a few files overflow it
    monkeypatch.setattr(library._RULEBOOKS, "size", bound)
    for n in range(bound + 5):
        other = tmp_path / f"c{n}.rulebook"
        other.write_text(CLUB.replace("rulebook club", f"rulebook c{n}"), encoding="utf-8")
        library.rulebook(str(other))
    assert len(library._RULEBOOKS) <= bound


def test_scorer_of_none_is_the_default_and_of_a_number_a_clean_error():
    assert scorer(None).rulebook.name == scorer().rulebook.name
    with pytest.raises(EngineError) as info:
        scorer(3)  # type: ignore[arg-type]
    assert info.value.code == "unknown_rulebook"


# ---- every line answered, in order -------------------------------------------------------------------------


def test_every_line_is_answered_in_order_whatever_its_bytes():
    good = json.dumps(HAND).encode()
    lines = [good, b"", b"   ", b"\xff\xfe{", good, json.dumps({**HAND, "hand": "\ud800"}).encode(), b"{broken", b"[" * 5000, b"\x00", good + b"\r"]
    answers = _serve(b"\n".join(lines) + b"\n")
    assert len(answers) == len(lines)
    assert [_code(a) for a in answers] == [
        None, "invalid_request", "invalid_request", "invalid_request", None, "invalid_request", "invalid_request", "invalid_request", "invalid_request", None,
    ]
    assert "UTF-8" in answers[3]["error"]["message"] and "surrogate" in answers[5]["error"]["message"]


def test_a_last_line_without_a_line_end_is_answered():
    assert len(_serve(json.dumps(HAND).encode())) == 1


def test_a_long_line_is_limit_exceeded_without_being_parsed_or_kept():
    long_line = b'{"hand": "' + b"1" * (64 * jsonlines.MAX_LINE_BYTES) + b'"}'
    source, out, seen = io.BytesIO(long_line + b"\n" + json.dumps(HAND).encode() + b"\n"), io.BytesIO(), []
    tracemalloc.start()
    start = time.perf_counter()
    jsonlines.serve(lambda line: seen.append(line) or {"ok": True}, source, out)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    answers = [json.loads(line) for line in out.getvalue().decode().splitlines()]
    assert _code(answers[0]) == "limit_exceeded" and len(answers) == 2 and seen == [json.dumps(HAND)]
    assert elapsed < PROMPTLY and peak < 4 * jsonlines.MAX_LINE_BYTES  # read in bounded chunks, never held whole


def test_a_line_at_the_bound_is_still_parsed():
    line = json.dumps({**HAND, "hand": "1" * (jsonlines.MAX_LINE_BYTES - 60)}).encode()
    assert len(line) <= jsonlines.MAX_LINE_BYTES
    start = time.process_time()
    assert _code(_serve(line + b"\n")[0]) == "invalid_notation"
    # 64 KiB of digits no suit letter closes: read in linear time (a quadratic reader of digit runs took minutes)
    assert time.process_time() - start < PROMPTLY


class _Boom(Exception):
    pass


@pytest.mark.parametrize(
    "raised, code",
    [(ZeroDivisionError("x"), "internal_error"), (TypeError("x"), "internal_error"), (RecursionError(), "limit_exceeded")],
)
def test_an_unexpected_error_is_answered_internal_error_and_the_batch_goes_on(raised, code):
    """A bug of ours is never dressed as bad input or a bad rulebook: ``internal_error``, asking for a report."""
    def answer(line: str) -> dict:
        if "boom" in line:
            raise raised
        return {"ok": True}

    out = io.BytesIO()
    jsonlines.serve(answer, io.BytesIO(b"boom\nfine\n"), out)
    answers = [json.loads(x) for x in out.getvalue().decode().splitlines()]
    assert [_code(a) for a in answers] == [code, None]


def test_an_error_with_a_contract_code_keeps_it():
    class Limit(Exception):
        code = "limit_exceeded"
        message = "too big"

    def answer(line: str) -> dict:
        raise Limit()

    assert jsonlines.answer_text("x", answer) == jsonlines.error("limit_exceeded", "too big")


def test_output_is_utf8_even_for_an_answer_holding_a_lone_surrogate():
    data = jsonlines.encode({"ok": False, "error": {"code": "invalid_request", "message": "`\ud800`"}})
    assert json.loads(data.decode("utf-8"))["error"]["message"] == "`\ufffd`"


def test_every_code_is_a_contract_code():
    """Every code is the contract's (vendored: tests/data/spec), or one this release adds, marked *(added)* in the
    project's copy docs/contract.md (``internal_error``)."""
    text = spec_text("contract.md")
    added = [line for line in (Path(__file__).parents[2] / "docs" / "contract.md").read_text(encoding="utf-8").splitlines() if "*(added)*" in line]
    missing = [code for code in CODES if f"`{code}`" not in text and not any(f"`{code}`" in line for line in added)]
    assert not missing


@pytest.mark.parametrize("command", [["score", "--json"], ["analyze", "--json"]])
def test_the_cli_answers_every_line(command):
    data = b'{"hand": "234m567m789p46s88p5s", "win": "5s"}\n\n\xff\n' + b"x" * (jsonlines.MAX_LINE_BYTES + 10) + b"\n123m\n"
    done = subprocess.run([sys.executable, "-m", "engine.cli", *command], input=data, capture_output=True, timeout=60)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(answers) == 5
    assert [_code(a) for a in answers[1:4]] == ["invalid_request", "invalid_request", "limit_exceeded"]


def test_the_cli_rulebook_dir_option(tmp_path):
    (tmp_path / "club.rulebook").write_text(CLUB, encoding="utf-8")
    request = json.dumps({**HAND, "rulebook": "club"}).encode() + b"\n"
    args = [sys.executable, "-m", "engine.cli", "score", "--json"]
    refused = subprocess.run(args, input=request, capture_output=True, timeout=60)
    allowed = subprocess.run([*args, "--rulebook-dir", str(tmp_path)], input=request, capture_output=True, timeout=60)
    assert _code(json.loads(refused.stdout)) == "unknown_rulebook"
    assert json.loads(allowed.stdout)["rulebook"] == "club"


# ---- strict types ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "field, value",
    [("riichi", "false"), ("riichi", 1), ("riichi", "true"), ("tsumo", 0), ("honba", "5"), ("honba", 5.0), ("honba", True), ("kita", "0"), ("melds", "[]")],
)
def test_a_boolean_is_a_boolean_and_an_integer_an_integer(field, value):
    answer = scorer().score_json({**HAND, field: value})
    assert _code(answer) == "invalid_request"
    assert f"`{field}`" in answer["error"]["message"]


# ---- indicators count against the copies ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "dora, ura",
    [("11111z", ""), ("8p8p", ""), ("8p", "8p"), ("5s5s5s5s", ""), ("", "1z1z1z1z1z")],
)
def test_indicators_count_against_the_copies_with_the_hand(dora, ura):
    answer = scorer().score_json({**HAND, "dora_indicators": dora, "ura_indicators": ura})
    assert _code(answer) == "invalid_situation"
    assert "copies" in answer["error"]["message"]


def test_a_red_five_indicator_beside_the_same_red_five_in_hand():
    answer = scorer().score_json({"hand": "234m067m789p46s88p5s", "win": "5s", "riichi": True, "dora_indicators": "0m"})
    assert _code(answer) == "invalid_situation"


def test_indicators_within_the_copies_still_score():
    answer = scorer().score_json({**HAND, "dora_indicators": "1z1z1z1z", "ura_indicators": "8p"})
    assert answer["ok"]


# ---- one scorer, many threads ----------------------------------------------------------------------------------


def test_one_scorer_shared_by_eight_threads_answers_as_one_thread():
    shared = scorer("house")
    requests = [
        {**HAND},
        {**HAND, "tsumo": True},
        {**HAND, "seat_wind": "S", "dora_indicators": "4s"},
        {"hand": "19m19p19s1234567z1m", "win": "1m", "seat_wind": "S"},
        {"hand": "123m456m789p23s99p1s", "win": "1s", "seat_wind": "S"},
        {"hand": "22334455667788p", "win": "8p"},
        {"hand": "123m", "win": "1m"},
        {**HAND, "honba": 3, "riichi_sticks": 2, "tsumo": True, "seat_wind": "W"},
    ] * 25
    expected = [shared.score_json(r) for r in requests]
    results: list[list[dict] | None] = [None] * 8
    barrier = threading.Barrier(8)

    def work(index: int) -> None:
        barrier.wait()
        order = requests[index:] + requests[:index]
        answers = [shared.score_json(r) for r in order]
        results[index] = answers[len(requests) - index :] + answers[: len(requests) - index]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(r == expected for r in results)


def test_a_rule_failing_at_run_time_is_answered_and_the_batch_goes_on(tmp_path):
    (tmp_path / "rt.rulebook").write_text(
        'rulebook rt "RT" extends house\n@clause("c")\nbonus rt { han = 10 / (dora_hits - dora_hits) }\n', encoding="utf-8"
    )
    policy = library.RulebookPolicy.of(None, [str(tmp_path)])
    lines = [json.dumps({**HAND, "rulebook": "rt"}), json.dumps(HAND)]
    out = io.BytesIO()
    jsonlines.serve(lambda line: answer_line(line, None, None, policy), io.BytesIO("\n".join(lines).encode()), out)
    answers = [json.loads(x) for x in out.getvalue().decode().splitlines()]
    assert _code(answers[0]) in ("invalid_rulebook", "limit_exceeded") and answers[1]["ok"]


def test_a_pass_over_every_bundled_rulebook_keeps_each_for_the_next_pass():
    """The cache holds more than the bundled set: going through every bundled rulebook twice builds each scorer
    once (with fewer places than bundled rulebooks, each was evicted just before its turn came again)."""
    names = list(library.bundled_names())
    assert library.CACHE_SIZE > len(names)
    first = [library.scorer(name) for name in names]
    assert all(library.scorer(name) is made for name, made in zip(names, first, strict=True))
