"""A continuous query is read into triple patterns, FILTER expressions, variables and one window, or rejected by name.

rdflib's SPARQL parser reads the text; this module walks its algebra and accepts exactly one
basic graph pattern with FILTERs (nested groups are flattened when that changes nothing). Every
other construct is refused with a QueryError naming it. The RSP-QL window clause
(``FROM NAMED WINDOW :w ON :s [RANGE PT10S STEP PT1S]`` with ``WINDOW :w { ... }``) is read
here too, so rdflib only ever sees plain SPARQL.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import rdflib
from rdflib import BNode, Literal, URIRef, Variable
from rdflib.paths import Path as RdflibPath
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue

from common.errors import QueryError
from engines.model import stream as m
from engines.model import terms
from engines.model.rspql import DeclaredWindow, mask, matching_brace, strip_rspql
from engines.model.windows import parse_window

# Lexical forms must survive parsing: "01"^^xsd:integer is not "1"^^xsd:integer.
rdflib.NORMALIZE_LITERALS = False

_UNSUPPORTED_NODES = {
    "LeftJoin": "OPTIONAL",
    "Union": "UNION",
    "Graph": "GRAPH",
    "Minus": "MINUS",
    "Extend": "BIND or an expression in SELECT (aggregates included)",
    "AggregateJoin": "aggregates",
    "Group": "GROUP BY",
    "ToMultiSet": "subqueries or VALUES",
    "values": "VALUES",
    "OrderBy": "ORDER BY",
    "Slice": "LIMIT/OFFSET",
    "ServiceGraphPattern": "SERVICE",
}


def _where_sparql(text: str) -> str:
    masked = mask(text)
    select = re.search(r"\bSELECT\b", masked, re.IGNORECASE)
    if select is None:
        raise QueryError("a continuous query must be a SELECT query")
    open_index = masked.find("{", select.end())
    if open_index < 0:
        raise QueryError("the query has no WHERE { ... } group")
    close_index = matching_brace(masked, open_index)
    return f"{text[: select.start()]}SELECT * WHERE {text[open_index : close_index + 1]}"


class _Converter:
    """Turns rdflib terms and expressions into the model's, naming the query's blank nodes ?_:b0, ?_:b1, ..."""

    def __init__(self) -> None:
        self.bnodes: dict[BNode, str] = {}

    def position(self, node) -> str:
        if isinstance(node, Variable):
            return "?" + str(node)
        if isinstance(node, BNode):
            return self.bnodes.setdefault(node, f"?_:b{len(self.bnodes)}")
        if isinstance(node, RdflibPath):
            raise QueryError(f"property paths are not supported in a continuous query (found {node.n3()})")
        return self.term(node)

    @staticmethod
    def term(node) -> str:
        if isinstance(node, URIRef):
            return terms.parse_term(f"<{node}>")
        if isinstance(node, Literal):
            lang = node.language
            datatype = str(node.datatype) if node.datatype is not None else None
            return terms.literal(str(node), datatype, lang)
        raise QueryError(f"unsupported term in query: {node!r}")

    def expr(self, node) -> m.Expr:
        if isinstance(node, Variable):
            return m.VarExpr("?" + str(node))
        if isinstance(node, BNode):
            return m.VarExpr(self.position(node))
        if isinstance(node, (URIRef, Literal)):
            return m.TermExpr(self.term(node))
        if not isinstance(node, CompValue):
            raise QueryError(f"unsupported FILTER expression {node!r}")
        name = node.name
        if name in ("ConditionalOrExpression", "ConditionalAndExpression"):
            args = (self.expr(node.expr), *(self.expr(o) for o in node.other or ()))
            return m.Or(args) if name == "ConditionalOrExpression" else m.And(args)
        if name == "RelationalExpression":
            if node.op not in m.COMPARISONS:
                raise QueryError(f"FILTER operator {node.op} is not supported in a continuous query")
            return m.Compare(node.op, self.expr(node.expr), self.expr(node.other))
        if name in ("AdditiveExpression", "MultiplicativeExpression"):
            result = self.expr(node.expr)
            for op, other in zip(node.op or (), node.other or ()):
                result = m.Arith(op, result, self.expr(other))
            return result
        if name == "UnaryNot":
            return m.Not(self.expr(node.expr))
        if name in ("UnaryMinus", "UnaryPlus"):
            return m.Unary("-" if name == "UnaryMinus" else "+", self.expr(node.expr))
        if name == "Function":
            iri = str(node.iri)
            if not iri.startswith(terms.XSD):
                raise QueryError(f"FILTER function <{iri}> is not supported in a continuous query")
            return m.Call(f"<{iri}>", tuple(self.expr(a) for a in node.expr or ()))
        if name.startswith("Builtin_"):
            builtin = name[len("Builtin_"):].lower()
            if builtin not in m.BUILTINS:
                raise QueryError(f"FILTER function {name[len('Builtin_'):]} is not supported in a continuous query")
            if builtin == "regex":
                args = [node.text, node.pattern] + ([node.flags] if "flags" in node and node.flags is not None else [])
            elif builtin in ("sameterm", "langmatches"):
                args = [node.arg1, node.arg2]
            else:
                args = [node.arg]
            return m.Call(builtin, tuple(self.expr(a) for a in args))
        if name == "TrueFilter":
            return m.TermExpr(terms.literal("true", terms.XSD + "boolean"))
        raise QueryError(f"FILTER expression {name} is not supported in a continuous query")


def _window_graph(node, inside: int | None) -> int:
    """The named window a ``GRAPH`` block made from ``WINDOW <w> { ... }`` stands for; a GRAPH of the user's is refused."""
    term = str(node.term) if isinstance(node.term, URIRef) else ""
    if not term.startswith(m.WINDOW_GRAPH):
        raise QueryError(f"{_UNSUPPORTED_NODES['Graph']} is not supported in a continuous query (only a basic graph pattern with FILTERs)")
    if inside is not None:
        raise QueryError("a WINDOW block inside another WINDOW block is not supported")
    return int(term[len(m.WINDOW_GRAPH):])


