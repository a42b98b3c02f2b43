"""Fuzzing the doors of untrusted input: rulebook text, JSON request lines, game logs (mjlog,
tenhou.net/6 and mjai), and the bodies of the HTTP server's endpoints.

Every generated input must get a clean outcome within a per-input time bound: a positioned diagnostic (rulebook),
an answer with a contract code (request line, HTTP body: never a 500 nor a traceback), or an ``EngineError`` with
a contract code (log). An internal error (any other exception, an ``internal_error`` answer, or the JSON-lines loop's last-resort answer) fails the test. The default run keeps
a small sample of each; ``pytest -m slow`` runs more than 100,000 inputs in all (``SLOW_COUNTS``): each slow test
checks and prints that its own share ran, so the count holds in any order and under pytest-xdist.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import jsonlines
from engine.cli.score import _Scorers, answer_line
from engine.core.errors import EngineError
from engine.replay.mjai_log import read_mjai_log
from engine.replay.mjlog import parse_mjlog, read_mjlog
from engine.replay.tenhou6 import read_tenhou6
from engine.scoring.library import RulebookPolicy
from engine.scoring.score import Scorer
from ruledsl.check import check
from ruledsl.compile import compile_rulebook
from ruledsl.diagnostics import RulebookError
from ruledsl.render import render, render_expr
from ruledsl.resolve import resolve
from tests.outcomes import CLEAN_CODES
from tests.ruledsl import strategies as S
from tests.spec_files import TENHOU

ROOT = Path(__file__).resolve().parents[2]
DATA = TENHOU  # vendored: tests/data/tenhou
BUNDLED = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "rulebooks").glob("*.rulebook"))}
SMALL_BUNDLED = sorted(name for name, text in BUNDLED.items() if len(text) < 4000)
PER_INPUT_SECONDS = 5.0
# Examples per slow test; the sum is the issue's "at least 100,000 generated inputs".
# Per slow test: hypothesis examples, and inputs per example (the example itself and seeded mutants of it: a
# mutant costs only its own processing, where hypothesis's generation of a rulebook text costs tens of ms).
SLOW_EXAMPLES = {
    "rulebook_grammar": 600,
    "rulebook_expressions": 400,
    "rulebook_vocabulary": 150,
    "rulebook_mutations": 600,
    "request_objects": 3_000,
    "request_lines": 1_300,
    "log_mjlog": 500,
    "log_tenhou6": 300,
    "log_mjai": 300,
    "http_bodies": 300,
}
PER_EXAMPLE = {
    "rulebook_grammar": 10,
    "request_objects": 10,
    "request_lines": 40,
    "log_mjlog": 20,
    "log_tenhou6": 10,
    "log_mjai": 10,
    "http_bodies": 10,
}
SLOW_COUNTS = {name: n * PER_EXAMPLE.get(name, 1) for name, n in SLOW_EXAMPLES.items()}
RAN: dict[str, int] = dict.fromkeys(SLOW_COUNTS, 0)


def fast(name: str):
    return settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)


# RIICHI_FUZZ_SCALE=0.1 runs a tenth of the slow counts (to time them); the count check then scales too.
SCALE = float(os.environ.get("RIICHI_FUZZ_SCALE", "1"))


def slow(name: str):
    return settings(max_examples=max(1, int(SLOW_EXAMPLES[name] * SCALE)), deadline=None, suppress_health_check=list(HealthCheck), database=None)


class Timer:
    """Asserts the per-input time bound around one input (named in the failure). Processor time, not wall time: the
    bound is about the work an input costs, which a loaded machine does not change."""

    def __init__(self, subject: object = "", seconds: float = PER_INPUT_SECONDS) -> None:
        self.subject = subject
        self.seconds = seconds

    def __enter__(self) -> Timer:
        self.start = time.process_time()
        return self

    def __exit__(self, *exc) -> None:
        elapsed = time.process_time() - self.start
        assert elapsed < self.seconds, f"one input took {elapsed:.1f} s: {self.subject!r:.2000}"


# ---- rulebooks ------------------------------------------------------------------------------------------------

REQUESTS = [
    {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True, "dora_indicators": "4s"},
    {"hand": "123m456m789p23s99p1s", "win": "1s", "tsumo": True, "seat_wind": "S"},
    {"hand": "19m19p19s1234567z1m", "win": "1m"},
    {"hand": "22334455667788p", "win": "8p", "honba": 2, "riichi_sticks": 1},
]


def rulebook_outcome(text: str) -> str:
    """Read, check, compile and score with a rulebook text; the outcome's kind, or an AssertionError."""
    with Timer(text):
        try:
            resolved = resolve("fuzz.rulebook", text=text, file="fuzz.rulebook")
        except RulebookError as exc:
            return _diagnosed(exc.diagnostics)
        diagnostics = check(resolved)
        if any(d.is_error for d in diagnostics):
            return _diagnosed(diagnostics)
        compiled = compile_rulebook(resolved)
        try:
            scorer = Scorer(compiled)
        except EngineError as exc:
            assert exc.code in CLEAN_CODES
            return "refused by the scorer"
        for request in REQUESTS:
            answer = jsonlines.answer_text("", lambda _, r=request: scorer.score_json(dict(r)))
            _assert_contract_answer(answer)
        return "scored"


