"""Left-deep joins over the views, in an order chosen from the views' cardinalities, that find every full mapping extending the seeds.

A join starts from *seed* rows of one pattern (an event's new rows for S-Inc, a whole view for
S-Rev) and adds the other patterns one at a time (Section 6.2, "Ordering of Join Operations").
The next pattern is the one expected to multiply the partial results least: a pattern whose
variables are all bound is a pure check and goes first; then the pattern with the smallest
expected fan-out through a bound variable (rows per distinct value in the view's multimap); a
pattern sharing no bound variable (a cross product) goes last, smallest first. The order is
re-chosen whenever a view's size crosses a power of two.

Each step is a hash join whose build side is the view's multimap, kept up to date as rows come
and go, so no hash table is ever built per join: each partial probes it once (s to o or o to s,
whichever is bound). Partials are the small side for S-Inc (an event's few new rows); for S-Rev
they start from the smallest view.

Partial mappings are int tuples laid out in the order the plan binds variables, so extending one
is a tuple concatenation; the finished mapping is reordered to ``query.variables`` once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from engines.spectra.summary import PatternShape
from engines.spectra.views import EMPTY, View, size_of

Step = Callable[[list], list]
_CROSS_WEIGHT = 1e12

def _check_present(view: View) -> Step:
    return lambda partials: partials if view.size else []


def _step(view: View, slots: tuple[int | None, ...]) -> Step:
    """One join step: ``slots[k]`` is where the row's k-th variable already sits in the partial, or None when new."""
    arity = view.arity
    if arity == 0:
        return _check_present(view)
    if arity == 1:
        values = view.values
        (slot,) = slots
        if slot is not None:
            return lambda partials: [p for p in partials if p[slot] in values]
        return lambda partials: [p + (v,) for p in partials for v in values]
    if arity == 2:
        first, second = slots
        forward, backward = view.index
        if first is not None and second is not None:
            get = forward.get
            return lambda partials: [p for p in partials if p[second] in get(p[first], EMPTY)]
        if first is not None:
            get = forward.get
            return lambda partials: [p + (o,) for p in partials for o in get(p[first], EMPTY)]
        if second is not None:
            get = backward.get
            return lambda partials: [p + (s,) for p in partials for s in get(p[second], EMPTY)]
        return lambda partials: [p + row for p in partials for row in view.rows()]
    return _wide_step(view, slots)


def _wide_step(view: View, slots: tuple[int | None, ...]) -> Step:
    bound = [(k, slot) for k, slot in enumerate(slots) if slot is not None]
    new = [k for k, slot in enumerate(slots) if slot is None]
    take_new = itemgetter(*new) if len(new) > 1 else (lambda row: (row[new[0]],)) if new else (lambda row: ())
    if not bound:
        return lambda partials: [p + take_new(row) for p in partials for row in view.rows()]
    probe_position, probe_slot = bound[0]
    others = bound[1:]
    by_value = view.index[probe_position]

    def run(partials: list) -> list:
        out = []
        for p in partials:
            for row in by_value.get(p[probe_slot], EMPTY):
                if all(row[k] == p[slot] for k, slot in others):
                    out.append(p + take_new(row))
        return out

    return run


def _reorder(layout: Sequence[int], variable_count: int) -> Callable[[tuple], tuple]:
    where = [layout.index(v) for v in range(variable_count)]
    if where == list(range(variable_count)):
        return lambda p: p
    if variable_count == 1:
        (only,) = where
        return lambda p: (p[only],)
    return itemgetter(*where)


class JoinPlanner:
    """Chooses join orders from view cardinalities and runs them; compiled plans are cached by order."""

    def __init__(self, shapes: Sequence[PatternShape], views: Sequence[View], variable_count: int) -> None:
        self.shapes = tuple(shapes)
        self.views = tuple(views)
        self.variable_count = variable_count
        self._compiled: dict[tuple, tuple[list[Step], Callable]] = {}
        self._orders: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def order(self, seed: int) -> tuple[int, ...]:
        """The seed pattern, then the others greedily by expected fan-out (left-deep).

        The greedy choice is remembered per seed until some view's size crosses a power of two:
        the order follows the cardinalities at every event without paying for the search each time.
        """
        signature = tuple(map(int.bit_length, map(size_of, self.views)))
        remembered = self._orders.get(seed)
        if remembered is not None and remembered[0] == signature:
            return remembered[1]
        order = self._greedy(seed)
        self._orders[seed] = (signature, order)
        return order

    def _greedy(self, seed: int) -> tuple[int, ...]:
        shapes, views = self.shapes, self.views
        bound = set(shapes[seed].row_variables)
        remaining = [j for j in range(len(shapes)) if j != seed]
        order = [seed]
        while remaining:
            best, best_cost = remaining[0], None
            for j in remaining:
                variables = shapes[j].row_variables
                bound_at = [k for k, v in enumerate(variables) if v in bound]
                if len(bound_at) == len(variables):
                    cost = -1.0
                elif bound_at:
                    view = views[j]
                    cost = min(view.fanout(k) for k in bound_at) if view.arity > 1 else 0.0
                else:  # a cross product; an empty view ends the join at once, so try it first
                    cost = views[j].size * _CROSS_WEIGHT if views[j].size else -1.0
                if best_cost is None or cost < best_cost:
                    best, best_cost = j, cost
            order.append(best)
            remaining.remove(best)
            bound.update(shapes[best].row_variables)
        return tuple(order)

    def smallest(self) -> int:
        """The pattern with the smallest view: where a full evaluation starts."""
        return min(range(len(self.views)), key=lambda j: (self.views[j].size, j))

    def compile(self, order: tuple[int, ...]) -> tuple[list[Step], Callable]:
        compiled = self._compiled.get(order)
        if compiled is None:
            layout = list(self.shapes[order[0]].row_variables)
            steps = []
            for j in order[1:]:
                slots = []
                for v in self.shapes[j].row_variables:
                    if v in layout:
                        slots.append(layout.index(v))
                    else:
                        slots.append(None)
                        layout.append(v)
                steps.append(_step(self.views[j], tuple(slots)))
            compiled = self._compiled[order] = (steps, _reorder(layout, self.variable_count))
        return compiled

    def extend(self, order: tuple[int, ...], seeds: list) -> list[tuple]:
        """Every full mapping (in query variable order) that extends a seed partial of ``order[0]``."""
        steps, reorder = self.compile(order)
        partials = seeds
        for step in steps:
            partials = step(partials)
            if not partials:
                return []
        return [reorder(p) for p in partials]


def probed_positions(shapes: Sequence[PatternShape], j: int) -> list[int]:
    """The row positions of pattern ``j`` a join can probe: those whose variable another pattern also has.

    A join probes a view only at a variable an earlier pattern bound, so the other positions need no
    index (``View``); a pattern that shares no variable (a cross product) is scanned, from position 0.
    """
    elsewhere = {v for k, shape in enumerate(shapes) if k != j for v in shape.row_variables}
    return [k for k, v in enumerate(shapes[j].row_variables) if v in elsewhere] or [0]


def seed_partials(shape: PatternShape, rows) -> list[tuple]:
    """Rows of ``shape`` as partial mappings laid out in the shape's variable order."""
    arity = shape.arity
    if arity == 0:
        return [()] if rows else []
    if arity == 1:
        return [(v,) for v in rows]
    return list(rows)
