"""Algorithm 3 as decided here: matched triples stay in their views, new rows join the whole views, expiry and deletion remove exactly their matches; lazy equals eager."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import StreamError
from engines.baselines.reeval import ReevalEngine
from engines.model.stream import Window
from engines.tpjoin.incremental import TPJoinEagerEngine, TPJoinIncrementalEngine
from tests.strategies import queries, streams, windows

from .helpers import deletion, event, mapping, query, run

ENGINES = [TPJoinIncrementalEngine, TPJoinEagerEngine]
TRIPS = "?t :driver ?d . ?t :taxi ?x"


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_a_matched_triple_joins_a_later_match(engine_cls):
    """Open point 1: the paper removes matched mappings from the views; here d1's star keeps its triples."""
    engine = engine_cls(query("?t :driver ?d . ?d :licence ?l", "unbounded"))
    steps = run(engine, [event(0, 0, "t1 driver d1", "d1 licence L"), event(1, 1, "t2 driver d1")])
    assert steps[0][0] == {mapping("t1", "d1", "L")}
    assert steps[1][0] == {mapping("t2", "d1", "L")}  # d1 licence L was already in a match


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_a_match_of_new_rows_and_old_rows_that_are_in_no_match(engine_cls):
    """Open point 2: joining new rows with f alone would miss this; old unmatched rows are in the views."""
    engine = engine_cls(query("?a :p ?b . ?b :q ?c . ?c :r ?d", "unbounded"))
    steps = run(engine, [event(0, 0, "a p b"), event(1, 1, "x q y"), event(2, 2, "b q c", "c r d")])
    assert steps[2][0] == {mapping("a", "b", "c", "d")}


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_sliding_expiry_removes_exactly_the_matches_of_the_leaving_triples(engine_cls):
    """Open point 3: the paper defines no expiry; a match leaves with the first of its triples."""
    engine = engine_cls(query(TRIPS, "sliding:10:1"))
    steps = run(engine, [
        event(0, 0, "t1 driver d1"), event(1, 5, "t1 taxi x1", "t2 driver d2"), event(2, 8, "t2 taxi x2"),
        event(3, 10, "t1 driver d1"),  # t1 driver d1 again at 10: it stays, so t1's match does too
        event(4, 15, "t3 driver d3"),  # window [6, 15]: t1 taxi x1 (5) and t2 driver d2 (5) leave
    ])
    assert steps[1][0] == {mapping("t1", "d1", "x1")}
    assert steps[2][0] == {mapping("t2", "d2", "x2")}
    assert steps[3] == (set(), set())
    assert steps[4] == (set(), {mapping("t1", "d1", "x1"), mapping("t2", "d2", "x2")})
    assert engine.answers() == {}
    assert engine.stats()["matches"] == 0


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_a_ground_pattern_takes_its_matches_away_when_its_triple_leaves(engine_cls):
    """A pattern with no variable is filed under its constant triple: its expiry removes every match."""
    text = "?t :driver ?d . :hq :open :yes"
    engine, reeval = engine_cls(query(text, "sliding:10:1")), ReevalEngine(query(text, "sliding:10:1"))
    events = [event(0, 0, "hq open yes"), event(1, 4, "t1 driver d1", "t2 driver d2"), event(2, 11, "t3 driver d3")]
    steps = run(engine, events)
    assert steps == run(reeval, events)
    assert steps[1][0] == {mapping("t1", "d1"), mapping("t2", "d2")}
    assert steps[2] == (set(), {mapping("t1", "d1"), mapping("t2", "d2")})  # hq open yes (0) left at 11
    assert engine.stats()["matches"] == 0


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_tumbling_window_empties_at_each_boundary(engine_cls):
    engine = engine_cls(query(TRIPS, "tumbling:10"))
    steps = run(engine, [event(0, 1, "t1 driver d1"), event(1, 9, "t1 taxi x1"), event(2, 10, "t1 taxi x1")])
    assert steps[1][0] == {mapping("t1", "d1", "x1")}
    assert steps[2] == (set(), {mapping("t1", "d1", "x1")})


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_deletion_on_an_unbounded_stream(engine_cls):
    engine = engine_cls(query(TRIPS, "unbounded"))
    steps = run(engine, [event(0, 0, "t1 driver d1", "t1 taxi x1", "t1 taxi x2"), deletion(1, 1, "t1 taxi x1")])
    assert steps[1] == (set(), {mapping("t1", "d1", "x1")})
    assert set(engine.answers()) == {mapping("t1", "d1", "x2")}


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_terms_leave_the_adaptive_dictionary_with_the_window(engine_cls):
    engine = engine_cls(query(TRIPS, "sliding:10:1"))
    engine.push(event(0, 0, "t1 driver d1", "t1 taxi x1"))
    assert engine.dictionary.adaptive_size() == 3
    engine.push(event(1, 20, "t2 driver d2"))
    assert engine.dictionary.adaptive_size() == 2  # t1, d1 and x1 left with their triples


