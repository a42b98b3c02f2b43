"""The jobs a ``riichi serve`` worker runs and the pool that bounds them, beyond the happy path.

The jobs (``engine.web.jobs``) are plain functions, so they are run here in this process, where each answer and
each error code can be checked (in a worker they run in another process, out of a test's sight). The pool's
lifecycle is checked with real worker processes: a job that outlives its timeout is stopped and its worker
replaced, a pool with every worker busy answers ``limit_exceeded`` at once rather than queueing past the bound,
and ``warm`` and ``close`` start and stop exactly ``size`` processes; a job past its timeout, or a worker that
dies, costs that one answer (``limit_exceeded``) and the pool goes on with a fresh process. The worker's own loop
(``main``) runs here too, with its memory cap and working folder recorded rather than applied to the test process.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import EngineError, InvalidRulebook, UnknownRulebook
from engine.web import jobs, worker
from engine.web.worker import WorkerPool

CLUB = '''rulebook myclub "Our club" extends house

@clause("club rule 7: no four-winds draw")
remove abortive_draw suufon_renda

@clause("club rule 8: no double yakuman on the 13-sided wait")
remove exception kokushi_13

@clause("club rule 8: a triple yakuman on the 13-sided wait")
exception kokushi_13b to yakuman kokushi "Thirteen orphans, 13-sided wait" {
  when = wait_count == 13
  multiplier = 3
  example "19m19p19s1234567z1m win 1m ron seat S" => {yakuman: 3, total: 96000}
}

@clause("club rule 9: two han from yaku from 5 honba")
override settings scoring {
  shibari_han = 2
  shibari_honba = 5
}
'''
UPLOAD = {"text": CLUB, "file": "myclub.rulebook"}
UNCLOSED = {"text": 'rulebook mine "Mine" extends house\nyaku x {\n', "file": "mine.rulebook"}
ORPHAN = {"text": 'rulebook mine "Mine" extends nowhere_at_all\n', "file": "mine.rulebook"}

# ---------------------------------------------------------------- check


def test_check_of_a_clean_upload_runs_its_examples() -> None:
    answer = jobs.check(UPLOAD)
    assert answer["ok"] is True and answer["errors"] == 0 and answer["diagnostics"] == []
    assert answer["examples"] == {"run": 1, "failed": 0}
    assert answer["summary"] == "myclub.rulebook: ok (90 items, 1 example passed)"
    assert json.loads(json.dumps(answer)) == answer  # plain JSON: it crosses the worker's pipe


def test_check_without_examples_runs_none() -> None:
    answer = jobs.check(UPLOAD, examples=False)
    assert answer["errors"] == 0 and answer["examples"] == {"run": 0, "failed": 0}


def test_check_of_a_broken_upload_gives_diagnostics_the_editor_can_underline() -> None:
    answer = jobs.check(UNCLOSED)
    assert answer["ok"] is False and answer["errors"] == 1  # an answer (no `error`): the rulebook is what failed
    assert "error" not in answer and answer["summary"] == "mine.rulebook: 1 error"
    (diagnostic,) = answer["diagnostics"]
    assert (diagnostic["line"], diagnostic["column"]) == (2, 8)
    assert diagnostic["end_line"] >= diagnostic["line"] and "end_column" in diagnostic
    assert diagnostic["rendered"].startswith("mine.rulebook:2:8: error: unexpected end of file")
    assert "^" in diagnostic["rendered"]


def test_check_of_an_upload_extending_a_missing_rulebook_points_at_its_extends() -> None:
    answer = jobs.check(ORPHAN)
    (diagnostic,) = answer["diagnostics"]
    assert "`mine` extends `nowhere_at_all`, which cannot be found" in diagnostic["message"]
    assert diagnostic["line"] == 1


def test_check_of_a_bundled_rulebook_by_name() -> None:
    answer = jobs.check({"name": "house"}, examples=False)
    assert answer["errors"] == 0 and answer["summary"].endswith("ok (91 items)")


def test_check_of_an_unknown_name_is_unknown_rulebook() -> None:
    with pytest.raises(UnknownRulebook, match="`no_such_book`"):
        jobs.check({"name": "no_such_book"})


# ---------------------------------------------------------------- explain


def test_explain_by_item_name() -> None:
    answer = jobs.explain({"name": "house"}, item="pinfu")
    assert answer["item"] == "pinfu" and answer["text"].startswith('yaku pinfu "Pinfu"')


@pytest.mark.parametrize(
    ("line", "item"),
    [
        (3, "abortive_draw suufon_renda"),  # its decorator's line counts as the item's
        (4, "abortive_draw suufon_renda"),  # a removal explains the removed item
        (7, "exception kokushi_13"),
        (10, "exception kokushi_13b"),
        (13, "exception kokushi_13b"),  # inside the braces
        (18, "settings scoring"),
    ],
)
def test_explain_the_item_under_the_cursor(line: int, item: str) -> None:
    answer = jobs.explain(UPLOAD, line=line)
    assert answer["item"] == item
    assert answer["text"].startswith(item)


def test_explain_a_line_between_items_explains_the_whole_rulebook() -> None:
    for line in (1, 2, 5, 400):
        answer = jobs.explain(UPLOAD, line=line)
        assert answer["item"] is None and answer["text"].startswith("rulebook myclub: Our club")
    assert jobs.explain(UPLOAD)["item"] is None


def test_explain_of_an_unknown_item_is_bad_input_naming_it() -> None:
    with pytest.raises(EngineError) as info:
        jobs.explain({"name": "house"}, item="no_such_item")
    assert info.value.code == "invalid_request" and "no item `no_such_item` in `house`" in info.value.message


def test_explain_of_an_unknown_rulebook_suggests_the_bundled_ones() -> None:
    with pytest.raises(UnknownRulebook) as info:
        jobs.explain({"name": "hosue"})
    assert "house" in info.value.message


def test_explain_of_a_rulebook_with_errors_points_to_check() -> None:
    with pytest.raises(InvalidRulebook) as info:
        jobs.explain(UNCLOSED, line=2)
    assert info.value.message.startswith("the rulebook has errors; `check` lists them:")
    assert "unexpected end of file" in info.value.message


# ---------------------------------------------------------------- diff


def test_diff_of_an_upload_against_its_base_lists_each_change() -> None:
    answer = jobs.diff(UPLOAD, {"name": "house"}, hands=0)
    assert answer["ok"] is True
    changed = {c["item"]: c["change"] for c in answer["changes"]}
    assert changed == {  # A is the upload, B its base: what the upload removed, B "adds"
        "abortive_draw suufon_renda": "added",
        "exception kokushi_13": "added",
        "exception kokushi_13b": "removed",
        "setting shibari_han": "removed",
        "setting shibari_honba": "removed",
    }
    assert json.loads(json.dumps(answer)) == answer


@pytest.mark.parametrize("ref", [UNCLOSED, ORPHAN], ids=["syntax", "missing-base"])
def test_diff_of_an_upload_with_errors_is_invalid_rulebook(ref: dict[str, str]) -> None:
    with pytest.raises(InvalidRulebook) as info:
        jobs.diff(ref, {"name": "house"}, hands=0)
    assert info.value.message.startswith("rulebook `mine.rulebook` has errors:")


def test_diff_against_an_unknown_name_is_unknown_rulebook() -> None:
    with pytest.raises(UnknownRulebook):
        jobs.diff({"name": "house"}, {"name": "no_such_book"}, hands=0)


def test_impact_of_a_sample_game_reports_bare_file_names() -> None:
    from engine.web.impact import SAMPLES, sample_paths

    first = next(iter(SAMPLES))
    answer = jobs.impact({"name": "tenhou"}, {"name": "mleague"}, sample_paths([first]), flow=False)
    assert answer["ok"] is True and (answer["a"], answer["b"]) == ("tenhou", "mleague")
    assert answer["files"] == 1 and answer["rounds"] == 6 and answer["unreadable"] == []
    text = json.dumps(answer)
    assert first in text and os.sep not in text  # the server's folders never reach the browser


def test_every_job_is_registered_by_its_name() -> None:
    assert jobs.JOBS == {"check": jobs.check, "explain": jobs.explain, "diff": jobs.diff, "impact": jobs.impact, "sheet": jobs.sheet}


# ---------------------------------------------------------------- a worker's answers


def _raises(error: BaseException) -> Any:
    def job(**kwargs: Any) -> dict[str, Any]:
        raise error

    return job


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [
        (UnknownRulebook("unknown rulebook `x`"), "unknown_rulebook", "unknown rulebook `x`"),
        (RecursionError(), "limit_exceeded", "nested too deeply"),
        (MemoryError(), "limit_exceeded", "MiB of memory"),
        (KeyError("shibari_han"), "internal_error", "(KeyError: 'shibari_han'); this is a bug of the engine, please report it"),
    ],
)
def test_whatever_a_job_raises_is_an_answer_with_a_code(error: BaseException, code: str, words: str) -> None:
    answer = worker._answer({"job": _raises(error)}, "job", {})
    assert answer["ok"] is False and answer["error"]["code"] == code
    assert words in answer["error"]["message"]


def test_a_long_internal_error_is_cut_to_a_readable_length() -> None:
    answer = worker._answer({"job": _raises(ValueError("x" * 5000))}, "job", {})
    assert len(answer["error"]["message"]) < 300


def test_the_worker_loop_answers_one_line_per_job(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    limits: list[tuple[int, tuple[int, int]]] = []
    import resource

    monkeypatch.setattr(resource, "setrlimit", lambda kind, value: limits.append((kind, value)))
    monkeypatch.chdir(os.getcwd())  # restored after the test: the loop moves into its folder
    lines = [
        {"name": "check", "kwargs": {"ref": UNCLOSED, "examples": False}},
        {"name": "explain", "kwargs": {"ref": {"name": "house"}, "item": "no_such_item"}},
        {"name": "explain", "kwargs": {"ref": {"name": "house"}, "item": "pinfu"}},
    ]
    stdin = io.TextIOWrapper(io.BytesIO(b"".join(json.dumps(line).encode() + b"\n" for line in lines)))
    stdout = io.TextIOWrapper(io.BytesIO())
    monkeypatch.setattr(sys, "argv", ["worker", str(tmp_path), "123456789"])
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    _keep_this_process_unconfined(monkeypatch)
    worker.main()
    assert limits == [(resource.RLIMIT_AS, (123456789, 123456789))]
    assert Path.cwd() == tmp_path
    answers = [json.loads(line) for line in stdout.buffer.getvalue().splitlines()]  # type: ignore[attr-defined]
    assert [a["ok"] for a in answers] == [False, False, True]
    assert answers[0]["errors"] == 1 and "error" not in answers[0]  # a check's report: the rulebook has an error
    assert answers[1]["error"]["code"] == "invalid_request"  # an explain that failed: the contract's error body
    assert answers[2]["item"] == "pinfu"


def _keep_this_process_unconfined(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker loop confines its process to its folders and lowers its priority: run in this test process, both
    are undone after the test, so later tests read rulebooks anywhere again at their usual priority."""
    from ruledsl import rulebook_files

    monkeypatch.setattr(rulebook_files, "_process_folders", rulebook_files._process_folders)
    monkeypatch.setattr(os, "nice", lambda increment: 0)


