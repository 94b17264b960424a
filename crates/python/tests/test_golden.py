"""Every lookup in tests/golden/ gets exactly the answer on file, through
every way the package asks it: Tables.lookup, the game's lookup, value,
options and best, and with dice and masks given as sequences of ints."""

import json

import pytest

import dice_tables
from conftest import GAMES, attribute, GOLDEN


def golden(game):
    with open(GOLDEN / f"{game}.json") as f:
        data = json.load(f)
    assert data["game"] == game
    return data["lookups"]


def golden_file(name, least):
    """The lookups of tests/golden/NAME, at least `least` of them."""
    with open(GOLDEN / name) as f:
        lookups = json.load(f)["lookups"]
    assert len(lookups) >= least, f"{name}: only {len(lookups)} lookups"
    return lookups


def keywords(query):
    """A golden query's flags as Python keywords: dashes as underscores."""
    return {flag.replace("-", "_"): value for flag, value in query.items()}


@pytest.mark.parametrize("game", GAMES)
def test_every_golden_lookup_gets_its_answer(tables, game):
    lookups = golden(game)
    assert len(lookups) >= 300, f"{game}: only {len(lookups)} lookups"
    g = getattr(tables, attribute(game))
    for entry in lookups:
        q, want = keywords(entry["query"]), entry["answer"]
        assert tables.lookup(game, **q) == want, (game, q)
        assert g.lookup(**q) == want, (game, q)
        assert g.value(**q) == want.get("ev", want.get("p")), (game, q)
        for field in ("options", "best"):
            if field in want:
                assert getattr(g, field)(**q) == want[field], (game, q, field)
            else:
                with pytest.raises(ValueError, match=f"has no {field}"):
                    getattr(g, field)(**q)


def test_every_golden_target_lookup_gets_its_answer(target_tables):
    for entry in golden_file("target.json", 300):
        game, q, want = entry["game"], keywords(entry["query"]), entry["answer"]
        g = getattr(target_tables, game)
        assert target_tables.lookup(game, **q) == want, (game, q)
        assert g.lookup(**q) == want, (game, q)
        assert g.value(**q) == want["p"], (game, q)
        if "options" in want:
            assert g.options(**q) == want["options"], (game, q)
            assert g.best(**q) == want["best"], (game, q)


def test_every_golden_two_player_lookup_gets_its_answer(target_tables):
    for entry in golden_file("yazy-duel.json", 200):
        q, want = keywords(entry["query"]), entry["answer"]
        assert "opp_mask" in q, q
        assert target_tables.lookup("yazy", **q) == want, q
        assert target_tables.yazy.lookup(**q) == want, q
        assert target_tables.yazy.value(**q) == want["p"], q
        if "options" in want:
            assert target_tables.yazy.options(**q) == want["options"], q
            assert target_tables.yazy.best(**q) == want["best"], q


def test_every_golden_rule_set_two_player_lookup_gets_its_answer(target_tables):
    """rule-set-duel.json: two-player forced Yatzy from its whole table, on either player's turn."""
    for entry in golden_file("rule-set-duel.json", 200):
        q, want = keywords(entry["query"]), entry["answer"]
        assert "opp_mask" in q and want["exact"] is True, q
        assert target_tables.lookup(entry["game"], **q) == want, q


@pytest.mark.parametrize("game", GAMES)
def test_dice_as_ints_and_masks_as_numbers_or_names_agree(tables, game):
    g = getattr(tables, attribute(game))
    names = dice_tables.categories(game) if game in ("yazy", "yatzy", "yahtzee", "maxi-yatzy") else None
    checked = 0
    for entry in golden(game)[:80]:
        q, want = keywords(entry["query"]), entry["answer"]
        if "dice" in q:
            q["dice"] = [int(c) for c in q["dice"]]
        if names and "mask" in q:
            bits = _mask_bits(q["mask"], names)
            q["mask"] = [i for i in range(len(names)) if bits >> i & 1]
            assert g.lookup(**{**q, "mask": [names[i] for i in q["mask"]]}) == want
            assert g.lookup(**{**q, "mask": bits}) == want
        assert g.lookup(**q) == want, (game, q)
        checked += 1
    assert checked == 80


def _mask_bits(mask, names):
    if isinstance(mask, int):
        return mask
    if mask == "all":
        return (1 << len(names)) - 1
    if mask == "none":
        return 0
    if mask[:1].isdigit():
        return int(mask, 0)
    return sum(1 << names.index(n) for n in mask.split(","))


def test_every_golden_rule_set_lookup_gets_its_answer(tables):
    """rule-sets.json: the presets' rule-set tables, asked by name through Tables.lookup."""
    for entry in golden_file("rule-sets.json", 300):
        assert tables.lookup(entry["game"], **keywords(entry["query"])) == entry["answer"], entry["query"]
