"""The RDFS closure of DESIGN.md section 2, computed by owlrl and cut down to exactly the named rules.

The regime: the data is closed under rdfs2 (domain), rdfs3 (range), rdfs7 (subPropertyOf),
rdfs9 (subClassOf), inv2 (owl:inverseOf) and sym (owl:SymmetricProperty), using the schema closed
under rdfs5, rdfs11 and inv1 (Sparkwave, Tables 1-2). Schema triples are never data, and data
triples never act as schema, whatever their predicate. Rules run over generalized triples (RDF 1.1
Semantics): a literal may stand in subject position while rules chain, so ``<x> <p> "v"`` with
``p owl:inverseOf q`` and ``q rdfs:range C`` entails ``<x> rdf:type C``; the closure returned keeps
only real RDF triples (no literal subject, an IRI predicate).

owlrl (OWL 2 RL mode: rdfs mode lacks owl:inverseOf and owl:SymmetricProperty) does the closing.
It does much more than these rules, so its input is prepared so that nothing else can fire:

- only schema triples of the six kinds are given (subClassOf, subPropertyOf, domain, range,
  inverseOf, ``p rdf:type owl:SymmetricProperty``);
- every term except ``rdf:type`` is renamed to a fresh IRI, except the schema vocabulary in its
  structural place in those schema triples. Data triples using ``rdfs:subClassOf`` therefore stay
  data, literals cannot trigger datatype rules (owlrl equates ``"01"`` and ``"1"``), and owlrl's
  own vocabulary (owl:Thing, owl:sameAs, rdfs:Resource, axioms) is told apart from the user's;
- of the output, only triples made of renamed terms and rdf:type are kept, then renamed back.

A schema giving rules to rdf:type itself (``rdf:type rdfs:subPropertyOf cat``, a domain, range or
inverse of rdf:type, rdf:type symmetric) needs more: owlrl types things with the real rdf:type
internally (``C rdf:type owl:Class``), and those triples would feed the rules. For such a schema the
user's ``rdf:type`` is renamed too, to a fresh property T, and class membership reaches owlrl's
rdf:type (which rdfs9, rdfs2 and rdfs3 need) through one restriction per schema class,
``R_c = hasValue(T, c)``: ``x T c`` gives ``x rdf:type R_c`` (cls-hv2), ``c rdfs:subClassOf d`` is
given as ``R_c rdfs:subClassOf R_d`` (cax-sco, scm-sco: rdfs9, rdfs11), a domain or range ``c`` as
``R_c`` (prp-dom, prp-rng: rdfs2, rdfs3), and ``x rdf:type R_c`` gives back ``x T c`` (cls-hv1).
Only T triples come back as the user's rdf:type, so the rules on rdf:type see exactly the user's type
triples, entailed ones included, and never owlrl's. Other schemas keep rdf:type as itself
(``isA rdfs:subPropertyOf rdf:type`` needs nothing more), as the restrictions slow owlrl down on large
schemas (one run each over 300 BSBM offers, 329 classes, under load: 620 s with them, 146 s without).

The rules have one data premise each, so the closure of a graph is the union of the closures of
its triples, and the closure of one triple commutes with renaming the terms the schema does not
mention. ``Entailer`` uses that: it runs owlrl once per triple *shape* (the triple with its
non-schema terms replaced by slots) and caches the result, which keeps the oracle fast on streams;
the closures of recent triples are cached too, up to ``PER_TRIPLE_CACHE`` of them, so a long stream is not.
``owlrl_closure`` runs owlrl once over a whole graph; the tests check both against a plain
forward chainer of the named rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.model.stream import Triple
from oracles.nterms import OWL, RDF_TYPE, RDFS

SUB_CLASS_OF = f"<{RDFS}subClassOf>"
SUB_PROPERTY_OF = f"<{RDFS}subPropertyOf>"
DOMAIN = f"<{RDFS}domain>"
RANGE = f"<{RDFS}range>"
INVERSE_OF = f"<{OWL}inverseOf>"
SYMMETRIC_PROPERTY = f"<{OWL}SymmetricProperty>"
SCHEMA_PREDICATES = frozenset({SUB_CLASS_OF, SUB_PROPERTY_OF, DOMAIN, RANGE, INVERSE_OF})

_FRESH = "urn:x-cgpm-oracle:t"
_CLASS = "urn:x-cgpm-oracle:class"
_SLOT = "\x00slot"
PER_TRIPLE_CACHE = 1 << 16  # closures kept by triple; the shapes' (owlrl's runs) are kept whole, a few per schema term


def schema_rules(schema: Iterable[Triple]) -> tuple[Triple, ...]:
    """The schema triples the named rules read (the six kinds), in a stable order, duplicates removed."""
    kept = {
        triple
        for triple in schema
        if triple[1] in SCHEMA_PREDICATES or (triple[1] == RDF_TYPE and triple[2] == SYMMETRIC_PROPERTY)
    }
    return tuple(sorted(kept))


def schema_terms(rules: Iterable[Triple]) -> frozenset[str]:
    """Terms the schema says something about: those that must stay themselves when a triple is reduced to a shape."""
    terms = {RDF_TYPE}
    for s, p, o in rules:
        terms.add(s)
        if p != RDF_TYPE:
            terms.add(o)
    return frozenset(terms)


def _is_rdf_triple(triple: Triple) -> bool:
    s, p, _ = triple
    return s[0] != '"' and p[0] == "<"


def gives_rules_to_rdf_type(rules: Iterable[Triple]) -> bool:
    """Whether rdf:type has rules of its own: it is a rule's subject, or the inverse of a property (inv1)."""
    return any(s == RDF_TYPE or (p == INVERSE_OF and o == RDF_TYPE) for s, p, o in rules)


