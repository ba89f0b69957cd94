"""The TP-Join automaton on star, chain and complex queries: join types, ordering by view size, early termination, sort-merge joins."""

from __future__ import annotations

import pytest

from common.errors import StreamError
from engines.baselines.reeval import ReevalEngine
from engines.registry import get_engine
from engines.tpjoin.decompose import decompose, sort_and_combine
from engines.tpjoin.event import TPJoinEventEngine, TPJoinEventNoPartitionEngine
from engines.tpjoin.incremental import TPJoinEagerEngine

from .helpers import deletion, event, mapping, query

STAR = "?t :taxi ?x . ?t :driver ?d . ?t :fare ?f"
CHAIN = "?a :p ?b . ?b :q ?c . ?c :r ?d"
COMPLEX = "?t1 :driver ?d . ?t1 :taxi ?x . ?t2 :driver ?d . ?t2 :taxi ?x . FILTER(?t1 != ?t2)"


def _answers(engine_cls, text, *triples):
    engine = engine_cls(query(text))
    return set(engine.push(event(0, 0, *triples)).added), engine


SNOWFLAKE = "?a :p ?b . ?b :q ?c . ?b :r ?d . ?d :s ?e"


def _indices(text: str) -> dict[str, int]:
    """Pattern index by predicate name (the reader orders the patterns)."""
    return {pattern[1].rsplit("/", 1)[1][:-1]: k for k, pattern in enumerate(query(text).patterns)}


def test_decomposition_into_stars_and_chains():
    at = _indices(SNOWFLAKE)
    decomposition = decompose(query(SNOWFLAKE).patterns)
    assert {frozenset(star) for star in decomposition.stars} == {
        frozenset({at["p"]}), frozenset({at["q"], at["r"]}), frozenset({at["s"]})
    }
    assert {frozenset(link) for link in decomposition.chains} == {
        frozenset({at["p"], min(at["q"], at["r"])}), frozenset({at["r"], at["s"]})
    }


def test_the_decomposition_in_words_has_a_line_per_star_and_per_chain_link():
    at = _indices(SNOWFLAKE)
    decomposition = decompose(query(SNOWFLAKE).patterns)
    # a lone pattern is "single"; a chain link is an s-o join to the first pattern of a star
    assert sorted(decomposition.describe()) == sorted([
        f"single {decomposition.star_of[at['p']]} on ?a: patterns [{at['p']}]",
        f"star {decomposition.star_of[at['q']]} on ?b: patterns {sorted([at['q'], at['r']])}",
        f"single {decomposition.star_of[at['s']]} on ?d: patterns [{at['s']}]",
        f"chain: pattern {at['p']} object = subject of pattern {min(at['q'], at['r'])} (s-o)",
        f"chain: pattern {at['r']} object = subject of pattern {at['s']} (s-o)",
    ])


def test_order_starts_at_the_smallest_view_and_finishes_a_star_before_leaving_it():
    at = _indices(SNOWFLAKE)
    decomposition = decompose(query(SNOWFLAKE).patterns)
    sizes = [0] * 4
    for name, size in {"p": 5, "q": 9, "r": 1, "s": 7}.items():
        sizes[at[name]] = size
    assert sort_and_combine(decomposition, sizes) == tuple(at[n] for n in "rqps")
    assert sort_and_combine(decomposition, sizes, seed=at["s"]) == tuple(at[n] for n in "rqp")  # entered through ?d


@pytest.mark.parametrize("engine_cls", [TPJoinEventEngine, TPJoinEventNoPartitionEngine], ids=lambda c: c.name)
@pytest.mark.parametrize("text", [STAR, CHAIN, COMPLEX], ids=["star", "chain", "complex"])
def test_star_chain_and_complex_queries_agree_with_reeval(engine_cls, text):
    triples = [
        "t1 taxi x1", "t1 driver d1", "t1 fare 10", "t2 taxi x1", "t2 driver d1", "t2 fare 12", "t3 taxi x2",
        "t3 driver d1", "a p b", "b q c", "c r d", "b q e", "e r f", "e r d", "z p b",
    ]
    got, _ = _answers(engine_cls, text, *triples)
    want, _ = _answers(ReevalEngine, text, *triples)
    assert got == want and got