def _diagnosed(diagnostics) -> str:
    assert diagnostics, "an error must carry a diagnostic"
    for d in diagnostics:
        assert d.span.line >= 1 and d.span.column >= 1
        assert d.render().startswith(f"{d.span.file}:{d.span.line}:{d.span.column}: ")
    return "diagnostic"


def _assert_contract_answer(answer: dict) -> None:
    if answer["ok"]:
        assert all(type(v) is int for v in answer["payments"].values()) and type(answer["total"]) is int
        return
    error = answer["error"]
    assert error["code"] in CLEAN_CODES, error
    assert not error["message"].startswith("this request could not be answered ("), error["message"]  # internal


def _expression_rulebooks() -> st.SearchStrategy[str]:
    fields = st.sampled_from(
        [
            ("yaku", "han = 1\n  when = {e}"),
            ("bonus", "han = {e}"),
            ("fu", "fu = {e}"),
            ("fu", "fixed = {e}\n  when = raw_fu > 20"),
            ("limit", "when = {e}\n  base = {e}\n  tier = \"x\""),
            ("payment", 'when = {e}\n  from = "discarder"\n  amount = {e}'),
        ]
    )
    return st.tuples(fields, S.expressions.map(render_expr), st.sampled_from(["house", "tenhou_east"])).map(
        lambda t: f'rulebook fuzz extends {t[2]}\n@clause("c")\n{t[0][0]} fuzzed {{\n  {t[0][1].format(e=t[1])}\n}}\n'
    )


def _grammar(text: str) -> None:
    RAN["rulebook_grammar"] += 1
    rulebook_outcome(text)


def _expressions(text: str) -> None:
    RAN["rulebook_expressions"] += 1
    rulebook_outcome(text)


def _vocabulary(text: str) -> None:
    RAN["rulebook_vocabulary"] += 1
    rulebook_outcome(text)


def _mutation(text: str) -> None:
    RAN["rulebook_mutations"] += 1
    rulebook_outcome(text)


GRAMMAR = st.one_of(S.rulebook_texts(), S.structured_texts(), S.rulebook_texts(start="expr").map(lambda e: f"rulebook r\nyaku y {{ han = 1 when = {e} }}"))
MUTATIONS = st.sampled_from(SMALL_BUNDLED).flatmap(lambda name: S.mutations(BUNDLED[name]))

# ---- JSON request lines ---------------------------------------------------------------------------------------

