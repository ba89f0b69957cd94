"""Hypothesis strategies for small streams and continuous queries, drawn from few terms so that joins happen.

Streams have equal timestamps, bursts, duplicate triples, blank nodes, literals of mixed numeric
types and odd lexical forms, escapes and language tags. Queries are stars, chains, cycles and
snowflakes with constants in every position, variable predicates, and FILTERs; they are drawn as
SPARQL text and read by ``engines.model.query.parse_query``, so the reader is exercised too.
"""

from __future__ import annotations

from hypothesis import strategies as st

from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Stream, Update, Window

EX = "http://ex/"
XSD = "http://www.w3.org/2001/XMLSchema#"
NODES = [f"<{EX}{name}>" for name in "abcde"]
BNODES = ["_:b1", "_:b2"]
PREDICATES = [f"<{EX}{name}>" for name in ("p", "q", "r")]
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
CLASSES = [f"<{EX}C{i}>" for i in range(3)]
LITERALS = [
    f'"1"^^<{XSD}integer>', f'"01"^^<{XSD}integer>', f'"2"^^<{XSD}integer>', f'"-3"^^<{XSD}integer>',
    f'"1.0"^^<{XSD}decimal>', f'"2.5"^^<{XSD}decimal>', f'"1"^^<{XSD}double>', f'"1E0"^^<{XSD}double>',
    f'"abc"^^<{XSD}integer>', '"x"', '"x"@en', '"y"@en-gb', '"a\\"b\\nc"', '"\u00e9t\u00e9"', '"10"', '"9"',
    f'"true"^^<{XSD}boolean>', f'"2020-01-01T00:00:00Z"^^<{XSD}dateTime>', f'"x"^^<{EX}custom>',
]
SUBJECTS = NODES + BNODES
OBJECTS = NODES + BNODES + LITERALS + CLASSES

triples = st.one_of(
    st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(PREDICATES), st.sampled_from(OBJECTS)),
    st.tuples(st.sampled_from(SUBJECTS), st.just(TYPE), st.sampled_from(CLASSES)),
)


@st.composite
def windows(draw, kinds=("sliding", "event", "unbounded")) -> Window:
    kind = draw(st.sampled_from(kinds))
    if kind == "sliding":
        range_ms = draw(st.integers(1, 8))
        slide_ms = draw(st.one_of(st.just(1), st.just(range_ms), st.integers(1, range_ms)))
        return Window.sliding(range_ms, slide_ms)
    return Window(kind)


@st.composite
def streams(
    draw, *, deletions: bool = False, max_events: int = 14, static: bool = False, schema: bool = False,
    type_links: bool = False,
) -> Stream:
    """A small stream; with ``deletions`` some updates delete (present or absent triples), for unbounded windows.

    With ``schema``, a schema of ``schemas(type_links=type_links)``.
    """
    count = draw(st.integers(1, max_events))
    ts = draw(st.integers(0, 3))
    events = []
    seen: list = []
    for index in range(count):
        ts += draw(st.sampled_from((0, 0, 1, 1, 2, 3, 7)))  # equal timestamps are common
        size = draw(st.sampled_from((1, 1, 2, 3, 6)))  # bursts
        updates = []
        for _ in range(size):
            if seen and draw(st.integers(0, 3)) == 0:
                triple = draw(st.sampled_from(seen))  # a duplicate, or the delete of a present triple
            else:
                triple = draw(triples)
                seen.append(triple)
            op = DELETE if deletions and draw(st.integers(0, 2)) == 0 else INSERT
            updates.append(Update(op, *triple))
        events.append(Event(index, ts, tuple(updates)))
    static_triples = tuple(draw(st.lists(triples, max_size=4))) if static else ()
    schema_triples = tuple(draw(schemas(type_links=type_links))) if schema else ()
    return Stream(tuple(events), static_triples, schema_triples, {})


