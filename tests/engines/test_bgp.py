"""The exact evaluator on its own: counted membership in the triple index, repeated variables, constants, variable predicates, joins."""

from __future__ import annotations

from engines.bgp import TripleIndex, evaluate_bgp

A, B, C, D, P, Q = "<a>", "<b>", "<c>", "<d>", "<p>", "<q>"


def test_a_triple_added_twice_stays_until_removed_twice_and_empty_predicates_are_forgotten():
    index = TripleIndex()
    index.add([(A, P, B), (A, P, B), (C, Q, D)])
    assert len(index) == 2 and set(index.triples_for(P)) == {(A, P, B)}
    index.remove([(A, P, B)])
    assert len(index) == 2 and set(index.triples_for(P)) == {(A, P, B)}
    index.remove([(A, P, B)])
    assert len(index) == 1 and set(index.triples_for(P)) == set() and P not in index.by_predicate
    assert set(index.triples_for(None)) == {(C, Q, D)} and set(index.triples_for("<none>")) == set()


def _index(*triples):
    index = TripleIndex()
    index.add(triples)
    return index


def test_constants_repeated_variables_and_variable_predicates_match_exactly():
    index = _index((A, P, A), (A, P, B), (B, Q, A), (C, Q, C))
    assert evaluate_bgp([("?x", P, "?x")], ["?x"], index) == {(A,)}
    assert evaluate_bgp([("?x", "?p", "?x")], ["?p", "?x"], index) == {(P, A), (Q, C)}
    assert evaluate_bgp([(A, P, "?y")], ["?y"], index) == {(A,), (B,)}
    assert evaluate_bgp([("?x", "?p", A)], ["?x", "?p"], index) == {(A, P), (B, Q)}
    assert evaluate_bgp([(A, "?p", B)], ["?p"], index) == {(P,)}
    assert evaluate_bgp([(C, P, "?y")], ["?y"], index) == set()


def test_joins_follow_shared_variables_and_answer_in_the_requested_order():
    index = _index((A, P, B), (B, Q, C), (B, Q, D), (C, P, D))
    chain = [("?x", P, "?y"), ("?y", Q, "?z")]
    assert evaluate_bgp(chain, ["?z", "?x", "?y"], index) == {(C, A, B), (D, A, B)}
    assert evaluate_bgp(list(reversed(chain)), ["?x", "?y", "?z"], index) == {(A, B, C), (A, B, D)}
    # three patterns where the smallest is not connected to the first chosen
    triangle = [("?x", P, "?y"), ("?y", Q, "?z"), ("?z", P, "?w")]
    assert evaluate_bgp(triangle, ["?x", "?y", "?z", "?w"], index) == {(A, B, C, D)}


def test_disconnected_patterns_give_the_product_and_an_empty_one_gives_nothing():
    index = _index((A, P, B), (C, P, D), (A, Q, A))
    assert evaluate_bgp([("?x", P, "?y"), ("?z", Q, "?z")], ["?x", "?y", "?z"], index) == {(A, B, A), (C, D, A)}
    assert evaluate_bgp([("?x", P, "?y"), ("?z", "<r>", "?w")], ["?x", "?y", "?z", "?w"], index) == set()
    assert evaluate_bgp([("?x", P, "?y"), ("?y", Q, "?z")], ["?x", "?y", "?z"], index) == set()  # joins to nothing


def test_filters_run_on_full_mappings_in_the_variables_order():
    index = _index((A, P, B), (C, P, D))
    seen = []

    def accept(mapping):
        seen.append(mapping)
        return mapping[0] == B

    assert evaluate_bgp([("?x", P, "?y")], ["?y", "?x"], index, accept) == {(B, A)}
    assert sorted(seen) == [(B, A), (D, C)]


def test_the_empty_bgp_has_one_solution_the_empty_mapping():
    # SPARQL's identity for the join: reeval and the oracle answer it so, whatever the graph holds
    assert evaluate_bgp([], [], _index((A, P, B))) == {()}
    assert evaluate_bgp([], [], TripleIndex()) == {()}
    assert evaluate_bgp([], [], _index((A, P, B)), accept=lambda mapping: False) == set()
