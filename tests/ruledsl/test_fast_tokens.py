"""The fast parser's tokens read once per distinct line (``fast_parser._tokens``) against every line read afresh
(``_tokens_reference``): the same tokens, in the same order, with the same lines and columns, or the same refusal
(the text goes to lark), on every rulebook of the repository, on the benchmark's generated file, and on texts of
random lines drawn from a small alphabet, repeated and shuffled so that many lines come back."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruledsl import fast_parser

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("rulebooks/**/*.rulebook"), *ROOT.glob("tests/**/*.rulebook"), *ROOT.glob("docs/**/*.rulebook")})


def tokens_or_refusal(read: object, text: str) -> object:
    try:
        return read(text)  # type: ignore[operator]
    except fast_parser._GiveUp:
        return "refused"


def same_tokens(text: str) -> None:
    assert tokens_or_refusal(fast_parser._tokens, text) == tokens_or_refusal(fast_parser._tokens_reference, text)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rulebook_of_the_repository(path: Path) -> None:
    same_tokens(path.read_text(encoding="utf-8"))


def test_the_benchmark_s_generated_file() -> None:
    spec = importlib.util.spec_from_file_location("benchmark_check", ROOT / "benchmarks" / "check.py")
    assert spec is not None and spec.loader is not None
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    same_tokens(benchmark.rulebook(200))


_PIECES = ["  ", "\t", " ", "a", "han", "=", "==", "1", "12m", "3z", '"s"', '"a\\"b"', "#c", "(", ")", "{", "}", ",", ":", "..", "-", "?", "é", "\r"]


@settings(max_examples=300)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join), min_size=1, max_size=6), st.integers(0, 2**32))
def test_random_lines_repeated(lines: list[str], seed: int) -> None:
    rng = random.Random(seed)
    drawn = [rng.choice(lines) for _ in range(3 * len(lines))]
    same_tokens("\n".join(drawn))
    same_tokens("\n".join(line for line in drawn if "?" not in line and "é" not in line))
