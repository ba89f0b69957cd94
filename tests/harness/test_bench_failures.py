"""``cgpm bench`` fails (exit 1) when a cell errors and says why on the terminal; time-outs and refusals are results."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from harness.bench.summary import failed_cells, per_cell, silent_cells
from harness.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"
KEY = {"dataset": "lubm", "scale": 1, "event_shape": "entity", "query": "L1", "entailment": "none", "max_events": 0,
       "events": 10, "triples": 10}


def _row(engine: str, status: str, error: str = "", verdict: str = "not checked", verify_error: str = "") -> dict:
    return {**KEY, "cell_id": f"{engine}-{status}", "engine": engine, "window": "sliding:1s:100ms", "repetition": 0,
            "status": status, "error": error, "verdict": verdict, "verify_error": verify_error}


def test_only_errors_are_failures():
    summary = per_cell(pd.DataFrame([
        _row("a", "ok"), _row("b", "timeout", "passed its time-out"), _row("c", "memory", "over the cap"),
        _row("d", "unsupported", "no event windows"), _row("e", "error", "StreamError: bad parquet"),
        _row("f", "ok", verdict="not checked (error)", verify_error="oracle crashed"),
    ]))
    failed = dict(failed_cells(summary))
    assert set(failed) == {"e lubm L1 sliding:1s:100ms", "f lubm L1 sliding:1s:100ms"}
    assert "bad parquet" in failed["e lubm L1 sliding:1s:100ms"]
    assert "oracle crashed" in failed["f lubm L1 sliding:1s:100ms"]


def test_a_corrupted_stream_fails_the_run_with_each_cells_reason(tmp_path, capsys):
    stream = tmp_path / "stream"
    shutil.copytree(EXAMPLE, stream, ignore=shutil.ignore_patterns("queries"))
    for part in (stream / "events").rglob("*.parquet"):
        part.write_bytes(b"not parquet at all")
    code = main(["bench", "--engine", "reeval", "--engine", "scan", "--stream", str(stream),
                 "--query", str(EXAMPLE / "queries" / "chain.rq"), "--window", "sliding:5s:1s", "--repetitions", "1",
                 "--min-time", "0", "--runner", "process", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 1
    failed_lines = [line for line in err.splitlines() if "failed" in line]
    assert len(failed_lines) == 2
    assert all("chain" in line and "0/1 runs ok" in line for line in failed_lines)


def test_a_cell_that_answered_nothing_is_named_and_only_it():
    rows = [{**_row("a", "ok"), "added": 3}, {**_row("b", "ok"), "added": 0}, {**_row("c", "timeout"), "added": 0}]
    assert silent_cells(per_cell(pd.DataFrame(rows))) == ["b lubm L1 sliding:1s:100ms"]
    assert silent_cells(per_cell(pd.DataFrame(rows)), matches=lambda engine: engine != "b") == []
    assert silent_cells(per_cell(pd.DataFrame([_row("a", "ok")]))) == []  # runs stored before added was kept


def test_bench_warns_when_a_query_matches_nothing_in_the_stream(tmp_path, capsys):
    query = tmp_path / "nothing.rq"
    query.write_text("SELECT ?x WHERE { ?x <http://example.org/no-such-predicate> ?y }\n")
    code = main(["bench", "--engine", "reeval", "--engine", "scan", "--stream", str(EXAMPLE), "--query", str(query),
                 "--window", "sliding:5s:1s", "--repetitions", "1", "--min-time", "0", "--runner", "process",
                 "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 0
    silent = [line for line in err.splitlines() if "answered nothing over the whole stream" in line]
    assert len(silent) == 1 and "reeval" in silent[0]  # scan matches nothing by design: not named