def test_deletions_are_refused_on_windowed_streams():
    engine = TPJoinIncrementalEngine(query(TRIPS, "sliding:10:1"))
    with pytest.raises(StreamError, match="unbounded windows only"):
        engine.push(deletion(0, 0, "t1 driver d1"))


def test_lazy_skips_the_joins_that_eager_runs_until_every_view_has_a_row():
    chain = "?a :p ?b . ?b :q ?c . ?c :r ?d"
    lazy, eager = (cls(query(chain, "unbounded")) for cls in ENGINES)
    events = [event(0, 0, "a p b"), event(1, 1, "b q c"), event(2, 2, "b q e"), event(3, 3, "c r d")]
    assert run(lazy, events) == run(eager, events)
    assert lazy.stats()["joins"] == 1  # only the last event, which fills the last empty view, joins
    assert eager.stats()["joins"] == 4  # one pass per event, each ended by an empty join but the last


def test_lazy_waits_again_when_expiry_empties_a_view():
    lazy, eager = (cls(query(TRIPS, "sliding:10:1")) for cls in ENGINES)
    events = [event(0, 0, "t1 driver d1"), event(1, 1, "t1 taxi x1"),  # a match: every view holds a row
              event(2, 12, "t2 taxi x2"),  # window [3, 12]: both first rows left, the driver view is empty again
              event(3, 13, "t3 taxi x3"), event(4, 14, "t2 driver d2")]
    assert run(lazy, events) == run(eager, events)
    assert lazy.empty_views == set()
    assert lazy.stats()["joins"] == 2  # events 1 and 4; events 2 and 3 find the driver view empty and only store
    assert eager.stats()["joins"] == 5


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_lazy_equals_eager_equals_reeval_at_every_instant(data):
    window: Window = data.draw(windows())
    stream = data.draw(streams(deletions=window.kind == "unbounded", static=data.draw(st.booleans())))
    q = data.draw(queries(window))
    engines = [cls(q, static=stream.static) for cls in (*ENGINES, ReevalEngine)]
    held = [set() for _ in engines]
    for e in stream.events:
        for k, engine in enumerate(engines):
            delta = engine.push(e)
            held[k] = (held[k] - set(delta.removed)) | set(delta.added)
        assert held[0] == held[1] == held[2], f"event {e.index}"
        lazy = engines[0]  # the precondition's bookkeeping: exactly the views that hold no row
        assert lazy.empty_views == {j for j, view in enumerate(lazy.compiled.views) if not len(view)}, f"event {e.index}"


@pytest.mark.parametrize("engine_cls", [TPJoinIncrementalEngine, TPJoinEagerEngine], ids=lambda c: c.name)
def test_every_static_triple_enters_the_views_even_when_its_routes_look_like_an_encoded_triple(engine_cls):
    # three variable-only patterns: every triple routes to patterns (0, 1, 2), which is also the encoding
    # of the first static triple here (its terms are the dictionary's first ids); the static set is of triples
    static = [mapping("s", "p", "o"), mapping("t", "p", "u")]
    text = "?a ?b ?c . ?d ?e ?f . ?g ?h ?i"
    got = set(engine_cls(query(text, window="sliding:10:1"), static=static).push(event(0, 0)).added)
    want = set(ReevalEngine(query(text, window="sliding:10:1"), static=static).push(event(0, 0)).added)
    assert got == want and len(want) == 8  # 2 x 2 x 2


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_a_static_triple_also_streamed_stays_when_its_stream_copy_leaves_the_window(engine_cls):
    static = [mapping("a", "p", "b")]
    engine = engine_cls(query("?x :p ?y", window="sliding:2:1"), static=static)
    assert set(engine.push(event(0, 0, "a p b")).added) == {mapping("a", "b")}
    assert engine.push(event(1, 5)).removed == []  # the streamed copy left; the static one is in every graph
    assert set(engine.answers()) == {mapping("a", "b")}
