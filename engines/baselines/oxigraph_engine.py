"""The peer a user would pick: a pyoxigraph store holding the window, queried with SPARQL after every event.

Known divergence, kept visible by a test: oxigraph canonicalises numeric literals on load
(``"01"^^xsd:integer`` is stored as ``"1"^^xsd:integer``), so it cannot keep two input terms
apart that RDF 1.1 holds distinct but equal in value. Answers map back to the input spelling of
the last such term loaded; streams without such pairs get exact answers.

A query over named windows keeps window k in the named graph ``urn:cgpm:window:k`` (each closed on its
own under rdfs) and the static graph in the default graph, and its SPARQL reads them with GRAPH.

The store follows the window by difference; ``common.oxigraph_store.CopyingStore`` keeps pyoxigraph's old
versions of removed quads from piling up (without it an event's query would cost O(stream)). When it copies,
the term caches are cut to the live terms too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pyoxigraph as ox

from common.oxigraph_store import CopyingStore
from engines.model.sparql_text import select_all_text, sparql_variable
from engines.model.stream import WINDOW_GRAPH, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.model.terms import literal_parts
from engines.named_windows import NamedWindowsState
from engines.protocol import Capabilities
from engines.rdfs import ClosureCounter, Schema
from engines.window_state import WindowState

_DEFAULT_GRAPH = ox.DefaultGraph()
_PROBE = ox.NamedNode("urn:cgpm:probe")


class OxigraphEngine:
    name = "oxigraph"
    capabilities = Capabilities(
        windows=frozenset({"sliding", "event", "unbounded"}),
        deletions=True,
        entailment=frozenset({"none", "rdfs"}),
        static=True,
        filters=True,
        streams=64,  # no limit of its design, as reeval's
    )

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        self.query = query
        self.store = CopyingStore()
        self.named = bool(query.named_windows)
        self.window = NamedWindowsState(query.named_windows) if self.named else WindowState(query.window)
        closed_with = Schema(schema) if query.entailment == "rdfs" else None
        self.closure = ClosureCounter(closed_with) if closed_with else None
        # named windows: one graph and closure each; the static graph alone in the default graph, with its own
        self.graphs = [ox.NamedNode(f"{WINDOW_GRAPH}{k}") for k in range(len(query.named_windows))]
        self.closures = [ClosureCounter(closed_with) if closed_with else None for _ in self.graphs]
        self.sparql = select_all_text(query)
        self.solution_variables = [ox.Variable(sparql_variable(v)[1:]) for v in query.variables]
        self.to_input: dict[object, str] = {}
        self._to_store: dict[str, object] = {}
        self.current: set[Mapping] = set()
        self._first = True
        # static triples are in every instant's graph: the stream's updates to them change D, never G
        self.static = frozenset(static)
        self._load(set(self.static), add=True, closure=self.closure)

    def _term(self, term: str, *, inserted: bool):
        """The store's term for an input term; ``inserted``: the input spelling answers show from now on.

        oxigraph merges literals of one value (``"01"`` and ``"1"`` as xsd:integer); an answer holding the
        merged term shows the spelling of the latest insertion that carried it. The conversion cache only
        saves work: the spelling is recorded on every insertion, cached or not."""
        converted = self._to_store.get(term)
        if converted is None:
            if term[0] == "<":
                converted = ox.NamedNode(term[1:-1])
            elif term[0] == "_":
                converted = ox.BlankNode(term[2:])
            else:
                lexical, datatype, lang = literal_parts(term)
                if lang:
                    converted = ox.Literal(lexical, language=lang)
                elif datatype:
                    converted = self._as_stored(ox.Literal(lexical, datatype=ox.NamedNode(datatype)))
                else:
                    converted = ox.Literal(lexical)
            self._to_store[term] = converted
        if inserted:  # removals only meet terms an insertion recorded: the window removes what it added
            self.to_input[converted] = term
        return converted

    @staticmethod
    def _as_stored(literal):
        """The literal as the store gives it back (oxigraph canonicalises typed literals on insert).

        A fresh store each time (0.6 us): one store cleared after each probe would keep every probe's old version."""
        scratch = ox.Store()
        scratch.add(ox.Quad(_PROBE, _PROBE, literal, _DEFAULT_GRAPH))
        return next(iter(scratch)).object

    def _load(self, triples: set[Triple], *, add: bool, closure, graph=_DEFAULT_GRAPH) -> None:
        if closure is not None:
            triples = closure.add(triples) if add else closure.remove(triples)
        for s, p, o in triples:
            quad = ox.Quad(self._term(s, inserted=add), self._term(p, inserted=add), self._term(o, inserted=add),
                           graph)
            if add:
                self.store.add(quad)
            else:
                self.store.remove(quad)

    def _copy_if_due(self) -> None:
        live = self.store.copy_if_due()
        if live is None:
            return
        terms = {term for quad in live for term in (quad.subject, quad.predicate, quad.object)}
        # an answer only holds terms of live quads: the spellings of the others can go, and the cache is rebuilt
        self.to_input = {term: spelling for term, spelling in self.to_input.items() if term in terms}
        self._to_store = {}

    def push(self, event: Event) -> Delta:
        if self.named:
            changes = self.window.advance(event)
            if not (self._first or any(added or removed for added, removed in changes)):
                return Delta()
            for graph, closure, (added, removed) in zip(self.graphs, self.closures, changes):
                self._load(removed, add=False, closure=closure, graph=graph)
                self._load(added, add=True, closure=closure, graph=graph)
            self._first = False
            self._copy_if_due()
            return self._evaluate()
        added, removed = self.window.advance(event)
        if self.static:  # the store is a set: deleting a static triple that the stream also held would drop it
            added, removed = added - self.static, removed - self.static
        if not (added or removed or self._first):
            return Delta()
        self._first = False  # before the first event M is empty, so static-only answers appear at the first
        self._load(removed, add=False, closure=self.closure)
        self._load(added, add=True, closure=self.closure)
        self._copy_if_due()
        return self._evaluate()

    def _evaluate(self) -> Delta:
        to_input = self.to_input
        answers = {
            tuple(to_input.get(solution[v]) or str(solution[v]) for v in self.solution_variables)
            for solution in self.store.query(self.sparql)
        }
        delta = Delta.between(self.current, answers)
        self.current = answers
        return delta

    def answers(self) -> Counter[Mapping]:
        return Counter(self.current)

    def stats(self) -> dict[str, int]:
        return {"window_triples": len(self.window), "store_quads": len(self.store), "answers": len(self.current)}
