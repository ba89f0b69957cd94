"""Hand-made queries covering every class of the paper and the shapes outside it, for the delta engine's tests."""

from __future__ import annotations

from engines.model.query import parse_query

PREFIX = "PREFIX : <http://ex/>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"

QUERIES = {
    "ground": ":a :p :b . :b :q :c .",
    "ground-one": ":a :p :a .",
    "simple-star": "?x :p :a . ?x :q :b . :c :r ?x .",
    "simple-star-both-ends": "?x :p :a . :a :p ?x .",
    "simple-star-one": "?x :p :b .",
    "loosely-connected": "?x :p :a . :a :q ?y .",
    "loosely-with-ground": "?x :p :a . ?y :q :b . :a :r :b .",
    "loosely-same-pattern": "?x :p :a . ?y :p :a .",
    "chain": "?x :p ?y . ?y :q ?z .",
    "cycle": "?x :p ?y . ?y :p ?z . ?z :p ?x .",
    "var-star": "?x :p ?y . ?x :q ?z . ?x :r :a .",
    "diamond": "?x :p ?y . ?x :q ?z . ?y :r ?w . ?z :r ?w .",
    "self-join": "?x :p ?y . ?y :p ?x .",
    "two-paths": "?x :p ?y . ?x :p ?z . ?y :q ?z .",
    "self-loop-alone": "?x :p ?x . ?x :q :a .",
    "self-loop-connected": "?x :p ?x . ?x :q ?y .",
    "predicate-variable": "?x ?p ?y . ?y :q :a .",
    "predicate-only": ":a ?p :b . :c ?p :a .",
    "predicate-shared": "?x ?p :a . ?y ?p :b .",
    "all-variables": "?s ?p ?o .",
    "predicate-is-subject": "?x ?x ?y . ?y :q ?x .",
    "blank-node": "_:b :p ?y . ?y :q _:b .",
    "general": "?x :p ?y . ?y :q ?z . ?w :r :a . :a :p :b .",
    "disconnected-chains": "?x :p ?y . ?z :q ?w .",
    "filter-local": "?x :p ?y . ?y :q ?z . FILTER(?x != ?z)",
    "filter-cross": "?x :p ?v . ?y :q ?w . FILTER(?v < ?w)",
    "filter-star": "?x :p :a . ?x :q :b . FILTER(isIRI(?x) && ?x != :c)",
    "filter-numeric": "?x :r ?v . FILTER(isLiteral(?v) && ?v > 1)",
    "filter-constant": "?x :p :a . FILTER(false)",
    "filter-unbound": "?x :p :a . FILTER(!bound(?nowhere))",
}


def load(name: str):
    return parse_query(PREFIX + "SELECT * WHERE { " + QUERIES[name] + " }", window="unbounded", name=name)
