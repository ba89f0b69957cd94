"""An obviously correct evaluator of DESIGN.md section 2 for insert-only windowed streams, for testing SPECTRA.

Window content by the definition (every event so far with ``τ_b(τ_i) <= ts <= τ_i``, or the
current event alone), the set of its triples plus the static graph, a nested-loop join over
all triples, then the FILTERs. Slow on purpose: nothing is incremental, nothing is indexed.
"""

from __future__ import annotations

from engines.model.stream import ContinuousQuery, Stream, is_variable


def window_triples(query: ContinuousQuery, stream: Stream, index: int) -> set:
    now = stream.events[index]
    if query.window.kind == "event":
        chosen = [now]
    else:
        start = query.window.start(now.ts)
        chosen = [e for e in stream.events[: index + 1] if start <= e.ts <= now.ts]
    return {u.triple for e in chosen for u in e.updates} | set(stream.static)


def _unify(pattern, triple, binding: dict) -> dict | None:
    extended = dict(binding)
    for item, term in zip(pattern, triple):
        if is_variable(item):
            if extended.setdefault(item, term) != term:
                return None
        elif item != term:
            return None
    return extended


def evaluate(query: ContinuousQuery, graph: set) -> set[tuple]:
    bindings = [{}]
    for pattern in query.patterns:
        bindings = [b2 for b in bindings for t in graph if (b2 := _unify(pattern, t, b)) is not None]
    if query.filters:
        from engines.model.filters import filter_holds

        bindings = [b for b in bindings if all(filter_holds(f, b) for f in query.filters)]
    return {tuple(b[v] for v in query.variables) for b in bindings}


def answers_at_every_instant(query: ContinuousQuery, stream: Stream) -> list[set[tuple]]:
    return [evaluate(query, window_triples(query, stream, i)) for i in range(len(stream.events))]
