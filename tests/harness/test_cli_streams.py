"""Several streams on the command line: --stream IRI=DIR once per stream, one trace line per merged instant, one-line errors."""

from __future__ import annotations

import json

import pytest

from common.errors import ConfigError, StreamError
from harness.streams import write_stream
from tests.conformance.checks import build_stream
from tests.harness.test_cli import _run

QUERY = """PREFIX : <http://ex/>
SELECT * FROM NAMED WINDOW :w1 ON :s1 [RANGE PT0.003S STEP PT0.001S]
FROM NAMED WINDOW :w2 ON :s2 [RANGE PT0.004S TUMBLING]
WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } ?z :r ?k }
"""


@pytest.fixture
def inputs(tmp_path):
    write_stream(build_stream([(0, ["+ :a :p :b"]), (2, ["+ :c :p :b"]), (5, ["+ :e :p :b"])]), tmp_path / "one")
    write_stream(build_stream([(1, ["+ :b :q :x"]), (2, ["+ :b :q :y"]), (4, ["+ :z :q :z"])], static=(":x :r :k",)),
                 tmp_path / "two")
    (tmp_path / "q.rq").write_text(QUERY)
    return tmp_path


def _streams(inputs):
    return ["--stream", f"http://ex/s1={inputs / 'one'}", "--stream", f"<http://ex/s2>={inputs / 'two'}"]


def test_run_merges_the_streams_into_one_trace(inputs, capsys):
    trace = inputs / "trace.jsonl"
    code, out, _ = _run(capsys, "run", "--engine", "reeval", *_streams(inputs), "--query", str(inputs / "q.rq"),
                        "--trace", str(trace), "--json")
    assert code == 0, out
    summary = json.loads(out)
    assert summary["events"] == 6 and summary["window"].startswith(":w1=sliding:3:1@<http://ex/s1>")
    lines = [json.loads(line) for line in trace.read_text().splitlines()[1:]]
    # ts 2 on both streams: s1 is declared first; the tumbling window on s2 empties at ts 4
    assert [(line["stream"], line["ts"]) for line in lines] == [
        ("http://ex/s1", 0), ("http://ex/s2", 1), ("http://ex/s1", 2), ("http://ex/s2", 2), ("http://ex/s2", 4),
        ("http://ex/s1", 5)]
    assert lines[1]["added"] == [["<http://ex/a>", "<http://ex/b>", "<http://ex/x>", "<http://ex/k>"]]
    assert lines[4]["removed"]


def test_verify_checks_every_merged_instant(inputs, capsys):
    code, out, _ = _run(capsys, "verify", "--engine", "reeval", *_streams(inputs), "--query", str(inputs / "q.rq"),
                        "--json")
    assert code == 0, out
    verdict = json.loads(out)
    assert verdict["agrees"] and verdict["checkpoints"] == 6 and verdict["oracle"] == "rdflib"


@pytest.mark.parametrize("streams, message", [
    (lambda d: ["--stream", f"http://ex/s1={d / 'one'}"], "reads <http://ex/s2>, which has no input"),
    (lambda d: ["--stream", str(d / "one")], "give --stream IRI=DIR for each"),
    (lambda d: [*_streams(d), "--stream", f"http://ex/s3={d / 'two'}"], "no window of query q reads <http://ex/s3>"),
    (lambda d: [*_streams(d), "--stream", f"http://ex/s1={d / 'two'}"], "<http://ex/s1> is given twice"),
])
def test_stream_arguments_that_do_not_fit_the_query_exit_2(inputs, capsys, streams, message):
    code, _, err = _run(capsys, "run", "--engine", "reeval", *streams(inputs), "--query", str(inputs / "q.rq"))
    assert code == 2 and message in err and err.count("\n") == 1


def test_an_undeclared_window_block_exits_2(inputs, capsys):
    (inputs / "bad.rq").write_text(QUERY.replace("WINDOW :w2 {", "WINDOW :w3 {"))
    code, _, err = _run(capsys, "run", "--engine", "reeval", *_streams(inputs), "--query", str(inputs / "bad.rq"))
    assert code == 2 and "names no declared window" in err


def test_an_engine_of_one_stream_refuses_with_the_reason(inputs, capsys):
    code, _, err = _run(capsys, "run", "--engine", "spectra", *_streams(inputs), "--query", str(inputs / "q.rq"))
    assert code == 2 and "2 named windows" in err


