"""What the API says about a bad request or a bad rulebook: the status the README promises, and messages that name
the field and say what is wrong; every POST endpoint documents its body in the OpenAPI description."""

from __future__ import annotations

import json

import pytest

from tests.web.test_rulebooks_api import VARIANT


def test_check_of_a_rulebook_with_errors_is_422_with_its_diagnostics(client):
    typo = VARIANT.replace("basic_points ==", "basic_pointz ==")
    response = client.post("/check", json={"rulebook": {"text": typo, "file": "myclub.rulebook"}})
    assert response.status_code == 422
    answer = response.json()
    errors = [d for d in answer["diagnostics"] if d["severity"] == "error"]
    assert answer["ok"] is False and answer["errors"] == 1 and [d["line"] for d in errors] == [5]
    failing = VARIANT.replace("{total: 8000}", "{total: 7700}")
    assert client.post("/check", json={"rulebook": {"text": failing, "file": "myclub.rulebook"}}).status_code == 422


def test_check_with_warnings_only_is_200(client):
    response = client.post("/check", json={"rulebook": {"text": VARIANT}})  # header names `myclub`, file differs
    answer = response.json()
    assert response.status_code == 200 and answer["ok"] is True
    # the header's name against the file's, and house's mangan clause naming the kiriage this file adds
    assert answer["errors"] == 0 and answer["warnings"] == 2


@pytest.mark.parametrize(
    ("path", "payload", "words"),
    [
        ("/analyze", {"nope": 1}, "missing field `tiles`; unknown field `nope`"),
        ("/analyze", {"tiles": 5}, "`tiles` must be a string, got a number"),
        ("/analyze", {"tiles": "1" * 201}, "`tiles` must have at most 200 characters, got 201 characters"),
        ("/check", {"rulebook": 5}, "`rulebook` must be a string or an object, got a number"),
        ("/check", {"rulebook": {"text": "x", "file": "../x.rulebook"}}, "`rulebook.file` must be a bare file name"),
        ("/check", {"rulebook": "house", "examples": "yes"}, "`examples` must be true or false, got a string"),
        ("/explain", {"rulebook": "house", "line": 0}, "`line` must be at least 1, got `0`"),
        ("/diff", {"a": "house", "b": "house", "hands": 10**9}, "`hands` must be at most"),
        ("/impact", {"a": "house", "b": "house", "logs": "x"}, "`logs` must be a list, got a string"),
    ],
)
def test_a_validation_error_names_the_field_and_says_what_is_wrong(client, path, payload, words):
    response = client.post(path, json=payload)
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert words in message
    assert "validation error" not in message and "Request" not in message


def test_analyze_in_a_list_words_each_error_the_same_way(client):
    answers = client.post("/analyze", json=[{"tiles": 5}, {"tiles": "123m", "x": 1}]).json()
    assert [a["error"]["message"] for a in answers] == ["`tiles` must be a string, got a number", "unknown field `x`"]


def test_every_post_endpoint_documents_its_request_body(client):
    spec = client.get("/openapi.json").json()
    posts = {path: ops["post"] for path, ops in spec["paths"].items() if "post" in ops}
    assert {"/score", "/analyze", "/check", "/explain", "/diff", "/impact"} <= set(posts)
    for path, op in posts.items():
        schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        assert schema, f"POST {path} documents no request body"
    analyze = posts["/analyze"]["requestBody"]["content"]["application/json"]["schema"]
    assert analyze["oneOf"][0] == {"$ref": "#/components/schemas/AnalyzeRequest"}
    assert spec["components"]["schemas"]["AnalyzeRequest"]["properties"]["tiles"]["type"] == "string"
    assert "422" in posts["/check"]["responses"]


def test_tile_set_follows_the_rulebooks_table_settings(client):
    """The Score page's palette: a rulebook without red fives offers none, a three-player one no 2m-8m."""
    four = client.get("/tile-set", params={"rulebook": "tenhou"}).json()
    assert four["players"] == 4 and four["red_fives"] == ["0m", "0p", "0s"] and len(four["tiles"]) == 37
    nored = client.get("/tile-set", params={"rulebook": "tenhou_nored"}).json()
    assert nored["red_fives"] == [] and len(nored["tiles"]) == 34
    sanma = client.get("/tile-set", params={"rulebook": "tenhou_sanma"}).json()
    assert sanma["players"] == 3 and not {f"{n}m" for n in range(2, 9)} & set(sanma["tiles"])
    assert {"1m", "9m", "0p", "0s"} <= set(sanma["tiles"]) and "0m" not in sanma["tiles"]
    response = client.get("/tile-set", params={"rulebook": "nosuch"})
    assert (response.status_code, response.json()["error"]["code"]) == (404, "unknown_rulebook")
    response = client.get("/tile-set")
    assert response.status_code == 400 and response.json()["error"]["message"] == "missing field `rulebook`"


def test_the_score_page_carries_the_default_rulebooks_tile_set(client):
    page = client.get("/").text
    data = json.loads(page.split('id="page-data">', 1)[1].split("</script>", 1)[0])
    assert data["tile_set"]["rulebook"] == data["default_rulebook"] and len(data["tile_set"]["tiles"]) >= 27


def test_a_score_request_is_worded_by_the_same_formatter(client):
    answer = client.post("/score", json={"hand": 5, "win": "1m", "seat_wind": "X"}).json()
    assert answer["error"]["message"] == "`hand` must be a string, got a number; `seat_wind` must be 'E', 'S', 'W' or 'N', got `X`"
