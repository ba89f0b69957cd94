"""The two oracles agree with each other on random small graphs and queries, and with hand-worked answers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engines.model.query import parse_query
from oracles import OracleLimitation
from oracles.oxigraph_oracle import OxigraphOracle
from oracles.oxigraph_oracle import evaluate as oxigraph_evaluate
from oracles.rdflib_oracle import evaluate as rdflib_evaluate

XSD = "http://www.w3.org/2001/XMLSchema#"
EX = "http://x/"
NODES = [f"<{EX}{n}>" for n in "abc"]
BNODES = ["_:b1", "_:b2"]
PREDICATES = [f"<{EX}p>", f"<{EX}q>"]
LITERALS = [
    f'"1"^^<{XSD}integer>', f'"01"^^<{XSD}integer>', f'"2"^^<{XSD}integer>', f'"-3"^^<{XSD}int>',
    f'"1.0"^^<{XSD}decimal>', f'"2.5"^^<{XSD}decimal>', f'"1"^^<{XSD}double>', f'"1E0"^^<{XSD}double>',
    f'"abc"^^<{XSD}integer>', f'"true"^^<{XSD}boolean>', f'"0"^^<{XSD}boolean>',
    f'"2020-01-01T00:00:00Z"^^<{XSD}dateTime>', f'"2020-01-02T00:00:00Z"^^<{XSD}dateTime>',
    '"x"', '"X"', '"x"@en', '"y"@en-gb', '"a\\"b\\nc"', '"\u00e9t\u00e9"', '"10"', '"9"', f'"x"^^<{EX}custom>',
]
TERMS_IN_FILTERS = LITERALS + NODES + ["1", "2.5", "1e0", "true", '"x"', '"1"']


graphs = st.frozensets(
    st.tuples(st.sampled_from(NODES + BNODES), st.sampled_from(PREDICATES), st.sampled_from(NODES + BNODES + LITERALS)),
    min_size=1,
    max_size=12,
)

# Mostly variables, so that patterns match and filters see many bindings.
subject_positions = st.sampled_from(["?x", "?x", "?y", "?z", "_:q", "[]", NODES[0]])
predicate_positions = st.sampled_from(PREDICATES + ["?p"])
object_positions = st.sampled_from(["?o", "?o", "?o", "?y", "?x", "_:q", NODES[1], LITERALS[0], '"x"'])


@st.composite
def value_expressions(draw, variables, depth=1):
    """A term-valued expression: a variable, a constant, arithmetic, or str/lang/datatype of a variable."""
    variable = st.sampled_from(sorted(variables))
    atom = st.one_of(variable, st.sampled_from(TERMS_IN_FILTERS))
    kind = draw(st.integers(0, 4 if depth else 1))
    if kind <= 1:
        return draw(atom)
    inner = draw(value_expressions(variables, depth - 1))
    if kind == 2:
        number = draw(st.sampled_from(["0", "1", "2.5", "1e0", f'"-3"^^<{XSD}int>']))
        return f"({inner} {draw(st.sampled_from(['+', '-', '*', '/']))} {number})"
    if kind == 3:
        return f"{draw(st.sampled_from(['str', 'lang', 'datatype']))}({inner})"
    cast = draw(st.sampled_from(["integer", "decimal", "double", "string", "boolean"]))
    return f"<{XSD}{cast}>({inner})"


@st.composite
def ordered_expressions(draw, variables):
    """Operands of < > <= >= on which SPARQL 1.1 and Oxigraph agree: strings and numbers, or errors in both.

    Oxigraph extends the ordering to IRIs, blank nodes and language-tagged literals and does not order
    booleans; those are documented divergences, kept out of the random comparison.
    """
    variable = draw(st.sampled_from(sorted(variables)))
    return draw(st.sampled_from([
        f"str({variable})", f"({variable} + 0)", f"({variable} * 2.5)", f"lang({variable})",
        "1", "2.5", "1e0", '"x"', '"10"', f'"2"^^<{XSD}integer>',
    ]))


@st.composite
def filter_expressions(draw, variables, depth=2):
    """A boolean-valued expression (the EBV of a language-tagged literal is another Oxigraph divergence)."""
    variable = st.sampled_from(sorted(variables))
    kind = draw(st.integers(0, 8 if depth else 6))
    if kind == 0:
        operator = draw(st.sampled_from(["=", "!="]))
        return f"({draw(value_expressions(variables))} {operator} {draw(value_expressions(variables))})"
    if kind == 1:
        operator = draw(st.sampled_from(["<", ">", "<=", ">="]))
        return f"({draw(ordered_expressions(variables))} {operator} {draw(ordered_expressions(variables))})"
    if kind == 2:
        name = draw(st.sampled_from(["isIRI", "isBlank", "isLiteral", "isNumeric"]))
        return f"{name}({draw(value_expressions(variables))})" if draw(st.booleans()) else f"bound({draw(variable)})"
    if kind == 3:
        return f"sameTerm({draw(variable)}, {draw(value_expressions(variables, 0))})"
    if kind == 4:
        flags = draw(st.sampled_from([', ""', ', "i"']))  # always explicit: the reader mis-reads regex without flags
        return f'regex(str({draw(variable)}), "{draw(st.sampled_from(["x", "^1", "b.c", "E"]))}"{flags})'
    if kind == 5:
        return f'langMatches(lang({draw(variable)}), "{draw(st.sampled_from(["en", "*", "en-GB"]))}")'
    if kind == 6:
        numeric = draw(st.sampled_from([f"({draw(variable)} + 0)", f"({draw(variable)} - 1)", "0", "2.5"]))
        return numeric  # the EBV of a number (or of an error)
    inner = filter_expressions(variables, depth - 1)
    if kind == 7:
        return f"!({draw(inner)})"
    return f"({draw(inner)} {draw(st.sampled_from(['&&', '||']))} {draw(inner)})"


@st.composite
def queries(draw):
    patterns = draw(st.lists(st.tuples(subject_positions, predicate_positions, object_positions), min_size=1, max_size=2))
    variables = {term for pattern in patterns for term in pattern if term.startswith("?")}
    text = " . ".join(" ".join(pattern) for pattern in patterns)
    if variables:
        for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2]))):
            text += f" FILTER({draw(filter_expressions(variables))})"
    return parse_query(f"SELECT * WHERE {{ {text} }}", window="unbounded")


@given(query=queries(), graph=graphs)
def test_oracles_agree(query, graph):
    reference = rdflib_evaluate(query, graph)
    try:
        second = oxigraph_evaluate(query, graph)
    except OracleLimitation:
        # A refusal, not a disagreement; it is justified only by a filter reading lexical forms and a literal
        # that Oxigraph rewrites.
        oracle = OxigraphOracle(query)
        oracle.set_content(graph)
        assert oracle.reads_lexical_form and oracle.rewritten_terms()
        return
    assert reference == second


# ---------------------------------------------------------------- hand-worked answers


def both(query_text, graph):
    query = parse_query(query_text, window="unbounded")
    answers = rdflib_evaluate(query, graph), oxigraph_evaluate(query, graph)
    assert answers[0] == answers[1]
    return query, answers[0]


def ask(evaluate, constraint: str) -> bool:
    query = parse_query(f"SELECT * WHERE {{ ?s ?p ?o FILTER({constraint}) }}", window="unbounded")
    return bool(evaluate(query, {(NODES[0], PREDICATES[0], NODES[1])}))


# SPARQL 1.1 answer, then the constraint. Oxigraph answers the other way on each: documented divergences,
# kept out of the random comparison (no NaN in its data, no ordering of IRIs, booleans or language-tagged
# literals, no bare language-tagged EBV). If Oxigraph changes, this test says so.
KNOWN_OXIGRAPH_DIVERGENCES = [
    (False, f'"NaN"^^<{XSD}double> <= "NaN"^^<{XSD}double>'),  # IEEE: NaN is unordered
    (True, "false < true"),  # SPARQL 1.1 orders xsd:boolean
    (False, f"<{EX}a> >= <{EX}a>"),  # ordering IRIs is an error
    (False, '"x"@en < "y"@en'),  # ordering language-tagged literals is an error
    (True, '"x"@en'),  # a non-empty plain literal with a language tag has EBV true (SPARQL 1.1, 17.2.2)
]


def test_known_oxigraph_divergences_from_sparql_1_1():
    for sparql_1_1, constraint in KNOWN_OXIGRAPH_DIVERGENCES:
        assert ask(rdflib_evaluate, constraint) is sparql_1_1, constraint
        assert ask(oxigraph_evaluate, constraint) is not sparql_1_1, constraint


def test_rdflib_oracle_corrections():
    integer = f"<{XSD}integer>"
    assert ask(rdflib_evaluate, '"x" >= 1') is False  # rdflib alone: true
    assert ask(rdflib_evaluate, f'"2020-01-01T00:00:00Z"^^<{XSD}dateTime>') is False  # EBV error (rdflib: true)
    assert ask(rdflib_evaluate, f'"NaN"^^<{XSD}double>') is False  # EBV of NaN is false
    assert ask(rdflib_evaluate, '!(("a" < 1) && false)') is True  # error && false is false
    assert ask(rdflib_evaluate, f'isNumeric("abc"^^{integer})') is False
    assert ask(rdflib_evaluate, f'("abc"^^{integer} + 1) = 1') is False  # an error, not a crash
    assert ask(rdflib_evaluate, '(1e0 / 0) > 1e300') is True  # INF, not an error
    assert ask(rdflib_evaluate, 'isLiteral(str(?o))') is True
    blank = parse_query("SELECT * WHERE { ?s ?p ?o FILTER(isLiteral(str(?s)) || !isLiteral(str(?s))) }", window="unbounded")
    assert rdflib_evaluate(blank, {("_:b1", PREDICATES[0], NODES[1])}) == set()  # STR of a blank node is an error
    assert ask(rdflib_evaluate, '0') is False and ask(rdflib_evaluate, '""') is False  # rdflib drops these filters


def test_lexical_forms_are_kept_and_distinct_terms_stay_distinct():
    one, zero_one = f'"1"^^<{XSD}integer>', f'"01"^^<{XSD}integer>'
    graph = {(NODES[0], PREDICATES[0], one), (NODES[0], PREDICATES[0], zero_one), (NODES[1], PREDICATES[0], zero_one)}
    _, answers = both(f"SELECT * WHERE {{ ?s <{EX}p> ?o }}", graph)
    assert answers == {(NODES[0], one), (NODES[0], zero_one), (NODES[1], zero_one)}
    _, answers = both(f'SELECT * WHERE {{ ?s <{EX}p> "01"^^<{XSD}integer> }}', graph)
    assert answers == {(NODES[0],), (NODES[1],)}
    _, answers = both(f"SELECT * WHERE {{ ?s <{EX}p> ?o FILTER(?o = 1) }}", graph)
    assert len(answers) == 3  # value equality, three distinct mappings


def test_oxigraph_does_rewrite_lexical_forms_which_is_why_the_oracle_expands():
    import pyoxigraph as ox

    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode(f"{EX}a"), ox.NamedNode(f"{EX}p"), ox.Literal("01", datatype=ox.NamedNode(f"{XSD}integer"))))
    assert next(iter(store)).object.value == "1"  # if this fails, Oxigraph keeps lexical forms now: simplify the oracle


def test_lexical_filters_over_rewritten_literals_are_refused_by_oxigraph_only():
    graph = {(NODES[0], PREDICATES[0], f'"01"^^<{XSD}integer>')}
    query = parse_query(f'SELECT * WHERE {{ ?s <{EX}p> ?o FILTER(str(?o) = "01") }}', window="unbounded")
    assert rdflib_evaluate(query, graph) == {(NODES[0], f'"01"^^<{XSD}integer>')}
    try:
        oxigraph_evaluate(query, graph)
    except OracleLimitation as error:
        assert "lexical" in str(error)
    else:
        raise AssertionError("the Oxigraph oracle answered a lexical filter over a literal it rewrites")


def test_query_blank_nodes_are_variables_of_the_full_mapping():
    graph = {(NODES[0], PREDICATES[0], NODES[1]), (NODES[2], PREDICATES[0], NODES[1])}
    query, answers = both(f"SELECT ?o WHERE {{ _:s <{EX}p> ?o . [] <{EX}p> ?o }}", graph)
    assert set(query.variables) == {"?o", "?_:b0", "?_:b1"}
    assert len(answers) == 4  # two choices for each blank node


def test_set_semantics_and_type_errors_make_filters_false():
    graph = {(NODES[0], PREDICATES[0], '"x"'), (NODES[1], PREDICATES[0], f'"5"^^<{XSD}integer>')}
    _, answers = both(f"SELECT * WHERE {{ ?s <{EX}p> ?o FILTER(?o >= 1) }}", graph)
    assert answers == {(NODES[1], f'"5"^^<{XSD}integer>')}  # "x" >= 1 is an error (rdflib alone says true)
    _, answers = both(f'SELECT * WHERE {{ ?s <{EX}p> ?o FILTER(?o != "a"^^<{EX}t>) }}', graph)
    assert answers == set()  # != against an unknown datatype is an error, not true


def test_xsd_string_and_simple_literals_are_one_term():
    graph = {(NODES[0], PREDICATES[0], '"x"')}
    _, answers = both(f'SELECT * WHERE {{ ?s <{EX}p> "x"^^<{XSD}string> }}', graph)
    assert answers == {(NODES[0],)}
    _, answers = both(f'SELECT * WHERE {{ ?s <{EX}p> "y"@EN-GB }}', {(NODES[0], PREDICATES[0], '"y"@en-gb')})
    assert answers == {(NODES[0],)}
