"""Whole-number arithmetic of the rule language: exact, bounded, and loud when a rule asks the impossible.

Both evaluators (the reference nodes of ``ruledsl.compile`` and the closures of ``ruledsl.fast``) call these same
functions, so they agree by construction on every edge: a rulebook is untrusted input, and a silent wrong answer
(``x / 0`` giving 0, a power past its bound giving 0) once made an impossible yaku score.

Bounds (the language reference, ``docs/language.md``, states them too):

- every result of ``+ - * / ^``, of ``round_up`` and of a ``sum`` quantifier lies within ``±INT_LIMIT``
  (2^63 − 1); past it the rule is refused with ``limit_exceeded``;
- ``a / b`` rounds toward minus infinity (``-7 / 2`` is -4); ``b == 0`` is ``invalid_rulebook``;
- ``a ^ b`` needs ``0 <= b <= POWER_LIMIT`` (64): a negative exponent is ``invalid_rulebook`` (no fractions),
  a larger one ``limit_exceeded``;
- ``round_up(x, step)`` needs ``step >= 1`` (``invalid_rulebook`` otherwise);
- a range ``a..b`` holds at most ``RANGE_LIMIT`` (4096) numbers (``limit_exceeded``).

The errors are ``RuleEvaluationError``; the scorer answers them with the contract code they carry.
"""

from __future__ import annotations

from collections.abc import Iterable

INT_LIMIT = 2**63 - 1
# Values within ±SMALL are far inside the bound; the hot paths test against it first because the interpreter
# compares such one-digit integers fastest (a test against ``INT_LIMIT`` itself takes the generic path).
SMALL = 2**30 - 1
_LOW = -SMALL
POWER_LIMIT = 64
RANGE_LIMIT = 4096

LIMIT_EXCEEDED = "limit_exceeded"
INVALID_RULEBOOK = "invalid_rulebook"


class RuleEvaluationError(ValueError):
    """A rule computed something the language forbids; ``code`` is the contract's error code for it.

    Defined here because the rule language never imports the engine; the scorer maps it to an ``EngineError``.
    """

    def __init__(self, message: str, code: str = INVALID_RULEBOOK) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def checked(value: int) -> int:
    """The value itself when it lies within the language's integer bound."""
    if -INT_LIMIT <= value <= INT_LIMIT:
        return value
    raise RuleEvaluationError(f"a rule computed a number past the bound of ±{INT_LIMIT}", LIMIT_EXCEEDED)


# ``+ - *`` check their result in place (no second call): they run for every hand's bonus han and fu.
def add(a: int, b: int) -> int:
    value = a + b
    if _LOW <= value <= SMALL:
        return value
    return checked(value)


def subtract(a: int, b: int) -> int:
    value = a - b
    if _LOW <= value <= SMALL:
        return value
    return checked(value)


def multiply(a: int, b: int) -> int:
    value = a * b
    if _LOW <= value <= SMALL:
        return value
    return checked(value)


def divide(a: int, b: int) -> int:
    """``a / b`` rounded toward minus infinity; dividing by zero is an error, never 0."""
    if b == 0:
        raise RuleEvaluationError("a rule divided by zero")
    return checked(a // b)


def power(a: int, b: int) -> int:
    """``a ^ b`` for an exponent from 0 to ``POWER_LIMIT``; never a fraction, never a silent 0."""
    if b < 0:
        raise RuleEvaluationError(f"a rule raised a number to the negative power {b}")
    if b > POWER_LIMIT:
        raise RuleEvaluationError(f"a rule raised a number to the power {b}, past the bound of {POWER_LIMIT}", LIMIT_EXCEEDED)
    return checked(a**b)


def round_up(value: int, step: int) -> int:
    """The value rounded up to a multiple of ``step`` (at least 1)."""
    if step < 1:
        raise RuleEvaluationError(f"a rule rounds up to a multiple of {step}; the step must be at least 1")
    return checked(-(-value // step) * step)


def number_range(low: int, high: int) -> range:
    """The numbers ``low..high``, both included, at most ``RANGE_LIMIT`` of them."""
    if high - low + 1 > RANGE_LIMIT:
        raise RuleEvaluationError(f"a range of {high - low + 1} numbers is past the bound of {RANGE_LIMIT}", LIMIT_EXCEEDED)
    return range(low, high + 1)


def total(values: Iterable[int]) -> int:
    """The ``sum`` quantifier: the sum of its values, within the bound."""
    value = sum(values)
    if _LOW <= value <= SMALL:  # checked in place, like ``add``: it runs for every hand's fu
        return value
    return checked(value)
