"""The RDFS subset of DESIGN.md (rdfs2, rdfs3, rdfs7, rdfs9, inv2, sym) with the schema closed under rdfs5, rdfs11, inv1.

Every data rule has exactly one data premise (the schema is fixed), so the closure of a graph is
the union of the closures of its triples: ``consequences(triple)`` is all one triple entails, and
engines can maintain the closure of a changing window by counting derivations per triple.
Rules chain over generalized triples (RDF 1.1 Semantics: a literal may stand as a subject along
the way), but only real RDF triples are returned: ``x p "v"`` with ``p owl:inverseOf q`` and
``q rdfs:range C`` entails ``x rdf:type C`` through ``"v" q x``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache

from engines.model.stream import Triple

RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
SUBCLASS = f"<{RDFS}subClassOf>"
SUBPROPERTY = f"<{RDFS}subPropertyOf>"
DOMAIN = f"<{RDFS}domain>"
RANGE = f"<{RDFS}range>"
INVERSE = f"<{OWL}inverseOf>"
SYMMETRIC = f"<{OWL}SymmetricProperty>"


def _transitive(pairs: dict[str, set[str]]) -> dict[str, frozenset[str]]:
    closed: dict[str, frozenset[str]] = {}
    for start in pairs:
        seen: set[str] = set()
        stack = list(pairs[start])
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.add(node)
                stack.extend(pairs.get(node, ()))
        closed[start] = frozenset(seen)
    return closed


class Schema:
    """The schema closed under rdfs5, rdfs11 and inv1, and the per-triple consequences it licenses."""

    def __init__(self, schema: Iterable[Triple]) -> None:
        subclass, subproperty = defaultdict(set), defaultdict(set)
        domain, range_, inverse = defaultdict(set), defaultdict(set), defaultdict(set)
        self.symmetric: set[str] = set()
        for s, p, o in schema:
            if p == SUBCLASS:
                subclass[s].add(o)
            elif p == SUBPROPERTY:
                subproperty[s].add(o)
            elif p == DOMAIN:
                domain[s].add(o)
            elif p == RANGE:
                range_[s].add(o)
            elif p == INVERSE:  # inv1: inverseOf is symmetric
                inverse[s].add(o)
                inverse[o].add(s)
            elif p == RDF_TYPE and o == SYMMETRIC:
                self.symmetric.add(s)
        self.superclasses = _transitive(subclass)
        self.superproperties = _transitive(subproperty)
        self.domain = {k: frozenset(v) for k, v in domain.items()}
        self.range = {k: frozenset(v) for k, v in range_.items()}
        self.inverse = {k: frozenset(v) for k, v in inverse.items()}
        self.consequences = lru_cache(maxsize=1 << 18)(self._consequences)

    def __bool__(self) -> bool:
        return bool(self.superclasses or self.superproperties or self.domain or self.range or self.inverse or self.symmetric)

    def _step(self, triple: Triple) -> Iterable[Triple]:
        s, p, o = triple
        if p == RDF_TYPE:
            for superclass in self.superclasses.get(o, ()):
                yield (s, RDF_TYPE, superclass)  # rdfs9
        for superproperty in self.superproperties.get(p, ()):
            yield (s, superproperty, o)  # rdfs7
        for cls in self.domain.get(p, ()):
            yield (s, RDF_TYPE, cls)  # rdfs2
        for cls in self.range.get(p, ()):
            yield (o, RDF_TYPE, cls)  # rdfs3
        for inverse in self.inverse.get(p, ()):
            yield (o, inverse, s)  # inv2
        if p in self.symmetric:
            yield (o, p, s)  # sym

    def _consequences(self, triple: Triple) -> frozenset[Triple]:
        """Every triple ``triple`` entails, itself included."""
        seen = {triple}
        stack = [triple]
        while stack:
            for derived in self._step(stack.pop()):
                if derived not in seen:
                    seen.add(derived)
                    stack.append(derived)
        return frozenset(t for t in seen if t[0][0] != '"')  # generalized triples are steps, not answers

    def close(self, graph: Iterable[Triple]) -> set[Triple]:
        closed: set[Triple] = set()
        for triple in graph:
            closed |= self.consequences(triple)
        return closed


class ClosureCounter:
    """The closure of a changing set of base triples, kept by counting how many base triples derive each triple."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.support: dict[Triple, int] = {}

    def add(self, triples: Iterable[Triple]) -> set[Triple]:
        """Add base triples; return the triples that became entailed."""
        appeared: set[Triple] = set()
        support = self.support
        for triple in triples:
            for derived in self.schema.consequences(triple):
                count = support.get(derived, 0)
                support[derived] = count + 1
                if count == 0:
                    appeared.add(derived)
        return appeared

    def remove(self, triples: Iterable[Triple]) -> set[Triple]:
        """Remove base triples; return the triples no longer entailed."""
        vanished: set[Triple] = set()
        support = self.support
        for triple in triples:
            for derived in self.schema.consequences(triple):
                count = support[derived] - 1
                if count:
                    support[derived] = count
                else:
                    del support[derived]
                    vanished.add(derived)
        return vanished
