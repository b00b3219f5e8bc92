"""``docs/performance.md`` from one run of ``python -m benchmarks --json``.

    python -m benchmarks --json figures.json && python -m benchmarks.report figures.json
    python -m benchmarks --json | python -m benchmarks.report -
    python -m benchmarks.report figures.json --out -        (print the page instead of writing it)

The page's generated part lies between two markers and is replaced whole, so every figure in it is the run's own,
exactly as ``python -m benchmarks`` printed it, with the machine, its load and the commit it measured: nothing is
copied by hand. What the page says outside the markers (how to read the figures, the reports of the benchmarks that
run on their own, each with its date and command) is kept as written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT.joinpath("docs/performance.md")
BEGIN = "<!-- begin: written by python -m benchmarks.report from python -m benchmarks --json; do not edit by hand -->"
END = "<!-- end of the generated figures -->"
COLUMNS = ("figure", "value", "floor", "ratio", "budget", "verdict")

#: the page when it does not exist yet: a title, what it holds, and the markers
FRAME = """# Performance

Every figure Parley's benchmarks measure is on this page. The first part is one run of `python -m benchmarks`, written
by `python -m benchmarks.report`; the reports of the benchmarks that run on their own follow it.

{begin}
{end}
"""


def cell(text: str) -> str:
    """A table cell: a ``|`` in a figure would end the cell early."""
    return text.replace("|", "\\|").strip()


def header(data: dict[str, Any]) -> str:
    """One paragraph: what was run, where, when, and how busy the machine was."""
    run = data.get("run") or {}
    config = data.get("config") or {}
    quick = run.get("quick")
    command = "python -m benchmarks --quick --json" if quick else "python -m benchmarks --json"
    parts = [f"`{command}`" + (f" on {run['date']}" if run.get("date") else "")]
    if run.get("commit"):
        parts.append(f"at commit `{run['commit']}`")
    machine = ", ".join(
        x
        for x in (
            run.get("system", ""),
            f"{run['cores']} cores" if run.get("cores") else "",
            f"Python {run['python']}" if run.get("python") else "",
            f"{config['processes']} render processes" if "processes" in config else "",
        )
        if x
    )
    if machine:
        parts.append(f"({machine})")
    text = " ".join(parts)
    if "seconds" in data:
        text += f": a {'quick' if quick else 'full'} run of {float(data['seconds']):.0f} s"
    before, after = run.get("load_before"), run.get("load_after")
    if before and after:
        text += f", load average {before[0]:.1f} at its start and {after[0]:.1f} at its end"
    return text + "."


def sections(rows: list[dict[str, str]]) -> list[tuple[str, list[dict[str, str]]]]:
    """The rows grouped under their headings (a row without a value is a heading, as in the printed table)."""
    out: list[tuple[str, list[dict[str, str]]]] = []
    for row in rows:
        if not row.get("value"):
            out.append((row.get("figure", ""), []))
            continue
        if not out:
            out.append(("Figures", []))
        out[-1][1].append(row)
    return [(title, body) for title, body in out if body]


def table(rows: list[dict[str, str]]) -> list[str]:
    """A Markdown table of the columns some row of the section fills."""
    columns = [c for c in COLUMNS if c in ("figure", "value") or any(r.get(c) for r in rows)]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(r.get(c, "")) for c in columns) + " |" for r in rows]
    return lines


def render(data: dict[str, Any]) -> str:
    """The generated part of the page: the run's header, then one table per section of the printed table."""
    lines = [header(data)]
    for title, rows in sections(data.get("rows") or []):
        lines += ["", f"### {cell(title)}", "", *table(rows)]
    return "\n".join(lines) + "\n"


def splice(page: str | None, generated: str) -> str:
    """``page`` with its generated part replaced by ``generated``; a page without markers gets the frame."""
    if page is None or BEGIN not in page or END not in page:
        page = FRAME.format(begin=BEGIN, end=END)
    before, rest = page.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    return f"{before}{BEGIN}\n{generated}{END}{after}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.report", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("source", help="the JSON of python -m benchmarks --json, or - for stdin")
    p.add_argument("--out", default=str(PAGE), help="the page to write (default docs/performance.md), or - for stdout")
    args = p.parse_args(argv)
    text = sys.stdin.read() if args.source == "-" else Path(args.source).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(
            f"benchmarks.report: {args.source} is not the JSON of python -m benchmarks --json ({exc})"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise SystemExit(f"benchmarks.report: {args.source} has no rows: not the JSON of python -m benchmarks --json")
    if args.out == "-":
        print(splice(None, render(data)), end="")
        return 0
    out = Path(args.out)
    page = splice(out.read_text(encoding="utf-8") if out.exists() else None, render(data))
    out.write_text(page, encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
