"""Running a rulebook's own ``example`` lines through the scorer, as `riichi check` and the test suite do.

An example states a hand and what the rulebook must make of it: ``example "..." => {han: 2, fu: 30}``.
Each expected key is compared with the scorer's answer; a failing example becomes a diagnostic pointing at the
example's line, so an organiser sees it like any other mistake in the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core.errors import EngineError
from engine.scoring.example_notation import request_from_example
from engine.scoring.score import Scorer
from ruledsl import ast
from ruledsl.compile import Rulebook, literal_value
from ruledsl.diagnostics import Diagnostic
from ruledsl.record import field, record

NUMBER_KEYS = ("han", "fu", "yakuman", "total", "base_points")


@record(slots=False)
class ExampleOutcome:
    """One example run: the item it belongs to, the rulebook that wrote it, and what went wrong (if anything)."""

    item: tuple[str, str]
    example: ast.Example
    written_by: str
    problems: tuple[str, ...] = ()
    response: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def passed(self) -> bool:
        return not self.problems

    def diagnostic(self, source_line: str | None = None) -> Diagnostic:
        """The failure as an error at the example's position, the scorer's answer in the help line."""
        message = f"example of `{self.item[0]} {self.item[1]}` fails: " + "; ".join(self.problems)
        return Diagnostic("error", message, self.example.span, _summary(self.response), source_line)


def run_examples(rulebook: Rulebook, *, inherited: bool = False) -> list[ExampleOutcome]:
    """Score every example the rulebook itself wrote (with ``inherited``, also those of the files it extends).

    Inherited examples are skipped by default: a variant that changes a limit or a fu rule is expected to score
    its parent's examples differently, and each file's examples are checked when that file is.
    """
    scorer = Scorer(rulebook)
    return [run_example(scorer, key, example, writer) for key, example, writer in _examples(rulebook, inherited)]


def _examples(rulebook: Rulebook, inherited: bool) -> Iterator[tuple[tuple[str, str], ast.Example, str]]:
    resolved = rulebook.resolved
    for item in resolved.items.values():
        for example, writer in item.examples:
            if inherited or writer == resolved.name:
                yield item.key, example, writer


def run_example(scorer: Scorer, key: tuple[str, str], example: ast.Example, writer: str) -> ExampleOutcome:
    expected = {entry.key: literal_value(entry.value) for entry in example.expected.entries}
    try:
        request = request_from_example(example.text)
    except EngineError as exc:
        return ExampleOutcome(key, example, writer, (f"the example cannot be read: {exc.message}",))
    try:
        response = scorer.score(request)
    except EngineError as exc:
        want = expected.get("error")
        if want is None:
            problem = f"scoring failed with `{exc.code}`: {exc.message}"
        elif want != exc.code:
            problem = f"expected error `{want}`, got `{exc.code}`: {exc.message}"
        else:
            return ExampleOutcome(key, example, writer)
        return ExampleOutcome(key, example, writer, (problem,))
    # anything else (``InternalError`` included) is a bug of ours, never a mistake in the file: it propagates, and each
    # interface says so with its own code (`riichi check` exits 3, the server answers `internal_error`)
    return ExampleOutcome(key, example, writer, tuple(compare(expected, response)), response)


def compare(expected: dict[str, Any], response: dict[str, Any]) -> list[str]:
    """What differs between an example's expectations and a score response, one phrase per key."""
    problems: list[str] = []
    for key, want in expected.items():
        if key == "error":
            problems.append(f"expected error `{want}`, but the hand scored")
        elif key in NUMBER_KEYS:
            if not isinstance(want, int) or isinstance(want, bool):
                problems.append(f"`{key}` must be a whole number")
            elif response.get(key) != want:
                problems.append(f"expected {key} {want}, got {response.get(key)}")
        elif key == "limit":
            got = response.get("limit")
            if (got or "none") != want:
                problems.append(f"expected limit `{want}`, got `{got or 'none'}`")
        elif key == "yaku":
            if not isinstance(want, list):
                problems.append("`yaku` must be a list of ids")
                continue
            wanted = {str(w) for w in want}
            scored = {line["id"] for line in response.get("yaku", [])}
            if wanted != scored:
                parts = []
                if wanted - scored:
                    parts.append(f"missing {', '.join(sorted(wanted - scored))}")
                if scored - wanted:
                    parts.append(f"unexpected {', '.join(sorted(scored - wanted))}")
                problems.append(f"yaku differ ({', '.join(parts)})")
        elif key == "payments":
            if response.get("payments") != want:
                problems.append(f"expected payments {_payments(want)}, got {_payments(response.get('payments'))}")
    return problems


def _payments(value: Any) -> str:
    if not isinstance(value, dict):
        return str(value)
    return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"


def _summary(response: dict[str, Any] | None) -> str | None:
    if response is None:
        return None
    ids = ", ".join(line["id"] for line in response.get("yaku", [])) or "none"
    value = f"{response.get('yakuman')}x yakuman" if response.get("yakuman") else f"{response.get('han')} han {response.get('fu')} fu"
    limit = f", {response['limit']}" if response.get("limit") else ""
    return f"the scorer gives {value}{limit}, total {response.get('total')}; yaku: {ids}"


__all__ = ["ExampleOutcome", "run_examples", "run_example", "compare"]