def _collect(node, converter: _Converter, patterns: list, filters: list, windows: list, inside: int | None = None) -> None:
    """Flatten the algebra below the projection into patterns (each with the named window it is in) and filters, refusing anything else."""
    name = getattr(node, "name", None)
    if name == "Graph":
        _collect(node.p, converter, patterns, filters, windows, _window_graph(node, inside))
        return
    if name in _UNSUPPORTED_NODES:
        raise QueryError(f"{_UNSUPPORTED_NODES[name]} is not supported in a continuous query (only a basic graph pattern with FILTERs)")
    if name == "BGP":
        for s, p, o in node.triples:
            patterns.append((converter.position(s), converter.position(p), converter.position(o)))
            windows.append(inside)
    elif name == "Filter":
        inner_patterns: list = []
        _collect(node.p, converter, inner_patterns, filters, windows, inside)
        expression = converter.expr(node.expr)
        if patterns:  # a FILTER inside a nested group sees only that group's variables
            group_vars = {v for pattern in inner_patterns for v in pattern if m.is_variable(v)}
            if not m.expr_variables(expression) <= group_vars:
                raise QueryError("a FILTER in a nested group reads variables from outside it; flatten the group")
        patterns.extend(inner_patterns)
        filters.append(expression)
    elif name == "Join":
        _collect(node.p1, converter, patterns, filters, windows, inside)
        _collect(node.p2, converter, patterns, filters, windows, inside)
    else:
        raise QueryError(f"{name} is not supported in a continuous query")


def _unwrap(node):
    """A parse-tree expression stripped of the one-child wrappers the grammar puts around every leaf."""
    while isinstance(node, CompValue) and node.name.endswith("Expression") and set(node.keys()) == {"expr"}:
        node = node.expr
    return node


def _where_nodes(parsed):
    """The WHERE clause's parse tree in document order: every node, FILTERs yielded but not entered."""
    stack = [parsed[1].get("where")]
    while stack:
        value = stack.pop()
        if isinstance(value, CompValue):
            yield value
            if value.name != "Filter":
                stack.extend(reversed(list(value.values())))
        elif isinstance(value, (list, tuple)) or type(value).__name__ == "ParseResults":
            stack.extend(reversed(list(value)))
        else:
            yield value


def _constant_filter_leaves(parsed) -> list:
    """The constants of FILTERs made of one constant, read before translation (which removes FILTERs from
    the parse tree): rdflib drops those Python finds falsy (0, "", false), testing them with a plain ``if``."""
    found: list = []
    for node in _where_nodes(parsed):
        if isinstance(node, CompValue) and node.name == "Filter":
            leaf = _unwrap(node.expr)
            if isinstance(leaf, Literal) or (isinstance(leaf, CompValue) and leaf.name == "literal"):
                found.append(leaf)
    return found


def _dropped_constant_filters(leaves: list, prologue, converter: _Converter) -> list[m.Expr]:
    dropped = []
    for leaf in leaves:
        if isinstance(leaf, CompValue):
            datatype = leaf.datatype if "datatype" in leaf else None
            if datatype is not None and not isinstance(datatype, URIRef):
                datatype = prologue.absolutize(datatype)
            leaf = Literal(leaf.string, lang=leaf.lang if "lang" in leaf else None, datatype=datatype)
        if not leaf:
            dropped.append(converter.expr(leaf))
    return dropped


def _variable_order(parsed, converter: _Converter) -> list[str]:
    """Variables and query blank nodes in order of first appearance in the text (outside FILTERs)."""
    seen: dict[str, None] = {}
    for node in _where_nodes(parsed):
        if isinstance(node, (Variable, BNode)):
            seen.setdefault(converter.position(node))
    return list(seen)


