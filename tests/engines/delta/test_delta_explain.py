"""What ``cgpm explain`` prints, word for word, for each part of a plan: the text is the command's output, so every line is checked."""

from __future__ import annotations

from dataclasses import replace

from engines.delta import explain, explain_text
from engines.model.query import parse_query

PREFIX = "PREFIX : <http://ex/>\n"
XSD_INTEGER = "<http://www.w3.org/2001/XMLSchema#integer>"
P, Q, R, S = (f"<http://ex/{name}>" for name in "pqrs")
A, B, C = (f"<http://ex/{name}>" for name in "abc")


def query(name: str, body: str):
    return parse_query(PREFIX + "SELECT * WHERE { " + body + " }", window="unbounded", name=name)


# a cycle (var-connected), a simple star, a ground pattern, a repeated pattern, and FILTERs of every
# operator kind: one local to the cycle, two conjuncts local to the star, one across the two
GENERAL = query(
    "mixed",
    "?x :p ?y . ?y :q ?z . ?z :p ?x . ?w :r :a . ?w :s :b . :a :p :b . ?x :p ?y . "
    "FILTER(?x != ?z || !(-?y > 2)) FILTER(isIRI(?w) && ?w != :c) FILTER(?x != ?w)",
)
CYCLE_FILTER = f'((?x != ?z) || !(-?y > "2"^^{XSD_INTEGER}))'
CYCLE_STARS = [
    f"  star of ?x: ?x {P} ?y . ?z {P} ?x",
    f"  star of ?y: ?x {P} ?y . ?y {Q} ?z",
    f"  star of ?z: ?y {Q} ?z . ?z {P} ?x",
]


def test_the_delta_plan_of_a_general_bgp_line_by_line():
    info = explain(GENERAL)
    assert explain_text(info).splitlines() == [
        "query mixed: general BGP",
        "engine delta: Cartesian product of the subqueries' answers (Sec. 6.1, Algorithm 3): "
        "ground subquery: Algorithm 1; Algorithms 5-7; Algorithm 2",
        "variables: ?x ?y ?z ?w",
        "ground subquery Q_G (Algorithm 1):",
        f"    {A} {P} {B}",
        "component 1 [var-connected] ?x ?y ?z: Algorithms 5-7 (extended lists, variables-summaries, propagation over the overlap graph)",
        "  why: two or more variables joined by constant-free paths (Defs. 8, 12)",
        f"    ?x {P} ?y",
        f"    ?y {Q} ?z",
        f"    ?z {P} ?x",
        *CYCLE_STARS,
        "  star lists kept: ?x ?y ?z (a star inside another keeps none)",
        "  overlapping-subqueries graph: ?x-?y, ?x-?z, ?y-?z",
        f"  filter (pushed down): {CYCLE_FILTER}",
        "component 2 [simple-star] ?w: Algorithm 2 (hash map of ground var-centric instances)",
        "  why: one variable ?w, a constant at the other end of every pattern (Def. 6)",
        f"    ?w {R} {A}",
        f"    ?w {S} {B}",
        "  filter (pushed down): isiri(?w)",
        f"  filter (pushed down): (?w != {C})",
        "filter on full mappings: (?x != ?w)",
        "note: repeated triple patterns are counted once (a BGP is a set)",
    ]
    # in a cycle every pattern is in two stars: all three are replicated; a simple star has no star list
    assert info["components"][0]["replicated_patterns"] == [f"?x {P} ?y", f"?y {Q} ?z", f"?z {P} ?x"]
    assert "stars" not in info["components"][1] and "overlap_edges" not in info["components"][1]