class _Renaming:
    """A bijection between the user's terms and fresh IRIs; rdf:type maps to itself unless ``rename_type``."""

    def __init__(self, rename_type: bool) -> None:
        from rdflib import RDF as RDFNS

        self.to_fresh: dict[str, object] = {} if rename_type else {RDF_TYPE: RDFNS.type}
        self.from_fresh: dict[object, str] = {} if rename_type else {RDFNS.type: RDF_TYPE}

    def __call__(self, term: str):
        fresh = self.to_fresh.get(term)
        if fresh is None:
            from rdflib import URIRef

            fresh = URIRef(f"{_FRESH}{len(self.to_fresh)}")
            self.to_fresh[term] = fresh
            self.from_fresh[fresh] = term
        return fresh


def _schema_graph(graph, rules: Iterable[Triple], rename: _Renaming, restrict_classes: bool) -> None:
    """Add the renamed rules to ``graph``; with ``restrict_classes``, each schema class as ``hasValue(T, c)``."""
    from rdflib import OWL as OWLNS
    from rdflib import RDF as RDFNS
    from rdflib import URIRef

    restrictions: dict[str, object] = {}

    def as_class(cls: str):
        if not restrict_classes:
            return rename(cls)
        if cls not in restrictions:
            node = URIRef(f"{_CLASS}{len(restrictions)}")
            restrictions[cls] = node
            graph.add((node, OWLNS.onProperty, rename(RDF_TYPE)))
            graph.add((node, OWLNS.hasValue, rename(cls)))
        return restrictions[cls]

    for s, p, o in rules:
        if p == SUB_CLASS_OF:
            graph.add((as_class(s), URIRef(p[1:-1]), as_class(o)))
        elif p in (DOMAIN, RANGE):
            graph.add((rename(s), URIRef(p[1:-1]), as_class(o)))
        elif p == RDF_TYPE:  # p rdf:type owl:SymmetricProperty: owlrl's own rdf:type
            graph.add((rename(s), RDFNS.type, URIRef(o[1:-1])))
        else:  # subPropertyOf, inverseOf
            graph.add((rename(s), URIRef(p[1:-1]), rename(o)))


