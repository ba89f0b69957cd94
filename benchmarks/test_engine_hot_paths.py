"""Micro-benchmarks of engine hot paths (pytest-benchmark), run by ``tox -e bench``, never by the default test run.

Each benchmark feeds a whole stream to a new engine: every registered engine (so new engines are
measured as they are registered) on the shipped example queries, plus the cost of building an
engine and of loading a stream. Compare two commits with pytest-benchmark's own tools::

    tox -e bench -- --benchmark-autosave
    pytest-benchmark compare 0001 0002 --group-by=name
"""

from __future__ import annotations

from pathlib import Path

import pytest

from common.errors import EngineError
from engines.model.query import load_query
from engines.registry import known_engines
from harness.engines_setup import engine_class_for
from harness.streams import read_stream

EXAMPLE = Path(__file__).resolve().parents[1] / "harness" / "examples" / "university"
QUERIES = ("chain", "star", "cycle", "filter")


@pytest.fixture(scope="module")
def stream():
    return read_stream(EXAMPLE)


def _engine_class(name, query, stream):
    try:
        return engine_class_for(name, query, stream)
    except EngineError as refusal:
        pytest.skip(str(refusal))  # the engine declares it cannot run this query


def _feed(engine_cls, query, stream) -> int:
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    changes = 0
    for event in stream.events:
        delta = engine.push(event)
        changes += len(delta.added) + len(delta.removed)
    return changes


@pytest.mark.parametrize("query_name", QUERIES)
@pytest.mark.parametrize("engine_name", known_engines())
def test_push_whole_stream(benchmark, stream, engine_name, query_name):
    query = load_query(EXAMPLE / "queries" / f"{query_name}.rq")
    engine_cls = _engine_class(engine_name, query, stream)
    benchmark.group = f"push {query_name}"
    changes = benchmark(_feed, engine_cls, query, stream)
    assert changes >= 0


@pytest.mark.parametrize("engine_name", known_engines())
def test_build_engine(benchmark, stream, engine_name):
    query = load_query(EXAMPLE / "queries" / "static_join.rq")
    engine_cls = _engine_class(engine_name, query, stream)
    benchmark.group = "build"
    benchmark(engine_cls, query, static=stream.static, schema=stream.schema)


def test_read_stream(benchmark):
    benchmark.group = "stream"
    loaded = benchmark(read_stream, EXAMPLE)
    assert len(loaded.events) == 41
