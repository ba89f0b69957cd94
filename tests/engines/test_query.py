"""The query reader accepts one BGP with FILTERs and a window, keeps term identity, and refuses everything else by name."""

from __future__ import annotations

import pytest

from common.errors import QueryError, WindowError
from engines.model import stream as m
from engines.model.query import load_query, parse_query

XSD_INT = "<http://www.w3.org/2001/XMLSchema#integer>"


def test_patterns_variables_and_projection():
    query = parse_query("PREFIX : <http://x/> SELECT ?b ?a WHERE { ?a :p ?b . ?b :q ?c }", window="event")
    assert set(query.patterns) == {("?a", "<http://x/p>", "?b"), ("?b", "<http://x/q>", "?c")}
    assert query.variables == ("?a", "?b", "?c")  # order of first appearance
    assert query.projection == ("?b", "?a")
    assert query.output_variables == ("?b", "?a")


def test_select_star_has_no_projection_and_hides_query_blank_nodes():
    query = parse_query("SELECT * { ?x <http://x/p> [ <http://x/q> ?y ] }", window="event")
    assert query.projection is None
    assert "?_:b0" in query.variables
    assert query.output_variables == ("?x", "?y")


def test_lexical_forms_are_kept_and_strings_canonical():
    query = parse_query(
        'SELECT * { ?x <http://x/p> "01"^^<http://www.w3.org/2001/XMLSchema#integer>, 01, 1e0, "s"^^<http://www.w3.org/2001/XMLSchema#string>, "A"@EN }',
        window="event",
    )
    objects = [pattern[2] for pattern in query.patterns]
    assert objects.count(f'"01"^^{XSD_INT}') == 2
    assert '"1e0"^^<http://www.w3.org/2001/XMLSchema#double>' in objects
    assert '"s"' in objects and '"A"@en' in objects


def test_filters_become_the_model_ast():
    query = parse_query("SELECT * { ?x <http://x/p> ?y FILTER(?y > 2 && !bound(?x) || ?y * 2 = -?x) }", window="event")
    (expression,) = query.filters
    assert isinstance(expression, m.Or)
    assert isinstance(expression.args[0], m.And)
    assert m.expr_variables(expression) == {"?x", "?y"}


@pytest.mark.parametrize(("text", "construct"), [
    ("SELECT * { ?x <http://p> ?y OPTIONAL { ?y <http://q> ?z } }", "OPTIONAL"),
    ("SELECT * { { ?x <http://p> ?y } UNION { ?x <http://q> ?y } }", "UNION"),
    ("SELECT * { GRAPH ?g { ?x <http://p> ?y } }", "GRAPH"),
    ("SELECT * { ?x <http://p> ?y MINUS { ?x <http://q> ?y } }", "MINUS"),
    ("SELECT * { ?x <http://p>+ ?y }", "property paths"),
    ("SELECT * { ?x <http://p>/<http://q> ?y }", "property paths"),
    ("SELECT (COUNT(*) AS ?n) { ?x <http://p> ?y }", "aggregates"),
    ("SELECT * { { SELECT ?x { ?x <http://p> ?y } } }", "subqueries"),
    ("SELECT * { ?x <http://p> ?y BIND(1 AS ?z) }", "BIND"),
    ("SELECT * { ?x <http://p> ?y } ORDER BY ?x", "ORDER BY"),
    ("SELECT * { ?x <http://p> ?y } LIMIT 1", "LIMIT"),
    ("ASK { ?x <http://p> ?y }", "SELECT"),
    ("CONSTRUCT { ?x <http://p> ?y } WHERE { ?x <http://p> ?y }", "SELECT"),
    ("SELECT * FROM <http://g> { ?x <http://p> ?y }", "FROM"),
    ("SELECT * { ?x <http://p> ?y FILTER(?y IN (1, 2)) }", "IN"),
    ("SELECT * { ?x <http://p> ?y FILTER(CONTAINS(?y, \"a\")) }", "CONTAINS"),
    ("SELECT * { ?x <http://p> ?y", "cannot parse"),
    ("SELECT * { }", "no triple pattern"),
])
def test_unsupported_constructs_are_refused_by_name(text, construct):
    with pytest.raises(QueryError, match=construct):
        parse_query(text, window="event")


def test_a_query_without_a_window_is_refused():
    with pytest.raises(QueryError, match="no window"):
        parse_query("SELECT * { ?x <http://p> ?y }")


