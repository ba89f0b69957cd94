"""The plain oracle: M over G by the definition, written the obvious way, independent of rdflib, Oxigraph and the engines.

A basic graph pattern is matched by backtracking over the set of triples: the patterns are taken in
query order, each one against every triple of G, keeping a triple when its constants are equal
(as canonical strings: RDF 1.1 term identity, so ``"01"^^xsd:integer`` is not
``"1"^^xsd:integer``) and every variable, repeated ones included, agrees with what is bound so far.
Query blank nodes are the model's variables ``?_:bK`` and are matched like any other variable.
Each full mapping is then kept when every FILTER holds (``oracles.plain_filters``, SPARQL 1.1
section 17 directly). Answers are a set of tuples of the input term strings in
``query.variables`` order, as for the other oracles; entailment is applied by the caller
(``oracles.evaluate`` closes G with ``oracles.entailment``). A query over named windows gets one graph
per window and the static graph (``set_graphs``): each pattern is matched against its own.

It is slow on purpose (no index, no join order): it is the specification, runnable.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from engines.model.stream import ContinuousQuery, Mapping, Triple, TriplePattern, is_variable
from oracles import nterms
from oracles.plain_filters import filter_holds


def _canonical_pattern(pattern: TriplePattern) -> TriplePattern:
    """The pattern with its constants re-spelled canonically by the oracles' own term reader."""
    return tuple(x if is_variable(x) else nterms.canonical(nterms.split(x)) for x in pattern)


def _extend(pattern: TriplePattern, triple: Triple, binding: dict[str, str]) -> dict[str, str] | None:
    """``binding`` extended so that ``pattern`` becomes ``triple``, or None when they cannot agree."""
    extended = binding
    for position, term in zip(pattern, triple):
        if not is_variable(position):
            if position != term:
                return None
        elif position in extended:
            if extended[position] != term:
                return None
        else:
            if extended is binding:
                extended = dict(binding)
            extended[position] = term
    return extended


def match_patterns(
    patterns: tuple[TriplePattern, ...], triples: frozenset[Triple] | set[Triple], graphs: Sequence | None = None
) -> Iterator[dict[str, str]]:
    """Every binding of the patterns' variables under which each pattern is a triple of ``triples`` (of ``graphs[k]`` when given)."""
    graphs = graphs if graphs is not None else [triples] * len(patterns)

    def backtrack(index: int, binding: dict[str, str]) -> Iterator[dict[str, str]]:
        if index == len(patterns):
            yield binding
            return
        for triple in graphs[index]:
            extended = _extend(patterns[index], triple, binding)
            if extended is not None:
                yield from backtrack(index + 1, extended)

    yield from backtrack(0, {})


class PlainOracle:
    """Holds G as a plain set of triples (changed in place) and evaluates one query over it from scratch."""

    def __init__(self, query: ContinuousQuery) -> None:
        self.query = query
        self.patterns = tuple(_canonical_pattern(p) for p in query.patterns)
        self.content: set[Triple] = set()
        self.window_contents: list[set[Triple]] = [set() for _ in query.named_windows]
        # each pattern's graph: the default graph (static, or everything with one window) or its window's
        self.graphs: list[set[Triple]] | None = None
        if query.named_windows:
            self.graphs = [self.content if k is None else self.window_contents[k] for k in query.pattern_windows]

    def update(self, added: Iterable[Triple], removed: Iterable[Triple], window: int | None = None) -> None:
        """Add and remove triples in the default graph (``window``: that named window's graph)."""
        content = self.content if window is None else self.window_contents[window]
        content.difference_update(removed)
        content.update(added)

    def set_content(self, triples: Iterable[Triple]) -> None:
        """Make the graph hold exactly ``triples``."""
        self.content.clear()
        self.content.update(triples)

    def set_graphs(self, static: Iterable[Triple], windows: Sequence[Iterable[Triple]]) -> None:
        """Make the static graph and each named window's graph hold exactly the given triples."""
        self.set_content(static)
        for content, triples in zip(self.window_contents, windows, strict=True):
            content.clear()
            content.update(triples)

    def answers(self) -> frozenset[Mapping]:
        """M over the current graph: the set of full mappings in the query's variable order."""
        answers = set()
        for binding in match_patterns(self.patterns, self.content, self.graphs):
            if all(filter_holds(expr, binding) for expr in self.query.filters):
                answers.add(tuple(binding[v] for v in self.query.variables))
        return frozenset(answers)


def evaluate(query: ContinuousQuery, triples: Iterable[Triple]) -> frozenset[Mapping]:
    """M over the graph ``triples`` by the plain oracle."""
    oracle = PlainOracle(query)
    oracle.set_content(triples)
    return oracle.answers()