def test_the_worker_loop_goes_on_where_no_memory_cap_can_be_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import resource

    def refuse(kind: int, value: tuple[int, int]) -> None:
        raise ValueError("not allowed to raise the maximum limit")

    monkeypatch.setattr(resource, "setrlimit", refuse)
    monkeypatch.chdir(os.getcwd())
    stdout = io.TextIOWrapper(io.BytesIO())
    monkeypatch.setattr(sys, "argv", ["worker", str(tmp_path), "1"])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"name": "check", "kwargs": {"ref": {"name": "house"}, "examples": false}}\n')))
    monkeypatch.setattr(sys, "stdout", stdout)
    _keep_this_process_unconfined(monkeypatch)
    worker.main()
    (line,) = stdout.buffer.getvalue().splitlines()  # type: ignore[attr-defined]
    assert json.loads(line)["errors"] == 0


def test_the_worker_imports_this_checkout_first(monkeypatch: pytest.MonkeyPatch) -> None:
    here = str(Path(worker.__file__).resolve().parents[2])
    monkeypatch.delenv("PYTHONPATH", raising=False)
    assert worker._import_path() == here
    monkeypatch.setenv("PYTHONPATH", "/opt/elsewhere")
    assert worker._import_path() == here + os.pathsep + "/opt/elsewhere"