def test_a_one_window_query_takes_one_stream(inputs, capsys):
    (inputs / "one.rq").write_text("PREFIX : <http://ex/>\nSELECT * WHERE { ?x :p ?y }\n")
    code, _, err = _run(capsys, "run", "--engine", "reeval", "--stream", str(inputs / "one"), "--stream",
                        str(inputs / "two"), "--query", str(inputs / "one.rq"), "--window", "sliding:3:1")
    assert code == 2 and "--stream was given 2 times" in err


def test_one_stream_fed_as_is_to_a_query_over_named_windows_is_refused(inputs):
    from engines.model.query import load_query
    from harness.engines_setup import build_engine
    from harness.streams.reader import open_stream

    query = load_query(inputs / "q.rq")
    stream = open_stream(inputs / "one")
    for engine_name in ("reeval", "tpjoin-lazy", "oxigraph", "sparkwave"):
        engine = build_engine(engine_name, query, stream)
        with pytest.raises(StreamError, match="which no named window reads"):
            engine.push(next(iter(stream.events)))


def test_a_bench_cell_over_named_windows_needs_its_streams(inputs):
    from harness.bench.cell import _load_inputs
    from harness.bench.task import cell_of

    cell = {"engine": "reeval", "dataset": "d", "scale": None, "event_shape": "x", "query": "q",
            "query_path": str(inputs / "q.rq"), "window": None, "entailment": None, "stream_dir": str(inputs / "one"),
            "max_events": 0}
    with pytest.raises(ConfigError, match="names no stream per window"):
        _load_inputs(cell_of(cell))
    merged = {**cell, "streams": [["http://ex/s1", str(inputs / "one"), "one"], ["http://ex/s2", str(inputs / "two"), "two"]]}
    query, stream = _load_inputs(cell_of(merged))
    assert [event.ts for event in stream.events] == [0, 1, 2, 2, 4, 5] and query.streams == ("http://ex/s1", "http://ex/s2")


# several queries over named windows (DESIGN.md section 2, "Several queries"): the instants are the union's merge
SECOND = """PREFIX : <http://ex/>
SELECT ?y ?z FROM NAMED WINDOW :v1 ON :s2 [RANGE PT0.004S STEP PT0.001S]
FROM NAMED WINDOW :v2 ON :s3 [RANGE PT0.002S STEP PT0.001S]
WHERE { WINDOW :v1 { ?y :q ?z } WINDOW :v2 { ?z :r ?k } }
"""


@pytest.fixture
def three(inputs):
    write_stream(build_stream([(3, ["+ :y :r :k"])]), inputs / "three")
    (inputs / "second.rq").write_text(SECOND)
    return inputs


def _three_streams(inputs):
    return [*_streams(inputs), "--stream", f"http://ex/s3={inputs / 'three'}"]


