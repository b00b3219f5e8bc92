"""The three layers point one way: rules → standard library only; renderers → rules + Pillow; bot → anything."""

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


def test_the_infrastructure_never_imports_the_host() -> None:
    # bot/infra (the store, worker pools, lease, shards) serves the host; the host's logic that needs storage
    # (the ratings rebuild replaying games through their engines) lives on the host's side
    for path in _files("bot/infra"):
        bad = sorted(m for m in _modules_imported(path) if m == "bot.host" or m.startswith("bot.host."))
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"