@st.composite
def schemas(draw, *, type_links: bool = False) -> list:
    """Up to four axioms of the six kinds; with ``type_links``, also one to three with rdf:type under or over a property."""
    rdfs = "http://www.w3.org/2000/01/rdf-schema#"
    owl = "http://www.w3.org/2002/07/owl#"
    axioms = st.one_of(
        st.tuples(st.sampled_from(CLASSES), st.just(f"<{rdfs}subClassOf>"), st.sampled_from(CLASSES)),
        # rdf:type under and over other properties (issue 21: a sub-property of rdf:type feeds the class hierarchy)
        st.tuples(st.sampled_from(PREDICATES + [TYPE]), st.just(f"<{rdfs}subPropertyOf>"), st.sampled_from(PREDICATES + [TYPE])),
        st.tuples(st.sampled_from(PREDICATES), st.just(f"<{rdfs}domain>"), st.sampled_from(CLASSES)),
        st.tuples(st.sampled_from(PREDICATES), st.just(f"<{rdfs}range>"), st.sampled_from(CLASSES)),
        st.tuples(st.sampled_from(PREDICATES), st.just(f"<{owl}inverseOf>"), st.sampled_from(PREDICATES)),
        st.tuples(st.sampled_from(PREDICATES), st.just(TYPE), st.just(f"<{owl}SymmetricProperty>")),
    )
    drawn = draw(st.lists(axioms, max_size=4, unique=True))
    if type_links:
        link = st.one_of(
            st.tuples(st.sampled_from(PREDICATES), st.just(f"<{rdfs}subPropertyOf>"), st.just(TYPE)),
            st.tuples(st.just(TYPE), st.just(f"<{rdfs}subPropertyOf>"), st.sampled_from(PREDICATES)),
        )
        drawn += [axiom for axiom in draw(st.lists(link, min_size=1, max_size=3, unique=True)) if axiom not in drawn]
    return drawn


SHAPES = ("star", "chain", "cycle", "snowflake", "single")


def _shape_edges(shape: str, size: int) -> list[tuple[int, int]]:
    if shape == "single":
        return [(0, 1)]
    if shape == "star":
        return [(0, i) for i in range(1, size + 1)]
    if shape == "chain":
        return [(i, i + 1) for i in range(size)]
    if shape == "cycle":
        return [(i, (i + 1) % max(size, 2)) for i in range(max(size, 2))]
    return [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5)][: size + 2]  # snowflake


@st.composite
def filter_texts(draw, variables: list[str]) -> str:
    var = st.sampled_from(variables)
    number = st.sampled_from(["1", "2", "1.5", "01", '"1"^^xsd:double', "-3"])
    atom = st.one_of(
        st.builds(lambda v, op, n: f"{v} {op} {n}", var, st.sampled_from(["=", "!=", "<", ">", "<=", ">="]), number),
        st.builds(lambda a, op, b: f"{a} {op} {b}", var, st.sampled_from(["=", "!=", "<", ">="]), var),
        st.builds(lambda v: f"isLiteral({v})", var),
        st.builds(lambda v: f"isIRI({v})", var),
        st.builds(lambda v: f'str({v}) = "x"', var),
        st.builds(lambda a, b: f"sameTerm({a}, {b})", var, var),
        st.builds(lambda v: f"{v} + 1 > 2", var),
        st.builds(lambda v: f'lang({v}) = "en"', var),
    )
    expression = draw(atom)
    combinator = draw(st.sampled_from(["", "!", "&&", "||"]))
    if combinator == "!":
        expression = f"!({expression})"
    elif combinator:
        expression = f"({expression}) {combinator} ({draw(atom)})"
    return expression


@st.composite
def query_texts(draw, *, filters: bool = True, shapes=SHAPES) -> str:
    """SPARQL SELECT text over a star, chain, cycle, snowflake or single pattern."""
    shape = draw(st.sampled_from(shapes))
    size = draw(st.integers(1, 3))
    node_vars = [f"?v{i}" for i in range(8)]
    lines = []
    for left, right in _shape_edges(shape, size):
        subject = node_vars[left] if draw(st.integers(0, 5)) else draw(st.sampled_from(NODES))
        if draw(st.integers(0, 7)) == 0:
            predicate = f"?p{left}{right}"
        elif draw(st.integers(0, 5)) == 0:
            predicate = TYPE
        else:
            predicate = draw(st.sampled_from(PREDICATES))
        if predicate == TYPE and draw(st.booleans()):
            obj = draw(st.sampled_from(CLASSES))
        elif draw(st.integers(0, 5)) == 0:
            obj = draw(st.sampled_from(OBJECTS))
        else:
            obj = node_vars[right]
        lines.append(f"  {subject} {predicate} {obj} .")
    if draw(st.integers(0, 9)) == 0:
        lines.append("  ?v0 ?v0p ?v0 .")  # a variable repeated in one pattern
    text_vars = sorted({w for line in lines for w in line.split() if w.startswith("?")})
    if filters and text_vars and draw(st.integers(0, 2)) == 0:
        lines.append(f"  FILTER({draw(filter_texts(text_vars))})")
    return "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\nSELECT * WHERE {\n" + "\n".join(lines) + "\n}\n"


@st.composite
def queries(draw, window: Window, *, entailment: str = "none", filters: bool = True, shapes=SHAPES):
    return parse_query(draw(query_texts(filters=filters, shapes=shapes)), window=window, entailment=entailment)
