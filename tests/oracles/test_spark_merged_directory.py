"""The Spark oracle's directory entry over named windows merges a directory per stream on the executors, instant for instant as the harness merges them.

Differential: every named-windows conformance check, and random two- and three-stream cases with
equal timestamps across streams (the merge's declaration order decides), each stream written to its
own directory; ``oracle_answers_from_directory`` given those directories must equal the plain oracle
over ``harness.streams.merged``'s merge at every instant (and, on the random cases, the in-memory
entry, which ``test_spark_named_windows.py`` holds to rdflib on every check), with one and with
several ranges of the running counts. Spark jobs are slow (10-19 min for these on the shared machine,
load 7-9): the cases run batched in few tests, a Spark job per entry and case.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import StreamError
from engines.model.query import parse_query
from harness.streams import write_stream
from harness.streams.merged import open_merged
from oracles.evaluate import oracle_answers
from tests.conformance.checks import PREFIXES, build_stream
from tests.conformance.streams_checks import STREAMS_CHECKS

pytestmark = pytest.mark.spark


def _write_apart(root, streams: dict, static=(), schema=()) -> dict[str, str]:
    """Each stream's events in a directory of its own (the static graph and schema with the first), by stream IRI.

    A directory holds a row per update: an event without updates is left out (every entry then reads the same merge)."""
    directories = {}
    for number, (name, events) in enumerate(streams.items()):
        directory = root / name
        first = number == 0
        written = [(ts, lines) for ts, lines in events if lines]
        write_stream(build_stream(written, static if first else (), schema if first else ()), directory)
        directories[f"http://ex/{name}"] = str(directory)
    return directories


def _merged(query, directories, max_events=None):
    # the whole merge, as the in-memory Spark entry takes it (tests only: command paths stream it)
    return open_merged(query, {iri: directories[iri] for iri in query.streams}, max_events=max_events).materialise()


def _from_directories(spark, query, directories, **options) -> list:
    from oracles.spark import oracle_answers_from_directory

    return list(oracle_answers_from_directory(spark, query, directories, **options))


def test_every_named_windows_check_from_a_directory_per_stream(spark, tmp_path):
    for check in STREAMS_CHECKS:
        query = parse_query(check.query_text(), entailment=check.entailment, name=check.name)
        directories = _write_apart(tmp_path / check.name, check.streams, check.static, check.schema)
        # validate=False: the rows are written canonical; the checks of each stream (a few jobs per stream) run in the
        # random cases and the refusals, and this test then costs the merge and the plan alone
        directory = _from_directories(spark, query, directories, validate=False)
        assert directory == list(oracle_answers(query, _merged(query, directories), oracle="plain")), check.name
        assert len(directory) == sum(1 for events in check.streams.values() for _, lines in events if lines)


def _event_lists(draw, count: int) -> list:
    """Events with small timestamps (many ties across streams) over few triples, so joins come and go."""
    times = sorted(draw(st.lists(st.integers(0, 6), min_size=1, max_size=5)))
    terms = (":a", ":b", ":c")
    return [(ts, [f"+ {draw(st.sampled_from(terms))} :p{count} {draw(st.sampled_from(terms))}"
                  for _ in range(draw(st.integers(1, 2)))]) for ts in times]


@st.composite
def named_cases(draw):
    streams = {f"s{k}": _event_lists(draw, k) for k in range(1, draw(st.integers(2, 3)) + 1)}
    clauses, blocks = [], []
    for k, name in enumerate(streams, start=1):
        slide = draw(st.integers(1, 2))
        clauses.append(f"FROM NAMED WINDOW :w{k} ON :{name} [RANGE PT0.00{slide * draw(st.integers(1, 3))}S "
                       f"STEP PT0.00{slide}S]")
        blocks.append(f"WINDOW :w{k} {{ ?v{k - 1} :p{k} ?v{k} }}")
    text = PREFIXES + "SELECT * " + " ".join(clauses) + " WHERE { " + " ".join(blocks) + " }"
    return streams, text


def test_random_cases_with_ties_and_several_ranges_equal_both_other_entries(spark, tmp_path_factory):
    ranges = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "3")  # the running counts in value ranges, ties split across them
    try:
        @settings(max_examples=2, deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
        @given(named_cases())
        def agree(case):
            streams, text = case
            query = parse_query(text, name="random")
            directories = _write_apart(tmp_path_factory.mktemp("case"), streams)
            from oracles.spark import oracle_answers as in_memory_answers

            merged = _merged(query, directories)
            directory = _from_directories(spark, query, directories)
            assert directory == list(in_memory_answers(spark, query, merged))
            assert directory == list(oracle_answers(query, merged, oracle="plain"))
            cut = max(1, len(directory) - 2)  # the merge's first instants: some streams end early, ties cut between
            directory = _from_directories(spark, query, directories, max_events=cut)
            assert len(directory) == cut
            assert directory == list(oracle_answers(query, _merged(query, directories, cut), oracle="plain"))

        agree()
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", ranges)


def test_a_stream_without_a_directory_or_with_a_deletion_is_refused(spark, tmp_path):
    from oracles.spark import oracle_answers_from_directory

    check = STREAMS_CHECKS[0]
    query = parse_query(check.query_text(), name=check.name)
    directories = _write_apart(tmp_path / "ok", check.streams)
    with pytest.raises(StreamError, match="reads <http://ex/s2>, which has no directory"):
        list(oracle_answers_from_directory(spark, query, {"http://ex/s1": directories["http://ex/s1"]}))
    with pytest.raises(StreamError, match="give a directory per stream IRI"):
        list(oracle_answers_from_directory(spark, query, directories["http://ex/s1"]))
    deleting = {**check.streams, "s2": [*check.streams["s2"], (9, ["- :b :q :x"])]}
    with pytest.raises(StreamError, match="deletions are only allowed with an unbounded window"):
        list(oracle_answers_from_directory(spark, query, _write_apart(tmp_path / "deleting", deleting)))


def test_verify_with_the_spark_oracle_reads_the_merge_from_its_directories(spark, tmp_path, monkeypatch):
    import oracles.spark
    from harness.verify import verify

    def held_in_memory(*_args, **_kwargs):
        raise AssertionError("the merged stream was read into the driver")

    monkeypatch.setattr(oracles.spark, "oracle_answers", held_in_memory)
    check = STREAMS_CHECKS[0]
    query = parse_query(check.query_text(), name=check.name)
    directories = _write_apart(tmp_path, check.streams)
    result = verify("reeval", query, open_merged(query, directories), oracle="spark")
    assert result.agrees and result.oracle == "spark" and result.checkpoints == result.events == 8


def test_verify_many_with_the_spark_oracle_merges_the_union_of_the_queries_streams(spark, tmp_path, monkeypatch):
    """Two queries over s1, s2 and s2, s3 (DESIGN.md section 2, "Several queries"): each is checked at every instant
    of the merge of all three, in the union's order, read from the directories on the executors."""
    import oracles.spark
    from harness.verify_many import verify_many
    from tests.test_many_named_queries import Q1, Q2, STREAMS

    def held_in_memory(*_args, **_kwargs):
        raise AssertionError("the merged stream was read into the driver")

    monkeypatch.setattr(oracles.spark, "oracle_answers", held_in_memory)
    queries = [parse_query(Q1, name="q1"), parse_query(Q2, name="q2")]
    directories = _write_apart(tmp_path, STREAMS)
    results = verify_many("tpjoin-lazy", queries, open_merged(queries, directories), oracle="spark")
    assert [(result.agrees, result.oracle, result.checkpoints) for result in results] == [(True, "spark", 6)] * 2
    # the oracle merges the union: q1 alone over its own streams would have 4 instants, not 6
    answers = _from_directories(spark, queries[0], directories, merge_order=list(directories))
    assert len(answers) == 6 and len(_from_directories(spark, queries[0], directories)) == 4
