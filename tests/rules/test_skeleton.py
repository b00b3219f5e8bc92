"""One shape for every game (issue 24): the same modules with the same meaning in each game package and in the
tests' toy game, ``GAME`` made in one place, siblings imported by their names and the state called ``state``.

docs/adding-a-game.md describes each module; this is the gate that keeps the five games and the guide's worked
example alike. The contract's behaviour (turn checks, AI levels, views...) is checked by test_all_games.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rules import registry

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "host" / "toygame"
#: every game package: the registered games and the toy game docs/adding-a-game.md follows
PACKAGES = {game_id: ROOT / Path(*registry._MODULES[game_id].split(".")) for game_id in registry.game_ids()}
PACKAGES["toy"] = TOY

#: module -> the names it must define: what that module means in every game
SKELETON: dict[str, tuple[str, ...]] = {
    "__init__.py": (),  # the docstring and ``GAME`` (checked below)
    "game.py": ("GAME",),  # the Game subclass: info, options, the contract; GAME last
    "board.py": (),  # static data: the board, the pieces, constants
    "engine.py": ("new_state", "apply", "outcome"),  # the state and how it changes
    "moves.py": ("to_act", "legal_actions"),  # who owes a decision and what is legal
    "actions.py": (),  # action text: parse / label / group / describe, as the game needs them
    "views.py": ("view",),  # what a seat may know, and the table's words from a view
    "ai.py": ("easy", "normal"),  # the AI policies; hard is the framework's search
    "sample.py": ("sample",),  # the hard AI's sampler
    "evaluate.py": ("HORIZON", "win_chance"),  # the search's horizon and evaluation
}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _defined(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _modules(package: Path) -> list[Path]:
    return sorted(package.glob("*.py"))


def _all_rules_modules() -> list[Path]:
    return [*sorted((ROOT / "rules").rglob("*.py")), *_modules(TOY)]


@pytest.mark.parametrize("game_id", list(PACKAGES))
def test_every_game_has_the_skeletons_modules_with_their_meaning(game_id: str) -> None:
    package = PACKAGES[game_id]
    for module, names in SKELETON.items():
        path = package / module
        assert path.exists(), f"{game_id} has no {module} (docs/adding-a-game.md: the game skeleton)"
        missing = set(names) - _defined(_tree(path))
        assert not missing, f"{game_id}/{module} does not define {sorted(missing)}"
    actions = _defined(_tree(package / "actions.py"))
    assert actions & {"parse", "label", "group", "describe"}, f"{game_id}/actions.py holds no action text"


@pytest.mark.parametrize("game_id", list(PACKAGES))
def test_game_is_made_in_game_py_only_and_last(game_id: str) -> None:
    package = PACKAGES[game_id]
    for path in _modules(package):
        made = "GAME" in _defined(_tree(path))
        assert made == (path.name == "game.py"), f"{path.relative_to(ROOT)}: GAME is made in game.py, and only there"
    body = _tree(package / "game.py").body
    last = body[-1]
    assert isinstance(last, ast.Assign) and [t.id for t in last.targets if isinstance(t, ast.Name)] == ["GAME"]
    classes = [n for n in body if isinstance(n, ast.ClassDef)]
    assert len(classes) == 1, f"{game_id}/game.py holds one Game subclass"
    # the package's face: a docstring, then GAME from game.py (the toy adds its renderer, which has no renderers/ file)
    init = _tree(package / "__init__.py").body
    assert isinstance(init[0], ast.Expr) and isinstance(init[0].value, ast.Constant), f"{game_id}: no docstring"
    if game_id != "toy":
        assert f"docs/games/{game_id}.md" in init[0].value.value, f"{game_id}/__init__.py names its page"
    imported = {
        alias.name
        for node in init
        if isinstance(node, ast.ImportFrom) and node.module != "__future__"
        for alias in node.names
    }
    assert imported == ({"GAME", "render"} if game_id == "toy" else {"GAME"}), f"{game_id}/__init__.py: {imported}"
    stray = [n for n in init[1:] if not isinstance(n, (ast.ImportFrom, ast.Assign))]
    assert not stray, f"{game_id}/__init__.py holds more than the re-export of GAME"


def test_siblings_are_imported_by_their_names() -> None:
    """``from rules.treasure_island import geometry``, never ``... as G``; and absolute, never ``from . import``."""
    for path in _all_rules_modules():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{path.relative_to(ROOT)}: relative import"
                module = node.module or ""
                if module.startswith(("rules.", "tests.host.toygame")):
                    aliased = [a.asname for a in node.names if a.asname]
                    assert not aliased, f"{path.relative_to(ROOT)} imports {module} as {aliased}"
            if isinstance(node, ast.Import):
                aliased = [a.asname for a in node.names if a.asname and len(a.asname) == 1]
                assert not aliased, f"{path.relative_to(ROOT)} aliases a module as {aliased}"


def test_the_state_is_called_state() -> None:
    """One name for the state in rules/ (and the toy): no ``s`` or ``st`` parameter holding one, no ``st`` at all."""
    for path in _all_rules_modules():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.arg):
                annotation = ast.unparse(node.annotation) if node.annotation else ""
                assert node.arg != "st", f"{path.relative_to(ROOT)}:{node.lineno}: parameter st"
                assert not (node.arg == "s" and ("State" in annotation or "dict" in annotation)), (
                    f"{path.relative_to(ROOT)}:{node.lineno}: a state called s"
                )
            if isinstance(node, ast.Name):
                assert node.id != "st", f"{path.relative_to(ROOT)}:{node.lineno}: a state called st"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                assert node.attr not in ("s", "st"), f"{path.relative_to(ROOT)}:{node.lineno}: self.{node.attr}"


def test_the_checks_catch_a_game_out_of_shape(tmp_path: Path) -> None:
    """The checks above can fail: a sibling aliased, GAME made in __init__, a state called st."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from rules.treasure_island import geometry as G\nGAME = object()\ndef f(st: dict) -> None: ...\n",
        encoding="utf-8",
    )
    tree = _tree(bad)
    assert "GAME" in _defined(tree)
    assert any(isinstance(n, ast.ImportFrom) and n.names[0].asname == "G" for n in tree.body)
    assert any(isinstance(n, ast.arg) and n.arg == "st" for n in ast.walk(tree))


def test_the_guides_excerpts_are_the_toys_code() -> None:
    """docs/adding-a-game.md walks through the toy game: each code excerpt headed ``# tests/host/toygame/<module>``
    is that module's actual code, so the guide cannot drift from the example it follows."""
    guide = (ROOT / "docs/adding-a-game.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^( *)```python\n(.*?)^\1```", guide, flags=re.S | re.M)
    checked = set()
    for indent, block in blocks:
        lines = [line[len(indent) :] for line in block.splitlines()]
        if not lines or not lines[0].startswith("# tests/host/toygame/"):
            continue
        path = ROOT / lines[0][2:]
        excerpt = "\n".join(lines[1:]).strip("\n")
        assert excerpt in path.read_text(encoding="utf-8"), f"the guide's excerpt of {lines[0][2:]} is not in it"
        checked.add(path.name)
    assert set(SKELETON) - {"__init__.py"} <= checked, "the guide shows every module of the skeleton in the toy"
