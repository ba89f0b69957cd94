"""SNB's messages and likes made as two streams apart, and its two-stream query over them."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from common.errors import GeneratorError
from engines.model.query import load_query
from generators.framing import EventShape, GeneratorSpec
from generators.writer import write_stream_local
from harness.engines_setup import build_engine
from harness.streams.merged import open_merged
from harness.streams.reader import open_stream
from harness.verify import verify

QUERIES = sorted((Path(resources.files("generators.snb")) / "queries" / "streams").glob("*.rq"))
STREAM = "http://www.ldbc.eu/ldbc_socialnet/1.0/stream/"


def _spec(stream: str, weeks_scale: int = 12) -> GeneratorSpec:
    return GeneratorSpec(dataset="snb", scale=weeks_scale, seed=0, index=0, shape=EventShape.parse("entity"),
                         options=(("years", 1), ("stream", stream)))


@pytest.fixture(scope="module")
def apart(tmp_path_factory):
    root = tmp_path_factory.mktemp("snb-apart")
    for name in ("all", "messages", "likes"):
        write_stream_local(_spec(name), root / name)
    return root


def _triples(directory: Path) -> list:
    return [update.triple for event in open_stream(directory).events for update in event.updates]


def test_messages_and_likes_apart_are_records_of_the_whole_stream_in_its_order(apart):
    whole = _triples(apart / "all")
    position = {triple: number for number, triple in enumerate(whole)}
    for name in ("messages", "likes"):
        part = _triples(apart / name)
        assert part and all(triple in position for triple in part)
        assert [position[t] for t in part] == sorted(position[t] for t in part), name
    predicates = Counter(triple[1].rsplit("/", 1)[-1] for triple in _triples(apart / "likes"))
    assert set(predicates) == {"likes>", "hasPost>", "hasComment>", "creationDate>"}


def test_a_stream_without_messages_has_an_event_per_record(apart):
    assert {len(event.updates) for event in open_stream(apart / "likes").events} == {3}


def test_an_unknown_kind_is_refused():
    from generators.snb.dataset import units

    with pytest.raises(GeneratorError, match="stream='tweets'"):
        units(_spec("tweets"))


@pytest.mark.parametrize("path", QUERIES, ids=[path.stem for path in QUERIES])
@pytest.mark.parametrize("engine", ["reeval", "tpjoin-lazy"])
def test_the_two_stream_query_answers_and_verifies(apart, path, engine):
    query = load_query(path)
    assert len(query.streams) == 2
    # the first 1,200 merged instants (about ten weeks): re-evaluating SNB's static graph at every one is slow
    merged = open_merged(query, {iri: apart / iri[len(STREAM):] for iri in query.streams}, max_events=1200)
    result = verify(engine, query, merged, oracle="rdflib")
    assert result.agrees, f"first divergence: {result.first}"
    instance = build_engine(engine, query, merged)
    assert any(instance.push(event).added for event in merged.events), f"{path.name} never answers"