def test_rspql_window_clause():
    text = """PREFIX : <http://x/>
    REGISTER RSTREAM :out AS
    SELECT ?a FROM NAMED WINDOW :w ON :stream [RANGE PT10S STEP PT2S]
    WHERE { WINDOW :w { ?a :p ?b FILTER(?b != "}") } }"""
    query = parse_query(text)
    assert query.window == m.Window.sliding(10_000, 2_000)
    assert query.patterns == (("?a", "<http://x/p>", "?b"),)
    assert "WINDOW" not in query.where_sparql.upper().replace("WHERE", "")
    # a window given on the command line wins over the clause
    assert parse_query(text, window="tumbling:5s").window == m.Window.tumbling(5_000)


def test_rspql_window_must_be_used():
    with pytest.raises(QueryError, match="no 'WINDOW"):
        parse_query("PREFIX : <http://x/> SELECT * FROM NAMED WINDOW :w ON :s [RANGE PT1S] WHERE { ?a :p ?b }")


def test_rspql_bad_window_clauses():
    with pytest.raises(QueryError, match="malformed RSP-QL window clause"):
        parse_query("PREFIX : <http://x/> SELECT * FROM NAMED WINDOW :w ON :s [RANGE 10 seconds] WHERE { WINDOW :w { ?a :p ?b } }")
    with pytest.raises(WindowError, match="ISO 8601"):
        parse_query("PREFIX : <http://x/> SELECT * FROM NAMED WINDOW :w ON :s [RANGE PTXS] WHERE { WINDOW :w { ?a :p ?b } }")


def test_nested_groups_flatten_only_when_equivalent():
    query = parse_query("SELECT * { ?x <http://p> ?y { ?y <http://p> ?z FILTER(?z != ?y) } }", window="event")
    assert len(query.patterns) == 2 and len(query.filters) == 1
    with pytest.raises(QueryError, match="nested group"):
        parse_query("SELECT * { ?x <http://p> ?y { ?y <http://p> ?z FILTER(?x != ?z) } }", window="event")


def test_where_sparql_selects_everything():
    query = parse_query("PREFIX : <http://x/> SELECT DISTINCT ?a WHERE { ?a :p ?b }", window="event")
    assert query.distinct
    assert query.where_sparql.startswith("PREFIX : <http://x/> SELECT * WHERE {")


def test_load_query_errors_name_the_file(tmp_path):
    with pytest.raises(QueryError, match="missing.rq"):
        load_query(tmp_path / "missing.rq", window="event")
    path = tmp_path / "q.rq"
    path.write_text("SELECT * { ?x <http://p> ?y }")
    assert load_query(path, window="event").name == "q"


def test_rspql_window_with_full_iris():
    query = parse_query(
        "SELECT * FROM NAMED WINDOW <http://x/w#1> ON <http://x/s> [RANGE PT3S STEP PT1S] "
        "WHERE { WINDOW <http://x/w#1> { ?a <http://x/p> ?b } }"
    )
    assert query.window == m.Window.sliding(3_000, 1_000)
    assert query.patterns == (("?a", "<http://x/p>", "?b"),)


def test_comment_directives_give_defaults_that_arguments_override():
    text = "# window: tumbling:5s\n# entailment: rdfs\nSELECT * { ?x <http://p> ?y }"
    query = parse_query(text)
    assert query.window == m.Window.tumbling(5_000) and query.entailment == "rdfs"
    query = parse_query(text, window="event", entailment="none")
    assert query.window == m.Window("event") and query.entailment == "none"


@pytest.mark.parametrize("constant", ["false", "0", '""', '"false"^^<http://www.w3.org/2001/XMLSchema#boolean>'])
def test_falsy_constant_filters_are_kept(constant):
    """rdflib's algebra drops FILTER(0) and friends; the reader must not, or the query would match everything."""
    query = parse_query(f"SELECT * {{ ?x <http://p> ?y FILTER({constant}) }}", window="event")
    assert len(query.filters) == 1 and isinstance(query.filters[0], m.TermExpr)


def test_two_argument_regex():
    query = parse_query('SELECT * { ?x <http://p> ?y FILTER(REGEX(?y, "a")) }', window="event")
    assert query.filters[0].name == "regex" and len(query.filters[0].args) == 2
