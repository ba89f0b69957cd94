"""The shipped example streams have the features the demo and the tests rely on, and regenerate exactly."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from common.errors import StreamError
from engines.model.query import load_query
from engines.model.stream import DELETE, INSERT, Window
from harness.examples import UNIVERSITY, UPDATES, make_examples
from harness.streams import check_window, read_stream

UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"


def test_shipped_streams_are_what_make_examples_builds():
    assert read_stream(UNIVERSITY) == make_examples.university()
    assert read_stream(UPDATES) == make_examples.updates()
    for directory, queries in ((UNIVERSITY, make_examples.UNIVERSITY_QUERIES), (UPDATES, make_examples.UPDATES_QUERIES)):
        shipped = {path.stem: path.read_text() for path in (directory / "queries").glob("*.rq")}
        assert shipped.keys() == queries.keys()
        for name, (comment, body) in queries.items():
            assert shipped[name] == f"# {comment}\n{make_examples._UB}{body}"


def test_regenerating_into_a_fresh_directory_gives_the_same_stream(tmp_path, monkeypatch):
    monkeypatch.setattr(make_examples, "UNIVERSITY", tmp_path / "university")
    monkeypatch.setattr(make_examples, "UPDATES", tmp_path / "updates")
    make_examples.main()
    assert read_stream(tmp_path / "university") == read_stream(UNIVERSITY)
    assert read_stream(tmp_path / "updates") == read_stream(UPDATES)
    assert sorted(p.name for p in (tmp_path / "university" / "queries").iterdir()) == sorted(
        p.name for p in (UNIVERSITY / "queries").iterdir())


def test_university_stream_has_the_promised_features():
    stream = read_stream(UNIVERSITY, window=Window.sliding(10_000, 1_000))
    assert 35 <= len(stream.events) <= 45 and not stream.has_deletions
    timestamps = Counter(event.ts for event in stream.events)
    assert max(timestamps.values()) >= 3  # several events at one instant
    triples = Counter(u.triple for event in stream.events for u in event.updates)
    assert any(count > 1 for count in triples.values())  # a duplicate triple
    assert all(u.p.startswith(f"<{UB}") or u.p.endswith("#type>") for e in stream.events for u in e.updates)
    assert any(u.s.startswith("_:") for e in stream.events for u in e.updates)
    schema_predicates = {p for _, p, _ in stream.schema}
    assert {f"<{RDFS}subClassOf>", f"<{RDFS}subPropertyOf>", f"<{RDFS}domain>", f"<{RDFS}range>",
            f"<{OWL}inverseOf>"} <= schema_predicates
    assert len(stream.static) >= 5 and not set(stream.static) & set(triples)


def test_university_queries_load_and_cover_the_shapes():
    queries = {path.stem: load_query(path) for path in sorted((UNIVERSITY / "queries").glob("*.rq"))}
    assert set(queries) == {"star", "chain", "cycle", "filter", "entailment", "static_join"}
    assert all(q.window == Window.sliding(10_000, 1_000) for q in queries.values())
    assert queries["filter"].filters
    assert "# entailment: rdfs" in queries["entailment"].text
    static_predicates = {p for _, p, _ in read_stream(UNIVERSITY).static}
    assert any(p in static_predicates for _, p, _ in queries["static_join"].patterns)
    star_subjects = Counter(s for s, _, _ in queries["star"].patterns)
    assert star_subjects.most_common(1)[0][1] == len(queries["star"].patterns)


def test_updates_stream_needs_an_unbounded_window():
    stream = read_stream(UPDATES, window=Window("unbounded"))
    with pytest.raises(StreamError, match="deletions are allowed with an unbounded window only"):
        check_window(stream, Window.sliding(100, 10))
    present: set = set()
    deletes_of_absent = reinserts = 0
    ever = set()
    for event in stream.events:
        for update in event.updates:
            if update.op == DELETE:
                deletes_of_absent += update.triple not in present
                present.discard(update.triple)
            else:
                reinserts += update.triple in ever and update.triple not in present
                present.add(update.triple)
                ever.add(update.triple)
    assert deletes_of_absent >= 2 and reinserts >= 2
    assert any(u.op == INSERT for e in stream.events for u in e.updates)


@pytest.mark.parametrize("path", sorted((UPDATES / "queries").glob("*.rq")), ids=lambda p: Path(p).stem)
def test_updates_queries_load_with_an_unbounded_window(path):
    query = load_query(path, window="unbounded")
    assert query.window == Window("unbounded") and len(query.patterns) >= 2
