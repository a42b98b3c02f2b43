"""One rulebook-path policy at every file read: a symlink in an allowed folder leads nowhere
else, whether a request names it, a rulebook of the folder extends it, or an upload extends it in a server's
worker process. Real paths, inside an allowed folder, regular files only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.core.errors import EngineError
from engine.scoring import library
from ruledsl.diagnostics import RulebookError
from ruledsl.resolve import resolve
from ruledsl.rulebook_files import UnreadableRulebook, admit, confined

SECRET = "hunter2-secret"


@pytest.fixture
def folders(tmp_path: Path) -> Path:
    """``allowed/`` holds a good file, a link out to a rulebook elsewhere, a link to a non-rulebook file, a
    FIFO, and files extending each; ``elsewhere/`` is outside every allowed folder."""
    allowed, elsewhere = tmp_path / "allowed", tmp_path / "elsewhere"
    allowed.mkdir()
    elsewhere.mkdir()
    (elsewhere / "x.rulebook").write_text(f'rulebook outside "{SECRET}" extends house\n', encoding="utf-8")
    (elsewhere / "passwd").write_text(f"root:{SECRET}:0:0\n", encoding="utf-8")
    os.symlink(elsewhere / "x.rulebook", allowed / "outside.rulebook")
    os.symlink(elsewhere / "passwd", allowed / "pw.rulebook")
    os.symlink(elsewhere, allowed / "sub")  # a linked folder: its files are outside too
    os.mkfifo(allowed / "fifo.rulebook")
    (allowed / "good.rulebook").write_text('rulebook good "G" extends house\n', encoding="utf-8")
    for name in ("outside", "pw", "fifo"):
        (allowed / f"via_{name}.rulebook").write_text(f'rulebook via_{name} "V" extends {name}\n', encoding="utf-8")
    return allowed


def refusal(call) -> str:
    with pytest.raises((RulebookError, EngineError, UnreadableRulebook)) as caught:
        call()
    text = getattr(caught.value, "message", None) or str(caught.value)
    assert SECRET not in text and "root:" not in text
    return text


@pytest.mark.parametrize("name", ["outside", "pw", "fifo"])
def test_an_extends_through_a_link_out_of_the_folder_is_refused_when_confined(folders, name):
    with confined([str(folders)]):
        text = refusal(lambda: resolve(str(folders / f"via_{name}.rulebook")))
    assert f"extends `{name}`" in text and "may not be read" in text
    assert str(folders.parent / "elsewhere") not in text  # never the real path


def test_a_link_to_a_file_not_named_rulebook_is_refused_even_unconfined(folders):
    """`extends pw` with pw.rulebook -> /etc/passwd: the real name must end in `.rulebook` too."""
    text = refusal(lambda: resolve(str(folders / "via_pw.rulebook")))
    assert "does not end in `.rulebook`" in text


def test_good_files_and_bundled_bases_still_load_when_confined(folders):
    with confined([str(folders)]):
        assert resolve(str(folders / "good.rulebook")).name == "good"
        assert resolve("house").name == "house"


@pytest.mark.parametrize("path", ["outside.rulebook", "sub/x.rulebook", "fifo.rulebook", "missing.rulebook"])
def test_admit_is_the_one_policy(folders, path):
    with confined([str(folders)]), pytest.raises(UnreadableRulebook) as caught:
        admit(folders / path)
    assert "elsewhere" not in str(caught.value) or path.startswith("sub")  # the name as written, no more


def test_the_library_and_the_request_policy_confine_every_file_of_a_chain(folders):
    policy = library.RulebookPolicy.of(None, [str(folders)])
    assert policy.scorer("good.rulebook") is not None
    for name in ("via_outside.rulebook", "via_pw.rulebook", "outside.rulebook", "sub/x.rulebook"):
        refusal(lambda name=name: policy.scorer(name))
    # the same file unconfined (a local user's own command) loads: the cache keeps the two apart
    assert library.rulebook(str(folders / "via_outside.rulebook")).name == "via_outside"
    refusal(lambda: policy.scorer("via_outside.rulebook"))


def test_a_batch_line_naming_a_chain_that_leaves_the_folder_is_an_error_line(folders):
    from engine.cli.score import answer_line

    policy = library.RulebookPolicy.of(None, [str(folders)])
    line = '{"hand": "123m456p789s11z 22z", "win": "tsumo", "rulebook": "via_outside.rulebook"}'
    answer = answer_line(line, None, None, policy)
    assert answer["ok"] is False and SECRET not in str(answer)


@pytest.fixture
def server(folders):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from tests.web.conftest import make_client

    with make_client(rulebook_dirs=(str(folders),)) as client:
        yield client


def test_uploads_in_the_worker_cannot_extend_through_a_link(server, folders):
    """The worker process runs in the allowed folder and is confined there: an upload's `extends outside` (or
    `extends pw`) is a diagnostic, never a compile of the linked file, and its text is not quoted back."""
    for name in ("outside", "pw", "fifo"):
        upload = {"text": f'rulebook up "U" extends {name}\n', "file": "up.rulebook"}
        for path, payload in (
            ("/check", {"rulebook": upload}),
            ("/explain", {"rulebook": upload}),
            ("/diff", {"a": "house", "b": upload}),
        ):
            response = server.post(path, json=payload)
            text = response.text
            assert SECRET not in text and "root:" not in text, (path, name, text[:300])
            assert str(folders.parent / "elsewhere") not in text
            if path == "/check":
                assert response.json()["ok"] is False or response.json().get("errors"), text[:300]
    assert server.post("/check", json={"rulebook": {"text": 'rulebook up "U" extends good\n', "file": "up.rulebook"}}).json()["ok"]


def test_named_rulebooks_in_the_worker_are_confined_too(server):
    for name in ("via_outside.rulebook", "outside.rulebook", "sub/x.rulebook", "via_pw.rulebook"):
        for path, payload in (("/check", {"rulebook": name}), ("/explain", {"rulebook": name}), ("/score", {"hand": "123m456p789s11z 22z", "win": "tsumo", "rulebook": name})):
            response = server.post(path, json=payload)
            assert SECRET not in response.text and "root:" not in response.text, (path, name)
            assert response.status_code >= 400 or response.json().get("ok") is False, (path, name, response.text[:200])


def test_the_listing_offers_no_link_out_of_the_folder(server):
    names = {row["name"] for row in server.get("/rulebooks").json() if row["file"]}
    assert "good.rulebook" in names
    assert not names & {"outside.rulebook", "pw.rulebook", "fifo.rulebook"}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(base: str, path: str, payload: object) -> tuple[int, str]:
    import json
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        base + path, data=json.dumps(payload).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_real_riichi_serve_refuses_the_symlinks_of_its_rulebook_dir(folders):
    """`riichi serve --rulebook-dir` as an operator starts it, on a free port: the same refusals end to end."""
    pytest.importorskip("fastapi")
    import subprocess
    import sys
    import time
    import urllib.request

    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "serve", "--port", str(port), "--rulebook-dir", str(folders)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(base + "/health", timeout=2):
                    break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, "riichi serve did not start"
                time.sleep(0.2)
        for name in ("outside", "pw"):
            upload = {"text": f'rulebook up "U" extends {name}\n', "file": "up.rulebook"}
            status, text = _post(base, "/check", {"rulebook": upload})
            assert SECRET not in text and "root:" not in text and "may not be read" in text, (status, text[:300])
        status, text = _post(base, "/check", {"rulebook": "via_outside.rulebook", "examples": False})
        assert SECRET not in text and '"ok": false' in text.replace('"ok":false', '"ok": false'), (status, text[:300])
    finally:
        process.terminate()
        process.wait(timeout=20)
