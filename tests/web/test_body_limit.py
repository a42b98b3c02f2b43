"""``BodyLimit``, the middleware that keeps a request body past the bound out of the server, driven with plain
ASGI callables: whatever the application does with the cut body (lets the cut-off propagate, turns it into another
error, or has already started answering), the client gets exactly one answer, and an error of the application
that has nothing to do with the bound is never hidden behind a 413.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from engine.web.body_limit import BodyLimit

LIMIT = 10
Message = dict[str, Any]


def chunks(*parts: bytes) -> Any:
    """A client's ``receive``: the body in the given pieces."""
    queue = [{"type": "http.request", "body": part, "more_body": i < len(parts) - 1} for i, part in enumerate(parts)]

    async def receive() -> Message:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    return receive


def serve(app: Any, receive: Any, headers: list[tuple[bytes, bytes]] | None = None, scope_type: str = "http") -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": scope_type, "headers": headers or []}
    asyncio.run(BodyLimit(app, LIMIT)(scope, receive, send))
    return sent


def refusal(sent: list[Message]) -> dict[str, Any]:
    """The one 413 answer the client got."""
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 413
    answer: dict[str, Any] = json.loads(sent[1]["body"])
    assert answer["error"]["code"] == "limit_exceeded" and "larger than 10 bytes" in answer["error"]["message"]
    return answer


async def answer_ok(send: Any, text: bytes = b"ok") -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": text})


def reader(on_error: str) -> Any:
    """An application that reads the whole body, then answers; on the cut-off it ``propagates``, ``converts``
    it into an error of its own, or ``answers`` 400 (what a JSON parser of the cut body would do)."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        try:
            while (await receive()).get("more_body"):
                pass
        except Exception as exc:
            if on_error == "propagates":
                raise
            if on_error == "converts":
                raise RuntimeError("the body ended early") from exc
            await send({"type": "http.response.start", "status": 400, "headers": []})
            await send({"type": "http.response.body", "body": b"bad json"})
            return
        await answer_ok(send)

    return app


def test_a_body_within_the_bound_reaches_the_application() -> None:
    sent = serve(reader("propagates"), chunks(b"12345", b"67890"))
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"ok"


@pytest.mark.parametrize("on_error", ["propagates", "converts", "answers"])
def test_a_chunked_body_past_the_bound_gets_one_refusal_whatever_the_application_does(on_error: str) -> None:
    refusal(serve(reader(on_error), chunks(b"123456", b"789012")))


def test_a_content_length_that_is_no_number_is_counted_as_it_arrives() -> None:
    headers = [(b"content-length", b"twelve")]
    refusal(serve(reader("propagates"), chunks(b"123456", b"789012"), headers))
    assert serve(reader("propagates"), chunks(b"1234"), headers)[0]["status"] == 200


def test_a_declared_length_past_the_bound_is_refused_before_the_application_runs() -> None:
    called = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        called.append(True)

    refusal(serve(app, chunks(b""), [(b"host", b"x"), (b"content-length", b"11")]))
    assert called == []


def test_an_error_of_the_application_unrelated_to_the_bound_is_not_hidden() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        raise KeyError("a bug")

    with pytest.raises(KeyError):
        serve(app, chunks(b"short"))


def test_once_the_answer_has_started_the_cut_off_sends_nothing_more() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        while (await receive()).get("more_body"):
            pass

    sent = serve(app, chunks(b"123456", b"789012"))
    assert [m["type"] for m in sent] == ["http.response.start"] and sent[0]["status"] == 200


def test_an_application_that_answers_twice_after_the_cut_off_is_refused_once() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        try:
            while (await receive()).get("more_body"):
                pass
        except Exception:
            pass
        await answer_ok(send, b"first")
        await answer_ok(send, b"second")

    refusal(serve(app, chunks(b"123456", b"789012")))


def test_a_start_sent_twice_reaches_the_client_once() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.start", "status": 500, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent = serve(app, chunks(b"short"))
    assert [(m["type"], m.get("status")) for m in sent] == [("http.response.start", 200), ("http.response.body", None)]


def test_other_scopes_pass_through_untouched() -> None:
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])
        await send({"type": "lifespan.startup.complete"})

    sent = serve(app, chunks(b"x" * 100), [(b"content-length", b"100")], scope_type="lifespan")
    assert seen == ["lifespan"] and sent == [{"type": "lifespan.startup.complete"}]