@pytest.mark.parametrize(("text", "triples", "types"), [
    ("?t :a ?x . ?t :b ?y", ["t a x", "t b y", "t b z"], ["scan", "s-s"]),
    ("?x :p ?y . ?y :q ?z", ["a p b", "b q c", "b q d"], ["scan", "o-s"]),
    ("?x :p ?y . ?y :q ?z", ["a p b", "e p b", "b q c"], ["scan", "s-o"]),
    ("?x :p ?y . ?z :q ?y", ["a p b", "c q b", "c q e"], ["scan", "o-o"]),
    ("?x :p ?y . ?y :q ?x", ["a p b", "b q a", "b q c"], ["scan", "o-s+pair"]),
], ids=["s-s", "o-s", "s-o", "o-o", "cycle"])
def test_join_types_follow_the_shared_positions(text, triples, types):
    _, engine = _answers(TPJoinEventEngine, text, *triples)
    automaton = next(iter(engine.compiled._automata.values()))
    assert [state.join_type for state in automaton.states] == types


def test_early_termination_on_an_empty_join():
    engine = TPJoinEventEngine(query(CHAIN))
    chain = event(0, 0, "a p b", "x q c", "c r d", "c r e")  # the p-q join is empty
    engine.push(chain)
    automaton = next(iter(engine.compiled._automata.values()))
    joined = []
    for number, state in enumerate(automaton.states):
        inner = state.join
        state.join = lambda merged, inner=inner, number=number: joined.append(number) or inner(merged)
    assert not engine.push(type(chain)(1, 0, chain.updates))
    assert joined == [0, 1]  # the third state was never joined


def test_no_run_when_a_view_is_empty():
    engine = TPJoinEventEngine(query(CHAIN))
    engine.push(event(0, 0, "a p b", "b q c"))
    assert engine.stats()["automaton_runs"] == 0


def test_disconnected_patterns_with_a_comparison_are_a_sort_merge_join():
    text = "?a :price ?x . ?b :cost ?y . FILTER(?y < ?x)"
    triples = ["a1 price 5", "a2 price 10", "b1 cost 3", "b2 cost 7", "b3 cost 12", "b4 cost x"]
    got, engine = _answers(TPJoinEventEngine, text, *triples)
    automaton = next(iter(engine.compiled._automata.values()))
    assert automaton.states[1].join_type == "sort-merge"
    assert got == {mapping("a1", "5", "b1", "3"), mapping("a2", "10", "b1", "3"), mapping("a2", "10", "b2", "7")}


def test_sort_merge_keeps_mixed_numeric_types_exact():
    decimal = '"5.0"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    engine = TPJoinEventEngine(query("?a :price ?x . ?b :cost ?y . FILTER(?y >= ?x)"))
    reeval = ReevalEngine(query("?a :price ?x . ?b :cost ?y . FILTER(?y >= ?x)"))
    e = event(0, 0, "a1 price 5", "b1 cost 4", "b2 cost 6")
    e = type(e)(0, 0, e.updates + (type(e.updates[0])(1, "<http://ex/b3>", "<http://ex/cost>", decimal),))
    assert set(engine.push(e).added) == set(reeval.push(e).added)



@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
@pytest.mark.parametrize("sides", ["?y {op} ?x", "?x {op} ?y"], ids=["new-first", "bound-first"])
def test_sort_merge_takes_the_passing_side_for_every_ordering(op, sides):
    # each operator, written either way round, with equal values on the boundary and a non-numeric row
    text = "?a :price ?x . ?b :cost ?y . FILTER(" + sides.format(op=op) + ")"
    triples = ["a1 price 5", "a2 price 10", "b1 cost 3", "b2 cost 5", "b3 cost 10", "b4 cost 12", "b5 cost x"]
    got, engine = _answers(TPJoinEventEngine, text, *triples)
    assert next(iter(engine.compiled._automata.values())).states[1].join_type == "sort-merge"
    want, _ = _answers(ReevalEngine, text, *triples)
    assert got == want and want

