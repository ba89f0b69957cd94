"""Query classes and decompositions: Defs. 6-13, Lemma 1, Props. 4-5, and what ``explain`` and ``cgpm explain`` say."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from engines.delta import explain, explain_text
from engines.delta.decompose import (
    GENERAL,
    GROUND,
    KIND_SIMPLE_STAR,
    LOOSELY_CONNECTED,
    OUTSIDE,
    SIMPLE_STAR,
    VAR_CONNECTED,
    compile_matcher,
    connected_variable_decomposition,
    ordered_array,
    overlap_graph,
    pattern_variables,
    query_class,
    star_decomposition,
)
from engines.model.stream import Window
from harness.cli import main
from tests.engines.delta.queries import PREFIX, QUERIES, load
from tests.strategies import queries

CLASSES = {
    "ground": GROUND, "ground-one": GROUND,
    "simple-star": SIMPLE_STAR, "simple-star-both-ends": SIMPLE_STAR, "simple-star-one": SIMPLE_STAR,
    "loosely-connected": LOOSELY_CONNECTED, "loosely-with-ground": LOOSELY_CONNECTED,
    "loosely-same-pattern": LOOSELY_CONNECTED, "filter-cross": GENERAL,
    "chain": VAR_CONNECTED, "cycle": VAR_CONNECTED, "var-star": VAR_CONNECTED, "diamond": VAR_CONNECTED,
    "self-join": VAR_CONNECTED, "two-paths": VAR_CONNECTED, "self-loop-connected": VAR_CONNECTED,
    "self-loop-alone": OUTSIDE, "predicate-variable": OUTSIDE, "predicate-only": OUTSIDE,
    "predicate-shared": OUTSIDE, "all-variables": OUTSIDE, "predicate-is-subject": OUTSIDE, "blank-node": VAR_CONNECTED, "general": GENERAL, "disconnected-chains": GENERAL,
}


def _classify(query):
    ground, parts = connected_variable_decomposition(query.patterns, query.variables)
    return query_class(ground, parts), ground, parts


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_class_of_each_hand_made_query(name):
    assert _classify(load(name))[0] == CLASSES[name]


def test_filter_cross_is_two_var_connected_components():
    # ?x :p ?v . ?y :q ?w: two var-connected components joined only by the FILTER
    klass, ground, parts = _classify(load("filter-cross"))
    assert [p.variables for p in parts] == [("?x", "?v"), ("?y", "?w")]


@given(queries(Window("unbounded"), filters=False))
def test_connected_variable_decomposition_is_a_partition(query):
    """Def. 10: the subqueries are disjoint, cover the query, and share no variable (Lemma 2's premise)."""
    ground, parts = connected_variable_decomposition(query.patterns, query.variables)
    covered = list(ground) + [p for part in parts for p in part.patterns]
    assert sorted(covered) == sorted(query.patterns)
    seen: set = set()
    for part in parts:
        assert not seen & set(part.variables)
        seen |= set(part.variables)
        assert {v for p in part.patterns for v in pattern_variables(p)} == set(part.variables)
    assert seen == set(query.variables)


@given(queries(Window("unbounded"), filters=False))
def test_loosely_connected_queries_decompose_into_simple_stars(query):
    """Lemma 1, and Def. 6 checked directly on every simple-star component."""
    klass, _, parts = _classify(query)
    if klass in (LOOSELY_CONNECTED, SIMPLE_STAR):
        assert all(part.kind == KIND_SIMPLE_STAR for part in parts)
    for part in parts:
        if part.kind == KIND_SIMPLE_STAR:
            (center,) = part.variables
            for s, p, o in part.patterns:
                assert not p.startswith("?") and ((s == center) != (o == center))


@given(queries(Window("unbounded"), filters=False))
def test_star_decomposition_props_4_and_5(query):
    _, parts = connected_variable_decomposition(query.patterns, query.variables)
    for part in parts:
        stars = star_decomposition(part.patterns, part.variables)
        adjacent = overlap_graph(stars)
        assert {j for s in stars for j in s.patterns} == set(range(len(part.patterns)))
        if len(stars) > 1:  # Prop. 4: every star shares a pattern with another; the overlap graph is connected
            assert all(adjacent)
        for pattern in part.patterns:
            order = ordered_array(stars, adjacent, pattern_variables(pattern))
            assert sorted(order) == list(range(len(stars)))
            leading = len(pattern_variables(pattern))
            assert {stars[i].central for i in order[:leading]} == set(pattern_variables(pattern))
            for k in range(1, len(order)):  # Prop. 5, item 2
                assert any(order[m] in adjacent[order[k]] for m in range(k))


def test_matcher_handles_constants_repeats_and_predicate_variables():
    loop = compile_matcher(("?x", "<p>", "?x"))
    assert loop(("<a>", "<p>", "<a>")) == ("<a>",)
    assert loop(("<a>", "<p>", "<b>")) is None
    everything = compile_matcher(("?s", "?p", "?o"))
    assert everything(("<a>", "<p>", "<b>")) == ("<a>", "<p>", "<b>")
    same = compile_matcher(("?x", "?x", "?x"))
    assert same(("<a>", "<a>", "<a>")) == ("<a>",) and same(("<a>", "<a>", "<b>")) is None
    ground = compile_matcher(("<a>", "<p>", '"1"'))
    assert ground(("<a>", "<p>", '"1"')) == () and ground(("<a>", "<p>", '"2"')) is None


def test_explain_names_class_algorithms_and_reasons():
    info = explain(load("general"))
    assert info["class"] == GENERAL and info["ground"] == ["<http://ex/a> <http://ex/p> <http://ex/b>"]
    kinds = [part["kind"] for part in info["components"]]
    assert kinds == ["var-connected", "simple-star"]
    assert "Algorithm 3" in info["plan"] and "Algorithm 1" in info["plan"]
    chain = info["components"][0]
    assert [s["central"] for s in chain["stars"]] == ["?x", "?y", "?z"]
    assert chain["overlap_edges"] == [["?x", "?y"], ["?y", "?z"]]
    assert chain["replicated_patterns"] == ["?x <http://ex/p> ?y", "?y <http://ex/q> ?z"]
    text = explain_text(info)
    assert "general BGP" in text and "Algorithm 2" in text and "star of ?y" in text


def test_explain_says_why_a_shape_falls_back():
    info = explain(load("predicate-variable"))
    assert info["class"] == OUTSIDE
    assert "predicate variable ?p" in info["components"][0]["reason"]
    loop = explain(load("self-loop-alone"))
    assert "self-loop" in loop["components"][0]["reason"] and loop["components"][0]["kind"] == "generic"


def test_explain_places_filters():
    info = explain(load("filter-cross"))
    assert info["filters_on_full_mappings"] == ["(?v < ?w)"]
    local = explain(load("filter-star"))
    assert local["components"][0]["filters"] and not local["filters_on_full_mappings"]


def test_explain_generic_plan():
    info = explain(load("loosely-with-ground"), generic=True)
    assert info["engine"] == "delta-generic" and len(info["components"]) == 1
    assert "var-connected" in info["plan"]


def test_cgpm_explain_text_and_json(tmp_path, capsys):
    path = tmp_path / "q.rq"
    path.write_text(PREFIX + "SELECT * WHERE { " + QUERIES["loosely-with-ground"] + " }\n")
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "loosely-connected" in out and "unbounded (none declared)" in out
    assert main(["explain", str(path), "--json", "--window", "sliding:10s:1s"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["class"] == "loosely-connected" and any("window adapter" in n for n in info["notes"])
    assert main(["explain", str(tmp_path / "missing.rq")]) == 2
    assert "missing.rq" in capsys.readouterr().err
