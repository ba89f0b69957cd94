"""Basic graph patterns evaluated from scratch over an indexed triple set, by left-deep hash joins.

The evaluator is exact and simple on purpose: it is the re-evaluation baseline's core. Patterns
are matched through a predicate index (and a full scan for variable predicates); joins run
smallest-first among patterns connected to what is already bound, each a hash join on the shared
variables; FILTERs run on full mappings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from engines.model.stream import Mapping, Triple, TriplePattern, is_variable


class TripleIndex:
    """A set of triples indexed by predicate, with counted membership so a triple can come from several sources."""

    def __init__(self) -> None:
        self.by_predicate: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self.count: dict[Triple, int] = {}

    def __len__(self) -> int:
        return len(self.count)

    def add(self, triples: Iterable[Triple]) -> None:
        count = self.count
        for triple in triples:
            seen = count.get(triple, 0)
            count[triple] = seen + 1
            if not seen:
                self.by_predicate[triple[1]].add((triple[0], triple[2]))

    def remove(self, triples: Iterable[Triple]) -> None:
        count = self.count
        for triple in triples:
            seen = count[triple] - 1
            if seen:
                count[triple] = seen
            else:
                del count[triple]
                pairs = self.by_predicate[triple[1]]
                pairs.discard((triple[0], triple[2]))
                if not pairs:
                    del self.by_predicate[triple[1]]

    def triples_for(self, predicate: str | None) -> Iterable[Triple]:
        if predicate is None:
            return self.count.keys()
        return ((s, predicate, o) for s, o in self.by_predicate.get(predicate, ()))


def _pattern_rows(pattern: TriplePattern, index: TripleIndex) -> tuple[list[str], list[tuple[str, ...]]]:
    """The pattern's distinct variables and one row of their values per matching triple."""
    names: list[str] = []
    slots: list[int] = []  # for each triple position, the variable slot it binds, or -1 for a constant
    for position in pattern:
        if is_variable(position):
            if position not in names:
                names.append(position)
            slots.append(names.index(position))
        else:
            slots.append(-1)
    predicate = None if is_variable(pattern[1]) else pattern[1]
    rows: set[tuple[str, ...]] = set()
    for triple in index.triples_for(predicate):
        values: list[str | None] = [None] * len(names)
        for position, slot in enumerate(slots):
            term = triple[position]
            if slot < 0:
                if term != pattern[position]:
                    break
            elif values[slot] is None:
                values[slot] = term
            elif values[slot] != term:
                break
        else:
            rows.add(tuple(values))
    return names, list(rows)


def evaluate_bgp(
    patterns: Sequence[TriplePattern],
    variables: Sequence[str],
    index: TripleIndex,
    accept: Callable[[Mapping], bool] | None = None,
    pattern_indexes: Sequence[TripleIndex] | None = None,
) -> set[Mapping]:
    """All full mappings of ``patterns`` over ``index`` (in ``variables`` order) that ``accept`` keeps.

    ``pattern_indexes`` gives each pattern a graph of its own (a query over named windows); else all match ``index``."""
    graphs = pattern_indexes if pattern_indexes is not None else [index] * len(patterns)
    pending = [_pattern_rows(pattern, graph) for pattern, graph in zip(patterns, graphs)]
    if any(not rows for _, rows in pending):
        return set()
    pending.sort(key=lambda item: len(item[1]))
    # the empty BGP (the query reader refuses one; the engine API does not) has one solution: the empty mapping
    bound_names, rows = pending.pop(0) if pending else ([], [()])
    while pending:
        bound = set(bound_names)
        connected = [i for i, (names, _) in enumerate(pending) if bound.intersection(names)]
        choice = min(connected or range(len(pending)), key=lambda i: len(pending[i][1]))
        names, right_rows = pending.pop(choice)
        shared = [n for n in names if n in bound]
        left_keys = [bound_names.index(n) for n in shared]
        right_keys = [names.index(n) for n in shared]
        extra = [i for i, n in enumerate(names) if n not in bound]
        table: dict[tuple[str, ...], list[tuple[str, ...]]] = defaultdict(list)
        for right in right_rows:
            table[tuple(right[k] for k in right_keys)].append(tuple(right[i] for i in extra))
        rows = [
            left + tail
            for left in rows
            for tail in table.get(tuple(left[k] for k in left_keys), ())
        ]
        bound_names = bound_names + [names[i] for i in extra]
        if not rows:
            return set()
    order = [bound_names.index(v) for v in variables]
    mappings = {tuple(row[i] for i in order) for row in rows}
    if accept is not None:
        mappings = {mapping for mapping in mappings if accept(mapping)}
    return mappings