FIELDS = [
    "rulebook", "hand", "win", "melds", "tsumo", "seat_wind", "round_wind", "riichi", "double_riichi", "ippatsu", "haitei",
    "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou", "dora_indicators", "ura_indicators", "kita", "honba",
    "riichi_sticks",
]
TILE_PIECES = ["1m", "23p", "0s", "5z", "9", "m", " ", "123456789m", "11z", "5s", "0z", "8z", "4444p", "x", "é"]
TILE_TEXT = st.one_of(
    st.sampled_from(["234m567m789p46s88p5s", "5s", "19m19p19s1234567z1m", "1m", "0m", "11111z", "123m", ""]),
    st.lists(st.sampled_from(TILE_PIECES), max_size=8).map("".join),
)
# a hand's length of single tiles, any digit of any suit: a tile that does not exist (0z, 8z, 9z) sits among tiles
# that otherwise make a hand, so the reader meets it after the sizes and shapes have passed
SINGLE_TILES = st.sampled_from([f"{digit}{suit}" for digit in "0123456789" for suit in "mpsz"])
HAND_SIZED = st.lists(SINGLE_TILES, min_size=13, max_size=14).flatmap(
    lambda tiles: st.sampled_from(tiles).map(lambda win: {"hand": "".join(tiles), "win": win})
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 1005),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    TILE_TEXT,
    st.sampled_from(["E", "S", "W", "N", "house", "/dev/stdin", "../house.rulebook", "true", "5", "\ud800"]),
)
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.text(max_size=4), SCALARS, max_size=3))
MELDS = st.lists(st.fixed_dictionaries({"type": st.sampled_from(["chi", "pon", "daiminkan", "kakan", "ankan", "x"]), "tiles": TILE_TEXT}), max_size=4)
REQUEST_OBJECTS = st.one_of(
    st.builds(
        lambda hand, win, extra, melds: {"hand": hand, "win": win, **extra, **({"melds": melds} if melds else {})},
        TILE_TEXT,
        TILE_TEXT,
        st.dictionaries(st.sampled_from(FIELDS[3:]), SCALARS, max_size=4),
        MELDS,
    ),
    HAND_SIZED,
    st.builds(lambda base, extra: {**base, **extra}, st.sampled_from(REQUESTS), st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), VALUES, max_size=3)),
    VALUES,
)
POLICY = RulebookPolicy.of(None)
SCORERS = _Scorers()


def request_answer(line: bytes) -> dict:
    with Timer(line):
        answer = jsonlines.answer_bytes(line, lambda text: answer_line(text, None, SCORERS, POLICY))
        assert json.loads(jsonlines.encode(answer).decode("utf-8")) is not None  # valid UTF-8 JSON, always
    _assert_contract_answer(answer)
    return answer


def _object(data, ascii_only: bool) -> None:
    RAN["request_objects"] += 1
    try:
        line = json.dumps(data, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    except ValueError:
        return
    request_answer(line.replace(b"\n", b" "))


def _line(raw: bytes) -> None:
    RAN["request_lines"] += 1
    request_answer(raw.split(b"\n")[0])


LINES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(REQUESTS).map(lambda r: json.dumps(r).encode()).flatmap(
        lambda good: st.tuples(st.integers(0, len(good)), st.integers(0, 6), st.binary(max_size=6)).map(
            lambda t: good[: t[0]] + t[2] + good[t[0] + t[1] :]
        )
    ),
)

# ---- game logs ------------------------------------------------------------------------------------------------


