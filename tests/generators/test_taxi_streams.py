"""Taxi trips and fares as two streams apart (the 2013 data's two files), and the two-stream query over them."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from common.errors import GeneratorError
from engines.model.query import load_query
from generators.framing import EventShape, GeneratorSpec
from generators.taxi.dataset import units
from generators.writer import write_stream_local
from harness.engines_setup import build_engine
from harness.streams.merged import open_merged
from harness.streams.reader import open_stream
from harness.verify import verify

QUERIES = sorted((Path(resources.files("generators.taxi")) / "queries" / "streams").glob("*.rq"))
STREAM = "http://example.org/cgpm-taxi/stream/"


def _spec(stream: str) -> GeneratorSpec:
    # 200 trips over two and a half hours (2,000 a day), so that both windows slide past some
    return GeneratorSpec(dataset="taxi", scale=200, seed=7, index=0, shape=EventShape.parse("entity"),
                         options=(("stream", stream), ("trips_per_day", 2000)))


@pytest.fixture(scope="module")
def apart(tmp_path_factory):
    root = tmp_path_factory.mktemp("taxi-apart")
    for name in ("all", "trips", "fares"):
        write_stream_local(_spec(name), root / name)
    return root


def test_trips_and_fares_split_each_trip_event_at_its_time(apart):
    whole, trips, fares = (list(open_stream(apart / name).events) for name in ("all", "trips", "fares"))
    assert len(whole) == len(trips) == len(fares) == 200
    for event, trip, fare in zip(whole, trips, fares):
        assert event.ts == trip.ts == fare.ts
        assert sorted(event.updates) == sorted(trip.updates + fare.updates)
        assert len(fare.updates) == 7 and {u.p.rsplit("#", 1)[-1] for u in fare.updates} >= {"tip>", "fare>"}


def test_an_unknown_stream_is_refused():
    with pytest.raises(GeneratorError, match="stream must be one of all, fares, trips"):
        units(_spec("meters"))


@pytest.mark.parametrize("path", QUERIES, ids=[path.stem for path in QUERIES])
@pytest.mark.parametrize("engine", ["reeval", "tpjoin-lazy"])
def test_the_two_stream_query_answers_and_verifies(apart, path, engine):
    query = load_query(path)
    merged = open_merged(query, {iri: apart / iri[len(STREAM):] for iri in query.streams})
    result = verify(engine, query, merged, oracle="rdflib")
    assert result.agrees, f"first divergence: {result.first}"
    instance = build_engine(engine, query, merged)
    assert any(instance.push(event).removed for event in merged.events), f"{path.name}: no answer ever leaves"
