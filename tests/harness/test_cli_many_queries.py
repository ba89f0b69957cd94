"""``cgpm run`` and ``cgpm verify`` with several ``--query``: one engine, a trace per query, a verdict per query."""

from __future__ import annotations

import json

import pytest

from harness.streams import write_stream
from tests.cli_run import cgpm as _run
from tests.conformance.checks import PREFIXES, build_stream

CHAIN = PREFIXES + "SELECT * WHERE { ?x :p ?y . ?y :p ?z }"
FROM_B = PREFIXES + "SELECT * WHERE { :b :p ?z }"


@pytest.fixture
def inputs(tmp_path):
    stream = build_stream([(0, ["+ :a :p :b"]), (1, ["+ :b :p :c"]), (5, ["+ :c :p :d"]), (6, ["+ :d :p :e"])])
    write_stream(stream, tmp_path / "stream")
    (tmp_path / "chain.rq").write_text(CHAIN)
    (tmp_path / "from_b.rq").write_text(FROM_B)
    return tmp_path


def _queries(inputs):
    return ["--stream", str(inputs / "stream"), "--query", str(inputs / "chain.rq"), "--query",
            str(inputs / "from_b.rq"), "--window", "sliding:3:1"]


@pytest.mark.parametrize(("engine", "shown"), [("sparkwave", "sparkwave"), ("spectra", "spectra"),
                                              ("spectra-rev", "spectra-rev+perquery")])
def test_run_writes_one_trace_per_query(inputs, capsys, engine, shown):
    traces = inputs / "traces"
    code, out, _ = _run(capsys, "run", "--engine", engine, *_queries(inputs), "--trace", str(traces), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["engine"] == shown
    by_name = {row["query"]: row for row in summary["queries"]}
    assert by_name["chain"]["added"] == 2 and by_name["chain"]["removed"] == 1
    assert by_name["from_b"]["added"] == 1 and by_name["from_b"]["removed"] == 1
    chain = [json.loads(line) for line in (traces / "chain.jsonl").read_text().splitlines()]
    assert chain[0] == {"vars": ["x", "y", "z"]} and len(chain) == 5
    assert chain[2]["added"] == [["<http://ex/a>", "<http://ex/b>", "<http://ex/c>"]]
    from_b = [json.loads(line) for line in (traces / "from_b.jsonl").read_text().splitlines()]
    assert from_b[0] == {"vars": ["z"]} and from_b[2]["added"] == [["<http://ex/c>"]]


@pytest.mark.parametrize("flags", [[], ["--per-query"]])
def test_verify_checks_each_query(inputs, capsys, flags):
    code, out, _ = _run(capsys, "verify", "--engine", "tpjoin-lazy", *_queries(inputs), *flags, "--json")
    assert code == 0
    verdict = json.loads(out)
    assert verdict["agrees"] and [row["query"] for row in verdict["queries"]] == ["chain", "from_b"]
    assert all(row["checkpoints"] == 4 for row in verdict["queries"])


def test_two_query_files_with_one_name_are_refused(inputs, capsys):
    (inputs / "other").mkdir()
    (inputs / "other" / "chain.rq").write_text(CHAIN)
    code, _, err = _run(capsys, "run", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "chain.rq"), "--query", str(inputs / "other" / "chain.rq"), "--window", "event")
    assert code == 2 and "two query files named 'chain'" in err and len(err.strip().splitlines()) == 1


def test_a_trace_file_is_refused_for_several_queries(inputs, capsys):
    (inputs / "trace.jsonl").write_text("")
    code, _, err = _run(capsys, "run", "--engine", "reeval", *_queries(inputs), "--trace", str(inputs / "trace.jsonl"))
    assert code == 2 and "a directory, and this is a file" in err
