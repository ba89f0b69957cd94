"""Traces and answer counts show SELECT's variables (a bag, or a set with DISTINCT); verification keeps full mappings."""

from __future__ import annotations

import json
import os
import stat
from collections import Counter

import pytest

from engines.model.query import parse_query
from engines.model.stream import Delta
from harness.cli import main
from harness.projection import Projection
from harness.streams import write_stream
from tests.conformance.checks import build_stream

A, B, C, D = (f"<http://ex/{name}>" for name in "abcd")


def _query(select: str):
    return parse_query(f"PREFIX : <http://ex/>\n{select} WHERE {{ ?x :p ?y . ?y :p ?z }}", window="unbounded")


def test_select_star_is_the_identity():
    projection = Projection(_query("SELECT *"))
    assert projection.identity and projection.names == ["x", "y", "z"]
    delta = Delta(added=[(A, B, C)])
    assert projection.delta(delta) == ([(A, B, C)], [])


def test_a_projected_answer_counts_the_full_mappings_onto_it():
    projection = Projection(_query("SELECT ?x"))
    assert projection.names == ["x"]
    added, removed = projection.delta(Delta(added=[(A, B, C), (A, D, C)]))
    assert added == [(A,), (A,)] and removed == []
    # one full mapping leaves and another arrives, both onto (A,): the bag does not change
    assert projection.delta(Delta(added=[(A, C, D)], removed=[(A, B, C)])) == ([], [])
    assert projection.answers(Counter({(A, B, C): 1, (A, D, C): 1, (B, C, D): 1})) == Counter({(A,): 2, (B,): 1})


def test_select_distinct_counts_a_projected_answer_once():
    projection = Projection(_query("SELECT DISTINCT ?x"))
    assert projection.delta(Delta(added=[(A, B, C), (A, D, C)])) == ([(A,)], [])
    assert projection.delta(Delta(removed=[(A, B, C)])) == ([], [])  # one full mapping still projects onto (A,)
    assert projection.delta(Delta(removed=[(A, D, C)])) == ([], [(A,)])
    assert projection.answers([(A, B, C), (A, D, C)]) == Counter({(A,): 1})


def test_a_select_variable_the_pattern_never_binds_is_unbound():
    projection = Projection(parse_query("PREFIX : <http://ex/>\nSELECT ?x ?w WHERE { ?x :p ?y }", window="event"))
    assert projection.row((A, B)) == (A, None)


@pytest.fixture
def inputs(tmp_path):
    stream = build_stream([(0, ["+ :a :p :b"]), (1, ["+ :b :p :c", "+ :b :p :d"]), (5, ["+ :c :p :d"])])
    write_stream(stream, tmp_path / "stream")
    (tmp_path / "x.rq").write_text("PREFIX : <http://ex/>\nSELECT ?x WHERE { ?x :p ?y . ?y :p ?z }\n")
    (tmp_path / "dx.rq").write_text("PREFIX : <http://ex/>\nSELECT DISTINCT ?x WHERE { ?x :p ?y . ?y :p ?z }\n")
    return tmp_path


def _trace(inputs, query: str, capsys) -> tuple[list[dict], dict]:
    trace = inputs / f"{query}.jsonl"
    assert main(["run", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query", str(inputs / f"{query}.rq"),
                 "--window", "unbounded", "--trace", str(trace), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    return [json.loads(line) for line in trace.read_text().splitlines()], summary


def test_run_traces_the_projection(inputs, capsys):
    lines, summary = _trace(inputs, "x", capsys)
    assert lines[0] == {"vars": ["x"]}
    assert lines[2]["added"] == [["<http://ex/a>"], ["<http://ex/a>"]]  # a-b-c and a-b-d
    assert summary["answers"] == 3 and summary["full_mappings"] == 3 and summary["variables"] == ["x"]
    lines, summary = _trace(inputs, "dx", capsys)
    assert lines[2]["added"] == [["<http://ex/a>"]]
    assert lines[3]["added"] == [["<http://ex/b>"]]
    assert summary["answers"] == 2 and summary["full_mappings"] == 3


def test_the_trace_has_the_umask_mode(inputs, capsys):
    old = os.umask(0o022)
    try:
        _trace(inputs, "x", capsys)
    finally:
        os.umask(old)
    assert stat.S_IMODE((inputs / "x.jsonl").stat().st_mode) == 0o644


def test_max_events_cuts_the_stream(inputs, capsys):
    assert main(["run", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query", str(inputs / "x.rq"),
                 "--window", "unbounded", "--max-events", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["events"] == 2
    assert main(["verify", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query", str(inputs / "x.rq"),
                 "--window", "unbounded", "--max-events", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["events"] == 1
    assert main(["run", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query", str(inputs / "x.rq"),
                 "--window", "unbounded", "--max-events", "0"]) == 2
