"""The ε-network (sections 3.3-3.4): every triple the schema entails from one triple, by following links between nodes.

Built once from ``schema.nt`` and the query's patterns; stateless per triple afterwards.

- Nodes (3.3): a *property node* ``(? p ?)`` per property, a *class node* ``(? rdf:type c)`` per class.
- Links: an S-link (subject to a class node: rdfs9 from a class node, rdfs2 from a property node),
  an O-link (object to a class node: rdfs3), an SO-link (subject and object to a property node:
  rdfs7) and an OS-link (swapped: owl:inverseOf, inv2, and owl:SymmetricProperty, a link to itself).
- Schema-only rules run here, at build time: rdfs11 and rdfs5 close the hierarchies (so a link
  goes straight to every ancestor, the paper's "flattening"), inv1 makes each inverse link a pair.
- Pre-processing (3.4): only nodes from which a *target* can be reached are built. The targets are
  what the patterns test: the property node of each constant predicate, the class node of each
  constant class of an ``rdf:type`` pattern; a variable predicate (or class) makes every property
  (or class) a target. This is the paper's rule (pattern classes and their subclasses; pattern
  properties, their subproperties, properties whose domain or range is relevant, inverses of
  relevant properties) computed as reachability, so chains through inverses of subproperties with
  a relevant range are kept. Hierarchy links are kept only towards nodes that matter beyond the
  hierarchy itself: a class link only to a class a pattern tests (with closed hierarchies, an
  intermediate class adds nothing), a property link only to a property that is a target or has
  domain, range, inverse or symmetric links of its own.

``closure(triple)`` walks the links from the triple's nodes with a seen-set (cycles in the schema
are fine). Rules chain over generalized triples (a literal may stand as a subject on the way, as in
``engines.rdfs`` and the oracle) but only real triples leave the network. Each result carries the
alpha nodes its entry node is wired to (the paper's direct ε-to-α links); a triple that enters no
ε node goes through the alpha root.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from engines.model.stream import Triple, TriplePattern, is_variable
from engines.rdfs import DOMAIN, INVERSE, RANGE, RDF_TYPE, SUBCLASS, SUBPROPERTY, SYMMETRIC

PROPERTY, CLASS = "P", "C"
Node = tuple[str, str]  # (PROPERTY, p) or (CLASS, c)


def _ancestors(parents: dict[str, set[str]]) -> dict[str, set[str]]:
    """rdfs5 / rdfs11: the transitive closure of a hierarchy (a node is its own ancestor only on a cycle)."""
    closed = {}
    for start in parents:
        seen: set[str] = set()
        stack = list(parents[start])
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.add(node)
                stack.extend(parents.get(node, ()))
        closed[start] = seen
    return closed


class SchemaAxioms:
    """The schema read into the six kinds of axioms, closed under rdfs5, rdfs11 and inv1."""

    def __init__(self, schema: Iterable[Triple]) -> None:
        subclass, subproperty = defaultdict(set), defaultdict(set)
        self.domain: dict[str, set[str]] = defaultdict(set)
        self.range: dict[str, set[str]] = defaultdict(set)
        self.inverse: dict[str, set[str]] = defaultdict(set)
        self.symmetric: set[str] = set()
        for s, p, o in schema:
            if p == SUBCLASS:
                subclass[s].add(o)
            elif p == SUBPROPERTY:
                subproperty[s].add(o)
            elif p == DOMAIN:
                self.domain[s].add(o)
            elif p == RANGE:
                self.range[s].add(o)
            elif p == INVERSE:
                self.inverse[s].add(o)
                self.inverse[o].add(s)  # inv1
            elif p == RDF_TYPE and o == SYMMETRIC:
                self.symmetric.add(s)
        self.superclasses = _ancestors(subclass)
        self.superproperties = _ancestors(subproperty)
        self.classes = set(subclass) | {c for cs in subclass.values() for c in cs}
        self.classes |= {c for cs in self.domain.values() for c in cs} | {c for cs in self.range.values() for c in cs}
        self.properties = set(subproperty) | {q for qs in subproperty.values() for q in qs}
        self.properties |= set(self.domain) | set(self.range) | set(self.inverse) | self.symmetric

    def edges(self) -> dict[Node, set[Node]]:
        """Every link of the full network before pre-processing, hierarchies closed."""
        edges: dict[Node, set[Node]] = defaultdict(set)
        for c, supers in self.superclasses.items():
            edges[CLASS, c] |= {(CLASS, d) for d in supers}
        for p in self.properties:
            node = (PROPERTY, p)
            edges[node] |= {(PROPERTY, q) for q in self.superproperties.get(p, ())}
            edges[node] |= {(CLASS, c) for c in self.domain.get(p, set()) | self.range.get(p, set())}
            edges[node] |= {(PROPERTY, q) for q in self.inverse.get(p, ())}
            if p in self.symmetric:
                edges[node].add(node)
        # a type triple is also a triple of the property rdf:type, and the reverse
        if RDF_TYPE in self.properties:
            for c in self.classes:
                edges[PROPERTY, RDF_TYPE].add((CLASS, c))
                edges[CLASS, c].add((PROPERTY, RDF_TYPE))
        return edges


def targets(axioms: SchemaAxioms, patterns: Sequence[TriplePattern]) -> set[Node]:
    """The nodes whose triples the patterns can test."""
    wanted: set[Node] = set()
    every_class = {(CLASS, c) for c in axioms.classes}
    for _, p, o in patterns:
        if is_variable(p):
            wanted |= {(PROPERTY, q) for q in axioms.properties} | every_class
        elif p == RDF_TYPE:
            wanted |= every_class if is_variable(o) else {(CLASS, o)}
            wanted.add((PROPERTY, RDF_TYPE))
        else:
            wanted.add((PROPERTY, p))
    return wanted


def reaching(edges: dict[Node, set[Node]], goal: set[Node]) -> set[Node]:
    """The nodes from which some node of ``goal`` can be reached (``goal`` included)."""
    reverse: dict[Node, set[Node]] = defaultdict(set)
    for source, sinks in edges.items():
        for sink in sinks:
            reverse[sink].add(source)
    seen = set(goal)
    stack = list(goal)
    while stack:
        for source in reverse.get(stack.pop(), ()):
            if source not in seen:
                seen.add(source)
                stack.append(source)
    return seen


class EpsilonNode:
    """One property or class node and its outgoing links (terms of the nodes they lead to)."""

    __slots__ = ("kind", "term", "s_links", "o_links", "so_links", "os_links", "alpha")

    def __init__(self, kind: str, term: str) -> None:
        self.kind, self.term = kind, term
        self.s_links: tuple[str, ...] = ()
        self.o_links: tuple[str, ...] = ()
        self.so_links: tuple[str, ...] = ()
        self.os_links: tuple[str, ...] = ()
        self.alpha: tuple = ()  # the alpha nodes this node's triples may pass (wired by the engine)

    @property
    def link_count(self) -> int:
        return len(self.s_links) + len(self.o_links) + len(self.so_links) + len(self.os_links)


class EpsilonNetwork:
    """Nodes and links for one schema and one query; ``closure`` gives what one triple entails, itself included."""

    def __init__(self, schema: Iterable[Triple], patterns: Sequence[TriplePattern]) -> None:
        axioms = SchemaAxioms(schema)
        edges = axioms.edges()
        goal = targets(axioms, patterns)
        kept = reaching(edges, goal)
        type_has_links = (PROPERTY, RDF_TYPE) in kept and bool(
            axioms.superproperties.get(RDF_TYPE) or axioms.domain.get(RDF_TYPE) or axioms.range.get(RDF_TYPE)
            or axioms.inverse.get(RDF_TYPE) or RDF_TYPE in axioms.symmetric
        )
        # hierarchy links lead only to nodes that do something beyond the hierarchy (flattening)
        useful_classes = {c for kind, c in kept if kind == CLASS and ((CLASS, c) in goal or type_has_links)}
        # rdf:type's node also feeds the class nodes (rdfs9), so a link to it is useful whenever it has links of its
        # own, a super-property among them: ``isA ⊑ rdf:type ⊑ cat`` needs ``x rdf:type A`` to reach A's superclasses
        useful_properties = {
            p for kind, p in kept if kind == PROPERTY and (
                (PROPERTY, p) in goal or axioms.domain.get(p) or axioms.range.get(p) or axioms.inverse.get(p)
                or p in axioms.symmetric or (p == RDF_TYPE and type_has_links)
            )
        }
        self.properties: dict[str, EpsilonNode] = {}
        self.classes: dict[str, EpsilonNode] = {}
        linked = {sink for source in kept for sink in edges.get(source, ()) if sink in kept}
        for kind, term in kept:
            if not edges.get((kind, term)) and (kind, term) not in linked:
                continue  # a target nothing links to or from: its triples need no ε node
            (self.properties if kind == PROPERTY else self.classes)[term] = EpsilonNode(kind, term)
        for c, node in self.classes.items():
            node.s_links = tuple(sorted(d for d in axioms.superclasses.get(c, ()) if d in useful_classes))
        for p, node in self.properties.items():
            node.so_links = tuple(sorted(q for q in axioms.superproperties.get(p, ()) if q in useful_properties))
            node.s_links = tuple(sorted(c for c in axioms.domain.get(p, ()) if (CLASS, c) in kept))
            node.o_links = tuple(sorted(c for c in axioms.range.get(p, ()) if (CLASS, c) in kept))
            inverse = {q for q in axioms.inverse.get(p, ()) if (PROPERTY, q) in kept}
            if p in axioms.symmetric and (PROPERTY, p) in kept:
                inverse.add(p)
            node.os_links = tuple(sorted(inverse))
        self._type_node = self.properties.get(RDF_TYPE)

    def __bool__(self) -> bool:
        return any(node.link_count for node in self.nodes())

    def nodes(self) -> list[EpsilonNode]:
        return [*self.properties.values(), *self.classes.values()]

    def _entry(self, triple: Triple) -> list[EpsilonNode]:
        entered = []
        node = self.properties.get(triple[1])
        if node is not None:
            entered.append(node)
        if triple[1] == RDF_TYPE:
            node = self.classes.get(triple[2])
            if node is not None:
                entered.append(node)
        return entered

    def closure(self, triple: Triple) -> list[tuple[Triple, EpsilonNode | None]]:
        """Every real triple ``triple`` entails (itself first), each with the ε node it entered (None: the alpha root)."""
        entered = self._entry(triple)
        if not entered:
            return [(triple, None)]
        result = [(triple, entered[-1])]
        seen = {triple}
        stack = [(triple, entered)]
        while stack:
            (s, _, o), nodes = stack.pop()
            for node in nodes:
                derived = [(s, RDF_TYPE, c) for c in node.s_links]
                derived += [(o, RDF_TYPE, c) for c in node.o_links]
                derived += [(s, q, o) for q in node.so_links]
                derived += [(o, q, s) for q in node.os_links]
                for new in derived:
                    if new in seen:
                        continue
                    seen.add(new)
                    into = self._entry(new)
                    if new[0][0] != '"':  # generalized triples chain but never leave the network
                        result.append((new, into[-1] if into else None))
                    if into:
                        stack.append((new, into))
        return result

    def stats(self) -> dict[str, int]:
        return {
            "epsilon_property_nodes": len(self.properties),
            "epsilon_class_nodes": len(self.classes),
            "epsilon_links": sum(node.link_count for node in self.nodes()),
        }
