"""cgpm bench over named windows: a workload gives each stream IRI a directory or a generated stream, the cell merges them.

The cell records its streams (id, ``streams`` column, run.json), steady state and window triples are
the merged instants' (``harness.bench.steady``), verification checks the merged instants, and what
cannot run is one line, exit 2, before anything is written.
"""

from __future__ import annotations

import json

import pytest

from common.errors import ConfigError
from engines.model.query import load_query
from harness.bench import store
from harness.bench.config import config_from_table, load_config
from harness.bench.datasets import generated_keys, stream_name
from harness.bench.steady import query_fill_point, window_triples
from harness.streams import write_stream
from harness.streams.merged import open_merged
from tests.conformance.checks import build_stream
from tests.harness.test_cli import _run

QUERY = """PREFIX : <http://ex/>
SELECT * FROM NAMED WINDOW :w1 ON :s1 [RANGE PT0.003S STEP PT0.001S]
FROM NAMED WINDOW :w2 ON :s2 [RANGE PT0.004S TUMBLING]
WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } ?z :r ?k }
"""
S1, S2 = "http://ex/s1", "http://ex/s2"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("streams")
    write_stream(build_stream([(0, ["+ :a :p :b"]), (2, ["+ :c :p :b"]), (5, ["+ :e :p :b"])]), root / "one")
    write_stream(build_stream([(1, ["+ :b :q :x"]), (2, ["+ :b :q :y"]), (4, ["+ :z :q :z"])], static=(":x :r :k",)),
                 root / "two")
    (root / "q.rq").write_text(QUERY)
    (root / "plain.rq").write_text("PREFIX : <http://ex/>\nSELECT * WHERE { ?x :p ?y }\n# window: sliding:3:1\n")
    return root


def _workload(inputs, **more) -> dict:
    return {"queries": [str(inputs / "q.rq")], "streams": {S1: str(inputs / "one"), S2: str(inputs / "two")}, **more}


def test_the_merged_instants_decide_window_triples_and_steady_state(inputs):
    query = load_query(inputs / "q.rq")
    merged = open_merged(query, {S1: str(inputs / "one"), S2: str(inputs / "two")})
    # instants ts 0 1 2 2 4 5; at ts 5, w1 [3, 5] holds s1's ts-5 event, w2 [4, 5] s2's ts-4 event
    assert window_triples(merged, query) == 2
    # cut to 5 instants the last is ts 4: w1 [2, 4] holds s1's ts-2 event (not its ts-0 one), w2 s2's ts-4 event
    assert window_triples(merged.limited(5), query) == 2
    # w1 leaves s1's first event (ts 0) at ts 3 (instant 4), w2 leaves s2's (ts 1) at ts 4 (instant 4)
    assert query_fill_point(merged, query).event == 4
    # w2 over 1 ms sliding by 1 ms leaves s2's first event at ts 2 (instant 2): every window is full at the later, 4
    (inputs / "short.rq").write_text(QUERY.replace("[RANGE PT0.004S TUMBLING]", "[RANGE PT0.001S STEP PT0.001S]"))
    narrow = load_query(inputs / "short.rq")
    assert query_fill_point(open_merged(narrow, {S1: str(inputs / "one"), S2: str(inputs / "two")}), narrow).event == 4


def test_a_workload_names_a_directory_or_a_generated_stream_per_iri(inputs, tmp_path):
    path = tmp_path / "bench.toml"
    path.write_text(f"""
[[workloads]]
queries = ["{inputs / 'q.rq'}"]
[workloads.streams]
"{S1}" = "{inputs / 'one'}"
"{S2}" = {{ dataset = "lsbench", scales = [10, 20], options = {{ stream = "posts", days = 2 }} }}
""")
    config = load_config(path)
    (workload,) = config.workloads
    assert workload.streams[0] == (S1, str(inputs / "one"))
    assert workload.streams[1][1].options == (("days", 2), ("stream", "posts"))
    keys = generated_keys(config)
    assert keys == [("lsbench", 10, 0, "entity", None, (("days", 2), ("stream", "posts"))),
                    ("lsbench", 20, 0, "entity", None, (("days", 2), ("stream", "posts")))]
    assert stream_name(keys[0]) == "lsbench-scale10-seed0-entity-days2-streamposts"
    stored = json.loads(json.dumps(config.as_json()))["workloads"][0]["streams"]
    assert stored[0] == [S1, str(inputs / "one")] and stored[1][1]["options"] == [["days", 2], ["stream", "posts"]]


