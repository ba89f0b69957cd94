"""I-CGPM's encoded window adds and removes exactly what DESIGN.md's WindowState does, through array compaction and id widening."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.model.stream import INSERT, Event, Update, Window
from engines.tpjoin import window as window_module
from engines.tpjoin.views import View
from engines.tpjoin.window import EncodedWindow
from engines.window_state import WindowState

ROUTES = ((0,), (1,), (2, 3))  # by predicate: one predicate a view (a view keys (s, o)), and one triple in two views


def _route(triple):
    return ROUTES[triple[1] % 3]


def _views():
    return [View() for _ in range(4)]


def _advance(window, views, index, ts, triples):
    added, removed = window.advance(index, ts, [(INSERT, t, _route(t)) for t in triples])
    for triple, routes in removed.items():
        for j in routes:
            assert views[j].remove(triple)
    for triple, routes in added.items():
        for j in routes:
            assert views[j].add(triple)
    return set(added), set(removed)


steps = st.lists(st.tuples(st.integers(0, 4), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.integers(0, 3)),
                                                       max_size=4)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(steps=steps, range_ms=st.integers(1, 8), slide_ms=st.integers(1, 8), compact_at=st.integers(1, 6))
def test_the_sliding_window_equals_window_state(steps, range_ms, slide_ms, compact_at):
    with mock.patch.object(window_module, "_COMPACT_AT", compact_at):  # compact the arrays often: shifted heads
        _compare(steps, range_ms, slide_ms)


def _compare(steps, range_ms, slide_ms):
    spec = Window.sliding(max(range_ms, slide_ms), min(range_ms, slide_ms))
    views = _views()
    encoded, reference = EncodedWindow(spec, views), WindowState(spec)
    ts = 0
    for index, (gap, triples) in enumerate(steps):
        ts += gap
        got = _advance(encoded, views, index, ts, triples)
        want = reference.advance(Event(index, ts, tuple(Update(INSERT, *t) for t in triples)))
        assert got == want, index
        assert len(encoded) == len(reference)


def test_an_id_past_32_bits_widens_the_arrivals_in_order():
    views = _views()
    window = EncodedWindow(Window.sliding(10, 1), views)
    small, large = (1, 0, 2), (2**31 + 5, 0, 7)
    assert _advance(window, views, 0, 0, [small]) == ({small}, set())
    assert _advance(window, views, 1, 1, [large]) == ({large}, set())
    assert _advance(window, views, 2, 10, []) == (set(), {small})
    assert _advance(window, views, 3, 11, []) == (set(), {large})


def test_a_repeated_triple_leaves_with_its_last_occurrence():
    views = _views()
    window = EncodedWindow(Window.sliding(10, 1), views)
    triple = (1, 0, 2)
    assert _advance(window, views, 0, 0, [triple, triple]) == ({triple}, set())
    assert _advance(window, views, 1, 5, [triple]) == (set(), set())
    assert _advance(window, views, 2, 10, []) == (set(), set())  # the two arrivals at 0 left, the one at 5 stays
    assert _advance(window, views, 3, 15, []) == (set(), {triple})



@pytest.mark.parametrize("view_count", [8, 9, 16, 17, 33])
def test_a_route_to_the_last_of_many_views_comes_back_as_it_went_in(view_count):
    # a route is a bit set of views kept in one array item: a byte up to 8 views, wider past 8 and past 16
    views = [View() for _ in range(view_count)]
    window = EncodedWindow(Window.sliding(10, 1), views)
    triple, route = (1, 0, 2), (0, view_count - 1)
    added, _ = window.advance(0, 0, [(INSERT, triple, route)])
    assert {t: tuple(r) for t, r in added.items()} == {triple: route}
    _, removed = window.advance(1, 10, [])
    assert {t: tuple(r) for t, r in removed.items()} == {triple: route}
