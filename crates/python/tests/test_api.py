"""The package's surface: names, defaults, reprs, and stubs that match."""

import ast
import inspect
import os
import pathlib

import pytest

import dice_tables
from conftest import GAMES, attribute, REPO, tables_dir

STUB = pathlib.Path(dice_tables.__file__).with_name("__init__.pyi")


def test_open_dir_and_default_directory(tables, monkeypatch):
    assert isinstance(tables, dice_tables.Tables)
    monkeypatch.setenv("DICE_TABLES", str(tables_dir()))
    t = dice_tables.Tables()
    assert t.dir == tables_dir() and t.yazy.value(mask="all") == tables.yazy.value(mask="all")
    assert repr(t).startswith("dice_tables.open_dir(")


def test_games_are_classes_of_their_own(tables):
    for game in GAMES:
        g = getattr(tables, attribute(game))
        assert isinstance(g, dice_tables.Game) and g.name == game
        assert type(g).__name__ == {"tenk": "Tenk", "duel": "Duel", "maxi-yatzy": "MaxiYatzy"}.get(game, game.capitalize())
        assert game in repr(g)
    assert [g["name"] for g in dice_tables.games()] == GAMES
    assert tables.lookup("10000", remaining=6) == tables.tenk.lookup(remaining=6)
    assert tables.lookup("tenk2", me=0, opp=0) == tables.duel.lookup(me=0, opp=0)
    # Any game by its name or another, as lookup() names it.
    assert tables["10000"].name == "tenk" and tables["yazy"].value(mask="all") == tables.yazy.value(mask="all")
    with pytest.raises(KeyError, match="no game"):
        tables["nope"]


def test_categories_and_rolls():
    assert dice_tables.categories("yazy")[10] == "yazy"
    assert len(dice_tables.categories("yatzy")) == 15 and len(dice_tables.categories("yahtzee")) == 13
    assert dice_tables.rolls(0) == [""] and len(dice_tables.rolls(6)) == 462
    for bad in ("tenk", "chess"):
        try:
            dice_tables.categories(bad)
            raise AssertionError("no error")
        except ValueError as e:
            assert "score sheet" in str(e)


def test_the_example_in_the_docstring(tables):
    assert round(tables.yazy.value(mask="all"), 4) == 165.7573
    assert tables.yazy.best(mask="all", dice="12456", rerolls=2) == {"keep": "245"}


def test_scoring_now_is_an_option_with_rerolls_left(tables):
    answer = tables.yazy.lookup(mask="all", dice="66666", rerolls=2)
    assert answer["best"] == {"category": "yazy", "points": 50}
    actions = [o["action"] for o in answer["options"]]
    assert {"keep": "66666"} not in actions
    assert sum("category" in a for a in actions) == 11 and sum("keep" in a for a in actions) == 5


def stub_classes():
    """The stub's classes (not its keyword TypedDicts, which are for type checkers only) and functions."""
    tree = ast.parse(STUB.read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef) and not is_typed_dict(n)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return classes, functions


def test_stubs_cover_the_runtime_and_nothing_else():
    classes, functions = stub_classes()
    for name in dice_tables.__all__:
        assert name in classes or name in functions, f"{name} is not in {STUB.name}"
    for name in list(classes) + list(functions):
        assert hasattr(dice_tables, name), f"{STUB.name} declares {name}, which dice_tables lacks"
    for cls_name, node in classes.items():
        cls = getattr(dice_tables, cls_name)
        if issubclass(cls, BaseException):
            continue
        declared = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        for method in declared:
            assert hasattr(cls, method), f"{cls_name}.{method} is in the stubs only"
        public = {m for m in dir(cls) if not m.startswith("_")}
        inherited = set()
        for base in cls.__mro__[1:]:
            if base.__name__ in classes:
                inherited |= {n.name for n in classes[base.__name__].body if isinstance(n, ast.FunctionDef)}
        missing = public - declared - inherited - {"mro"}
        assert not missing, f"{cls_name}: {sorted(missing)} are not in the stubs"


def is_typed_dict(node):
    return any(isinstance(b, ast.Name) and b.id == "TypedDict" for b in node.bases)


def test_game_stubs_list_each_games_arguments():
    """Each game's keywords TypedDict lists its arguments, the required ones
    Required[...], and its four lookups take them."""
    tree = ast.parse(STUB.read_text())
    dicts = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef) and is_typed_dict(n)}
    classes, _ = stub_classes()
    for info in dice_tables.games():
        cls = {"tenk": "Tenk", "duel": "Duel", "maxi-yatzy": "MaxiYatzy"}.get(info["name"], info["name"].capitalize())
        fields = [n for n in dicts[cls + "Query"].body if isinstance(n, ast.AnnAssign)]
        names = [f.target.id for f in fields]
        assert names == [a.replace("-", "_") for a in info["required"] + info["optional"]], (cls, names)
        required = [f.target.id for f in fields if ast.unparse(f.annotation).startswith("Required[")]
        assert required == [a.replace("-", "_") for a in info["required"]], (cls, required)
        methods = {n.name: n for n in classes[cls].body if isinstance(n, ast.FunctionDef)}
        for method in ("lookup", "value", "options", "best"):
            kwarg = methods[method].args.kwarg
            assert kwarg is not None and ast.unparse(kwarg.annotation) == f"Unpack[{cls}Query]", (cls, method)


def test_every_public_call_has_a_docstring():
    for name in dice_tables.__all__:
        obj = getattr(dice_tables, name)
        assert inspect.getdoc(obj), name
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for m in dir(obj):
                if not m.startswith("_"):
                    assert inspect.getdoc(getattr(obj, m)), f"{name}.{m}"


def readme_python_blocks():
    text = (REPO / "README.md").read_text() + (REPO / "docs" / "GUIDE.md").read_text()
    blocks = []
    for part in text.split("```python\n")[1:]:
        blocks.append(part.split("```", 1)[0])
    return blocks


def test_readme_and_docstring_examples_run(monkeypatch):
    """The README's Python examples and the package docstring's, as doctests,
    in the repository root (where `make tables` writes tables/)."""
    import doctest

    assert (REPO / "tables" / "yazy.dtab").is_file(), "run `make tables`"
    monkeypatch.chdir(REPO)
    blocks = readme_python_blocks()
    assert blocks, "README.md has no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks + [dice_tables.__doc__]):
        test = parser.get_doctest(block, {}, f"example {i}", "README.md", 0)
        assert test.examples, f"example {i} has no >>> lines"
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 10, result


@pytest.mark.builds_from_source
def test_pip_install_leaves_no_build_output_in_the_source_tree(tmp_path):
    """`pip install ./crates/python` builds into target/python (crates/python/.cargo/config.toml),
    not into crates/python/target beside the sources. Built as a user would: pip
    with build isolation, without the Makefile's CARGO_TARGET_DIR."""
    import subprocess
    import sys

    from conftest import REPO

    env = {k: v for k, v in os.environ.items() if k != "CARGO_TARGET_DIR"}
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps", "-w", str(tmp_path), str(REPO / "crates" / "python")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert list(tmp_path.glob("dice_tables-*.whl")), out.stdout
    assert not (REPO / "crates" / "python" / "target").exists(), "build output left in crates/python/target"
    assert (REPO / "target" / "python").is_dir()


def test_numpy_is_a_dependency_of_the_package():
    """`values()` and `curve()` answer numpy arrays: installing the package
    installs numpy (not an extra to remember)."""
    from importlib.metadata import requires

    needs = [r for r in requires("dice-tables") or [] if "extra ==" not in r]
    assert any(r.replace(" ", "").startswith("numpy>=") for r in needs), needs