# ---------------------------------------------------------------- the pool's lifecycle


def test_a_job_past_its_timeout_is_stopped_and_its_worker_replaced() -> None:
    with tempfile.TemporaryDirectory() as folder:
        pool = WorkerPool(1, folder, timeout=0.1)  # a fresh worker cannot even import the engine in 0.1 s
        try:
            started = time.monotonic()
            answer = pool.run("check", ref={"name": "house"}, examples=True)
            assert time.monotonic() - started < 10
            assert answer["error"]["code"] == "limit_exceeded"
            assert answer["error"]["message"] == "the check took longer than 0.1 s and was stopped"
            assert pool.killed == 1 and len(pool._all) == 1 and pool._idle.qsize() == 1
            (fresh,) = pool._all
            assert fresh.process.poll() is None  # the replacement is alive and idle
            pool.timeout = 60
            assert pool.run("check", ref={"name": "house"}, examples=False)["errors"] == 0
            assert pool.killed == 1
        finally:
            pool.close()
        assert pool._all == [] and pool.started == 0 and pool._idle.empty()


def test_a_pool_whose_workers_are_all_busy_answers_at_once() -> None:
    with tempfile.TemporaryDirectory() as folder:
        pool = WorkerPool(1, folder, timeout=0.2)
        try:
            busy = pool._take(time.monotonic() + 1)  # the only worker, taken by another request
            assert busy is not None and pool.started == 1
            answer = pool.run("check", ref={"name": "house"})
            assert answer["error"]["code"] == "limit_exceeded"
            assert answer["error"]["message"] == "every worker is busy; try again (a job may run 0.2 s)"
            assert pool.killed == 0 and len(pool._all) == 1
        finally:
            pool.close()