def _owlrl_run(data: Iterable[Triple], rules: Sequence[Triple]) -> set[Triple]:
    """owlrl's OWL 2 RL closure of renamed data and schema, cut to the triples of user terms, renamed back."""
    import owlrl
    from rdflib import Graph

    type_has_rules = gives_rules_to_rdf_type(rules)
    rename = _Renaming(rename_type=type_has_rules)
    graph = Graph()
    _schema_graph(graph, rules, rename, restrict_classes=type_has_rules)
    for s, p, o in data:
        graph.add((rename(s), rename(p), rename(o)))
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics, axiomatic_triples=False, datatype_axioms=False).expand(graph)
    back = rename.from_fresh
    closed = set()
    for s, p, o in graph:
        if s in back and p in back and o in back:
            triple = (back[s], back[p], back[o])
            if _is_rdf_triple(triple):
                closed.add(triple)
    return closed


def owlrl_closure(data: Iterable[Triple], schema: Iterable[Triple]) -> frozenset[Triple]:
    """The closure of ``data`` under the named rules, by one owlrl run over the whole graph."""
    data = set(data)
    return frozenset(_owlrl_run(data, schema_rules(schema)) | data)


class Entailer:
    """Closes graphs under the named rules for one schema, running owlrl once per triple shape."""

    def __init__(self, schema: Iterable[Triple]) -> None:
        self.rules = schema_rules(schema)
        self.kept_terms = schema_terms(self.rules)
        self.type_has_rules = gives_rules_to_rdf_type(self.rules)  # then they fire on every type triple
        self._shapes: dict[tuple, tuple[Triple, ...]] = {}
        self._per_triple: dict[Triple, tuple[Triple, ...]] = {}
        self.owlrl_runs = 0

    def _shape(self, triple: Triple) -> tuple[tuple[str, str, str], list[str]]:
        slots: list[str] = []
        shape = []
        for term in triple:
            if term in self.kept_terms:
                shape.append(term)
            else:
                if term not in slots:
                    slots.append(term)
                shape.append(f"{_SLOT}{slots.index(term)}")
        return tuple(shape), slots

    def triple_closure(self, triple: Triple) -> tuple[Triple, ...]:
        """Every RDF triple entailed by ``triple`` alone (itself included)."""
        cached = self._per_triple.get(triple)
        if cached is not None:
            return cached
        s, p, o = triple
        if p not in self.kept_terms or (p == RDF_TYPE and o not in self.kept_terms and not self.type_has_rules):
            # No rule has a premise this triple can match: the schema says nothing of p (nor, for rdf:type, of o,
            # and rdf:type has no rules of its own).
            result: tuple[Triple, ...] = (triple,)
        else:
            shape, slots = self._shape(triple)
            template = self._shapes.get(shape)
            if template is None:
                self.owlrl_runs += 1
                # Slots become placeholder IRIs inside owlrl; the renaming keeps them apart from user terms.
                template = tuple(sorted(_owlrl_run([shape], self.rules)))
                self._shapes[shape] = template
            fill = {f"{_SLOT}{i}": term for i, term in enumerate(slots)}
            result = tuple({
                filled
                for filled in ((fill.get(a, a), fill.get(b, b), fill.get(c, c)) for a, b, c in template)
                if _is_rdf_triple(filled)
            } | {triple})
        if len(self._per_triple) >= PER_TRIPLE_CACHE:
            self._per_triple.clear()  # a stream's triples pass once: a cache of them all would hold the stream
        self._per_triple[triple] = result
        return result

    def close(self, triples: Iterable[Triple]) -> frozenset[Triple]:
        """The closure of a graph: the union of its triples' closures."""
        closed: set[Triple] = set()
        for triple in triples:
            closed.update(self.triple_closure(triple))
        return frozenset(closed)
