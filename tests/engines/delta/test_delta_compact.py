"""The compact layout keeps the same sets: term ids live exactly while a held triple uses them, star lists only for
maximal stars, and the keyed window deletes a triple only when its last arrival leaves."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engines.adapters import KeyedArrivals, windowed
from engines.delta import DeltaEngine, DeltaGenericEngine
from engines.delta.decompose import maximal_stars, star_decomposition
from engines.delta.terms import TermDictionary
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Update
from engines.window_state import WindowState

EX = "http://ex/"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


def query(body: str, window: str = "unbounded"):
    return parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ {body} }}", window=window, name="compact")


def test_a_term_leaves_the_dictionary_at_its_last_use_and_its_id_is_reused():
    terms = TermDictionary()
    a = terms.acquire(iri("a"))
    assert terms.acquire(iri("a")) == a and len(terms) == 1
    terms.release(a)
    assert terms.ids == {iri("a"): a}  # one use left
    terms.release(a)
    assert terms.ids == {} and terms.terms[a] is None
    b = terms.acquire(iri("b"))
    assert b == a and terms.decode([b, None]) == (iri("b"), None)


def test_only_maximal_stars_keep_lists():
    patterns = (("?x", iri("p"), "?y"), ("?y", iri("q"), "?z"), ("?x", iri("r"), "?y"))
    stars = star_decomposition(patterns, ("?x", "?y", "?z"))
    # ?x's patterns {0, 2} lie in ?y's {0, 1, 2}, and so do ?z's {1}
    assert [star.central for star in maximal_stars(stars)] == ["?y"]
    one = star_decomposition((("?x", iri("p"), "?y"),), ("?x", "?y"))
    assert [star.central for star in maximal_stars(one)] == ["?x"]  # equal pattern sets: the first variable's


def test_the_engine_holds_ids_of_held_triples_only():
    engine = DeltaEngine(query("?x :p ?y . ?y :q ?z"))
    pinned = len(engine.dictionary)  # :p and :q
    first = engine.push(Event(0, 0, (Update(INSERT, iri("a"), iri("p"), iri("b")), Update(INSERT, iri("z"), iri("zz"), iri("b")))))
    assert not first and len(engine.dictionary) == pinned + 2  # (z zz b) unifies with no pattern: not held
    second = engine.push(Event(1, 1, (Update(INSERT, iri("b"), iri("q"), iri("c")),)))
    assert second.added == [(iri("a"), iri("b"), iri("c"))]
    engine.push(Event(2, 2, (Update(DELETE, iri("a"), iri("p"), iri("b")), Update(DELETE, iri("b"), iri("q"), iri("c")))))
    assert len(engine.dictionary) == pinned and engine.answers() == Counter()


def test_a_triple_arriving_twice_leaves_with_its_last_arrival():
    windowed_query = query("?x :p ?y", window="sliding:10:1")
    engine = windowed(DeltaEngine)(windowed_query)
    assert isinstance(engine.window, KeyedArrivals)
    edge = Update(INSERT, iri("a"), iri("p"), iri("b"))
    other = Update(INSERT, iri("a"), iri("other"), iri("b"))  # no pattern reads it: not kept
    answer = (iri("a"), iri("b"))
    assert engine.push(Event(0, 0, (edge, other))).added == [answer]
    assert not engine.push(Event(1, 5, (edge,)))  # already held: counted, not stored again
    assert len(engine.window) == 1 and engine.window.repeats
    assert not engine.push(Event(2, 12, ()))  # the first arrival leaves; the second holds the answer
    assert engine.push(Event(3, 16, ())).removed == [answer]
    assert len(engine.window) == 0 and not engine.window.repeats and len(engine.engine.dictionary) == 1  # :p


@given(st.lists(st.tuples(st.integers(0, 3), st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from("pq"),
                                                                 st.sampled_from("ab")), max_size=3)), max_size=12))
def test_keyed_window_gives_the_window_state_path_s_answers(steps):
    windowed_query = query("?x :p ?y . ?y :q ?x", window="sliding:4:2")
    for engine_cls in (DeltaEngine, DeltaGenericEngine):
        keyed = windowed(engine_cls)(windowed_query)
        plain = windowed(engine_cls)(windowed_query)
        plain.window = WindowState(windowed_query.window)  # the adapter's general path
        plain.push = type(plain).push.__get__(plain)
        ts = 0
        for index, (gap, triples) in enumerate(steps):
            ts += gap
            event = Event(index, ts, tuple(Update(INSERT, iri(s), iri(p), iri(o)) for s, p, o in triples))
            got, want = keyed.push(event), plain.push(event)
            assert (set(got.added), set(got.removed)) == (set(want.added), set(want.removed))
        assert keyed.answers() == plain.answers()