@pytest.mark.parametrize("engine", ["reeval", "tpjoin-lazy", "sparkwave", "oxigraph"])
def test_run_takes_several_queries_over_the_union_of_their_streams(three, capsys, engine):
    traces = three / "traces"
    code, out, err = _run(capsys, "run", "--engine", engine, *_three_streams(three), "--query", str(three / "q.rq"),
                          "--query", str(three / "second.rq"), "--trace", str(traces), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["engine"] == (f"{engine}+perquery" if engine == "oxigraph" else engine)
    first = [json.loads(line) for line in (traces / "q.jsonl").read_text().splitlines()[1:]]
    second = [json.loads(line) for line in (traces / "second.jsonl").read_text().splitlines()[1:]]
    # one line per instant of the merge of s1, s2 (q's) and s3 (second's), in each query's trace
    order = [("http://ex/s1", 0), ("http://ex/s2", 1), ("http://ex/s1", 2), ("http://ex/s2", 2), ("http://ex/s3", 3),
             ("http://ex/s2", 4), ("http://ex/s1", 5)]
    assert [(line["stream"], line["ts"]) for line in first] == order == [(line["stream"], line["ts"]) for line in second]
    assert first[1]["added"] == [["<http://ex/a>", "<http://ex/b>", "<http://ex/x>", "<http://ex/k>"]]
    # q reads no s3: at s3's event at ts 3 its w1 slides to ts 1..3, and ":a :p :b" (ts 0) leaves it
    assert first[4]["removed"] == [["<http://ex/a>", "<http://ex/b>", "<http://ex/x>", "<http://ex/k>"]]
    assert second[4]["added"] == [["<http://ex/b>", "<http://ex/y>"]]
    # second reads no s1: at s1's event at ts 5 its v2 slides to ts 4..5, and ":y :r :k" (ts 3) leaves it
    assert second[6]["removed"] == [["<http://ex/b>", "<http://ex/y>"]]


@pytest.mark.parametrize("flags", [[], ["--per-query"]])
def test_verify_checks_each_query_at_every_instant_of_the_union(three, capsys, flags):
    code, out, err = _run(capsys, "verify", "--engine", "tpjoin-eager", *_three_streams(three), "--query",
                          str(three / "q.rq"), "--query", str(three / "second.rq"), *flags, "--json")
    assert code == 0, err
    verdict = json.loads(out)
    assert verdict["agrees"] and [row["checkpoints"] for row in verdict["queries"]] == [7, 7]


@pytest.mark.parametrize("streams, message", [
    (lambda d: _streams(d), "the window :v2 of query second reads <http://ex/s3>, which has no input"),
    (lambda d: [*_three_streams(d), "--stream", f"http://ex/s4={d / 'two'}"],
     "no window of the 2 queries reads <http://ex/s4>"),
    (lambda d: [str(d / "one")], "the 2 queries read 3 streams"),
])
def test_stream_arguments_that_do_not_fit_the_queries_exit_2(three, capsys, streams, message):
    arguments = streams(three)
    if len(arguments) == 1:
        arguments = ["--stream", arguments[0]]
    code, _, err = _run(capsys, "run", "--engine", "reeval", *arguments, "--query", str(three / "q.rq"), "--query",
                        str(three / "second.rq"))
    assert code == 2 and message in err and err.count("\n") == 1


def test_a_one_window_query_beside_queries_over_named_windows_exits_2(three, capsys):
    """Formerly any second query beside one over named windows was refused; now only one whose events carry no stream."""
    (three / "one.rq").write_text("# window: sliding:3:1\nPREFIX : <http://ex/>\nSELECT * WHERE { ?x :p ?y }\n")
    code, _, err = _run(capsys, "run", "--engine", "reeval", *_three_streams(three), "--query", str(three / "q.rq"),
                        "--query", str(three / "one.rq"))
    assert code == 2 and err.count("\n") == 1
    assert "query one has one window over one stream and query q is over named windows" in err


ONE_NAMED = """PREFIX : <http://ex/>
SELECT * FROM NAMED WINDOW :w1 ON :s1 [RANGE PT0.003S STEP PT0.001S]
WHERE { WINDOW :w1 { ?x :p ?y } }
"""


@pytest.mark.parametrize("command", ["run", "verify", "bench"])
def test_one_iri_stream_for_a_query_without_named_windows_is_one_line_exit_2(inputs, capsys, command, tmp_path):
    """Not taken whole for a URI Spark would try to read (over the network, dying with a Java traceback)."""
    (inputs / "one.rq").write_text("PREFIX : <http://ex/>\nSELECT * WHERE { ?x :p ?y }\n")
    out = ["--out", str(tmp_path / "run")] if command == "bench" else []
    code, _, err = _run(capsys, command, "--engine", "reeval", "--stream", f"http://ex/s1={inputs / 'one'}", "--query",
                        str(inputs / "one.rq"), "--window", "sliding:3:1", *out)
    assert code == 2 and "no named window reading <http://ex/s1>" in err and err.count("\n") == 1, err
    assert f"give --stream {inputs / 'one'}" in err


@pytest.mark.parametrize("command", ["run", "verify"])
def test_one_iri_stream_for_a_query_with_that_named_window_runs_as_the_named_stream(inputs, capsys, command):
    (inputs / "named.rq").write_text(ONE_NAMED)
    code, out, err = _run(capsys, command, "--engine", "reeval", "--stream", f"http://ex/s1={inputs / 'one'}",
                          "--query", str(inputs / "named.rq"), "--json")
    assert code == 0, err
    assert json.loads(out)["window"] == "sliding:3:1" and json.loads(out)["events"] == 3  # the stream of one/
