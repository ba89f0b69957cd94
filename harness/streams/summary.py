"""What ``cgpm stream info`` reports: counts, time span and predicates of a stream, computed in one pass.

Per predicate it counts two things and names both: ``predicates`` counts update rows (every insert
and every delete, a repeated triple each time), ``predicate_triples`` the distinct triples (what
``cgpm stats`` counts, over inserts only there).
"""

from __future__ import annotations

from collections import Counter

from engines.model.stream import DELETE, Stream


def stream_summary(stream: Stream) -> dict:
    """Events, updates (inserts, deletes), distinct triples, time span and predicate counts of ``stream``."""
    predicates: Counter[str] = Counter()
    triples = set()
    deletes = 0
    for event in stream.events:
        for update in event.updates:
            predicates[update.p] += 1
            triples.add(update.triple)
            deletes += update.op == DELETE
    updates = sum(predicates.values())
    first = stream.events[0].ts if stream.events else None
    last = stream.events[-1].ts if stream.events else None
    return {
        "events": len(stream.events),
        "updates": updates,
        "inserts": updates - deletes,
        "deletes": deletes,
        "distinct_triples": len(triples),
        "first_ts": first,
        "last_ts": last,
        "span_ms": None if first is None else last - first,
        "distinct_timestamps": len({event.ts for event in stream.events}),
        "max_event_size": max((len(event.updates) for event in stream.events), default=0),
        "distinct_predicates": len(predicates),
        "predicates": dict(sorted(predicates.items(), key=lambda item: (-item[1], item[0]))),
        "predicate_triples": dict(sorted(Counter(triple[1] for triple in triples).items(),
                                         key=lambda item: (-item[1], item[0]))),
        "static_triples": len(stream.static),
        "schema_triples": len(stream.schema),
        "provenance": stream.provenance,
    }
