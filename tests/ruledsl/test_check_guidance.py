"""`riichi check` guides an organiser: a new item with no example, a header name that is not the file's
name, a hyphenated file name, every independent mistake of a file in one run, and a condition no hand can meet."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main
from ruledsl.check import check, unsatisfiable
from ruledsl.resolve import MAX_ERRORS, bundled_names, resolve

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = 'example "234m456m678p234s55p win 4s ron seat S riichi dora 3s" => {han: 3}'


def riichi(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def diagnostics(text: str, file: str = "club.rulebook") -> list[str]:
    """Every diagnostic of a rulebook text, as `severity: message`."""
    return [f"{d.severity}: {d.message}" for d in check(resolve(file, text=text, file=file, keep_going=True))]


# ---- 1. a new item with no example -------------------------------------------------------------------------------


def test_new_item_of_a_variant_without_example_is_a_warning() -> None:
    text = 'rulebook club extends house\n\n@clause("c 1")\nyaku uumensai "Five kinds" {\n  han = 2\n  when = closed\n}\n'
    assert diagnostics(text) == ["warning: `yaku uumensai` has no example"]


def test_an_example_silences_it() -> None:
    text = f'rulebook club extends house\n\n@clause("c 1")\nyaku uumensai "U" {{\n  han = 2\n  when = closed\n  {EXAMPLE}\n}}\n'
    assert diagnostics(text) == []


def test_overrides_removals_settings_and_round_items_need_no_example() -> None:
    text = (
        "rulebook club extends house\n\n"
        '@clause("c 1")\noverride yaku pinfu {\n  han = {closed: 1}\n}\n\n'
        '@clause("c 2")\nremove abortive_draw suufon_renda\n\n'
        '@clause("c 3")\noverride settings scoring {\n  shibari_han = 2\n}\n\n'
        '@clause("c 4")\nabortive_draw five_kans "Five kans" {\n  when = kan_count == 5\n  at = "immediate"\n'
        '  dealer = "stays"\n  honba = 1\n}\n'
    )
    assert [d for d in diagnostics(text) if "no example" in d] == []


def test_standalone_and_bundled_rulebooks_are_not_asked_for_examples() -> None:
    text = '@clause("c")\nyaku local_one "L" {\n  han = 1\n  when = closed and tsumo\n}\n'
    assert diagnostics("rulebook club\n\n" + text) == []
    for name in bundled_names():
        found = check(resolve(name))
        assert [d.render() for d in found] == [], name


# ---- 2. and 3. the header name and the file name --------------------------------------------------------------------


def test_a_header_name_other_than_the_file_name_is_a_warning(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "spring.rulebook", 'rulebook autumn "x" extends house\n')
    code, out, _ = riichi(capsys, "check", str(path))
    assert code == 0
    assert f"{path}:1:10: warning: rulebook `autumn` is in the file `spring.rulebook`" in out
    assert "write `rulebook spring`, or rename the file `autumn.rulebook`" in out
    assert out.rstrip().endswith(", 1 warning)") and out.count(": warning: ") == 1


def test_a_hyphenated_file_name_says_it_cannot_be_extended(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "my-club.rulebook", 'rulebook my_club "x" extends house\n')
    code, out, _ = riichi(capsys, "check", str(path))
    assert code == 0
    assert "warning: the file name `my-club` cannot be a rulebook name, so no rulebook can `extends` this file" in out
    assert "rename the file `my_club.rulebook`" in out


def test_extends_a_hyphenated_name_is_a_clear_error(tmp_path: Path, capsys) -> None:
    write(tmp_path, "my-club.rulebook", 'rulebook my_club "x" extends house\n')
    path = write(tmp_path, "spring.rulebook", 'rulebook spring "x" extends my-club\n')
    code, out, err = riichi(capsys, "check", str(path))
    assert (code, err) == (1, "")
    assert (
        f"{path}:1:29: error: `extends my-club`: a rulebook name cannot contain `-`, so a file named "
        "`my-club.rulebook` cannot be extended"
    ) in out
    assert "= help: rename the file `my_club.rulebook`, name it `rulebook my_club` inside, and write `extends my_club`" in out
    assert "^^^^^^^" in out and "Traceback" not in out


def test_the_renamed_file_is_extended(tmp_path: Path, capsys) -> None:
    write(tmp_path, "my_club.rulebook", 'rulebook my_club "x" extends house\n')
    path = write(tmp_path, "spring.rulebook", 'rulebook spring "x" extends my_club\n')
    code, out, _ = riichi(capsys, "check", str(path))
    assert code == 0 and f"{path}: ok (" in out


# ---- 4. every independent diagnostic in one run --------------------------------------------------------------------


def test_fold_and_checker_errors_come_in_one_run(tmp_path: Path, capsys) -> None:
    text = (
        'rulebook club "x" extends house\n\n'
        '@clause("c 1")\noverride yaku no_such_yaku {\n  han = 2\n}\n\n'
        f'@clause("c 2")\nyaku local_one "L" {{\n  han = 1\n  when = tsumoo\n  {EXAMPLE}\n}}\n\n'
        f'@clause("c 3")\nyaku pinfu "P" {{\n  han = 1\n  when = closed\n  {EXAMPLE}\n}}\n\n'
        '@clause("c 4")\nexception odd to yaku missing_yaku {\n  han = 3\n}\n'
    )
    path = write(tmp_path, "club.rulebook", text)
    code, out, _ = riichi(capsys, "check", str(path))
    assert code == 1
    assert "error: `override yaku no_such_yaku`: no such item to override" in out  # the fold
    assert "error: `yaku pinfu` is already defined by `house`" in out  # the fold
    assert "error: exception `odd` refines `yaku missing_yaku`, which does not exist" in out  # the fold
    assert "error: unknown name `tsumoo`" in out  # the checker, in the same run
    assert out.rstrip().endswith(f"{path}: 4 errors")


def test_the_error_cap_holds_across_fold_and_checker() -> None:
    overrides = "".join(f'@clause("c")\noverride yaku gone_{i} {{\n  han = 1\n}}\n' for i in range(150))
    unknown = "".join(f'@clause("c")\nyaku local_{i} "L" {{\n  han = 1\n  when = nope_{i}\n  {EXAMPLE}\n}}\n' for i in range(150))
    found = diagnostics("rulebook club extends house\n" + overrides + unknown)
    errors = [d for d in found if d.startswith("error")]
    assert len(errors) == MAX_ERRORS
    assert errors[-1] == f"error: too many errors: stopped after {MAX_ERRORS}"
    assert any("no such item to override" in d for d in errors) and any("unknown name" in d for d in errors)


# ---- 5. a condition no hand can meet ------------------------------------------------------------------------------


def _when(expr: str) -> str | None:
    """``unsatisfiable`` of one condition, parsed as the `when` of a yaku."""
    rulebook = resolve("club.rulebook", text=f'rulebook club\nyaku y "Y" {{\n  han = 1\n  when = {expr}\n}}\n', file="club.rulebook")
    return unsatisfiable(rulebook.items[("yaku", "y")].fields["when"].value)


@pytest.mark.parametrize(
    ("expr", "reason"),
    [
        ("tsumo and not tsumo", "`tsumo` must be both true and false"),
        ("false", "it is always false"),
        ("closed and 1 > 2", "it is always false"),
        ("tsumo and ron", "every win is exactly one of `tsumo` and `ron`"),
        ("not tsumo and not ron and closed", "every win is exactly one of `tsumo` and `ron`"),
        ("shape == standard and size(sets) == 0", "a `standard` hand has 4 `sets`"),
        ("count(g in sets: true) == 0 and shape == standard", "a `standard` hand has 4 `sets`"),
        ("shape == seven_pairs and count(g in sets: is_triplet(g)) >= 1", "no number meets every bound on `count(g in sets: is_triplet(g))`"),
        ("shape == standard and shape == seven_pairs", "`shape` cannot equal both `standard` and `seven_pairs`"),
        ("wait_count >= 5 and closed and wait_count <= 2", "no number meets every bound on `wait_count`"),
        ("count(g in sets: is_kan(g)) == 5", "no number meets every bound on `count(g in sets: is_kan(g))`"),
        ("(tsumo and ron) or (closed and not closed)", "neither side of `or` can hold"),
        ("wait_count == 3 and wait_count != 3", "`wait_count` cannot both equal and differ from `3`"),
    ],
)
def test_conditions_no_hand_can_meet(expr: str, reason: str) -> None:
    assert _when(expr) == reason


@pytest.mark.parametrize(
    "expr",
    [
        "tsumo or ron",
        "not tsumo and ron",
        "shape == seven_pairs and size(pairs) == 7",
        "shape == standard and count(g in sets: is_triplet(g)) == 4",
        "wait_count >= 3 and wait_count <= 3",
        "any(g in sets: is_kan(g)) and not any(g in sets: is_triplet(g))",  # different atoms: maybe
        "closed and (tsumo or not tsumo)",
        "count(g in pairs: is_value(g)) == 7",
    ],
)
def test_satisfiable_or_unknown_conditions_are_not_flagged(expr: str) -> None:
    assert _when(expr) is None


def test_an_impossible_item_is_a_check_warning(tmp_path: Path, capsys) -> None:
    text = (
        'rulebook club "x" extends house\n\n'
        f'@clause("c 1")\nyakuman shiisanpuutaa "Thirteen unconnected" {{\n  when = shape == standard and size(sets) == 0\n  {EXAMPLE}\n}}\n'
    )
    path = write(tmp_path, "club.rulebook", text)
    code, out, _ = riichi(capsys, "check", "--no-examples", str(path))
    assert code == 0
    assert f"{path}:5:10: warning: `yakuman shiisanpuutaa` can never apply: a `standard` hand has 4 `sets`" in out


def test_no_bundled_condition_is_flagged() -> None:
    """Soundness on real rules: every condition of the bundled and example rulebooks can be met."""
    files = [*bundled_names(), *(str(p) for p in sorted((ROOT / "rulebooks" / "examples").glob("*.rulebook")))]
    for ref in files:
        flagged = [d.message for d in check(resolve(ref)) if "can never apply" in d.message]
        assert flagged == [], ref


def test_the_search_guards_the_proof(tmp_path: Path, capsys, monkeypatch) -> None:
    """`riichi check` drops a "can never apply" warning when a steered hand scores the item (a flaw in the proof
    must not tell an organiser that a working rule is dead), and keeps it when no hand does."""
    import ruledsl.check as checker

    monkeypatch.setattr(checker, "unsatisfiable", lambda expr: "a flawed proof")
    text = (
        'rulebook club "x" extends house\n\n'
        f'@clause("c 1")\nyaku closed_draw "Closed draw" {{\n  han = 1\n  when = closed and tsumo\n  {EXAMPLE}\n}}\n\n'
        f'@clause("c 2")\nyaku dead "Dead" {{\n  han = 1\n  when = tsumo and ron\n  {EXAMPLE}\n}}\n'
    )
    path = write(tmp_path, "club.rulebook", text)
    code, out, _ = riichi(capsys, "check", "--no-examples", str(path))
    assert code == 0
    assert "`yaku closed_draw` can never apply" not in out  # a steered hand scores it: the warning is dropped
    assert "`yaku dead` can never apply: a flawed proof" in out  # no hand scores it: kept


# ---- a settings key under the wrong group ----------------------------------------------------------------------------


def _wrong_groups() -> list[tuple[str, str, str]]:
    """(key, its group, a group it is not in) for every settings key of the language."""
    from ruledsl import vocabulary as V

    out = []
    for group, keys in V.SETTINGS.items():
        for key in keys:
            other = next(g for g in V.SETTINGS if key not in V.SETTINGS[g])
            out.append((key, group, other))
    return out


@pytest.mark.parametrize(("key", "group", "other"), _wrong_groups(), ids=lambda v: str(v))
def test_a_key_under_the_wrong_group_says_where_it_belongs(key: str, group: str, other: str) -> None:
    """`start_points` under `settings game` once got "did you mean `target_points`?": every key names its group."""
    from ruledsl import vocabulary as V

    spec = V.SETTINGS[group][key]
    text = f'rulebook club extends house\n\n@clause("c 1")\noverride settings {other} {{\n  {key} = {spec.example.split(" = ", 1)[-1]}\n}}\n'
    found = [d for d in check(resolve("club.rulebook", text=text, file="club.rulebook", keep_going=True)) if "has no key" in d.message]
    assert found, text
    assert f"`{key}` belongs to `settings {group}`" in (found[0].help or "")
