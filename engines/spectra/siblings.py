"""A row of pattern j can take part in a current match only if one of its values does: the paper's ``sibling(q) = ∅`` test, from counts of matches per value.

When a triple leaves the window, the paper (Alg. 4, ``refresh``) asks first whether its pair has
siblings at all; only if it has are the matches it invalidates looked for. Here each pattern has an
*anchor*, one of its variables, and for each anchor variable the engine counts the current matches
by their value of it. An evicted row whose anchor value no current match has is in no match (every
match holding the row has the row's value there), so S-Inc seeds no join from it: eviction costs a
lookup per row when the row completes nothing, the common case on selective queries.

Anchors are chosen to share variables (greedily, the variable most patterns have first), so that a
star keeps one count per centre value and a chain a count per link value. A pattern with no
variable has no anchor: every match holds its one row. The counts are exact because S-Inc reports
exactly the matches that enter and leave, and they cost one dict entry per distinct anchor value
among the matches, not one per match.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engines.spectra.summary import PatternShape


def anchor_variables(shapes: Sequence[PatternShape]) -> dict[int, int]:
    """Pattern index -> the variable (index in ``query.variables``) its rows are counted by."""
    anchors: dict[int, int] = {}
    uncovered = [j for j, shape in enumerate(shapes) if shape.row_variables]
    while uncovered:
        shared = Counter(v for j in uncovered for v in shapes[j].row_variables)
        best = max(shared, key=lambda v: (shared[v], -v))
        for j in [j for j in uncovered if best in shapes[j].row_variables]:
            anchors[j] = best
            uncovered.remove(j)
    return anchors


class MatchedValues:
    __slots__ = ("_counted", "_by_pattern")

    def __init__(self, shapes: Sequence[PatternShape]) -> None:
        anchors = anchor_variables(shapes)
        counts: dict[int, dict] = {variable: {} for variable in sorted(set(anchors.values()))}
        # (variable, {value: matches holding it}) per anchor variable
        self._counted = tuple(counts.items())
        # per pattern: (position of the anchor in its row, arity, the anchor's counts), None without anchor
        self._by_pattern = [
            (shape.row_variables.index(anchors[j]), shape.arity, counts[anchors[j]]) if j in anchors else None
            for j, shape in enumerate(shapes)
        ]

    def candidates(self, pattern: int, rows: list) -> list:
        """The rows of ``pattern`` that may be in a current match; the others are in none."""
        entry = self._by_pattern[pattern]
        if entry is None:
            return rows
        position, arity, counts = entry
        if arity == 1:
            return [row for row in rows if row in counts]
        return [row for row in rows if row[position] in counts]

    def enter(self, added: list[tuple[int, ...]]) -> None:
        """Matches (full mappings in ``query.variables`` order) entered the answers."""
        for variable, counts in self._counted:
            for match in added:
                value = match[variable]
                counts[value] = counts.get(value, 0) + 1

    def leave(self, removed: list[tuple[int, ...]]) -> None:
        """Matches left the answers."""
        for variable, counts in self._counted:
            for match in removed:
                value = match[variable]
                left = counts[value] - 1
                if left:
                    counts[value] = left
                else:
                    del counts[value]

    def values(self) -> int:
        """Counted values over all anchors (memory analysis)."""
        return sum(len(counts) for _, counts in self._counted)