@pytest.mark.parametrize("workload, message", [
    (lambda d: _workload(d, streams={S1: str(d / "one")}), "reads <http://ex/s2>, which has no input"),
    (lambda d: _workload(d, streams={S1: str(d / "one"), S2: str(d / "two"), "http://ex/s3": str(d / "two")}),
     "no window of its queries reads <http://ex/s3>"),
    (lambda d: _workload(d, streams={S1: str(d / "one"), "s2": str(d / "two")}), "an IRI with a scheme"),
    (lambda d: _workload(d, windows=["sliding:5:1"]), "which no other window replaces"),
    (lambda d: _workload(d, queries=[str(d / "q.rq"), str(d / "plain.rq")]), "query plain has one window over one stream"),
    (lambda d: {"queries": [str(d / "q.rq")], "stream": str(d / "one")}, "query q reads 2 streams"),
    (lambda d: _workload(d, streams={S1: {"dataset": "lsbench", "scales": [1]}, S2: {"dataset": "lsbench", "scales": [2]}}),
     "the same scales and event_shapes"),
])
def test_streams_that_do_not_fit_the_queries_are_refused_when_the_configuration_is_read(inputs, workload, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        config_from_table({"workloads": [workload(inputs)]}, where="bench.toml")


@pytest.mark.parametrize("streams, message", [
    (lambda d: [f"{S1}={d / 'one'}"], "reads <http://ex/s2>, which has no input"),
    (lambda d: [f"{S1}={d / 'one'}", f"{S2}={d / 'two'}", f"http://ex/s3={d / 'two'}"], "reads <http://ex/s3>"),
    (lambda d: [f"{S1}={d / 'one'}", str(d / "two")], "each names its stream"),
    (lambda d: [str(d / "one")], "query q reads 2 streams"),
])
def test_cli_streams_that_do_not_fit_exit_2_with_one_line_and_write_nothing(inputs, tmp_path, capsys, streams, message):
    arguments = [argument for value in streams(inputs) for argument in ("--stream", value)]
    code, _, err = _run(capsys, "bench", "--engine", "reeval", *arguments, "--query", str(inputs / "q.rq"),
                        "--runner", "process", "--out", str(tmp_path / "run"))
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "run").exists()


@pytest.fixture(scope="module")
def named_run(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "named"
    code = _run_cli(["bench", "--engine", "reeval", "--engine", "tpjoin-lazy", "--stream", f"{S1}={inputs / 'one'}",
                     "--stream", f"<{S2}>={inputs / 'two'}", "--query", str(inputs / "q.rq"), "--repetitions", "1",
                     "--min-time", "0", "--runner", "process", "--verify", "--verify-every", "2", "--out", str(out)])
    assert code == 0
    return out


def _run_cli(argv) -> int:
    from harness.cli import main

    return main(argv)


def test_a_cell_over_named_windows_records_its_streams_and_is_verified(inputs, named_run):
    frame = store.load_results(named_run)
    assert list(frame["engine"]) == ["reeval", "tpjoin-lazy"] and (frame["status"] == "ok").all()
    assert set(frame["verdict"]) == {"agrees"}
    assert set(frame["streams"]) == {f"<{S1}>=one@None/as stored <{S2}>=two@None/as stored"}
    assert set(frame["window"]) == {":w1=sliding:3:1 :w2=tumbling:4"}
    assert (frame["events"] == 6).all() and (frame["triples"] == 6).all() and (frame["window_triples"] == 2).all()
    assert (frame["steady_events"] == 2).all()  # instants 4 and 5
    info = json.loads((named_run / "run.json").read_text())
    assert info["config"]["workloads"][0]["streams"] == [[S1, str(inputs / "one")], [S2, str(inputs / "two")]]
    assert [[iri for iri, _, _ in cell["streams"]] for cell in info["cells"]] == [[S1, S2], [S1, S2]]


def test_concurrent_copies_of_a_query_over_named_windows_run_in_one_engine_and_are_verified(inputs, tmp_path):
    """Formerly refused (a query over named windows ran alone in its instance): its copies read its streams, so the
    instants are its merge, and each copy is verified at every merged instant (DESIGN.md section 2, Several queries)."""
    assert config_from_table({"workloads": [_workload(inputs, concurrent=[1, 2])]}).workloads[0].concurrent == (1, 2)
    out = tmp_path / "copies"
    code = _run_cli(["bench", "--engine", "reeval", "--engine", "tpjoin-eager", "--stream", f"{S1}={inputs / 'one'}",
                     "--stream", f"{S2}={inputs / 'two'}", "--query", str(inputs / "q.rq"), "--concurrent", "3",
                     "--repetitions", "1", "--min-time", "0", "--runner", "process", "--verify", "--out", str(out)])
    assert code == 0
    frame = store.load_results(out)
    assert list(frame["concurrent"]) == [3, 3] and (frame["status"] == "ok").all()
    assert set(frame["verdict"]) == {"agrees"} and (frame["events"] == 6).all()


def test_the_streams_are_part_of_the_cells_identity(inputs, named_run, tmp_path):
    from harness.bench.matrix import expand

    ids = set(store.load_results(named_run)["cell_id"])
    swapped = config_from_table({"workloads": [_workload(inputs, streams={S1: str(inputs / "two"), S2: str(inputs / "one")})]})
    again = config_from_table({"workloads": [_workload(inputs)]})
    assert {cell.cell_id for cell in expand(again, ["reeval", "tpjoin-lazy"], {})} == ids
    assert not {cell.cell_id for cell in expand(swapped, ["reeval", "tpjoin-lazy"], {})} & ids
