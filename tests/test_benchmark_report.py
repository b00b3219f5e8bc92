"""``python -m benchmarks.report`` renders a given run of ``python -m benchmarks --json`` into docs/performance.md.

A fixed JSON, not a timed run: what is checked is the page it writes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from benchmarks import __main__ as bench
from benchmarks import report

RUN = {
    "run": {
        "date": "2026-11-29 04:00 UTC",
        "commit": "abc1234",
        "cores": 2,
        "python": "3.11.2",
        "system": "Linux x86_64",
        "load_before": [3.04, 2.0, 1.0],
        "load_after": [5.55, 3.0, 2.0],
        "quick": True,
    },
    "config": {"processes": 2},
    "seconds": 101.4,
    "rows": [
        {"figure": "Cartagena", "value": "", "floor": "", "ratio": "", "budget": "", "verdict": ""},
        {"figure": "cartagena engine action (legal+apply)", "value": "23.0 µs median"},
        {
            "figure": "cartagena public picture CPU time",
            "value": "9.1 ms med, p95 12.0 ms",
            "floor": "0.45 ms deflate",
            "ratio": "20×",
            "budget": "≤ 2× floor",
            "verdict": "OVER",
        },
        {"figure": "Memory per live table", "value": ""},
        {"figure": "Python heap per table (a | b)", "value": "68.0 KB"},
        {"figure": "An empty section", "value": ""},
    ],
    "results": {},
}


def test_a_run_becomes_a_header_and_one_table_per_section() -> None:
    text = report.render(RUN)
    lines = text.splitlines()
    assert lines[0] == (
        "`python -m benchmarks --quick --json` on 2026-11-29 04:00 UTC at commit `abc1234` (Linux x86_64, 2 cores,"
        " Python 3.11.2, 2 render processes): a quick run of 101 s, load average 3.0 at its start and 5.5 at its end."
    )
    assert "### Cartagena" in lines and "### Memory per live table" in lines
    assert "### An empty section" not in text
    at = lines.index("### Cartagena")
    assert lines[at + 2 : at + 6] == [
        "| figure | value | floor | ratio | budget | verdict |",
        "|---|---|---|---|---|---|",
        "| cartagena engine action (legal+apply) | 23.0 µs median |  |  |  |  |",
        "| cartagena public picture CPU time | 9.1 ms med, p95 12.0 ms | 0.45 ms deflate | 20× | ≤ 2× floor | OVER |",
    ]
    # a section without floors or budgets has only the columns it fills; a | in a figure stays in its cell
    at = lines.index("### Memory per live table")
    assert lines[at + 2 : at + 5] == [
        "| figure | value |",
        "|---|---|",
        "| Python heap per table (a \\| b) | 68.0 KB |",
    ]


def test_the_generated_part_is_replaced_and_the_rest_of_the_page_kept(tmp_path: Path) -> None:
    page = tmp_path / "page.markdown"
    page.write_text(f"# Performance\n\nRead me.\n\n{report.BEGIN}\nold figures\n{report.END}\n\n## Soak\n\n5 MB\n")
    source = tmp_path / "figures.json"
    source.write_text(json.dumps(RUN))
    assert report.main([str(source), "--out", str(page)]) == 0
    text = page.read_text()
    assert text.startswith("# Performance\n\nRead me.\n\n" + report.BEGIN + "\n`python -m benchmarks --quick")
    assert "old figures" not in text and text.endswith(f"{report.END}\n\n## Soak\n\n5 MB\n")
    assert text.count("### Cartagena") == 1
    # a second run replaces the first
    assert report.main([str(source), "--out", str(page)]) == 0
    assert page.read_text() == text


def test_a_new_page_gets_the_frame_and_stdin_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(RUN)))
    page = tmp_path / "new.markdown"
    assert report.main(["-", "--out", str(page)]) == 0
    text = page.read_text()
    assert text.startswith("# Performance\n") and report.BEGIN in text and text.rstrip().endswith(report.END)
    with pytest.raises(SystemExit, match="not the JSON"):
        report.main([str(tmp_path / "new.markdown"), "--out", "-"])


def test_the_benchmark_commands_json_is_what_the_report_reads(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m benchmarks --json`` (no file) prints the payload on stdout, the table on stderr."""
    rows = [bench.Row("Memory per live table", ""), bench.Row("Python heap per table", "68.0 KB")]
    bench.write_json("-", bench.Config(), rows, {}, 3.0, {"quick": False, "cores": 2})
    data = json.loads(capsys.readouterr().out)
    assert data["rows"][1]["value"] == "68.0 KB" and data["run"]["cores"] == 2
    assert "| Python heap per table | 68.0 KB |" in report.render(data)
    assert "a full run of 3 s" in report.header(data)
    args = bench.parser().parse_args(["--json"])
    assert args.json == "-"
