"""``cgpm run --semantics P --trace OUT``: a vars line, then one line per report, equal to the oracle's report stream."""

from __future__ import annotations

import json

from engines.model.query import parse_query
from engines.model.semantics import load_profile
from harness.streams.parquet_io import write_stream
from oracles.reports import expected_reports
from tests.cli_run import cgpm as _run
from tests.conformance.checks import CHECKS

CHECK = next(check for check in CHECKS if check.name == "sliding-slide-two")


def _inputs(tmp_path):
    stream = CHECK.stream()
    write_stream(stream, tmp_path / "stream")
    query = tmp_path / "q.rq"
    query.write_text(f"# window: {CHECK.window}\n" + CHECK.query_text().replace("SELECT *", "SELECT ?x ?z"))
    return stream, query


def test_the_trace_has_one_line_per_report_of_the_oracles_stream(tmp_path, capsys):
    stream, query_file = _inputs(tmp_path)
    for engine, name, key in (("reeval", "csparql", "relation"), ("tpjoin-lazy", "cqels", "added"),
                              ("spectra", "csparql", "relation")):
        out = tmp_path / f"{engine}-{name}.jsonl"
        code, printed, _ = _run(capsys, "run", "--engine", engine, "--stream", str(tmp_path / "stream"),
                                "--query", str(query_file), "--semantics", name, "--trace", str(out))
        assert code == 0 and f"under {name}" in printed
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        assert lines[0] == {"vars": ["x", "z"]}
        query = parse_query(query_file.read_text())
        expected = expected_reports(query, stream, load_profile(name))
        assert len(lines) - 1 == len(expected) > 0
        for line, report in zip(lines[1:], expected):
            assert set(line) == {"ts", "window", key}
            assert line["ts"] == report.time and line["window"] == list(report.window)
            assert sorted(line[key]) == sorted([m[0], m[2]] for m in getattr(report, key))


def test_cgpm_reports_are_the_delta_trace_with_windows(tmp_path, capsys):
    _, query_file = _inputs(tmp_path)
    plain, profiled = tmp_path / "plain.jsonl", tmp_path / "cgpm.jsonl"
    base = ["run", "--engine", "reeval", "--stream", str(tmp_path / "stream"), "--query", str(query_file)]
    assert _run(capsys, *base, "--trace", str(plain))[0] == 0
    assert _run(capsys, *base, "--semantics", "cgpm", "--trace", str(profiled))[0] == 0
    deltas = [json.loads(line) for line in plain.read_text().splitlines()[1:]]
    reports = [json.loads(line) for line in profiled.read_text().splitlines()[1:]]
    assert [(d["ts"], sorted(d["added"]), sorted(d["removed"])) for d in deltas] == [
        (r["ts"], r["added"], r["removed"]) for r in reports]
    assert all(r["window"][1] - r["window"][0] == 4 and r["window"][0] <= r["ts"] for r in reports)


def test_an_unsupported_profile_is_one_line_and_exit_2(tmp_path, capsys):
    _, query_file = _inputs(tmp_path)
    base = ["run", "--stream", str(tmp_path / "stream"), "--query", str(query_file), "--semantics"]
    code, _, err = _run(capsys, *base, "csparql", "--engine", "delta")
    assert code == 2 and "does not support the semantics profile csparql" in err and err.count("\n") == 1
    code, _, err = _run(capsys, *base, "nosuch", "--engine", "reeval")
    assert code == 2 and "unknown profile 'nosuch'" in err and err.count("\n") == 1
