"""The error codes of a clean outcome, shared by every test that feeds the engine arbitrary input.

``engine.core.errors.CODES`` lists every code an answer may carry, ``internal_error`` among them: that one is the
contract's word for a bug of ours, so a fuzz or property test that accepted it would pass while the engine fails.
Such tests check their answers against ``CLEAN_CODES`` instead."""

from __future__ import annotations

from engine.core.errors import CODES

CLEAN_CODES = CODES - {"internal_error"}
