"""N concurrent copies of one query, as LSBench and CityBench make them: the same pattern, its constants redrawn from the stream's own terms, seeded.

Copy 0 is the query itself. In copy k (k >= 1) each constant subject or object IRI of a pattern
with a constant predicate (not the class of an ``rdf:type`` pattern, which names what the query is
about) is replaced by a term that occurs in that position of that predicate in the stream (its
first ``max_events`` events and its static data): the candidates, sorted, are shuffled once by
``random.Random(seed)``, and copy k takes the k-th (cycling when there are fewer than copies). So
every copy asks about something the stream holds, the copies differ where the stream allows, and
the same stream, query, count and seed give the same copies. A query without such constants is
copied as it is (N identical queries). Copies are named ``NAME@k`` and parsed from rewritten text,
so an oracle reading the text sees the copy.
"""

from __future__ import annotations

import random
from dataclasses import replace

from common.errors import ConfigError
from engines.model.query import parse_query
from engines.model.stream import ContinuousQuery, is_variable
from engines.rdfs import RDF_TYPE

Slot = tuple[str, int, str]  # (predicate, position 0 or 2, the constant there)


def redrawable_slots(query: ContinuousQuery) -> list[Slot]:
    """The constants a copy redraws, in pattern order, each once."""
    slots: list[Slot] = []
    for pattern in query.patterns:
        predicate = pattern[1]
        if is_variable(predicate):
            continue
        for position in (0, 2):
            term = pattern[position]
            if is_variable(term) or not term.startswith("<") or (predicate == RDF_TYPE and position == 2):
                continue
            if (predicate, position, term) not in slots:
                slots.append((predicate, position, term))
    return slots


def _candidates(stream, slots: list[Slot]) -> dict[Slot, list[str]]:
    """Per slot, the IRIs the stream holds at that position of that predicate, sorted."""
    wanted: dict[str, list[Slot]] = {}
    for slot in slots:
        wanted.setdefault(slot[0], []).append(slot)
    found: dict[Slot, set[str]] = {slot: set() for slot in slots}
    triples = [triple for triple in stream.static]
    for event in stream.events:
        triples.extend(update.triple for update in event.updates if update.p in wanted)
        for triple in triples:
            for slot in wanted.get(triple[1], ()):
                term = triple[slot[1]]
                if term.startswith("<"):
                    found[slot].add(term)
        triples = []
    return {slot: sorted(terms) for slot, terms in found.items()}


def query_copies(query: ContinuousQuery, count: int, stream, *, seed: int = 0) -> list[ContinuousQuery]:
    """``count`` copies of ``query`` (the first is ``query``), constants redrawn from ``stream``'s terms with ``seed``."""
    if count < 1:
        raise ConfigError(f"the number of concurrent queries must be at least 1, got {count}")
    slots = redrawable_slots(query)
    if count == 1 or not slots:
        return [query] + [replace(query, name=f"{query.name}@{k}") for k in range(1, count)]
    for _, _, term in slots:
        if term not in query.text:
            raise ConfigError(f"query {query.name}: its constant {term} is written with a prefix; copies need it in full")
    drawn: dict[Slot, list[str]] = {}
    for number, (slot, terms) in enumerate(_candidates(stream, slots).items()):
        others = [term for term in terms if term != slot[2]] or [slot[2]]
        random.Random(seed * 1000 + number).shuffle(others)
        drawn[slot] = others
    copies = [query]
    for k in range(1, count):
        text = query.text
        for slot in slots:
            terms = drawn[slot]
            text = text.replace(slot[2], terms[(k - 1) % len(terms)])
        window = None if query.named_windows else query.window  # named windows: the text declares them
        copies.append(parse_query(text, window=window, entailment=query.entailment, name=f"{query.name}@{k}"))
    return copies