def test_the_generic_plan_puts_every_pattern_and_filter_in_one_component():
    info = explain(GENERAL, generic=True)
    assert explain_text(info).splitlines() == [
        "query mixed: general BGP",
        "engine delta-generic: the whole query as one var-connected query: Algorithms 5-7 over all its stars; "
        "ground patterns checked as a triple match state (Algorithm 1's bits)",
        "variables: ?x ?y ?z ?w",
        "ground subquery Q_G (Algorithm 1):",
        f"    {A} {P} {B}",
        "component 1 [generic] ?x ?y ?z ?w: Algorithms 5-7, generalised (generic algorithm)",
        "  why: delta-generic treats every query as var-connected",
        f"    {A} {P} {B}",
        f"    ?w {R} {A}",
        f"    ?w {S} {B}",
        f"    ?x {P} ?y",
        f"    ?y {Q} ?z",
        f"    ?z {P} ?x",
        *CYCLE_STARS,
        f"  star of ?w: ?w {R} {A} . ?w {S} {B}",
        "  star lists kept: ?x ?y ?z ?w (a star inside another keeps none)",
        "  overlapping-subqueries graph: ?x-?y, ?x-?z, ?y-?z",
        f"  filter (pushed down): {CYCLE_FILTER}",
        "  filter (pushed down): isiri(?w)",
        f"  filter (pushed down): (?w != {C})",
        "  filter (pushed down): (?x != ?w)",
        "note: repeated triple patterns are counted once (a BGP is a set)",
    ]
    assert info["filters_on_full_mappings"] == []


def test_a_star_alone_has_no_overlap_edges_and_a_single_plan_is_no_product():
    star = query("star", "?x :p :a . ?x :q :b .")
    assert explain_text(explain(star, generic=True)).splitlines()[-2:] == [
        "  star lists kept: ?x (a star inside another keeps none)", "  overlapping-subqueries graph: (none)"]
    assert explain(star, generic=True)["components"][0]["replicated_patterns"] == []
    assert explain_text(explain(star)).splitlines()[:3] == [
        "query star: simple var-centric star",
        "engine delta: Algorithm 2 (hash map of ground var-centric instances)",
        "variables: ?x",
    ]


def test_a_ground_query_has_no_variables_and_one_algorithm():
    ground = query("ground", ":a :p :b .")
    assert explain_text(explain(ground)).splitlines() == [
        "query ground: ground",
        "engine delta: ground subquery: Algorithm 1 (triple match state)",
        "variables: (none)",
        "ground subquery Q_G (Algorithm 1):",
        f"    {A} {P} {B}",
    ]


def test_a_query_outside_the_classes_says_so_and_why():
    outside = query("outside", "?x ?p ?y . ?y :q :a .")
    assert explain_text(explain(outside)).splitlines() == [
        "query outside: outside the paper's classes",
        "engine delta: Algorithms 5-7, generalised (generic algorithm)",
        "variables: ?x ?p ?y",
        "component 1 [generic] ?x ?p ?y: Algorithms 5-7, generalised (generic algorithm)",
        "  why: predicate variable ?p (the paper has none): generic algorithm",
        f"    ?y {Q} {A}",
        "    ?x ?p ?y",
        "  star of ?x: ?x ?p ?y",
        "  star of ?p: ?x ?p ?y",
        f"  star of ?y: ?y {Q} {A} . ?x ?p ?y",
        "  star lists kept: ?y (a star inside another keeps none)",
        "  overlapping-subqueries graph: ?x-?p, ?x-?y, ?p-?y",
        "note: outside the paper's classes: the affected components run the generic algorithm",
    ]


def test_a_self_loop_is_noted():
    loop = query("loop", "?x :p ?x . ?x :q ?y .")
    assert explain(loop)["notes"] == ["a pattern repeats a variable: a triple matches it only with equal terms in those positions"]


def test_an_empty_bgp_is_planned_as_algorithm_1_alone():
    # the query reader refuses a query without a pattern, but the engines' API takes one: its one answer is
    # the empty mapping, while the (empty) ground subquery holds
    empty = replace(query("empty", ":a :p :b ."), patterns=(), variables=())
    info = explain(empty)
    assert info["plan"] == "Algorithm 1 (triple match state)" and info["components"] == [] and info["ground"] == []
