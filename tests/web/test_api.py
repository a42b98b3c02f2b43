"""The HTTP API mirrors the contract: the same answers as the CLI's JSON, the contract's error codes, and a
status that fits each code (engine.web.errors)."""

from __future__ import annotations

import json

import pytest

from engine.cli.score import answer_line
from engine.core.errors import CODES
from engine.web.errors import STATUS
from engine.web.limits import MAX_BATCH, MAX_BODY_BYTES
from tests.web.conftest import make_client

REQUEST = {"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True, "dora_indicators": "4s"}


def test_every_contract_code_has_a_status():
    assert set(STATUS) == CODES
    assert {STATUS[c] for c in ("invalid_request", "invalid_notation", "invalid_hand", "invalid_situation")} == {400}
    assert STATUS["unknown_rulebook"] == 404 and STATUS["limit_exceeded"] == 413
    assert {STATUS[c] for c in ("not_a_win", "no_yaku", "invalid_rulebook")} == {422}


def test_score_one_request_answers_as_the_json_lines_interface(client):
    response = client.post("/score", json=REQUEST)
    assert response.status_code == 200
    assert response.json() == answer_line(json.dumps(REQUEST), None)
    assert response.json()["total"] == 2600


def test_score_rulebook_moves_the_answer(client):
    kokushi = {"hand": "19m19p19s1234567z1m", "win": "1m", "seat_wind": "S"}
    house = client.post("/score", json=kokushi).json()
    wrc = client.post("/score", json={**kokushi, "rulebook": "wrc2025"}).json()
    assert (house["rulebook"], house["yakuman"]) == ("house", 2)
    assert (wrc["rulebook"], wrc["yakuman"]) == ("wrc2025", 1)


@pytest.mark.parametrize(
    ("request_body", "code", "status"),
    [
        ({"hand": "234m567m789p46s88p5s", "win": "5s"}, "no_yaku", 422),
        ({"hand": "234m567m789p46s88p5s"}, "invalid_request", 400),
        ({"hand": "234m567m789p46s88p5x", "win": "5s"}, "invalid_notation", 400),
        ({"hand": "1112223334445m", "win": "5m"}, None, 400),
        ({**REQUEST, "riichi": "yes"}, "invalid_request", 400),
        ({**REQUEST, "rulebook": "housee"}, "unknown_rulebook", 404),
        ({**REQUEST, "rulebook": "/etc/passwd"}, "unknown_rulebook", 404),
        ({**REQUEST, "rulebook": "../rulebooks/house.rulebook"}, "unknown_rulebook", 404),
        ([1] * (MAX_BATCH + 1), "limit_exceeded", 413),
        ("a string", "invalid_request", 400),
    ],
)
def test_score_errors_carry_the_contracts_code_and_status(client, request_body, code, status):
    response = client.post("/score", json=request_body)
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] in CODES and (code is None or error["code"] == code)
    assert "Traceback" not in error["message"]


def test_unknown_rulebook_message_quotes_no_file(client, tmp_path):
    secret = tmp_path / "secret.rulebook"
    secret.write_text("TOP SECRET LINE")
    answer = client.post("/score", json={**REQUEST, "rulebook": str(secret)}).json()
    assert answer["error"]["code"] == "unknown_rulebook"
    assert "TOP SECRET" not in answer["error"]["message"]


def test_score_list_answers_each_request_in_order(client):
    batch = [REQUEST, {"hand": "x"}, 5, {**REQUEST, "rulebook": "wrc2025"}]
    response = client.post("/score", json=batch)
    assert response.status_code == 200
    answers = response.json()
    assert [a["ok"] for a in answers] == [True, False, False, True]
    assert answers[1]["error"]["code"] == "invalid_request" and answers[2]["error"]["code"] == "invalid_request"
    assert answers[3]["rulebook"] == "wrc2025"


def test_body_that_is_not_json_is_invalid_request(client):
    response = client.post("/score", content=b"{not json", headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_request")
    response = client.post("/score", content=b"\xff\xfe", headers={"content-type": "application/json"})
    assert response.json()["error"]["code"] == "invalid_request"


def test_lone_surrogate_is_answered_in_valid_utf8(client):
    body = b'{"hand": "\\ud800", "win": "5s"}'
    response = client.post("/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    response.content.decode("utf-8")  # never raises


def test_body_past_the_bound_is_refused_before_it_is_read(client):
    big = b"[" + b" " * MAX_BODY_BYTES + b"]"
    response = client.post("/score", content=big, headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]["code"]) == (413, "limit_exceeded")

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    response = client.post("/check", content=chunks(), headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]["code"]) == (413, "limit_exceeded")


@pytest.mark.parametrize("path, item", [("/score", REQUEST), ("/analyze", {"tiles": "1112345678999m"})])
def test_a_list_past_the_operators_seconds_is_limit_exceeded(client, path, item):
    """The same list answers in full under the default bound and 413 under a bound it runs past
    (``--list-timeout``, here none at all)."""
    assert len(client.post(path, json=[item] * 50).json()) == 50
    with make_client(list_seconds=0.0) as short:
        response = short.post(path, json=[item] * 50)
    assert (response.status_code, response.json()["error"]["code"]) == (413, "limit_exceeded")
    assert response.json()["error"]["message"].startswith("the list took more than 0 s and was stopped at request ")


def test_analyze_one_and_many(client):
    answer = client.post("/analyze", json={"tiles": "1112345678999m"}).json()
    assert answer["ok"] and answer["shanten"] == 0 and len(answer["waits"]) == 9
    answers = client.post("/analyze", json=[{"tiles": "1234m"}, {"tiles": "12x"}, {"nope": 1}]).json()
    assert [a["ok"] for a in answers] == [True, False, False]
    assert client.post("/analyze", json={"tiles": "12x"}).status_code == 400


def test_rulebooks_and_schemas(client):
    rows = client.get("/rulebooks").json()
    assert {"house", "wrc2025"} <= {r["name"] for r in rows}
    assert client.get("/schema/score-request").json()["properties"]["hand"]["type"] == "string"
    response = client.get("/schema/nope")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "invalid_request")


def test_openapi_documents_every_endpoint(client):
    spec = client.get("/openapi.json").json()
    assert {"/score", "/analyze", "/check", "/explain", "/diff", "/rulebooks", "/schema/{name}"} <= set(spec["paths"])
    assert "ScoreRequest" in spec["components"]["schemas"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text


def test_docs_need_no_network(client):
    """Swagger UI's files come from this server (fastapi-offline), never from a CDN."""
    pytest.importorskip("fastapi_offline", reason="the `web` extra's fastapi-offline ships Swagger UI's files")
    docs = client.get("/docs").text
    assert "/static-docs/swagger-ui-bundle.js" in docs and "cdn." not in docs
    assert client.get("/static-docs/swagger-ui-bundle.js").status_code == 200


def test_unknown_route_and_method_answer_in_the_contracts_shape(client):
    assert client.get("/nope").json()["error"]["code"] == "invalid_request"
    response = client.get("/score")
    assert response.status_code == 405 and response.json()["ok"] is False


def test_validation_errors_of_fastapi_become_invalid_request(client):
    response = client.post("/check", json={"rulebook": 5})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_request")
    response = client.post("/check", json={"rulebook": {"text": "x", "file": "../../etc/passwd"}})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_request")
    response = client.post("/diff", json={"a": "house", "b": "house", "hands": 10**9})
    assert response.status_code == 400
