"""The repository's documents stand alone (issue 24): everything the code and the docs cite is in the repository.

People who clone Parley have only the repository, so a citation of a document must name one they can open: every
path to a Markdown page cited in code, configuration or docs (``docs/games/flagon.md``, ``README.md``, a relative
link between pages) exists, and its ``#section`` is a heading (or an explicit anchor) of that page. A rule decision
cited in code points to a section of ``docs/games/<game>.md``, never to the documents the games were built from
(``spec §3.5``, ``seed law 12``, ``shared/specs/...``) nor to any absolute path.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: what is checked: the code of every layer, the tests and benchmarks, the configuration, and the docs
CODE_DIRS = ("rules", "renderers", "bot", "benchmarks", "tests")
CONFIG = ("pyproject.toml", ".ci/run", ".env.example")
DOCS = ("README.md", "CONTRIBUTING.md", "docs")

#: a cited Markdown page, with an optional section: ``docs/games/flagon.md#the-action-language``, ``README.md``
CITED = re.compile(r"(?<![\w/.-])((?:\.\./|\./)?(?:[\w-]+/)*[\w-]+\.md)(?!\w)(#[\w-]+)?")
#: a Markdown link's target inside a page: ``[text](../architecture.md#9-ai-players)`` or ``[text](#options)``
LINK = re.compile(r"\]\(([^)\s]*)\)")
#: citations of documents that are not in the repository
OUTSIDE = [
    (re.compile(r"\bshared/(?:specs|seeds|design|hooks)\b|(?<![\w.])shared/[\w-]+\.md"), "a shared/ document"),
    (re.compile(r"(?<![\w:/.~-])/(?:work|home|root|tmp|Users|mnt|srv|opt)/[\w./-]+"), "an absolute path"),
]
#: rule citations of the documents the games were built from, which the repository does not hold (code only)
SPEC = re.compile(
    r"(?i:\bspecs?\b\s*(?:§|\d|appendix)|\bthe spec\b|\bspec's\b)|§\s*\d|\bseed laws?\b|\blaws? \d+[A-Z]?\b"
    r"|(?<![\w.])\((?:seed|PROPOSED)\)"
)


def _files(*roots: str, suffixes: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for root in roots:
        path = ROOT / root
        if path.is_file():
            out.append(path)
        elif path.is_dir():
            out += [p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix in suffixes]
    return [p for p in out if ".venv" not in p.parts and "__pycache__" not in p.parts]


def code_files() -> list[Path]:
    this = Path(__file__).resolve()  # its examples are made to fail
    code = [p for p in _files(*CODE_DIRS, suffixes=(".py",)) if p != this]
    return code + _files(*CONFIG, suffixes=("", ".toml", ".example"))


def doc_files() -> list[Path]:
    return _files(*DOCS, suffixes=(".md",))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, only letters, digits, spaces, hyphens and underscores kept, each
    space a hyphen."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every section a link may name in ``page``: its headings' anchors (a repeated one numbered as GitHub does) and
    explicit ``<a id="...">`` anchors."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*$", line)
        if heading:
            base = slug(heading.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
    return frozenset(found)


def resolve(source: Path, target: str) -> Path | None:
    """The page a citation in ``source`` names: from the repository's root, or (for a relative link in a page)
    from the page's own folder; None when neither exists."""
    for base in (ROOT, source.parent):
        path = (base / target).resolve()
        if path.is_file() and ROOT in path.parents:
            return path
    return None


def problems_in(source: Path) -> list[str]:
    text = source.read_text(encoding="utf-8")
    where = source.relative_to(ROOT)
    out: list[str] = []
    cited: list[tuple[str, str | None]] = [(m.group(1), m.group(2)) for m in CITED.finditer(text)]
    if source.suffix == ".md":
        for target in LINK.findall(text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, anchor = target.partition("#")
            if path.endswith(".md") or not path:
                cited.append((path, f"#{anchor}" if anchor else None))
    for path, anchor in cited:
        page = source if not path else resolve(source, path)
        if page is None:
            out.append(f"{where} cites {path}, which is not in the repository")
        elif anchor and anchor[1:] not in anchors(page):
            out.append(f"{where} cites {path}{anchor}: {page.relative_to(ROOT)} has no such section")
    for pattern, what in OUTSIDE:
        out += [f"{where} cites {what}: {m.group(0)!r}" for m in pattern.finditer(text)]
    if source.suffix == ".py" or source.name == "pyproject.toml":
        out += [f"{where} cites the spec instead of a page of docs/: {m.group(0)!r}" for m in SPEC.finditer(text)]
    return out


@pytest.mark.parametrize("kind", ["code", "docs"])
def test_every_cited_document_and_section_is_in_the_repository(kind: str) -> None:
    files = code_files() if kind == "code" else doc_files()
    assert len(files) > (100 if kind == "code" else 5)
    problems = [p for f in files for p in problems_in(f)]
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_missing_page_a_missing_section_and_an_outside_document(tmp_path: Path) -> None:
    page = ROOT / "docs" / "games" / "flagon.md"
    assert "the-action-language" in anchors(page)
    bad = ROOT / "tests" / "_docs_probe.py"  # inside the repository, so paths resolve as in any module
    bad.write_text(
        '"""docs/games/flagon.md#the-action-language docs/games/flagon.md#no-such-section docs/nope.md\n'
        'see /work/shared/specs/flagon.md and shared/specs/flagon.md (spec §3.5, seed law 12)"""\n',
        encoding="utf-8",
    )
    try:
        found = problems_in(bad)
    finally:
        bad.unlink()
    assert any("no such section" in p for p in found)
    assert any("docs/nope.md, which is not" in p for p in found)
    assert any("absolute path" in p for p in found) and any("shared/ document" in p for p in found)
    assert sum("cites the spec" in p for p in found) == 2
    assert not any("the-action-language:" in p for p in found)


def test_slugs_are_githubs() -> None:
    assert slug("9. AI players") == "9-ai-players"
    assert slug("The AIs (`rules/cartagena/ai.py`)") == "the-ais-rulescartagenaaipy"
    assert slug("Tortuga's row") == "tortugas-row"
    assert slug("2. The engine contract (`rules/core.py`)") == "2-the-engine-contract-rulescorepy"
