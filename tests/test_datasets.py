"""Every matching engine agrees with the oracle at every instant on small streams of every generated dataset, with its queries.

The streams are prefixes of what the generators' pure-Python twins make (the same rows as their
Spark jobs, ``tests/generators``): LUBM(1) in UBA order, one event per entity, with the BitMat
L1-L7 and the 14 LUBM queries; NYC-taxi-like trips, one event per trip, with taxi Q1-Q3 and
their FILTER variants; BSBM offers with Sparkwave's patterns P1-P3 under rdfs (seed 83 has a GB
vendor and a GB producer among two each, so every pattern's extra join filters something), and
the same offers with each product's closed types (``types=closed``) with the patterns' ``_fc``
variants without entailment; LSBench (24 users from u0, every stream, the static graph) with
Q1-Q7; SNB (40 persons, events by message, the static graph) with TP-Join's queries and the short
reads. Each query runs under a sliding window a quarter of the prefix long (three quarters for
LSBench and half for SNB, whose likes come hours after what they like), so triples enter, stay
while joins complete, and leave. The rdflib oracle runs once per query and
stream; every engine is then checked against it (ids ``engine:dataset-query``). An engine that
declares it cannot run a query (e.g. no rdfs entailment) is left out of that query's cases.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from common.errors import EngineError
from engines.model.query import load_query
from engines.model.stream import Stream
from engines.registry import get_engine, known_engines
from harness.engines_setup import engine_class_for
from harness.streams import read_stream
from harness.verify import verify
from oracles.evaluate import oracle_answers

ROOT = Path(__file__).resolve().parents[1]
MATCHERS = [name for name in known_engines() if get_engine(name).capabilities.matches]
BSBM_QUERIES = sorted((ROOT / "generators" / "bsbm" / "queries").glob("*.rq"))
# dataset -> (scale, events in the prefix, query files)
DATASETS = {
    "lubm": (1, 200, sorted((ROOT / "generators" / "lubm" / "queries").glob("*.rq"))),
    "taxi": (120, 120, sorted((ROOT / "generators" / "taxi" / "queries").glob("*.rq"))),
    "bsbm": (100, 100, [path for path in BSBM_QUERIES if not path.stem.endswith("_fc")]),
    "bsbm-fc": (100, 100, [path for path in BSBM_QUERIES if path.stem.endswith("_fc")]),
    "lsbench": (24, 300, sorted((ROOT / "generators" / "lsbench" / "queries").glob("*.rq"))),
    "snb": (40, 80, sorted((ROOT / "generators" / "snb" / "queries").glob("*.rq"))),
}
# a stream made with other than the defaults: key -> (generator, seed, options)
STREAM_SPECS = {"bsbm": ("bsbm", 83, ()), "bsbm-fc": ("bsbm", 83, (("types", "closed"),)),
                "lsbench": ("lsbench", 3, (("days", 2),)), "snb": ("snb", 1, ())}
FIRST_INDEX: dict[str, int] = {}  # the first user or entity number of a dataset's stream (default 0: the queries' u0 and p0)
WITH_STATIC = {"lsbench", "snb"}
# the share of the prefix's time span a window covers, in quarters: social likes come hours after what they like
WINDOW_QUARTERS = {"lsbench": 3, "snb": 2}


def _window(stream: Stream, quarters: int = 1) -> str:
    span = stream.events[-1].ts - stream.events[0].ts
    return f"sliding:{max(span * quarters // 4, 1)}:{max(span // 40, 1)}"


@pytest.fixture(scope="session")
def dataset_streams(tmp_path_factory) -> dict[str, Stream]:
    from generators.framing import EventShape, GeneratorSpec
    from generators.writer import write_stream_local

    streams = {}
    for dataset, (scale, events, _) in DATASETS.items():
        directory = tmp_path_factory.mktemp("datasets") / dataset
        generator, seed, options = STREAM_SPECS.get(dataset, (dataset, 0, ()))
        spec = GeneratorSpec(dataset=generator, scale=scale, seed=seed, index=FIRST_INDEX.get(dataset, 0),
                             shape=EventShape.parse("entity"), options=options)
        write_stream_local(spec, directory)
        whole = read_stream(directory)
        streams[dataset] = dataclasses.replace(whole, events=whole.events[:events])
    return streams


@pytest.fixture(scope="session")
def oracle_runs(dataset_streams):
    """One oracle pass per (dataset, query), shared by every engine's case."""
    cache: dict[tuple[str, str], tuple] = {}

    def run(dataset: str, query_path: Path):
        key = (dataset, query_path.name)
        if key not in cache:
            stream = dataset_streams[dataset]
            query = load_query(query_path, window=_window(stream, WINDOW_QUARTERS.get(dataset, 1)))
            cache[key] = (query, stream, list(oracle_answers(query, stream, oracle="rdflib")))
        return cache[key]

    return run


