"""Every compiled rulebook scores every `example` it contains: the bundled ones, the guide's examples and the
good fixtures. A failing example is reported with its position, as `riichi check` shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli.check import check_target
from engine.scoring.example_runner import compare, run_examples
from ruledsl.compile import load
from tests.rulebook_params import bundled_params

ROOT = Path(__file__).resolve().parents[2]
EXTRA = sorted(ROOT.glob("rulebooks/examples/*.rulebook")) + sorted(ROOT.glob("tests/ruledsl/fixtures/good/*.rulebook"))


def _failures(ref: str) -> list[str]:
    outcomes = run_examples(load(ref))
    return [outcome.diagnostic().render() for outcome in outcomes if not outcome.passed]


@pytest.mark.parametrize("name", bundled_params())
def test_bundled_rulebook_examples_pass(name: str) -> None:
    assert _failures(name) == []


@pytest.mark.parametrize("path", EXTRA, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_example_rulebooks_pass(path: Path) -> None:
    assert _failures(str(path)) == []


def test_the_house_rules_carry_examples() -> None:
    assert len(run_examples(load("house"))) >= 5


def test_inherited_examples_run_only_when_asked() -> None:
    child = load(str(ROOT / "rulebooks/examples/local_yaku.rulebook"))
    own = run_examples(child)
    everything = run_examples(child, inherited=True)
    assert {o.written_by for o in own} == {"local_yaku"}
    assert len(everything) > len(own)


def test_compare_names_each_difference() -> None:
    response = {"han": 3, "fu": 30, "yakuman": 0, "limit": None, "total": 3900, "base_points": 960,
                "yaku": [{"id": "a"}, {"id": "b"}], "payments": {"ron": 3900}}
    assert compare({"han": 3, "yaku": ["b", "a"], "limit": "none", "payments": {"ron": 3900}}, response) == []
    assert compare({"han": 2, "fu": 40}, response) == ["expected han 2, got 3", "expected fu 40, got 30"]
    assert compare({"yaku": ["a", "c"]}, response) == ["yaku differ (missing c, unexpected b)"]
    assert compare({"limit": "mangan"}, response) == ["expected limit `mangan`, got `none`"]
    assert compare({"error": "no_yaku"}, response) == ["expected error `no_yaku`, but the hand scored"]
    assert compare({"han": "two"}, response) == ["`han` must be a whole number"]


def test_a_failing_example_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "wrong.rulebook"
    path.write_text(
        'rulebook wrong extends house\n\n@clause("c")\nyaku closed_two "Closed two" {\n  han = {closed: 2}\n'
        '  when = closed and number_suits == 3\n'
        '  example "456p789s444z22z win 2z ron seat S chi 123m" => {error: "no_yaku"}\n'
        '  example "123m456p789s234m22z win 2z ron seat S" => {han: 3}\n'
        '  example "123m456p789s234m22z win 2z ron seat S" => {yaku: [closed_two]}\n'
        '  example "123m nonsense" => {han: 1}\n}\n',
        encoding="utf-8",
    )
    report = check_target(str(path))
    assert report.examples_run == 4
    assert [(d.span.line, d.message) for d in report.diagnostics] == [
        (8, "example of `yaku closed_two` fails: expected han 3, got 2"),
        (10, "example of `yaku closed_two` fails: the example cannot be read: unknown word `nonsense` in example"),
    ]
    assert report.diagnostics[0].help == "the scorer gives 2 han 40 fu, total 2600; yaku: closed_two"


def test_a_fault_of_the_scorer_is_an_internal_error_never_a_failing_example(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An example that makes the scorer fail through a bug of ours is not a mistake in the file: `riichi check`
    exits 3 with one line asking for a report, instead of blaming the example."""
    from engine.cli import main
    from engine.core.errors import InternalError
    from engine.scoring.score import Scorer

    def broken(self: Scorer, request: object, chosen: bool = False) -> object:
        raise InternalError.of(ZeroDivisionError("division by zero"), "scoring")

    monkeypatch.setattr(Scorer, "score", broken)
    with pytest.raises(InternalError):
        run_examples(load("house"))
    assert main(["check", "house"]) == 3
    err = capsys.readouterr().err
    assert "please report" in err and "Traceback" not in err and "example of" not in err
