"""Checking, explaining and comparing rulebooks over HTTP: uploads are untrusted (size, time, no file access)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.web.limits import MAX_RULEBOOK_BYTES
from tests.web.conftest import make_client

VARIANT = """rulebook myclub "Our club" extends house

@clause("club rule 4: WRC-style kiriage")
limit kiriage "Kiriage mangan" {
  when = basic_points == 1920
  base = 2000
  tier = "mangan"
  example "234m456m678p234s55p win 4s ron seat S riichi dora 3s" => {total: 8000}
}
"""


def test_check_an_upload_runs_its_examples(client):
    answer = client.post("/check", json={"rulebook": {"text": VARIANT, "file": "myclub.rulebook"}}).json()
    assert answer["ok"] is True and answer["errors"] == 0
    assert answer["examples"] == {"run": 1, "failed": 0}
    assert answer["summary"].startswith("myclub.rulebook: ok")


def test_check_reports_diagnostics_with_position_caret_help_and_did_you_mean(client):
    typo = VARIANT.replace("basic_points ==", "basic_pointz ==")
    response = client.post("/check", json={"rulebook": {"text": typo, "file": "myclub.rulebook"}})
    assert response.status_code == 422  # a rulebook with errors (README, contract); the diagnostics are the body
    answer = response.json()
    assert answer["ok"] is False and answer["errors"] == 1
    (d,) = [d for d in answer["diagnostics"] if d["severity"] == "error"]  # beside the inherited-clause warning
    assert (d["file"], d["line"], d["column"]) == ("myclub.rulebook", 5, 10)
    assert "basic_points" in d["help"]
    assert "^" in d["rendered"] and d["rendered"].startswith("myclub.rulebook:5:10: error:")


def test_check_a_failing_example_is_a_diagnostic(client):
    wrong = VARIANT.replace("{total: 8000}", "{total: 7700}")
    answer = client.post("/check", json={"rulebook": {"text": wrong}}).json()
    assert answer["examples"]["failed"] == 1
    assert any("example" in d["message"] for d in answer["diagnostics"])  # beside any warning about the header


def test_check_a_bundled_rulebook_by_name(client):
    answer = client.post("/check", json={"rulebook": "wrc2025", "examples": False}).json()
    assert answer["ok"] is True and answer["items"] > 50


def test_upload_past_the_size_bound_is_limit_exceeded(client):
    text = "# " + "x" * MAX_RULEBOOK_BYTES
    response = client.post("/check", json={"rulebook": {"text": text}})
    assert (response.status_code, response.json()["error"]["code"]) == (413, "limit_exceeded")


def test_upload_reaches_no_file_of_the_servers_folder(client, tmp_path, monkeypatch):
    """An upload's `extends NAME` is looked up beside it; its folder is the worker's own empty one."""
    (tmp_path / "secret.rulebook").write_text('rulebook secret "TOP SECRET TITLE"\n')
    monkeypatch.chdir(tmp_path)
    answer = client.post("/check", json={"rulebook": {"text": 'rulebook x "x" extends secret\n'}}).json()
    assert answer["ok"] is False
    assert "cannot be found" in answer["diagnostics"][0]["message"]
    assert "TOP SECRET" not in str(answer)


def test_rulebook_dir_files_may_be_named_and_extended(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "club.rulebook").write_text(VARIANT.replace("myclub", "club"))
    outside = tmp_path / "outside.rulebook"
    outside.write_text(VARIANT.replace("myclub", "outside"))
    with make_client(rulebook_dirs=(str(folder),)) as client:
        request = {"hand": "234m456m678p234s55p", "win": "4s", "seat_wind": "S", "riichi": True, "dora_indicators": "3s"}
        assert client.post("/score", json={**request, "rulebook": "club.rulebook"}).json()["total"] == 8000
        assert client.post("/score", json={**request, "rulebook": "../outside.rulebook"}).status_code == 404
        names = {r["name"] for r in client.get("/rulebooks").json() if r["file"]}
        assert names == {"club.rulebook"}
        upload = 'rulebook mine "Mine" extends club\n'
        answer = client.post("/check", json={"rulebook": {"text": upload, "file": "mine.rulebook"}}).json()
        assert answer["ok"] is True, answer


def test_explain_the_item_at_a_line(client):
    upload = {"text": VARIANT, "file": "myclub.rulebook"}
    answer = client.post("/explain", json={"rulebook": upload, "line": 6}).json()
    assert answer["item"] == "limit kiriage"
    assert "club rule 4" in answer["text"] and "2000" in answer["text"]
    whole = client.post("/explain", json={"rulebook": upload, "line": 1}).json()
    assert whole["item"] is None and "kiriage" in whole["text"]
    named = client.post("/explain", json={"rulebook": "house", "item": "pinfu"}).json()
    assert named["ok"] and "pinfu" in named["text"].lower()
    unknown = client.post("/explain", json={"rulebook": "house", "item": "pinfuu"})
    assert unknown.status_code == 400 and "pinfu" in unknown.json()["error"]["message"]


def test_explain_a_rulebook_with_errors_is_invalid_rulebook(client):
    response = client.post("/explain", json={"rulebook": {"text": "rulebook x extends nowhere\n"}, "line": 1})
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_rulebook")


def test_diff_of_an_upload_shows_each_change_on_a_witness(client):
    answer = client.post("/diff", json={"a": "house", "b": {"text": VARIANT}, "hands": 200}).json()
    assert answer["ok"] and (answer["a"], answer["b"]) == ("house", "myclub")
    (change,) = answer["changes"]
    assert change["item"] == "limit kiriage" and change["change"] == "added"
    witness = change["witness"]
    assert witness["a"]["total"] != witness["b"]["total"]
    assert witness["request"]["hand"]


def test_diff_with_an_invalid_upload_is_invalid_rulebook(client):
    response = client.post("/diff", json={"a": "house", "b": {"text": "rulebook x extends nowhere\n"}, "hands": 10})
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_rulebook")
    assert "nowhere" in response.json()["error"]["message"]


def test_a_job_past_its_time_bound_is_stopped_and_the_server_goes_on():
    # a bound far below what this diff takes (a worker's start and the diff come to about half a second), so that
    # a faster diff or an idle machine cannot finish it in time
    with make_client(timeout=0.1, workers=1) as client:
        response = client.post("/diff", json={"a": "house", "b": "wrc2025"})
        assert (response.status_code, response.json()["error"]["code"]) == (413, "limit_exceeded")
        assert "0.1 s" in response.json()["error"]["message"]
        assert client.get("/health").json()["workers_killed"] == 1
        assert client.post("/score", json={"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True}).status_code == 200


@pytest.mark.parametrize("path", ["/", "/editor", "/compare"])
def test_pages_render(client, path):
    response = client.get(path)
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    assert 'id="page-data"' in response.text and "/static/common.js" in response.text


def test_static_files_are_served(client):
    for name in ("app.css", "common.js", "score.js", "editor.js", "compare.js"):
        assert client.get(f"/static/{name}").status_code == 200
    assert Path(__file__).exists()


def test_a_warm_server_starts_its_workers_with_itself():
    with make_client(warm=True, workers=1) as client:
        for _ in range(100):
            if client.get("/health").json()["workers_started"] == 1:
                break
            time.sleep(0.05)
        assert client.get("/health").json()["workers_started"] == 1
        assert client.post("/check", json={"rulebook": {"text": VARIANT}}).json()["ok"] is True


def test_the_editors_starting_text_checks_clean_and_runs_its_example(client):
    from engine.web.pages import STARTER

    answer = client.post("/check", json={"rulebook": {"text": STARTER, "file": "myclub.rulebook"}}).json()
    assert answer["ok"] is True and answer["examples"] == {"run": 1, "failed": 0}


def test_check_an_upload_reports_every_independent_mistake_as_riichi_check_does(client):
    """The page's check and `riichi check` take the same steps (`engine.services.check.check_source`): a file with
    several mistakes of the fold (a duplicate, an override of nothing) and of the checker gets them all in one
    answer, not only the first class."""
    from engine.cli.check import check_target

    path = Path(__file__).resolve().parents[1] / "ruledsl" / "fixtures" / "bad" / "all_in_one_run.rulebook"
    text = path.read_text(encoding="utf-8")
    answer = client.post("/check", json={"rulebook": {"text": text, "file": "all_in_one_run.rulebook"}}).json()
    cli = check_target(str(path), examples=False)
    assert answer["errors"] == sum(d.is_error for d in cli.diagnostics) > 1
    assert [(d["line"], d["column"]) for d in answer["diagnostics"]] == [(d.span.line, d.span.column) for d in cli.diagnostics]