def test_warm_starts_exactly_size_workers_and_close_stops_them() -> None:
    with tempfile.TemporaryDirectory() as folder:
        pool = WorkerPool(2, folder, timeout=30)
        try:
            pool.warm()
            pool.warm()  # a second call starts none
            assert pool.started == 2 and len(pool._all) == 2 and pool._idle.qsize() == 2
            processes = [w.process for w in pool._all]
            assert pool.run("explain", ref={"name": "house"}, item="pinfu")["item"] == "pinfu"
            assert pool.started == 2  # the job used a warm worker
        finally:
            pool.close()
        assert all(p.poll() is not None for p in processes)
        assert pool.started == 0 and pool._all == []


def test_a_pool_has_at_least_one_worker() -> None:
    assert WorkerPool(0, tempfile.gettempdir(), timeout=1).size == 1


def test_a_worker_whose_pipe_is_gone_gives_no_answer_and_stops_cleanly() -> None:
    with tempfile.TemporaryDirectory() as folder:
        one = worker._Worker(folder, worker.WORKER_MEMORY_BYTES)
        try:
            assert one.process.stdout is not None
            one.process.stdout.close()  # the answer can no longer be read: fileno() fails
            assert one.call("check", {"ref": {"name": "house"}}, timeout=5) is None
        finally:
            one.stop()
        assert one.process.poll() is not None
        one.stop()  # stopping twice is harmless


# ---- a dead worker, an unknown rulebook in a worker

MINE = {"text": 'rulebook mine "Mine" extends house\n', "file": "mine.rulebook"}


def test_a_dead_worker_is_replaced():
    with tempfile.TemporaryDirectory() as folder:
        pool = WorkerPool(1, folder, timeout=30)
        try:
            assert pool.run("check", ref=MINE, examples=False)["ok"] is True
            (only,) = pool._all
            only.process.kill()
            only.process.wait()
            answer = pool.run("check", ref=MINE, examples=False)
            assert answer["error"]["code"] == "limit_exceeded" and "stopped its worker" in answer["error"]["message"]
            assert pool.run("check", ref=MINE, examples=False)["ok"] is True
            assert pool.killed == 1 and len(pool._all) == 1
        finally:
            pool.close()


def test_an_unknown_rulebook_in_a_worker_is_answered_with_its_code():
    with tempfile.TemporaryDirectory() as folder:
        pool = WorkerPool(1, folder, timeout=30)
        try:
            answer = pool.run("diff", a={"name": "nowhere"}, b={"name": "house"}, hands=0)
            assert answer["error"]["code"] == "unknown_rulebook"
        finally:
            pool.close()
