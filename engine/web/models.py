"""The HTTP API's request bodies, as pydantic models (the score request is the contract's own ``ScoreRequest``).

A rulebook is named (a bundled name, or a file under the operator's ``--rulebook-dir``) or uploaded as text;
the two are told apart by their JSON type, a string or an object.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.web.limits import MAX_DIFF_HANDS

STRICT = ConfigDict(extra="forbid", strict=True)
# An upload's display name: a bare file name, so that it can never point anywhere (see ``engine.web.jobs``).
UPLOAD_NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}\.rulebook$"
# Each pattern above in words, for the message of a value that does not match it (``engine.web.validation``).
PATTERN_WORDS = {UPLOAD_NAME: "be a bare file name ending in `.rulebook` (letters, digits, `_`, `.`, `-`; at most 73 characters)"}


class Upload(BaseModel):
    """Rulebook text sent with the request; ``extends`` may name a bundled rulebook or an allowed file."""

    model_config = STRICT
    text: str = Field(description="the rulebook's text, at most 256 KiB of UTF-8")
    file: str = Field(default="upload.rulebook", pattern=UPLOAD_NAME, description="the name diagnostics show")


RulebookRef = str | Upload


class CheckRequest(BaseModel):
    """``riichi check`` over HTTP: diagnostics with line, column, caret and help; examples run when clean."""

    model_config = STRICT
    rulebook: RulebookRef
    examples: bool = True


class ExplainRequest(BaseModel):
    """``riichi explain``: one item by name (``item``), the item written at ``line`` of the text, or all."""

    model_config = STRICT
    rulebook: RulebookRef
    item: str | None = Field(default=None, max_length=200)
    line: int | None = Field(default=None, ge=1)


class DiffRequest(BaseModel):
    """``riichi diff --json``: every difference of A and B, each scoring one shown on a witness hand."""

    model_config = STRICT
    a: RulebookRef
    b: RulebookRef
    hands: int = Field(default=MAX_DIFF_HANDS, ge=0, le=MAX_DIFF_HANDS, description="random hands searched")


class ImpactRequest(BaseModel):
    """``riichi impact A B`` over the sample logs shipped with the server: named rulebooks only (bundled, or a
    file of ``--rulebook-dir``) and samples by name, so that a request can point at no file of its own."""

    model_config = STRICT
    a: str = Field(max_length=4096, description="the rulebook the logs were played under")
    b: str = Field(max_length=4096, description="the rulebook to re-settle them under")
    logs: list[str] | None = Field(default=None, max_length=20, description="sample log names; default all of them")
    wins_only: bool = Field(default=False, description="re-score the wins only, without replaying whole rounds")


class AnalyzeRequest(BaseModel):
    """``riichi analyze --json``: shanten and waits, or whether complete and every decomposition."""

    model_config = STRICT
    tiles: str = Field(max_length=200)


__all__ = ["Upload", "RulebookRef", "CheckRequest", "ExplainRequest", "DiffRequest", "ImpactRequest", "AnalyzeRequest", "UPLOAD_NAME", "PATTERN_WORDS"]