def _declared_unsupported(engine: str, dataset: str, query_path: Path) -> bool:
    """Whether the engine refuses the query's shape or the dataset's static graph (checked before any stream exists)."""
    query = load_query(query_path, window="sliding:1000:100")
    static = (("<http://x/s>", "<http://x/p>", "<http://x/o>"),) if dataset in WITH_STATIC else ()
    try:
        engine_class_for(engine, query, Stream(events=(), static=static))
    except EngineError:
        return True
    return False


CASES = [
    pytest.param(engine, dataset, query_path, id=f"{engine}:{dataset}-{query_path.stem}")
    for dataset, (_, _, paths) in DATASETS.items()
    for query_path in paths
    for engine in MATCHERS
    if not _declared_unsupported(engine, dataset, query_path)
]


def test_every_dataset_query_is_run_by_some_engine():
    ran = {(case.values[1], case.values[2].name) for case in CASES}
    every = {(dataset, path.name) for dataset, (_, _, paths) in DATASETS.items() for path in paths}
    assert ran == every and len(every) >= 30


@pytest.mark.parametrize("engine, dataset, query_path", CASES)
def test_engine_agrees_with_oracle_on_generated_stream(engine, dataset, query_path, oracle_runs):
    query, stream, expected = oracle_runs(dataset, query_path)
    result = verify(engine, query, stream, oracle="rdflib", oracle_results=expected)
    assert result.checkpoints == len(stream.events)
    assert result.agrees, result.first


# The Spark oracle on one query per dataset (LUBM L4: five patterns with answers; taxi Q1 with a FILTER; rdfs on
# BSBM): it gives the rdflib oracle's answers at every instant, so every engine agreeing with rdflib above agrees with it.
SPARK_CASES = [("lubm", "L4.rq"), ("taxi", "Q1_star_complex.rq"), ("bsbm", BSBM_QUERIES[0].name)]


@pytest.mark.spark
@pytest.mark.parametrize("dataset, query_name", SPARK_CASES, ids=[f"{d}-{q[:-3]}" for d, q in SPARK_CASES])
def test_spark_oracle_agrees_on_generated_stream(dataset, query_name, oracle_runs):
    from harness.spark import spark_session
    from oracles.spark import oracle_answers as spark_oracle_answers

    query_path = next(path for path in DATASETS[dataset][2] if path.name == query_name)
    query, stream, expected = oracle_runs(dataset, query_path)
    spark = spark_session("local[2]", app_name="cgpm-tests", progress=False, config={"spark.sql.shuffle.partitions": "1"})
    actual = list(spark_oracle_answers(spark, query, stream))
    assert [step[:2] for step in actual] == [step[:2] for step in expected]
    for (index, _, want), (_, _, got) in zip(expected, actual):
        assert got == want, f"event {index}: rdflib-only {sorted(want - got)[:3]}, spark-only {sorted(got - want)[:3]}"
    assert any(answers for _, _, answers in expected)  # the comparison is not between empty histories
