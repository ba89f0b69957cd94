"""Every shipped LSBench query answers on a small generated stream: no query names a user or person a small scale lacks."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from engines.model.query import load_query
from generators.framing import EventShape, GeneratorSpec
from generators.writer import write_stream_local
from harness.streams import read_stream
from oracles.evaluate import oracle_answers

QUERIES = sorted((Path(resources.files("generators.lsbench")) / "queries").glob("*.rq"))


@pytest.fixture(scope="module")
def small_stream(tmp_path_factory):
    """Ten users over two days, every stream, made by the pure-Python twin (what --no-spark writes)."""
    directory = tmp_path_factory.mktemp("lsbench") / "small"
    spec = GeneratorSpec(dataset="lsbench", scale=10, seed=0, index=0, shape=EventShape.parse("entity"),
                         options=(("days", 2),))
    write_stream_local(spec, directory)
    return read_stream(directory)


@pytest.mark.parametrize("path", QUERIES, ids=[path.stem for path in QUERIES])
def test_each_query_answers_on_a_small_stream(small_stream, path):
    query = load_query(path, window="unbounded")
    last = len(small_stream.events) - 1
    ((index, _, answers),) = oracle_answers(query, small_stream, instants=[last], oracle="plain")
    assert index == last
    assert answers, f"{path.name} has no answer over the whole 10-user stream"
