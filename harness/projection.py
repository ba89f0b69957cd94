"""What a user sees is SELECT's variables: a projected answer counts the full mappings that project onto it, or once with SELECT DISTINCT.

Engines report full mappings of every pattern variable (``ContinuousQuery.variables``): that is
what verification compares. The harness projects them for what it shows (traces, answer counts),
as ``DESIGN.md`` section 2 says: the projected answers at an instant are the bag of the full
mappings' projections (SPARQL's ``SELECT``), or their set (``SELECT DISTINCT``). A projected
delta is the change of that bag: a row whose count rose by k appears k times in ``added``, one
whose count fell by k appears k times in ``removed``; with DISTINCT a row is added when its first
full mapping arrives and removed when its last one leaves, so the projection keeps, per projected
row, the number of full mappings projecting onto it. ``SELECT *`` leaves out the query's blank
nodes (``?_:b``) and nothing else. A SELECT variable the pattern never binds stays unbound (None).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.model.stream import ContinuousQuery, Delta, Mapping


class Projection:
    """Projects one engine's full mappings and deltas onto the query's SELECT variables."""

    def __init__(self, query: ContinuousQuery):
        self.variables = tuple(query.output_variables)
        positions = {variable: index for index, variable in enumerate(query.variables)}
        self._indexes = [positions.get(variable) for variable in self.variables]
        self.distinct = query.distinct
        # full mappings form a set, so projecting onto every variable in order changes nothing
        self.identity = self._indexes == list(range(len(query.variables)))
        self._counts: Counter[tuple] = Counter()

    @property
    def names(self) -> list[str]:
        """The variables without their ``?``, as a trace's header lists them."""
        return [variable.lstrip("?") for variable in self.variables]

    def row(self, mapping: Mapping) -> tuple:
        return tuple(None if index is None else mapping[index] for index in self._indexes)

    def delta(self, delta: Delta) -> tuple[list[tuple], list[tuple]]:
        """The change of the projected answers caused by ``delta`` (of full mappings), as (added, removed) rows."""
        if self.identity:
            return list(delta.added), list(delta.removed)
        change: Counter[tuple] = Counter()
        for mapping in delta.added:
            change[self.row(mapping)] += 1
        for mapping in delta.removed:
            change[self.row(mapping)] -= 1
        added: list[tuple] = []
        removed: list[tuple] = []
        for row, step in change.items():
            if step == 0:
                continue
            if not self.distinct:
                (added if step > 0 else removed).extend([row] * abs(step))
                continue
            before = self._counts[row]
            after = before + step
            if after > 0:
                self._counts[row] = after
            else:
                del self._counts[row]
            if before <= 0 < after:
                added.append(row)
            elif after <= 0 < before:
                removed.append(row)
        return added, removed

    def answers(self, full: Counter[Mapping] | Iterable[Mapping]) -> Counter[tuple]:
        """The projected answers of the full answers ``full`` (each counted once, or with its count)."""
        counts = full if isinstance(full, Counter) else Counter(full)
        projected: Counter[tuple] = Counter()
        for mapping, count in counts.items():
            projected[self.row(mapping)] += count
        if self.distinct:
            return Counter(dict.fromkeys(projected, 1))
        return projected
