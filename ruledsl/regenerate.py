"""Every generated file of the project, written (or checked) by one command: ``python -m ruledsl.regenerate``.

Twelve files are derived from sources and committed: the situation's fields as the language names them (from
``engine/core/situation.py``, read as text), the prebuilt parser tables (from ``grammar.lark`` and the
installed lark), the parsed bundled rulebooks (from the rulebooks and the parser's code), the compiled bundled
rulebooks (from the rulebooks and the compiler's code: ``ruledsl.compiled_cache``), the language reference
(from the vocabulary), the fidelity page (from the rulebooks' clauses) and the editors' TextMate grammar (from the
grammar's keywords and the vocabulary), the exact shanten tables of the suits the quick count gets wrong (from
``engine/core/analysis.py``: ``engine.core.analysis_tables``), the shanten table of every suit a hand can hold
(from the same code: ``engine.core.suit_tables``), the situation's fields of a score request as type
checkers see them (from ``Situation``: ``engine.scoring.request_situation_source``), a situation's facts as one dict
display (from the same: ``engine.scoring.situation_facts_source``) and the witness search's random
hands for the common tile sets (from ``engine.diff.witness``: ``engine.diff.random_table``). Each generator keeps its own module;
this one lists them so that nobody has to remember which to run after which edit, and ``--check`` (what the tests assert) says which are stale. Run it from a checkout: it
writes into the source tree, never into an installed package.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from ruledsl.record import record

COMMAND = "python -m ruledsl.regenerate"
ROOT = Path(__file__).resolve().parent.parent


@record(slots=False)
class Generated:
    """One generated file: where it lies in a checkout, and how to build its text from its sources."""

    name: str  # its path from the checkout's root, as messages show it
    render: Callable[[], str]

    @property
    def path(self) -> Path:
        return ROOT / self.name

    def is_fresh(self) -> bool:
        """Whether the committed file is exactly what its sources give now."""
        try:
            return self.path.read_text(encoding="utf-8") == self.render()
        except OSError:
            return False


def _situation_words() -> str:
    from ruledsl import situation_source

    return situation_source.generate()


def _grammar_tables() -> str:
    from ruledsl import grammar_tables
    from ruledsl.parser import grammar_text

    return grammar_tables.dumps(grammar_text())


def _parsed_cache() -> str:
    from ruledsl import parsed_cache

    return parsed_cache.dumps()


def _compiled_cache() -> str:
    from ruledsl import compiled_cache

    return compiled_cache.dumps()


def _language_reference() -> str:
    from ruledsl import docgen

    return docgen.generate()


def _textmate() -> str:
    from ruledsl import textmate

    return textmate.generate()


def _rendered_by_engine(module: str) -> Callable[[], str]:
    """A file of the engine's, rendered by the engine in a process of its own: the rule language never imports the
    engine (the layers' first contract), and this command only writes what each side derives."""

    def render() -> str:
        done = subprocess.run(
            [sys.executable, "-m", module], cwd=ROOT, capture_output=True, text=True, encoding="utf-8", check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"regenerate: {module} failed:\n{done.stderr}")
        return done.stdout

    return render


def _fidelity() -> str:
    from ruledsl import fidelity_doc

    return fidelity_doc.generate()


# In an order where no file is built from another that is still stale, so that one run reaches the fixed point: the
# situation's words first, since the parser, the checker and the vocabulary (which the parsed rulebooks, the language
# reference and the TextMate grammar come from) import them. This module imports none of those at its top, so that
# the first of them is imported after the new words are written (a test holds both).
GENERATED: tuple[Generated, ...] = (
    Generated("ruledsl/situation_words.py", _situation_words),
    Generated("ruledsl/grammar_tables.json", _grammar_tables),
    Generated("rulebooks/parsed.jsonl", _parsed_cache),
    Generated("rulebooks/compiled.jsonl", _compiled_cache),
    Generated("docs/language.md", _language_reference),
    Generated("docs/fidelity.md", _fidelity),
    Generated("editors/vscode/syntaxes/rulebook.tmLanguage.json", _textmate),
    Generated("engine/core/analysis_tables.json", _rendered_by_engine("engine.core.analysis_tables")),
    Generated("engine/core/suit_tables.json", _rendered_by_engine("engine.core.suit_tables")),
    Generated("engine/scoring/request_situation.py", _rendered_by_engine("engine.scoring.request_situation_source")),
    Generated("engine/scoring/situation_facts_display.py", _rendered_by_engine("engine.scoring.situation_facts_source")),
    Generated("engine/diff/random_hands.json", _rendered_by_engine("engine.diff.random_table")),
)


def stale(files: tuple[Generated, ...] | None = None) -> list[str]:
    """The names of the generated files (default: all) that differ from what their sources give now."""
    return [file.name for file in (GENERATED if files is None else files) if not file.is_fresh()]


def write(files: tuple[Generated, ...] | None = None) -> list[str]:
    """Rewrites every file (default: all) that is stale; the names of those written."""
    written = []
    for file in GENERATED if files is None else files:
        text = file.render()
        if not file.path.exists() or file.path.read_text(encoding="utf-8") != text:
            file.path.parent.mkdir(parents=True, exist_ok=True)
            file.path.write_text(text, encoding="utf-8")
            written.append(file.name)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a generated file is stale")
    args = parser.parse_args(argv)
    if not (ROOT / "pyproject.toml").is_file():
        print(f"{COMMAND}: {ROOT} is not a source checkout; run it in one", file=sys.stderr)
        return 2
    if args.check:
        names = stale()
        for name in names:
            print(f"{name} is stale; regenerate it with `{COMMAND}`", file=sys.stderr)
        return 1 if names else 0
    written = write()
    for file in GENERATED:
        print(f"{'wrote' if file.name in written else 'fresh'} {file.name}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