_DIRECTIVE = re.compile(r"^\s*#\s*(window|entailment)\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)


def query_directives(text: str) -> dict[str, str]:
    """``# window: SPEC`` and ``# entailment: rdfs`` comment lines: a query file's own defaults."""
    return {key.lower(): value for key, value in _DIRECTIVE.findall(text)}


def parse_query(
    text: str, *, window: m.Window | str | None = None, entailment: str | None = None, name: str = "query"
) -> m.ContinuousQuery:
    """Read a continuous query.

    The window is ``window`` if given, else the RSP-QL window clause, else a ``# window:`` comment;
    entailment is ``entailment`` if given, else a ``# entailment:`` comment, else ``none``.
    """
    return _parsed(text, window, entailment, name)


# rdflib's SPARQL parser takes some 50-100 ms a query, and one query file is read again and again (every engine of
# a suite, every cell of a bench, every run of a test); a ContinuousQuery is frozen, of tuples, so one can be shared.
# A refusal is not cached: it raises again each time.
@functools.lru_cache(maxsize=1024)
def _parsed(text: str, window: m.Window | str | None, entailment: str | None, name: str) -> m.ContinuousQuery:
    directives = query_directives(text)
    if entailment is None:
        entailment = directives.get("entailment", "none")
    if entailment not in m.ENTAILMENTS:
        raise QueryError(f"unknown entailment {entailment!r}; expected one of {', '.join(m.ENTAILMENTS)}")
    plain, declared = strip_rspql(text)
    try:
        parsed = parseQuery(plain)
        constant_leaves = _constant_filter_leaves(parsed)
        translated = translateQuery(parsed)
        algebra = translated.algebra
    except QueryError:
        raise
    except Exception as error:  # rdflib raises pyparsing and plain exceptions alike
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise QueryError(f"cannot parse query {name}: {first_line}") from None
    if algebra.name != "SelectQuery":
        raise QueryError(f"a continuous query must be a SELECT query, not {algebra.name.replace('Query', '')}")
    if algebra.get("datasetClause"):
        raise QueryError("FROM / FROM NAMED datasets are not supported in a continuous query (the stream is the data)")
    node = algebra.p
    distinct = False
    if node.name in ("Distinct", "Reduced"):
        distinct = node.name == "Distinct"
        node = node.p
    if node.name != "Project":
        raise QueryError(f"{_UNSUPPORTED_NODES.get(node.name, node.name)} is not supported in a continuous query")
    converter = _Converter()
    patterns: list = []
    filters: list = []
    pattern_windows: list = []
    _collect(node.p, converter, patterns, filters, pattern_windows)
    filters.extend(_dropped_constant_filters(constant_leaves, translated.prologue, converter))
    if not patterns:
        raise QueryError(f"query {name} has no triple pattern")
    pattern_vars = {v for pattern in patterns for v in pattern if m.is_variable(v)}
    variables = tuple(v for v in _variable_order(parsed, converter) if v in pattern_vars)
    variables += tuple(sorted(pattern_vars - set(variables)))
    select_all = "projection" not in parsed[1]
    projection = None if select_all else tuple("?" + str(v) for v in node.PV)
    if isinstance(window, str):
        window = parse_window(window)
    named_windows = _named_windows(declared, translated.prologue) if len(declared) > 1 else ()
    if named_windows and window is not None:
        raise QueryError(f"query {name} declares {len(declared)} named windows; a window given from outside "
                         f"(--window {window.spec()}) cannot replace them")
    window = window or (declared[0].window if declared else None)
    if window is None and "window" in directives:
        window = parse_window(directives["window"])
    if window is None:
        raise QueryError(f"query {name} has no window: give one (sliding:RANGE:SLIDE, tumbling:RANGE, event, unbounded) or an RSP-QL window clause")
    return m.ContinuousQuery(
        patterns=tuple(patterns),
        filters=tuple(filters),
        variables=variables,
        window=window,
        entailment=entailment,
        projection=projection,
        distinct=distinct,
        text=text,
        where_sparql=_where_sparql(plain),
        name=name,
        named_windows=named_windows,
        pattern_windows=tuple(pattern_windows) if named_windows else (),
    )


def _stream_iri(token: str, prologue) -> str:
    """The stream's IRI for its token in a window clause (``<http://...>`` or a prefixed name), resolved by rdflib's prologue."""
    if token.startswith("<") and token.endswith(">"):
        return str(prologue.absolutize(URIRef(token[1:-1])))
    prefix, colon, local = token.partition(":")
    if not colon:
        raise QueryError(f"stream {token!r} in a window clause is neither an <IRI> nor a prefixed name")
    try:
        return str(prologue.resolvePName(prefix, local))
    except Exception:  # rdflib raises a plain Exception for an unknown prefix
        raise QueryError(f"stream {token}: the prefix {prefix}: is not declared") from None


def _named_windows(declared: list[DeclaredWindow], prologue) -> tuple[m.NamedWindow, ...]:
    return tuple(m.NamedWindow(w.name, _stream_iri(w.stream_token, prologue), w.window) for w in declared)


def load_query(path: str | Path, **options) -> m.ContinuousQuery:
    """Read a query file; a missing or unreadable file is a QueryError naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise QueryError(f"cannot read query file {path}: {error.strerror if isinstance(error, OSError) else error}") from None
    options.setdefault("name", path.stem)
    return parse_query(text, **options)
