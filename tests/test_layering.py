"""The layers point one way: rules → standard library only; renderers → rules + Pillow; bot → anything. Inside
bot, the folders point one way too: cli → transports → host → infra (each may use those after it, never those
before), and no group of modules imports itself round in a circle."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _files(package: str) -> list[Path]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, package
    return files


def test_rules_import_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules", "__future__"}
    for path in _files("rules"):
        bad = _imports(path) - allowed
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_renderers_never_import_discord_or_storage() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules", "renderers", "PIL", "isal", "__future__"}  # isal: PNG deflate
    for path in _files("renderers"):
        bad = _imports(path) - allowed
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_layering_check_catches_a_bad_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nfrom PIL import Image\n", encoding="utf-8")
    assert _imports(bad) == {"discord", "PIL"}


def _modules_imported(path: Path) -> set[str]:
    """Every project module ``path`` imports, at the top or inside a function (full dotted names); imports for
    type checkers only (``if TYPE_CHECKING:``) do not run, so they do not count."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            node.body = []
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            # ``from rules.x import y`` may import the module ``rules.x.y``
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _cycles(package: str) -> list[tuple[str, str]]:
    names = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts): p for p in _files(package) if p.name != "__init__.py"
    }
    edges = {name: _modules_imported(path) & set(names) for name, path in names.items()}
    return sorted((a, b) for a in edges for b in edges[a] if a < b and a in edges.get(b, set()))


def test_no_two_modules_import_each_other() -> None:
    # a pair of modules importing each other (even inside a function, to dodge the import cycle) is one module
    # in two files: the shared part belongs in a third module both import
    for package in ("rules", "renderers", "bot"):
        assert _cycles(package) == [], package


def _edges(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of it that it imports (a package's ``__init__`` gathers its
    modules for others, so it is left out, as :func:`_cycles` leaves it); an imported package counts."""
    packages = {".".join(p.relative_to(ROOT).parent.parts) for p in _files(package) if p.name == "__init__.py"}
    names = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts): p for p in _files(package) if p.name != "__init__.py"
    }
    return {name: _modules_imported(path) & (set(names) | packages) for name, path in names.items()}


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other through imports (strongly connected components of more
    than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def test_no_circle_of_modules() -> None:
    # longer circles hide the same coupling as a pair: the table host's parts (bot/host/tables.py) each get
    # what they use in their constructor, so their imports show who uses whom, one way
    for package in ("rules", "renderers", "bot"):
        edges = {name: imported - {name} for name, imported in _edges(package).items()}
        assert _circles(edges) == [], package


def test_the_circle_check_finds_a_circle_of_three() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


#: the folders of bot, each allowed to import only the folders after it (and itself, and the layers below bot)
FOLDERS = ("bot.cli", "bot.transports", "bot.host", "bot.infra")

def _folder(module: str) -> str | None:
    return next((f for f in FOLDERS if module == f or module.startswith(f + ".")), None)


def _against_the_folders(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import of a module in a folder of bot from a folder before it in :data:`FOLDERS`."""
    bad = []
    for module, imported in edges.items():
        mine = _folder(module)
        if mine is None:
            continue
        for other in imported:
            theirs = _folder(other)
            if theirs is not None and FOLDERS.index(theirs) < FOLDERS.index(mine):
                bad.append((module, other))
    # ``from bot.host import ratings`` names the package too: the module it imports is the one reported
    return sorted(e for e in bad if not any(m == e[0] and o.startswith(e[1] + ".") for m, o in bad))


def test_bot_folders_point_one_way() -> None:
    # cli → transports → host → infra: the store and the workers know nothing of tables or Discord, the host
    # nothing of Discord, the web or the command line
    assert _against_the_folders(_edges("bot")) == []


def test_the_folder_check_catches_an_import_upwards() -> None:
    edges = {"bot.infra.lease": {"bot.host.tables"}, "bot.host.tables": {"bot.infra.lease"}, "bot.cli.main": {"bot"}}
    assert _against_the_folders(edges) == [("bot.infra.lease", "bot.host.tables")]


def test_bot_uses_no_relative_imports() -> None:
    # the checks above read absolute imports only
    for path in _files("bot"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level], path.relative_to(ROOT)
