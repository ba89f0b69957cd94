"""A forward-chained closure of data under the univ-bench axioms the 14 LUBM queries rely on, for tests only.

owlrl computes the full OWL-RL closure too, but takes over a minute on LUBM(1); this applies only
the OWL-RL rules the ontology's axioms trigger, read from the schema triples themselves:
subClassOf and subPropertyOf (transitively), domain and range, inverseOf, TransitiveProperty, and
class definitions by ``owl:intersectionOf`` of named classes and ``someValuesFrom`` restrictions
(both directions, cls-int1 and cls-int2). Switch to ``oracles.entailment`` when it covers these.
"""

from __future__ import annotations

from collections import defaultdict

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
TYPE = f"<{RDF}type>"
FIRST, REST, NIL = f"<{RDF}first>", f"<{RDF}rest>", f"<{RDF}nil>"
SUBCLASS, SUBPROPERTY = f"<{RDFS}subClassOf>", f"<{RDFS}subPropertyOf>"
DOMAIN, RANGE = f"<{RDFS}domain>", f"<{RDFS}range>"
INVERSE, TRANSITIVE = f"<{OWL}inverseOf>", f"<{OWL}TransitiveProperty>"
INTERSECTION, ON_PROPERTY, SOME = f"<{OWL}intersectionOf>", f"<{OWL}onProperty>", f"<{OWL}someValuesFrom>"


def _ancestors(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Reflexive-transitive closure of a child -> parents relation."""
    result = {}
    for start in list(edges):
        seen, stack = {start}, [start]
        while stack:
            for parent in edges.get(stack.pop(), ()):
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        result[start] = seen
    return result


def _read_list(head: str, by_subject: dict[str, dict[str, list[str]]]) -> list[str]:
    items = []
    while head != NIL:
        items.append(by_subject[head][FIRST][0])
        head = by_subject[head][REST][0]
    return items


def closure(data: set[tuple[str, str, str]], schema: list[tuple[str, str, str]], *, owl: bool = True) -> set[tuple[str, str, str]]:
    """``data`` closed under the univ-bench axioms in ``schema`` (schema triples are not added).

    ``owl=False`` keeps only what the project's ``rdfs`` regime applies (DESIGN.md section 2:
    subclass, subproperty, domain, range, inverses), without transitivity or class definitions.
    """
    by_subject: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for s, p, o in schema:
        by_subject[s][p].append(o)
    superclasses = _ancestors({s: set(ps[SUBCLASS]) for s, ps in by_subject.items() if not s.startswith("_:")})
    superproperties = _ancestors({s: set(ps[SUBPROPERTY]) for s, ps in by_subject.items() if ps[SUBPROPERTY]})
    domains = {s: ps[DOMAIN] for s, ps in by_subject.items() if ps[DOMAIN]}
    ranges = {s: ps[RANGE] for s, ps in by_subject.items() if ps[RANGE]}
    inverses = defaultdict(set)
    for s, ps in by_subject.items():
        for o in ps[INVERSE]:
            inverses[s].add(o)
            inverses[o].add(s)
    transitive = {s for s, ps in by_subject.items() if TRANSITIVE in ps[TYPE]} if owl else set()
    definitions = []  # (class, named member classes, [(property, filler class)])
    for s, ps in by_subject.items():
        for head in ps[INTERSECTION]:
            named, restrictions = [], []
            for member in _read_list(head, by_subject):
                if member.startswith("_:"):
                    restrictions.append((by_subject[member][ON_PROPERTY][0], by_subject[member][SOME][0]))
                else:
                    named.append(member)
            if owl:
                definitions.append((s, named, restrictions))

    facts = set(data)
    while True:
        types = defaultdict(set)
        successors = defaultdict(lambda: defaultdict(set))  # property -> subject -> objects
        for s, p, o in facts:
            if p == TYPE:
                types[s].add(o)
            else:
                successors[p][s].add(o)
        new = set()
        for p, by_subject_objects in successors.items():
            pairs = [(s, o) for s, objects in by_subject_objects.items() for o in objects]
            for q in superproperties.get(p, ()):
                new.update((s, q, o) for s, o in pairs)
            for q in inverses.get(p, ()):
                new.update((o, q, s) for s, o in pairs)
            if p in transitive:
                for s, o in pairs:
                    new.update((s, p, far) for far in by_subject_objects.get(o, ()))
            for c in domains.get(p, ()):
                new.update((s, TYPE, c) for s, _ in pairs)
            for c in ranges.get(p, ()):
                new.update((o, TYPE, c) for _, o in pairs if not o.startswith('"'))
        for s, classes in types.items():
            for c in classes:
                new.update((s, TYPE, sup) for sup in superclasses.get(c, ()))
        for defined, named, restrictions in definitions:
            for s, classes in types.items():
                if defined in classes:
                    new.update((s, TYPE, member) for member in named)
                elif all(member in classes for member in named) and all(
                    any(filler in types.get(o, ()) for o in successors.get(p, {}).get(s, ()))
                    for p, filler in restrictions
                ):
                    new.add((s, TYPE, defined))
        new -= facts
        if not new:
            return facts
        facts |= new
