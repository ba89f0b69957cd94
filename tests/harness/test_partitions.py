"""A key-partitioned run gives one instance's answers at every instant; what cannot be split is refused in one line.

The split and the merge run here in this process (``InProcessExecutor``): they are the same code a Spark
task runs (tests/harness/test_partitions_spark.py runs that path once).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from common.errors import CgpmError, ConfigError, EngineError, EngineFailure, QueryError
from engines.model.query import parse_query
from engines.model.stream import Event
from harness.engines_setup import build_engine
from harness.partitions.executors import InProcessExecutor, PartitionJob, SparkExecutor
from harness.partitions.merge import aligned, merge_histories
from harness.partitions.plan import choose_key, plan_partitions
from harness.partitions.routing import Router
from harness.streams import write_stream
from harness.verify import verify
from tests.cli_run import cgpm as _cli
from tests.conformance.checks import PREFIXES, build_stream
from tests.engine_answers import held_after_each_event
from tests.strategies import queries, streams, windows


def one_instance(engine, query, stream):
    instance = build_engine(engine, query, stream)
    return list(held_after_each_event((event, instance.push(event)) for event in stream.events))


def split(engine, query, stream, partitions):
    plan = plan_partitions(query, partitions)
    run = InProcessExecutor().run(PartitionJob(engine, plan, stream))
    return list(held_after_each_event(aligned(stream.events, run.merged()))), run.summaries()


@st.composite
def cases(draw):
    window = draw(windows())
    rdfs = draw(st.integers(0, 3)) == 0
    stream = draw(streams(deletions=window.kind == "unbounded", static=draw(st.booleans()), schema=rdfs))
    query = draw(queries(window, entailment="rdfs" if rdfs else "none", shapes=("star", "single", "chain", "cycle")))
    return query, stream, draw(st.integers(1, 4))


@pytest.mark.parametrize("engine", ["reeval", "sparkwave"])
@settings(max_examples=60, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=cases())
def test_merged_partitions_equal_one_instance(engine, case):
    query, stream, partitions = case
    try:
        choose_key(query)
    except QueryError:
        assume(False)
    expected = one_instance(engine, query, stream)
    got, summaries = split(engine, query, stream, partitions)
    for index, (want, have) in enumerate(zip(expected, got, strict=True)):
        assert have == want, f"{partitions} partitions at event {index}: missing {want - have}, extra {have - want}"
    assert [summary.events for summary in summaries] == [len(stream.events)] * partitions  # every instant told


STAR = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y . ?x :q ?z }", window="sliding:4:1", name="star")


def test_a_triple_goes_to_every_key_value_it_could_bind_and_a_triple_fitting_nothing_nowhere():
    query = parse_query(PREFIXES + "SELECT * WHERE { ?k :p ?y . ?y :q ?k }", window="sliding:4:1")
    router = Router(plan_partitions(query, 64))
    a, b = "<http://ex/a>", "<http://ex/b>"
    partition_of = router.plan.owner
    assert router.targets((a, "<http://ex/p>", b)) == {partition_of((a, b))}  # subject: the key of ?k :p ?y
    assert router.targets((b, "<http://ex/q>", a)) == {partition_of((a, b))}  # object: the key of ?y :q ?k
    assert router.targets((a, "<http://ex/r>", b)) == frozenset()
    both = parse_query(PREFIXES + "SELECT * WHERE { ?k :p ?y . ?y :p ?k }", window="sliding:4:1")
    router = Router(plan_partitions(both, 64))
    assert router.targets((a, "<http://ex/p>", b)) == {partition_of((a,)), partition_of((b,))}


def test_every_partition_is_told_every_instant_and_a_key_spreads_over_the_partitions():
    events = [(ts, [f"+ :s{ts} :p :o", f"+ :s{ts} :q :o", "+ :x :r :y"]) for ts in range(40)]
    stream = build_stream(events)
    router = Router(plan_partitions(STAR, 4))
    shares = router.split(stream.events[0])
    assert [share.index for share in shares] == [0] * 4 and sum(len(share.updates) for share in shares) == 2
    _, summaries = split("reeval", STAR, stream, 4)
    assert sum(summary.updates for summary in summaries) == 80  # the :r triples fit no pattern: dropped
    assert all(summary.updates > 0 for summary in summaries)


def test_rdfs_routes_a_triple_by_what_it_entails():
    query = parse_query(
        PREFIXES + "SELECT * WHERE { ?x a :Person . ?x :name ?n }", window="sliding:3:1", entailment="rdfs"
    )
    schema = [("<http://ex/teaches>", "<http://www.w3.org/2000/01/rdf-schema#domain>", "<http://ex/Person>")]
    router = Router(plan_partitions(query, 64), schema)
    assert router.targets(("<http://ex/a>", "<http://ex/teaches>", "<http://ex/c>")) == {
        router.plan.owner(("<http://ex/a>",))
    }
    assert (
        Router(plan_partitions(query.with_entailment("none"), 64), schema).targets(
            ("<http://ex/a>", "<http://ex/teaches>", "<http://ex/c>")
        )
        == frozenset()
    )


def test_what_cannot_be_split_is_refused_by_name():
    chain = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y . ?y :p ?z . ?z :p ?w }", window="event", name="chain3")
    with pytest.raises(QueryError, match=r"query chain3 has no partition key: no variable is in all 3 triple patterns"):
        plan_partitions(chain, 2)
    with pytest.raises(ConfigError, match="--partitions must be at least 1, got 0"):
        plan_partitions(STAR, 0)

    class Istream:
        name = "istream-only"
        capabilities = type("C", (), {"output": "istream"})()

    with pytest.raises(EngineError, match="'istream-only' reports istream"):
        plan_partitions(STAR, 2, Istream)


def test_the_key_avoids_a_predicate_variable():
    query = parse_query(PREFIXES + "SELECT * WHERE { ?x ?p ?y . ?p :label ?x }", window="event")
    assert choose_key(query) == "?x"


def test_the_merge_reads_the_histories_as_it_goes_and_checks_their_order():
    pulled = []

    def history(partition, instants):
        for index in instants:
            pulled.append((partition, index))
            yield index, index * 10, [(f"p{partition}",)], []

    merged = merge_histories([history(0, [0, 2, 4]), history(1, [1, 2, 9])])
    assert next(merged) == (0, 0, [("p0",)], [])
    assert len(pulled) == 3  # a pending record per partition, and the one that shows instant 0 has no more
    assert list(merged) == [
        (1, 10, [("p1",)], []),
        (2, 20, [("p0",), ("p1",)], []),
        (4, 40, [("p0",)], []),
        (9, 90, [("p1",)], []),
    ]
    with pytest.raises(EngineFailure, match="partition 1's history went from instant 3 back to 3"):
        list(merge_histories([iter([]), iter([(3, 0, [], []), (3, 0, [], [])])]))
    with pytest.raises(EngineFailure, match="the partitions give instant 0 the time 5, the stream 0"):
        list(aligned([Event(0, 0, ())], iter([(0, 5, [], [])])))


def test_verify_checks_the_merged_history_and_catches_a_wrong_split(monkeypatch):
    stream = build_stream([(ts, [f"+ :s{ts % 5} :p :o{ts}", f"+ :s{ts % 5} :q :o"]) for ts in range(12)])
    assert verify("spectra", STAR, stream, oracle="plain", partitions=3).agrees
    # a router that loses every triple of one partition: the merged answers miss that partition's mappings
    import harness.partitions.history as history

    class Lossy(Router):
        def share(self, event, partition):
            kept = super().share(event, partition)
            return Event(kept.index, kept.ts, () if partition == 1 else kept.updates)

    monkeypatch.setattr(history, "Router", Lossy)
    result = verify("spectra", STAR, stream, oracle="plain", partitions=3)
    assert not result.agrees and result.first.missing and not result.first.extra


def test_a_spark_job_that_fails_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    class DyingContext:
        master = "spark://127.0.0.1:7077"

        def setJobGroup(self, *args):
            pass

        def setLogLevel(self, level):
            pass

        def parallelize(self, items, slices):
            return self

        def map(self, function):
            return self

        def collect(self):
            raise RuntimeError(
                "py4j.protocol.Py4JJavaError: An error occurred\norg.apache.spark.SparkException: "
                "Job aborted due to stage failure: Lost executor 1 on 127.0.0.1: worker lost"
            )

    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    stream = build_stream([(0, ["+ :a :p :b", "+ :a :q :c"])])
    with pytest.raises(EngineFailure) as failure:
        SparkExecutor(context=DyingContext()).run(PartitionJob("reeval", plan_partitions(STAR, 2), stream))
    assert str(failure.value).count("\n") == 0 and "Lost executor 1" in str(failure.value)
    assert not list(tmp_path.iterdir())  # its work directory is gone


@pytest.fixture
def star_inputs(tmp_path):
    stream = build_stream([(ts, [f"+ :s{ts % 7} :p :o{ts % 3}", f"+ :s{ts % 7} :q :o"]) for ts in range(30)])
    write_stream(stream, tmp_path / "stream")
    (tmp_path / "star.rq").write_text(PREFIXES + "SELECT ?x ?z WHERE { ?x :p ?y . ?x :q ?z }\n")
    (tmp_path / "chain.rq").write_text(PREFIXES + "SELECT * WHERE { ?x :p ?y . ?y :p ?z }\n# a comment\n")
    (tmp_path / "path.rq").write_text(PREFIXES + "SELECT * WHERE { ?x :p ?y . ?y :p ?z . ?z :p ?w }\n")
    return tmp_path


def _trace_rows(path):
    lines = path.read_text().splitlines()
    return json.loads(lines[0]), [
        (row["i"], row["ts"], sorted(map(tuple, row["added"])), sorted(map(tuple, row["removed"])))
        for row in map(json.loads, lines[1:])
    ]


def test_cli_run_split_writes_the_unsplit_trace(star_inputs, capsys):
    common = [
        "run",
        "--engine",
        "tpjoin-lazy",
        "--stream",
        str(star_inputs / "stream"),
        "--query",
        str(star_inputs / "star.rq"),
        "--window",
        "sliding:5:2",
    ]
    assert _cli(capsys, *common, "--trace", str(star_inputs / "one.jsonl"))[0] == 0
    code, out, _ = _cli(
        capsys,
        *common,
        "--partitions",
        "3",
        "--partition-runner",
        "in-process",
        "--trace",
        str(star_inputs / "three.jsonl"),
        "--json",
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["partitioned"]["key"] == "?x" and len(summary["partitioned"]["by_partition"]) == 3
    assert _trace_rows(star_inputs / "one.jsonl") == _trace_rows(star_inputs / "three.jsonl")
    code, out, _ = _cli(capsys, "verify", *common[1:], "--partitions", "2", "--partition-runner", "in-process")
    assert code == 0 and "in 2 partitions by ?x" in out and "agrees" in out


@pytest.mark.parametrize("case", ["zero", "two queries", "no key"])
def test_cli_bad_partitions_exit_2_with_one_line_and_write_nothing(star_inputs, capsys, case):
    star, chain, path = (str(star_inputs / name) for name in ("star.rq", "chain.rq", "path.rq"))
    arguments, message = {
        "zero": (["--query", star, "--partitions", "0"], "--partitions must be at least 1, got 0"),
        "two queries": (
            ["--query", star, "--query", chain, "--partitions", "2"],
            "--partitions splits one query's stream; --query was given 2 times",
        ),
        "no key": (["--query", path, "--partitions", "2"], "query path has no partition key"),
    }[case]
    for command in ("run", "verify"):
        trace = ["--trace", str(star_inputs / "t.jsonl")] if command == "run" else []
        code, out, err = _cli(
            capsys,
            command,
            "--engine",
            "reeval",
            "--stream",
            str(star_inputs / "stream"),
            "--window",
            "event",
            *arguments,
            *trace,
        )
        assert code == 2 and err.count("\n") == 1 and message in err, err
        assert not (star_inputs / "t.jsonl").exists()


def test_a_partitioned_run_refuses_what_the_engine_refuses():
    query = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y . ?x :q ?z }", window="unbounded")
    with pytest.raises(CgpmError, match="engine 'spectra' does not support unbounded windows"):
        verify("spectra", query, build_stream([(0, ["+ :a :p :b"])]), partitions=2)
