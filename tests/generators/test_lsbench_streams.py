"""LSBench's streams made apart (posts, post likes, photos, photo likes, GPS) and its multi-stream queries over them.

Each stream is its own directory with the same static profile data, as S2Gen writes them; every query in
``generators/lsbench/queries/streams/`` answers on ten users over two days, and reeval, TP-Join and Sparkwave agree with
the oracle there at every merged instant.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from engines.model.query import load_query
from generators.framing import EventShape, GeneratorSpec
from generators.writer import write_stream_local
from harness.engines_setup import build_engine
from harness.streams.merged import open_merged
from harness.streams.reader import open_stream
from harness.verify import verify

QUERIES = sorted((Path(resources.files("generators.lsbench")) / "queries" / "streams").glob("*.rq"))
STREAM = "http://www.ins.cwi.nl/sib/stream/"
APART = ("posts", "postlikes", "photos", "photolikes", "gps")


def _spec(stream: str) -> GeneratorSpec:
    return GeneratorSpec(dataset="lsbench", scale=10, seed=0, index=0, shape=EventShape.parse("entity"),
                         options=(("days", 2), ("stream", stream)))


@pytest.fixture(scope="module")
def apart(tmp_path_factory):
    """Each stream in its own directory, made by the pure-Python twin (what --no-spark writes)."""
    root = tmp_path_factory.mktemp("lsbench-apart")
    for name in (*APART, "likes"):
        write_stream_local(_spec(name), root / name)
    return root


def _rows(directory: Path) -> list:
    return [update for event in open_stream(directory).events for update in event.updates]


def test_post_likes_and_photo_likes_are_the_likes_apart(apart):
    likes = _rows(apart / "likes")
    assert sorted(likes) == sorted(_rows(apart / "postlikes") + _rows(apart / "photolikes"))
    assert {update.o.split("/")[-2] for update in _rows(apart / "photolikes")} == {"photo"}
    assert all("/post/po" in update.o for update in _rows(apart / "postlikes"))


def test_every_stream_apart_carries_the_same_static_profile_data(apart):
    statics = {open_stream(apart / name).static for name in APART}
    assert len(statics) == 1 and next(iter(statics))


def test_the_queries_read_the_streams_apart():
    assert [path.stem for path in QUERIES] == ["Q4", "Q5", "Q6", "Q7"]
    for path in QUERIES:
        query = load_query(path)
        assert len(query.named_windows) >= 2
        assert {iri[len(STREAM):] for iri in query.streams} <= set(APART), path.name


@pytest.mark.parametrize("path", QUERIES, ids=[path.stem for path in QUERIES])
@pytest.mark.parametrize("engine", ["reeval", "tpjoin-lazy", "sparkwave"])
def test_each_query_answers_and_verifies_on_a_small_stream(apart, path, engine):
    query = load_query(path)
    merged = open_merged(query, {iri: apart / iri[len(STREAM):] for iri in query.streams})
    result = verify(engine, query, merged, oracle="rdflib")
    assert result.agrees, f"first divergence: {result.first}"
    assert result.checkpoints == merged.facts().events
    # a query that never matches proves little
    instance = build_engine(engine, query, merged)
    assert any(instance.push(event).added for event in merged.events), f"{path.name} never answers"