def _log_samples(folder: str, suffix: str, limit: int = 3) -> list[bytes]:
    files = sorted((DATA / folder).glob(f"*{suffix}"))[:limit]
    out = []
    for path in files:
        raw = path.read_bytes()
        out.append(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    return out


MJLOGS = _log_samples("mjlog", ".mjlog")
TENHOU6 = _log_samples("json", ".json")


def _mutated(samples: list[bytes], cut: int) -> st.SearchStrategy[bytes]:
    if not samples:
        return st.binary(max_size=300)
    return st.sampled_from(samples).flatmap(
        lambda raw: st.tuples(st.integers(0, min(len(raw), cut)), st.integers(0, min(len(raw), cut)), st.binary(max_size=8), st.booleans()).map(
            lambda t: _splice(raw[: max(t[0], t[1]) + 400] if t[3] else raw, min(t[0], t[1]), t[2])
        )
    )


def _splice(raw: bytes, at: int, insert: bytes) -> bytes:
    return raw[:at] + insert + raw[at + len(insert) :]


def log_outcome(reader, data: bytes, tmp: Path, gzipped: bool) -> str:
    path = tmp / {read_tenhou6: "fuzz.json", read_mjai_log: "fuzz.mjson"}.get(reader, "fuzz.mjlog")
    path.write_bytes(gzip.compress(data, 1) if gzipped else data)
    with Timer(data[:300]):
        try:
            reader(path)
        except EngineError as exc:
            assert exc.code in CLEAN_CODES
            return "refused"
    return "read"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzzlogs")


def _mjlog(data: bytes, gz: bool, scratch: Path) -> None:
    RAN["log_mjlog"] += 1
    log_outcome(read_mjlog, data, scratch, gz)


def _tenhou6(data: bytes, scratch: Path) -> None:
    RAN["log_tenhou6"] += 1
    log_outcome(read_tenhou6, data, scratch, False)


def _mjai(data: bytes, gz: bool, scratch: Path) -> None:
    RAN["log_mjai"] += 1
    log_outcome(read_mjai_log, data, scratch, gz)


def _mjai_samples(games: int = 2) -> list[bytes]:
    """mjai logs of whole games (the riichienv corpus's first games, one event a line)."""
    from tests.oracle.corpus import DATA as CORPUS
    from tests.oracle.corpus import read_games

    path = CORPUS / "tenhou4p.jsonl.gz"
    if not path.exists():
        return []
    return ["".join(json.dumps(e) + "\n" for e in game["events"]).encode() for game in read_games(path, games)]


MJAI = _mjai_samples()
START = b'{"type":"start_game","names":["a","b","c","d"]}\n'
MJAI_INPUTS = st.one_of(
    _mutated(MJAI, 6000),
    st.binary(max_size=200),
    st.sampled_from(
        [
            START + b"[" * 5000 + b"\n",
            START + b'{"type":"dahai","x":[' + b"{}," * 6000 + b"{}]}\n",
            START * 3 + b"{}\n" * 2000,
            START + b'{"type":"start_kyoku","tehais":' + b"[" * 40 + b"]" * 40 + b"}\n",
            b'{"type":"start_kyoku","bakaze":"E","kyoku":99,"honba":-1,"oya":7,"scores":[],"tehais":[[]]}\n',
        ]
    ),
)
MJLOG_INPUTS = st.one_of(_mutated(MJLOGS, 4000), st.binary(max_size=200), st.sampled_from([b"<mjloggm>" * 3, b"<" * 5000, b"<a>" * 20000 + b"</a>" * 20000]))
TENHOU6_INPUTS = st.one_of(_mutated(TENHOU6, 3000), st.sampled_from([b"[" * 100000, b'{"log": [[[' + b"[" * 3000 + b"]]]]}", b"{}", b'{"rule": 5, "log": 3}']))

# ---- HTTP bodies: the FastAPI app in process (its test client), worker processes included -----------------------

SCORE = {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True, "dora_indicators": "4s"}
SMALL_RULEBOOK = 'rulebook club "Club" extends tenhou\n@clause("club rule 1")\nyaku extra "Extra" {\n  han = 1\n  when = riichi and tsumo\n}\n'
ENDPOINTS = [
    ("/score", SCORE),
    ("/score", [SCORE, {**SCORE, "rulebook": "tenhou"}]),
    ("/analyze", {"tiles": "123m456p789s1122z"}),
    ("/analyze", [{"tiles": "123m456p789s1122z"}, {"tiles": "19m19p19s1234567z"}]),
    ("/check", {"rulebook": {"text": SMALL_RULEBOOK, "file": "club.rulebook"}, "examples": False}),
    ("/explain", {"rulebook": "tenhou", "item": "pinfu"}),
    ("/explain", {"rulebook": {"text": SMALL_RULEBOOK, "file": "club.rulebook"}, "line": 3}),
    ("/diff", {"a": "tenhou", "b": {"text": SMALL_RULEBOOK, "file": "club.rulebook"}, "hands": 20}),
]
HTTP_JOB_SECONDS = 20.0  # a worker job's bound: a rulebook's check takes seconds on a loaded machine
HTTP_BODIES = st.sampled_from([(path, json.dumps(body).encode()) for path, body in ENDPOINTS])


@pytest.fixture(scope="module")
def http():
    """One application for the module, one worker bounded to ``HTTP_JOB_SECONDS`` a job (a mutant asking for a
    long diff is then `limit_exceeded`)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from engine.web.app import create_app
    from engine.web.state import ServerOptions

    with TestClient(create_app(ServerOptions(timeout=HTTP_JOB_SECONDS, workers=1)), base_url="http://127.0.0.1") as client:
        yield client


def http_outcome(client, path: str, body: bytes) -> int:
    """POST a body; the answer must be JSON, a proper contract error when not 2xx, never a 500 or a traceback."""
    with Timer((path, body[:300]), HTTP_JOB_SECONDS + 10):
        response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code < 500 or response.status_code == 503, (path, body[:300], response.status_code, response.text[:500])
    assert "Traceback" not in response.text, response.text[:500]
    data = response.json()
    if response.status_code == 422 and path == "/check" and "diagnostics" in data:  # the check's own report of a bad file
        assert data["ok"] is False and data["errors"] >= 1, data
        assert all(d["file"] and d["line"] >= 1 and d["column"] >= 1 and d["rendered"] for d in data["diagnostics"]), data
    elif response.status_code >= 400:
        assert data["ok"] is False and data["error"]["code"] in CLEAN_CODES and data["error"]["message"], data
    elif isinstance(data, list):  # a list's answers, each in its place: a bug answers its item, still a bug
        for item in data:
            assert item.get("ok") is not False or item["error"]["code"] in CLEAN_CODES, item
    return response.status_code


# ---- seeded mutants ------------------------------------------------------------------------------------------

PIECES = [b"{", b"}", b"[", b"]", b"(", b")", b'"', b":", b",", b"\\", b"\\ud800", b"\xff", b"\x00", b"\r", b"<", b">", b"/",
          b"=", b" ", b"9" * 25, b"-1", b"true", b"null", b"..", b"^", b"1..99999", b"any(", b"\xe2\x80\xae", b"\n"]


def mutants(data: bytes, seed: int, count: int) -> list[bytes]:
    """``count`` inputs: ``data`` itself, then variants with one to three random edits (insert a piece, delete,
    overwrite a byte, duplicate a slice, truncate), reproducible from ``seed``."""
    rng = random.Random(seed)
    out = [data]
    while len(out) < count:
        variant = data
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(variant))
            op = rng.randrange(5)
            if op == 0:
                variant = variant[:at] + rng.choice(PIECES) + variant[at:]
            elif op == 1:
                variant = variant[:at] + variant[at + rng.randint(1, 8) :]
            elif op == 2:
                variant = variant[:at] + bytes([rng.randrange(256)]) + variant[at + 1 :]
            elif op == 3:
                variant = variant[:at] + variant[max(0, at - 40) : at] * rng.randint(1, 50) + variant[at:]
            else:
                variant = variant[:at]
        out.append(variant)
    return out


POOL = [None, True, False, 0, -1, 1001, 2**64, 5.0, "", "E", "false", "5", "\ud800", "1m", "11111z", [], {}, [{"type": "pon"}], "house"]


def object_mutants(data, seed: int, count: int) -> list:
    """The object, then copies with a random field set to a random value of the wrong kind."""
    rng = random.Random(seed)
    out = [data]
    while len(out) < count:
        if isinstance(data, dict):
            variant = dict(data)
            variant[rng.choice(FIELDS + ["x"])] = rng.choice(POOL)
            out.append(variant)
        else:
            out.append(rng.choice(POOL))
    return out


def as_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


SEEDS = st.integers(0, 2**32)

# ---- the tests: a small sample by default, the full counts under -m slow ---------------------------------------


def run_grammar(text: str, seed: int) -> None:
    for variant in mutants(text.encode("utf-8"), seed, PER_EXAMPLE["rulebook_grammar"]):
        _grammar(as_text(variant))


def run_objects(data, ascii_only: bool, seed: int) -> None:
    for variant in object_mutants(data, seed, PER_EXAMPLE["request_objects"]):
        _object(variant, ascii_only)


def run_lines(raw: bytes, seed: int) -> None:
    for variant in mutants(raw, seed, PER_EXAMPLE["request_lines"]):
        _line(variant)


def run_mjlog(data: bytes, gz: bool, seed: int, scratch: Path) -> None:
    for variant in mutants(data, seed, PER_EXAMPLE["log_mjlog"]):
        _mjlog(variant, gz, scratch)


def run_tenhou6(data: bytes, seed: int, scratch: Path) -> None:
    for variant in mutants(data, seed, PER_EXAMPLE["log_tenhou6"]):
        _tenhou6(variant, scratch)


def run_mjai(data: bytes, gz: bool, seed: int, scratch: Path) -> None:
    for variant in mutants(data, seed, PER_EXAMPLE["log_mjai"]):
        _mjai(variant, gz, scratch)


def run_bodies(client, endpoint: tuple[str, bytes], seed: int, count: int = PER_EXAMPLE["http_bodies"]) -> None:
    path, body = endpoint
    for variant in mutants(body, seed, count):
        RAN["http_bodies"] += 1
        http_outcome(client, path, variant)


@fast("rulebook_grammar")
@given(GRAMMAR, SEEDS)
def test_rulebook_grammar_sample(text, seed):
    run_grammar(text, seed)


@fast("rulebook_expressions")
@given(_expression_rulebooks())
def test_rulebook_expressions_sample(text):
    _expressions(text)


@fast("rulebook_mutations")
@given(MUTATIONS)
def test_rulebook_mutations_sample(text):
    _mutation(text)


@fast("request_objects")
@given(REQUEST_OBJECTS, st.booleans(), SEEDS)
def test_request_objects_sample(data, ascii_only, seed):
    run_objects(data, ascii_only, seed)


@fast("request_lines")
@given(LINES, SEEDS)
def test_request_lines_sample(raw, seed):
    run_lines(raw, seed)


@fast("log_mjlog")
@given(MJLOG_INPUTS, st.booleans(), SEEDS)
def test_mjlog_sample(scratch, data, gz, seed):
    run_mjlog(data, gz, seed, scratch)


@fast("log_tenhou6")
@given(TENHOU6_INPUTS, SEEDS)
def test_tenhou6_sample(scratch, data, seed):
    run_tenhou6(data, seed, scratch)


@fast("log_mjai")
@given(MJAI_INPUTS, st.booleans(), SEEDS)
def test_mjai_sample(scratch, data, gz, seed):
    run_mjai(data, gz, seed, scratch)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(HTTP_BODIES, SEEDS)
def test_http_bodies_sample(http, endpoint, seed):
    run_bodies(http, endpoint, seed, count=3)  # worker jobs cost seconds: a small sample by default


def test_the_mjai_samples_read_unmutated(scratch):
    assert MJAI, "the riichienv corpus gives the mjai samples"
    for sample in MJAI:
        assert log_outcome(read_mjai_log, sample, scratch, gzipped=True) == "read"


def test_known_hostile_inputs():
    assert rulebook_outcome("rulebook x\nyaku y { han = 1 when = " + "(" * 70 + "closed" + ")" * 70 + " }") == "diagnostic"
    assert request_answer(b'{"hand": "1m", "win": "1m", "melds": [' + b"[" * 10000 + b"]" * 10000 + b"]}")["ok"] is False


def test_parse_mjlog_is_what_read_mjlog_reads(tmp_path):
    assert MJLOGS, "the vendored Tenhou logs give the mjlog samples"
    path = tmp_path / "sample.mjlog"
    path.write_bytes(MJLOGS[0])
    events = parse_mjlog(MJLOGS[0].decode("utf-8"))
    assert len(events) > 10
    assert events == read_mjlog(path)


# ---- the slow runs: each test checks that its own share of the 100,000 inputs ran ------------------------------


def test_the_slow_shares_add_up_to_one_hundred_thousand():
    assert sum(SLOW_COUNTS.values()) >= 100_000
    assert set(SLOW_COUNTS) == set(RAN)


@pytest.fixture
def share(request):
    """After a slow test ``test_NAME_slow``: it ran its whole share of inputs, ``SLOW_COUNTS[NAME]`` (scaled).
    Each test counts its own inputs, so the check holds whatever order or process (pytest-xdist) runs it in."""
    name = request.node.originalname.removeprefix("test_").removesuffix("_slow")
    before = RAN[name]
    yield
    ran = RAN[name] - before
    planned = max(1, int(SLOW_EXAMPLES[name] * SCALE)) * PER_EXAMPLE.get(name, 1)
    print(f"\nfuzzed {name}: {ran:,} inputs")
    assert ran >= planned, f"{name}: {ran:,} inputs ran, {planned:,} planned"


@pytest.mark.slow
@slow("rulebook_grammar")
@given(GRAMMAR, SEEDS)
def test_rulebook_grammar_slow(share, text, seed):
    run_grammar(text, seed)


@pytest.mark.slow
@slow("rulebook_expressions")
@given(_expression_rulebooks())
def test_rulebook_expressions_slow(share, text):
    _expressions(text)


@pytest.mark.slow
@slow("rulebook_vocabulary")
@given(S.vocabulary_rulebooks().map(render))
def test_rulebook_vocabulary_slow(share, text):
    _vocabulary(text)


@pytest.mark.slow
@slow("rulebook_mutations")
@given(MUTATIONS)
def test_rulebook_mutations_slow(share, text):
    _mutation(text)


@pytest.mark.slow
@slow("request_objects")
@given(REQUEST_OBJECTS, st.booleans(), SEEDS)
def test_request_objects_slow(share, data, ascii_only, seed):
    run_objects(data, ascii_only, seed)


@pytest.mark.slow
@slow("request_lines")
@given(LINES, SEEDS)
def test_request_lines_slow(share, raw, seed):
    run_lines(raw, seed)


@pytest.mark.slow
@slow("log_mjlog")
@given(MJLOG_INPUTS, st.booleans(), SEEDS)
def test_log_mjlog_slow(share, scratch, data, gz, seed):
    run_mjlog(data, gz, seed, scratch)


@pytest.mark.slow
@slow("log_tenhou6")
@given(TENHOU6_INPUTS, SEEDS)
def test_log_tenhou6_slow(share, scratch, data, seed):
    run_tenhou6(data, seed, scratch)


@pytest.mark.slow
@slow("log_mjai")
@given(MJAI_INPUTS, st.booleans(), SEEDS)
def test_log_mjai_slow(share, scratch, data, gz, seed):
    run_mjai(data, gz, seed, scratch)


@pytest.mark.slow
@slow("http_bodies")
@given(HTTP_BODIES, SEEDS)
def test_http_bodies_slow(share, http, endpoint, seed):
    run_bodies(http, endpoint, seed)
