"""Every flow rule of a rulebook read once, so that a round never looks a setting up in its hot loop.

``RoundRules`` is built from a compiled rulebook (or a scorer, which holds one): the table, calls, riichi,
furiten, win and game settings as plain fields, and the ``draw``, ``abortive_draw`` and ``liability`` items with
their fields as callables over an environment of round facts. Missing keys fall back to the values a rulebook
that never mentions them would mean; nothing here knows a rulebook by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import tiles as T
from engine.core.errors import EngineError
from engine.scoring.score import Scorer
from ruledsl import vocabulary as V
from ruledsl.caches import ByIdentity
from ruledsl.compile import Rule, Rulebook
from ruledsl.fast import closure
from ruledsl.record import fields, record

INDICATOR_PAIRS = 5  # dora and ura indicators a dead wall holds: four kans plus the first (mechanics, every ruleset)


class InvalidRoundRules(EngineError):
    """A rulebook whose flow settings cannot make a round (a wall too small to deal, an unknown value)."""

    code = "invalid_rulebook"


@record
class RoundRules:
    """The flow settings of one rulebook, read once; ``scorer`` scores the wins under the same rulebook."""

    rulebook: Rulebook
    scorer: Scorer
    # table
    players: int
    kinds: tuple[int, ...]
    # ``kinds`` as one frozenset per rules object: every round of the rulebook holds this same object as its
    # ``Round.kinds``, so the keys of the waits cache (``engine.round.state.WAITS_WITHIN``) match by identity instead of
    # comparing 34 kinds at every look-up
    kind_set: frozenset[int]
    copies: int
    red_fives: tuple[int, ...]  # red codes in play (34..36)
    dead_wall: int
    riichi_deposit: int
    kita: bool
    kita_ron: str
    kita_interrupts: bool
    kita_rinshan: bool
    # calls
    chi: bool
    precedence: tuple[str, ...]
    kuikae: tuple[str, ...]
    last_discard_callable: bool
    max_kans: int
    kan_dora: str
    thirteen_orphans_robs_closed_kan: bool
    # riichi
    min_points: int
    min_wall: int
    allowed_while_furiten: bool
    closed_kan_after: str
    ura_dora: bool
    below_zero: bool
    open_riichi: bool
    # furiten
    temporary_release: tuple[str, ...]
    # tenpai
    karaten: str
    # win
    multiple_ron: int
    triple_ron: str
    sticks_to: str
    honba_to: str
    # game (the round reads only what decides its own settlement)
    renchan: tuple[str, ...]
    honba_increase: tuple[str, ...]
    honba_reset: tuple[str, ...]
    voluntary_noten: bool
    # items
    draws: tuple[Rule, ...]
    abortives: tuple[Rule, ...]
    liabilities: tuple[Rule, ...]
    yakuman: tuple[Rule, ...]
    abortives_at: dict[str, tuple[tuple[Rule, Callable[[dict], Any]], ...]]  # (item, its `when` as a fast closure) by `at` moment

    @property
    def tile_count(self) -> int:
        return len(self.kinds) * self.copies

    def clause(self, group: str) -> str:
        """The clause of a settings group, for messages that name the rule deciding them. Read from the rulebook's
        clauses by group (``Rulebook.settings_clauses``), which a bundled rulebook ships: a refusal in a played game
        does not resolve the rulebook's whole chain for one clause."""
        return self.rulebook.settings_clauses().get(group) or "no clause given"


# per rulebook object (its identity: rulebooks compare by value), dropped with it, at most 64
_CACHE: ByIdentity[RoundRules] = ByIdentity("engine.round.rules", 64)


# the names of the round-level rule values, for tools asking whether a setting is one of them
ROUND_RULE_FIELDS = frozenset(f.name for f in fields(RoundRules))
# the settings group of each flow field: a field named as a settings key holds that key's value (absent keys take
# the vocabulary's default through ``Rulebook.setting``), so a new flow setting is one field here and one key there
_SETTING_GROUP = {name: group for group, keys in V.SETTINGS.items() for name in keys if name in ROUND_RULE_FIELDS}


def _plain(value: Any) -> Any:
    """A setting's value as the round holds it: lists as tuples."""
    return tuple(value) if isinstance(value, list) else value


def round_rules(source: RoundRules | Rulebook | Scorer) -> RoundRules:
    """The ``RoundRules`` of a rulebook or scorer (built once per rulebook object)."""
    if isinstance(source, RoundRules):
        return source
    scorer = source if isinstance(source, Scorer) else None
    rulebook = scorer.rulebook if scorer is not None else source
    if not isinstance(rulebook, Rulebook):
        raise InvalidRoundRules("a round needs a compiled rulebook, a Scorer or RoundRules")
    found = _CACHE.get(rulebook)
    if found is not None:
        return found
    return _CACHE.put(rulebook, _build(rulebook, scorer or Scorer(rulebook)))


