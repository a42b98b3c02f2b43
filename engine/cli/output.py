"""Writing a command's report to the file named by ``-o``: the same confirmation and the same one-line error for
every command, so that a script can rely on a silent terminal meaning "nothing written"."""

from __future__ import annotations

import sys


def write_output(command: str, path: str, text: str) -> bool:
    """Write ``text`` to ``path``; say on standard error what was written, or why it could not be. False when
    nothing could be written (the caller exits with its bad-input code)."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        print(f"riichi {command}: error: cannot write `{path}`: {exc.strerror or exc}", file=sys.stderr)
        return False
    lines = text.count("\n")
    print(f"riichi {command}: wrote `{path}` ({lines:,} line{'' if lines == 1 else 's'})", file=sys.stderr)
    return True