def test_complex_filter_prunes_as_soon_as_its_variables_are_bound():
    text = "?t :fare ?f . ?t :tip ?x . ?t :driver ?d . FILTER(?x * 4 > ?f)"
    got, engine = _answers(TPJoinEventEngine, text, "t1 fare 10", "t1 tip 3", "t1 driver d", "t2 fare 10", "t2 tip 2",
                           "t2 driver d")
    assert got == {mapping("t1", "10", "3", "d")}
    automaton = next(iter(engine.compiled._automata.values()))
    at = _indices(text)
    both_bound = max(automaton.order.index(at["fare"]), automaton.order.index(at["tip"]))
    assert [k for k, state in enumerate(automaton.states) if state.filters] == [both_bound]


@pytest.mark.parametrize("engine_cls", [TPJoinEventEngine, TPJoinEventNoPartitionEngine], ids=lambda c: c.name)
def test_a_deletion_in_an_event_window_is_refused_with_the_event_named(engine_cls):
    engine = engine_cls(query(STAR))
    with pytest.raises(StreamError, match=r"^event 3: deletions are allowed with unbounded windows only, not event$"):
        engine.push(deletion(3, 7, "t1 taxi x1"))


@pytest.mark.parametrize("engine_cls", [TPJoinEventEngine, TPJoinEventNoPartitionEngine], ids=lambda c: c.name)
def test_a_predicate_variable_bound_by_an_earlier_state_must_match(engine_cls):
    text = "?x ?p ?y . ?y ?p ?z"
    triples = ["a p b", "b p c", "b q d", "c q e", "e q f", "b r b"]
    got, _ = _answers(engine_cls, text, *triples)
    want, _ = _answers(ReevalEngine, text, *triples)
    assert got == want == {mapping("a", "p", "b", "c"), mapping("c", "q", "e", "f"), mapping("b", "r", "b", "b")}


@pytest.mark.parametrize("name", ["tpjoin-event", "tpjoin-event-nopart", "tpjoin-lazy", "tpjoin-eager"])
@pytest.mark.parametrize("bgp", ["?x :p ?y .", "?x :p ?y . ?y :q ?z ."], ids=["one-pattern", "two-patterns"])
def test_a_filter_on_a_variable_no_pattern_binds_is_applied_at_the_end(name, bgp):
    # bound(?nowhere) is never ready (its variable is never bound): it waits for the last state, or, in an
    # incremental engine's automaton seeded by the only pattern (no state at all), for the end of the run
    window = "event" if "event" in name else "sliding:10:1"
    for test, expected in (("bound(?nowhere)", False), ("!bound(?nowhere)", True)):
        text = f"{bgp} FILTER({test})"
        got = set(get_engine(name)(query(text, window=window)).push(event(0, 0, "a p b", "b q c")).added)
        want = set(ReevalEngine(query(text, window=window)).push(event(0, 0, "a p b", "b q c")).added)
        assert got == want and bool(want) is expected


def test_a_seeded_automaton_names_the_seed_as_the_target_of_joins_on_its_variables():
    at = _indices(CHAIN)
    compiled = TPJoinEagerEngine(query(CHAIN, window="sliding:10:1")).compiled
    seeded = compiled.automaton(seed=at["q"])
    # ?a :p ?b joins the seed ?b :q ?c on ?b, ?c :r ?d on ?c: both target the seed, state -1
    assert {state.pattern: state.join_target for state in seeded.states} == {at["p"]: -1, at["r"]: -1}
    assert all(line.endswith("(target -1)") for line in seeded.describe())
    plain = compiled.automaton()
    assert plain.states[0].join_target is None and plain.describe()[0].endswith("scan (target None)")
