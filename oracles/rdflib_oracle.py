"""The reference oracle: rdflib evaluates the query's ``where_sparql`` over G(τ), from scratch, as a set of full mappings.

rdflib reads the query text itself (not the model's patterns or filters), and three corrections bring
its evaluation to SPARQL 1.1 over RDF 1.1 terms:

- query blank nodes are existential variables whose bindings rdflib's ``SELECT *`` hides: they are
  turned into named variables, matched to the model's ``?_:bK`` by unifying the patterns;
- ``"x"^^xsd:string`` in the query is the term ``"x"`` (RDF 1.1), and language tags compare without
  case: query constants are rewritten to the canonical spelling the data uses;
- lexical forms are kept (``rdflib.NORMALIZE_LITERALS = False``) and every term coming back is
  looked up in a dict of the terms that went in, so answers are the exact input strings.

Where rdflib's evaluation departs from SPARQL 1.1 (comparisons, effective boolean value, ``&&``,
REGEX flags, STR of a blank node, isNumeric, arithmetic on ill-typed literals, errors inside
builtins), the compiled query calls ``oracles.sparql_fixes`` instead; and each FILTER is wrapped
before translation because rdflib drops a FILTER whose constant is falsy (``FILTER(0)``).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from functools import lru_cache
from types import MethodType

import rdflib
from rdflib import BNode, Literal, URIRef, Variable
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue, Expr
from rdflib.plugins.sparql.sparql import Query

from common.errors import QueryError
from engines.model.stream import WINDOW_GRAPH, ContinuousQuery, Mapping, Triple
from oracles import nterms, sparql_fixes

rdflib.NORMALIZE_LITERALS = False
COPY_AFTER = 1 << 12  # removals before the graphs may be rebuilt, however few triples they hold


def _canonical_constant(node):
    """The query constant spelled as the data spells it (RDF 1.1 identity)."""
    if isinstance(node, Literal):
        if node.language is not None and node.language != node.language.lower():
            return Literal(str(node), lang=node.language.lower())
        if node.datatype is not None and str(node.datatype) == nterms.XSD_STRING:
            return Literal(str(node))
    return node


def _rewrite_node(value: CompValue, replace) -> CompValue:
    # Same class and attributes (rdflib's Expr keeps its evalfn there), rewritten items.
    rewritten = type(value).__new__(type(value))
    rewritten.__dict__.update(vars(value))
    evalfn = getattr(value, "_evalfn", None)
    if value.name in sparql_fixes.EVAL_OVERRIDES:
        evalfn = sparql_fixes.EVAL_OVERRIDES[value.name]
    elif isinstance(evalfn, MethodType):
        evalfn = evalfn.__func__
    if evalfn is not None:
        if value.name.startswith("Builtin_") and value.name != "Builtin_BOUND":
            evalfn = sparql_fixes.strict_arguments(evalfn)
        rewritten._evalfn = MethodType(evalfn, rewritten)
    for key, item in value.items():
        rewritten[key] = _rewrite(item, replace)
    return rewritten


def _rewrite(value, replace):
    """A copy of an algebra value with ``replace`` applied to every RDF term in it."""
    if isinstance(value, CompValue) and value.name == "Filter":
        # The filter's EBV is computed by sparql_fixes: wrap the expression in a node of our own.
        rewritten = _rewrite_node(value, replace)
        rewritten["expr"] = Expr("CgpmEffectiveBooleanValue", sparql_fixes.filter_value, arg=rewritten["expr"])
        return rewritten
    if isinstance(value, CompValue):
        return _rewrite_node(value, replace)
    if isinstance(value, (Variable, BNode, URIRef, Literal)):
        return replace(value)
    if isinstance(value, list):
        return [_rewrite(item, replace) for item in value]
    if isinstance(value, tuple):
        return tuple(_rewrite(item, replace) for item in value)
    if isinstance(value, (set, frozenset)):
        return type(value)(_rewrite(item, replace) for item in value)
    return value


def _bgp_triples(node, found: list) -> None:
    if isinstance(node, CompValue):
        if node.name == "BGP":
            found.extend(node.triples)
        for item in node.values():
            _bgp_triples(item, found)


def _unify_bnodes(algebra_triples: list, patterns: tuple) -> dict[BNode, str]:
    """The bijection from the algebra's blank nodes to the model's ``?_:bK`` that makes the two pattern lists equal."""
    if len(algebra_triples) != len(patterns):
        raise QueryError(f"rdflib oracle: {len(algebra_triples)} triple patterns in the query text, {len(patterns)} in the model")
    converted = [tuple(node if isinstance(node, BNode) else nterms.from_rdflib(node) for node in t) for t in algebra_triples]

    def search(index: int, used: frozenset[int], mapping: dict) -> dict | None:
        if index == len(converted):
            return mapping
        for candidate, pattern in enumerate(patterns):
            if candidate in used:
                continue
            extended = dict(mapping)
            for node, position in zip(converted[index], pattern):
                if isinstance(node, BNode):
                    if not position.startswith("?_:") or extended.setdefault(node, position) != position:
                        break
                elif node != position:
                    break
            else:
                if len(set(extended.values())) == len(extended):
                    result = search(index + 1, used | {candidate}, extended)
                    if result is not None:
                        return result
        return None

    mapping = search(0, frozenset(), {})
    if mapping is None:
        raise QueryError("rdflib oracle: the query text's patterns do not match the model's patterns")
    return mapping


def _passthrough(e, ctx):
    return e.term


def _keep_constant_filters(node) -> None:
    """Wrap each FILTER's expression in a pass-through node: rdflib's translation drops ``FILTER(0)``.

    (It tests ``if filters:``, and a constant that simplifies to a falsy Literal such as 0 or "" is dropped.)
    """
    if isinstance(node, CompValue):
        if node.name == "Filter" and "expr" in node:
            node["expr"] = Expr("CgpmFilterExpression", _passthrough, term=node["expr"])
        for item in node.values():
            _keep_constant_filters(item)
    elif isinstance(node, (list, tuple)) or type(node).__name__ == "ParseResults":
        for item in node:
            _keep_constant_filters(item)


@lru_cache(maxsize=256)
def _compile(where_sparql: str, patterns: tuple, variables: tuple) -> tuple[Query, tuple[Variable, ...]]:
    """The rdflib query for ``where_sparql`` with blank nodes as variables, and the rdflib variable per model variable."""
    try:
        parsed = parseQuery(where_sparql)
        _keep_constant_filters(parsed)
        translated = translateQuery(parsed)
    except Exception as error:  # rdflib raises pyparsing and plain exceptions alike
        raise QueryError(f"rdflib oracle cannot parse the query: {str(error).splitlines()[0]}") from None
    found: list = []
    _bgp_triples(translated.algebra, found)
    bnode_names = _unify_bnodes(found, patterns)
    taken = {v[1:] for v in variables}
    rdflib_variable = {}
    for index, variable in enumerate(variables):
        if variable.startswith("?_:"):
            name = f"cgpmBnode{index}"
            while name in taken:
                name += "x"
            rdflib_variable[variable] = Variable(name)
        else:
            rdflib_variable[variable] = Variable(variable[1:])

    def replace(node):
        if isinstance(node, BNode):
            return rdflib_variable[bnode_names[node]]
        return _canonical_constant(node)

    algebra = _rewrite(translated.algebra, replace)
    projection = [rdflib_variable[v] for v in variables]
    algebra["PV"] = projection
    algebra.p["PV"] = projection
    return Query(translated.prologue, algebra), tuple(projection)


class RdflibOracle:
    """Holds G as an rdflib Graph (updated by difference) and evaluates one query over it from scratch.

    A query over named windows is evaluated over an rdflib Dataset: the static graph is its default graph and
    window k its named graph ``urn:cgpm:window:k``, which the query's ``where_sparql`` reads with GRAPH."""

    def __init__(self, query: ContinuousQuery) -> None:
        self.query = query
        self.content: set[Triple] = set()
        # a term is held while a triple of a graph uses it (counted per place), as the engines' dictionaries do
        self.to_input: dict[object, str] = {}
        self.node_of: dict[str, object] = {}
        self.uses: dict[str, int] = {}
        self.compiled, self.projection = _compile(query.where_sparql, query.patterns, query.variables)
        self.window_contents: list[set[Triple]] = [set() for _ in query.named_windows]
        self.removed_since_copy = 0
        self._new_graphs()

    def _new_graphs(self) -> None:
        self.dataset = rdflib.Dataset() if self.query.named_windows else None
        self.graph = self.dataset.default_graph if self.dataset is not None else rdflib.Graph()
        self.windows = [self.dataset.graph(URIRef(f"{WINDOW_GRAPH}{k}")) for k in range(len(self.query.named_windows))]

    def _copy_if_due(self) -> None:
        """Rebuild the graphs from their content once removals since the last copy outnumber the triples held.

        rdflib's Memory store keeps an empty index entry for every subject and object it ever held, so a
        graph that triples pass through grows with the stream; a copy drops them, at O(1) a removal."""
        live = len(self.content) + sum(len(content) for content in self.window_contents)
        if self.removed_since_copy <= max(live, COPY_AFTER):
            return
        self._new_graphs()
        for graph, content in [(self.graph, self.content), *zip(self.windows, self.window_contents, strict=True)]:
            for triple in content:
                graph.add(tuple(self.node_of[term] for term in triple))
        self.removed_since_copy = 0

    def _take(self, term: str):
        node = self.node_of.get(term)
        if node is None:
            node = nterms.to_rdflib(term)
            self.node_of[term] = node
            self.to_input.setdefault(node, term)
        self.uses[term] = self.uses.get(term, 0) + 1
        return node

    def _release(self, term: str):
        node = self.node_of[term]
        left = self.uses[term] - 1
        if left:
            self.uses[term] = left
        else:
            del self.uses[term], self.node_of[term]
            if self.to_input.get(node) == term:
                del self.to_input[node]
        return node

    def update(self, added: Iterable[Triple], removed: Iterable[Triple], window: int | None = None) -> None:
        """Add and remove triples in the default graph (``window``: that named window's graph)."""
        graph = self.graph if window is None else self.windows[window]
        content = self.content if window is None else self.window_contents[window]
        for triple in removed:
            if triple in content:
                content.discard(triple)
                graph.remove(tuple(self._release(term) for term in triple))
                self.removed_since_copy += 1
        for triple in added:
            if triple not in content:
                content.add(triple)
                graph.add(tuple(self._take(term) for term in triple))

    def _replace(self, content: set[Triple], triples: Iterable[Triple], window: int | None) -> None:
        wanted = set(triples)
        self.update(wanted - content, content - wanted, window)

    def set_content(self, triples: Iterable[Triple]) -> None:
        """Make the graph hold exactly ``triples``."""
        self._replace(self.content, triples, None)

    def set_graphs(self, static: Iterable[Triple], windows: Sequence[Iterable[Triple]]) -> None:
        """Make the default graph hold the static triples and each window's named graph its triples."""
        self._replace(self.content, static, None)
        for k, triples in enumerate(windows):
            self._replace(self.window_contents[k], triples, k)

    def answers(self) -> frozenset[Mapping]:
        """M over the current graph: the set of full mappings in the query's variable order."""
        self._copy_if_due()
        if self.dataset is not None:
            with warnings.catch_warnings():  # rdflib 7's own Dataset.query reads its deprecated default_context
                warnings.simplefilter("ignore", DeprecationWarning)
                rows = list(self.dataset.query(self.compiled).bindings)
        else:
            rows = list(self.graph.query(self.compiled).bindings)
        answers = set()
        for row in rows:
            mapping = []
            for variable in self.projection:
                node = row.get(variable)
                if node is None or node not in self.to_input:
                    raise QueryError(f"rdflib oracle: variable ?{variable} bound to {node!r}, not a term of the graph")
                mapping.append(self.to_input[node])
            answers.add(tuple(mapping))
        return frozenset(answers)


def evaluate(query: ContinuousQuery, triples: Iterable[Triple]) -> frozenset[Mapping]:
    """M over the graph ``triples`` by the rdflib oracle."""
    oracle = RdflibOracle(query)
    oracle.set_content(triples)
    return oracle.answers()

