"""``POST /impact`` and the Impact page through the test client: a report of the sample games shipped with the
server, bounded to named rulebooks and sample names (a path from a request is never opened)."""

from __future__ import annotations

from engine.web.impact import SAMPLES, bare_names, sample_paths, samples_rulebook


def _charged(report):
    return {item["item"]: item for item in report["items"] if item["wins"] or item["rounds_course_changed"]}


def test_impact_of_the_samples_matches_the_cli_report(client):
    from engine.impact import run_impact

    played, other = samples_rulebook(), "mleague"
    answer = client.post("/impact", json={"a": played, "b": other})
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["ok"] is True
    assert (report["a"], report["b"], report["files"]) == (played, other, len(SAMPLES))
    expected = bare_names(run_impact(played, other, sample_paths(None), workers=1).to_json())
    assert {k: v for k, v in report.items() if k != "ok"} == expected
    assert report["rounds_left_out"] == 0  # the samples' own rulebook reproduces every round
    charged = _charged(report)
    assert charged["limit kiriage"]["wins"] >= 1 and charged["limit kiriage"]["points_to_winners"] > 0
    assert charged["setting multiple_ron"]["rounds_course_changed"] == 1  # the double ron of one sample
    files = {g["file"] for g in report["games"]["diverged_examples"]} | {
        w["file"] for item in report["items"] for w in item["examples"]
    }
    assert files and all("/" not in name and name in SAMPLES for name in files)


def test_a_changed_win_carries_its_hand_and_both_results(client):
    report = client.post("/impact", json={"a": samples_rulebook(), "b": "mleague", "wins_only": True}).json()
    assert report["ok"] and report["changed_wins"]
    win = next(w for item in _charged(report).values() for w in item["examples"])
    assert " win " in win["hand"] and win["a"]["ok"]
    assert win["b"]["limit"] and not win["a"]["limit"] and win["delta"] == win["b"]["total"] - win["a"]["total"] > 0
    assert report["rounds_resettled"]["files"] == 0  # wins only: no round replayed


def test_one_sample_by_name(client):
    name = next(iter(SAMPLES))
    report = client.post("/impact", json={"a": samples_rulebook(), "b": samples_rulebook(), "logs": [name]}).json()
    assert report["ok"] and report["files"] == 1 and report["changed_rounds"] == 0


def test_a_path_is_never_opened(client):
    for logs in (["../../../etc/passwd"], ["/etc/passwd"], [next(iter(SAMPLES)) + "/.."], []):
        answer = client.post("/impact", json={"a": samples_rulebook(), "b": samples_rulebook(), "logs": logs})
        assert answer.status_code == 400, logs
        assert answer.json()["error"]["code"] == "invalid_request"
        assert "Traceback" not in answer.text
    answer = client.post("/impact", json={"a": "/etc/passwd", "b": samples_rulebook()})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_rulebook"


def test_bad_requests_are_refused_with_the_contract_shape(client):
    for payload in ({"a": samples_rulebook()}, {"a": 1, "b": 2}, {"a": "x", "b": "y", "paths": ["/"]},
                    {"a": samples_rulebook(), "b": samples_rulebook(), "logs": "all"}):
        answer = client.post("/impact", json=payload)
        assert answer.status_code == 400, payload
        assert answer.json()["ok"] is False
    assert client.post("/impact", content=b"{", headers={"content-type": "application/json"}).status_code == 400


def test_the_page_lists_the_samples_and_links_them(client):
    page = client.get("/impact")
    assert page.status_code == 200
    assert 'href="/impact"' in page.text and "/static/impact.js" in page.text
    for name in SAMPLES:
        assert name in page.text
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/impact.js").status_code == 200


def test_the_report_keeps_only_file_names():
    data = {"file": "/srv/logs/a.mjlog", "games": {"examples": [{"file": "b/c.json", "x": 1}]}, "n": [1, "d/e"]}
    assert bare_names(data) == {"file": "a.mjlog", "games": {"examples": [{"file": "c.json", "x": 1}]}, "n": [1, "d/e"]}


def test_impact_is_in_the_openapi_document(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert "/impact" in paths and "post" in paths["/impact"]