def round_rules_scored_by(rulebook: Rulebook, scorer: Scorer) -> RoundRules:
    """The ``RoundRules`` of a rulebook whose wins ``scorer`` scores: one the caller knows answers every hand as the
    rulebook's own would (``riichi diff``'s A with a setting no scorer reads is scored by A's), so that none is
    prepared for it. Not kept in the cache: ``round_rules`` of the same rulebook still gets its own scorer."""
    return _build(rulebook, scorer)


def _build(rb: Rulebook, scorer: Scorer) -> RoundRules:
    values = {name: _plain(rb.setting(group, name)) for name, group in _SETTING_GROUP.items()}
    values["red_fives"] = tuple(sorted(c if c >= T.RED_BASE else T.RED_BASE + T.RED_FIVE_KINDS.index(c) for c in values["red_fives"]))
    kinds = tuple(sorted({T.kind_of(c) for c in rb.setting("table", "tiles")}))
    rules = RoundRules(
        rulebook=rb,
        scorer=scorer,
        kinds=kinds,
        kind_set=frozenset(kinds),
        draws=rb.of("draw"),
        abortives=rb.of("abortive_draw"),
        liabilities=rb.of("liability"),
        yakuman=rb.of("yakuman"),
        abortives_at=_by_moment(rb.of("abortive_draw")),
        **values,
    )
    _check(rules)
    return rules


# the one-word settings a round reads, checked against the vocabulary's choices (a rulebook compiled without the
# checker, or built by a program, could otherwise carry a word the round would silently treat as another)
_WORD_SETTINGS = tuple(
    (group, name)
    for group, keys in V.SETTINGS.items()
    for name, spec in keys.items()
    if spec.type == V.STR and spec.choices and name in ROUND_RULE_FIELDS
)

AT_MOMENTS = ("discard_passed", "immediately", "player_choice")


def _by_moment(items: tuple[Rule, ...]) -> dict[str, tuple[tuple[Rule, Callable[[dict], Any]], ...]]:
    """Abortive items grouped by their `at` field (absent: "discard_passed"), each with its condition as a fast
    closure (``ruledsl.fast``: the same answers; they are evaluated at every discard); an unknown moment is
    refused."""
    out: dict[str, list[tuple[Rule, Callable[[dict], Any]]]] = {}
    for item in items:
        at = item.fields.get("at")
        moment = at({}) if at is not None else "discard_passed"
        if moment not in AT_MOMENTS:
            raise InvalidRoundRules(f"`abortive_draw {item.name}`: `at = {moment!r}`; expected one of {', '.join(AT_MOMENTS)}")
        out.setdefault(moment, []).append((item, closure(item.when)))
    return {k: tuple(v) for k, v in out.items()}


ITEM_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "draw": {"dealer_continues": ("if_tenpai", "always", "never", "if_dealer_nagashi")},
    "abortive_draw": {"dealer": ("stays", "passes"), "sticks": ("stay", "return")},
    "liability": {"honba_payer": ("liable", "discarder"), "covers": ("whole", "completed")},
}


def _check_item_words(r: RoundRules) -> None:
    """A word field of a flow item (written as a constant) must be one the round knows: a typo would otherwise
    fall back to the default without a word."""
    for kind, items in (("draw", r.draws), ("abortive_draw", r.abortives), ("liability", r.liabilities)):
        for item in items:
            for name, choices in ITEM_WORDS[kind].items():
                f = item.fields.get(name)
                if f is None:
                    continue
                try:
                    value = f({})
                except (KeyError, TypeError):
                    continue  # it reads the round's facts: checked when evaluated
                if value not in choices:
                    raise InvalidRoundRules(f"`{kind} {item.name}`: `{name} = {value!r}`; expected one of {', '.join(choices)}")


def _check(r: RoundRules) -> None:
    """Settings no round can be played with are refused here, with the setting named."""
    _check_item_words(r)
    dealt = r.players * 13 + 1
    if r.players not in (3, 4):
        raise InvalidRoundRules(f"`settings table players = {r.players}`: the round engine plays 3 or 4 players")
    if r.dead_wall < 2 * INDICATOR_PAIRS:
        raise InvalidRoundRules(f"`settings table dead_wall = {r.dead_wall}`: the dead wall must hold the {2 * INDICATOR_PAIRS} indicator tiles")
    if r.tile_count + len(r.red_fives) * 0 - r.dead_wall < dealt:
        raise InvalidRoundRules(f"`settings table`: {r.tile_count} tiles leave too few to deal {r.players} hands beside a dead wall of {r.dead_wall}")
    for group, name in _WORD_SETTINGS:
        spec = V.SETTINGS[group][name]
        value = getattr(r, name)
        if value not in spec.choices:
            raise InvalidRoundRules(f"`settings {group} {name} = {value!r}`: expected one of {', '.join(spec.choices)}")
    if r.multiple_ron < 1:
        raise InvalidRoundRules(f"`settings win multiple_ron = {r.multiple_ron}`: at least one player must be able to ron")
