"""Algorithms 5-7: a var-connected query's delta embeddings are the joins, over its star decomposition, that use the update.

Each star (Def. 13) keeps its *extended list of ground var-centric instances* grouped by central
instance, as the paper suggests for implementations: for a central value ``x``, one slot per
pattern of the star holding the set of values of the pattern's other variables (the
variables-summaries' known positions) for which the instantiated pattern is in the graph. A slot
for a pattern whose only variable is the centre is the triple-match-state bit (``{()}`` or empty).
A record is *complete* when every slot is non-empty; a record whose slots are all empty is removed.
Because a record holds sets, a variables-summary is never stored twice, which is what Algorithm 5's
duplicate-record removal on delete achieves in the paper's one-summary-per-record layout.

An update of triple ``t`` unifying with pattern ``e_j`` (Algorithm 6) seeds a variables-summary with
the variables of ``e_j`` and runs ``find_delta_var_summaries`` (Algorithm 7) over the ordered array
``D_o`` of Prop. 5: at each star, the complete records at the centre already bound (``getGroundItems``)
compatible with the summary extend it, recursively, until every star is joined. An insert updates
the lists first and then collects, for every pattern ``t`` unifies with, the joins mapping that
pattern to ``t`` (the positive embeddings: they exist only because ``t`` does); a delete collects
them first (the negative embeddings) and then updates the lists. The results are gathered in a
set, so an embedding using ``t`` for two patterns is reported once.

Generalisations, all exact: stars on predicate variables; stars not reached through the overlap
graph (the generic variant on a query that is not var-connected) start from every complete
record; ground patterns (generic variant) are checked as a triple match state before any star.
Each run of Algorithm 7 is compiled once per seed pattern into a list of join steps.

Layout (issue 22), exact because it holds the same sets: terms are ids (``engines.delta.terms``);
a slot's value is one int (the other variable's id, both ids packed as ``a << 32 | b`` for a
pattern with two other variables, 0 for none) and a slot holds one value as the int itself, a few
as a tuple, many as a set. A star whose patterns all belong to another star (a leaf variable's
star, e.g. ``?n`` of ``?x :name ?n``) keeps no list and takes no join step: every check it would
make is made again by that other star on the same patterns with the same values, so only the
lists of the maximal stars are kept (for equal pattern sets, the first variable's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.delta.decompose import (
    Star,
    maximal_stars,
    ordered_array,
    overlap_graph,
    pattern_variables,
    star_decomposition,
)
from engines.delta.filtering import Check
from engines.model.stream import INSERT, TriplePattern

# join steps of a compiled Algorithm 7 run
GROUND_CHECK, CENTER_BOUND, CENTER_ANY, SLOT_CHECK, SLOT_EXPAND, FILTER = range(6)


# a slot holding more values than this is a set; fewer, a tuple (a set of two values costs 216 bytes)
SMALL_SLOT = 16
PACK_SHIFT = 32  # term ids are below 2**32
LOW_MASK = (1 << PACK_SHIFT) - 1


def pack(values: Sequence[int]) -> int:
    """One slot value for a pattern's other variables' ids: the id, two ids packed, or 0 for none."""
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        return values[0] << PACK_SHIFT | values[1]
    return 0


def slot_values(entries) -> Iterable[int]:
    return (entries,) if type(entries) is int else entries


def slot_holds(entries, value: int) -> bool:
    if type(entries) is int:
        return entries == value
    return entries is not None and value in entries


class StarList:
    """The extended list of one star: central id -> [non-empty slot count, slot, ...], a slot None, an int, a tuple or a set."""

    __slots__ = ("size", "records", "complete")

    def __init__(self, star: Star) -> None:
        self.size = len(star.patterns)
        self.records: dict[int, list] = {}
        self.complete: set[int] = set()

    def add(self, center: int, slot: int, value: int) -> None:
        record = self.records.get(center)
        if record is None:
            record = self.records[center] = [0] + [None] * self.size
        entries = record[slot + 1]
        if entries is None:
            record[slot + 1] = value
            record[0] += 1
            if record[0] == self.size:
                self.complete.add(center)
        elif type(entries) is int:
            if entries != value:
                record[slot + 1] = (entries, value)
        elif type(entries) is tuple:
            if value not in entries:
                record[slot + 1] = entries + (value,) if len(entries) < SMALL_SLOT else {*entries, value}
        else:
            entries.add(value)

    def discard(self, center: int, slot: int, value: int) -> None:
        """Remove a value the slot holds (the caller checked ``holds``)."""
        record = self.records[center]
        entries = record[slot + 1]
        if type(entries) is int:
            record[slot + 1] = None
            if record[0] == self.size:
                self.complete.discard(center)
            record[0] -= 1
            if not record[0]:
                del self.records[center]
            return
        if type(entries) is tuple:
            left = tuple(v for v in entries if v != value)
        else:
            entries.discard(value)
            if len(entries) > SMALL_SLOT // 2:
                return
            left = tuple(entries)  # a shrunken set goes back to the small layout
        record[slot + 1] = left[0] if len(left) == 1 else left

    def holds(self, center: int, slot: int, value: int) -> bool:
        record = self.records.get(center)
        return record is not None and slot_holds(record[slot + 1], value)

    def values(self) -> int:
        return sum(
            1 if type(entries) is int else len(entries)
            for record in self.records.values() for entries in record[1:] if entries is not None
        )


class ConnectedEvaluator:
    """Algorithms 5-7 over ``patterns`` (plus ground ones in the generic variant); answers in ``variables`` order."""

    def __init__(
        self,
        variables: Sequence[str],
        patterns: Sequence[TriplePattern],
        *,
        accept_conjuncts: Sequence[tuple[frozenset[str], Check]] = (),
        keep_answers: bool = False,
    ) -> None:
        self.variables = tuple(variables)
        self.patterns = tuple(patterns)
        position = {var: i for i, var in enumerate(self.variables)}
        self.position = position
        self.ground = [j for j, p in enumerate(self.patterns) if not pattern_variables(p)]
        self.ground_state = 0
        self.stars = maximal_stars(star_decomposition(self.patterns, self.variables))
        self.adjacent = overlap_graph(self.stars)
        self.lists = [StarList(star) for star in self.stars]
        # pattern j -> its variables' positions, and (list, slot, centre index in binding, other indices) per kept star
        self.pattern_vars = [tuple(position[v] for v in pattern_variables(p)) for p in self.patterns]
        self.placements: list[list[tuple[StarList, int, int, tuple[int, ...]]]] = [[] for _ in self.patterns]
        for star, star_list in zip(self.stars, self.lists):
            for slot, j in enumerate(star.patterns):
                names = pattern_variables(self.patterns[j])
                centre = names.index(star.central)
                others = tuple(i for i in range(len(names)) if i != centre)
                self.placements[j].append((star_list, slot, centre, others))
        self.conjuncts = list(accept_conjuncts)
        self.plans = [self._compile(pattern_variables(p)) for p in self.patterns]
        self.full_plan = self._compile(())
        self.keep_answers = keep_answers
        self.current: set[tuple] = set()

    # ------------------------------------------------------------ compiling Algorithm 7 runs

    def _compile(self, seed: Sequence[str]) -> list[tuple]:
        """The join steps of ``find_delta_var_summaries`` for a summary whose known variables are ``seed``."""
        bound = {self.position[v] for v in seed}
        steps: list[tuple] = []
        pending = list(self.conjuncts)

        def place_filters() -> None:
            names = {self.variables[i] for i in bound}
            for item in list(pending):
                if item[0] <= names:
                    steps.append((FILTER, item[1]))
                    pending.remove(item)

        place_filters()
        if self.ground:
            steps.append((GROUND_CHECK,))
        for index in ordered_array(self.stars, self.adjacent, seed):
            star = self.stars[index]
            centre = self.position[star.central]
            steps.append((CENTER_BOUND if centre in bound else CENTER_ANY, index, centre))
            bound.add(centre)
            checks, expands = [], []
            for slot, j in enumerate(star.patterns):
                others = tuple(i for i in self.pattern_vars[j] if i != centre)
                if all(i in bound for i in others):
                    checks.append((SLOT_CHECK, index, slot, others))
                else:
                    expands.append((slot, others))
            steps.extend(checks)
            for slot, others in expands:
                if all(i in bound for i in others):  # bound by an earlier expansion in this star
                    steps.append((SLOT_CHECK, index, slot, others))
                    continue
                # a packed value's part k is ``value >> shift & mask``: the top part of two, or all of one
                parts = tuple((PACK_SHIFT if k == 0 and len(others) == 2 else 0, i) for k, i in enumerate(others))
                known = tuple(part for part in parts if part[1] in bound)
                fresh = tuple(part for part in parts if part[1] not in bound)
                steps.append((SLOT_EXPAND, index, slot, known, fresh, LOW_MASK if len(others) == 2 else -1))
                bound.update(others)
                place_filters()
            place_filters()
        return steps

    # ------------------------------------------------------------ Algorithm 7

    def find_delta_var_summaries(self, steps: list[tuple], summary: list, out: set[tuple]) -> None:
        records: list = [None] * len(self.lists)
        lists = self.lists
        last = len(steps)

        def run(k: int) -> None:
            while k < last:
                step = steps[k]
                kind = step[0]
                if kind == SLOT_CHECK:
                    entries = records[step[1]][step[2] + 1]
                    value = pack([summary[i] for i in step[3]])
                    if not (entries == value if type(entries) is int else value in entries):
                        return
                elif kind == CENTER_BOUND:
                    star_list = lists[step[1]]
                    centre = summary[step[2]]
                    if centre not in star_list.complete:  # getGroundItems: complete records at the centre
                        return
                    records[step[1]] = star_list.records[centre]
                elif kind == SLOT_EXPAND:
                    _, index, slot, known, fresh, mask = step
                    for value in slot_values(records[index][slot + 1]):
                        if all(value >> shift & mask == summary[i] for shift, i in known):
                            for shift, i in fresh:
                                summary[i] = value >> shift & mask
                            run(k + 1)
                    for _, i in fresh:
                        summary[i] = None
                    return
                elif kind == CENTER_ANY:
                    star_list = lists[step[1]]
                    for centre in star_list.complete:
                        summary[step[2]] = centre
                        records[step[1]] = star_list.records[centre]
                        run(k + 1)
                    summary[step[2]] = None
                    return
                elif kind == FILTER:
                    if not step[1](summary):
                        return
                elif self.ground_state != (1 << len(self.ground)) - 1:  # GROUND_CHECK
                    return
                k += 1
            out.add(tuple(summary))

        run(0)

    # ------------------------------------------------------------ Algorithms 5 and 6

    def holds(self, matches: Sequence[tuple[int, tuple]]) -> bool:
        """Whether the triple of ``matches`` is in the graph (every pattern it unifies with agrees)."""
        return self._present(*matches[0])

    def _present(self, j: int, binding: tuple) -> bool:
        if not self.placements[j]:
            return bool(self.ground_state >> self.ground.index(j) & 1)
        star_list, slot, centre, others = self.placements[j][0]
        return star_list.holds(binding[centre], slot, pack([binding[i] for i in others]))

    def _store(self, op: int, matches: Sequence[tuple[int, tuple]]) -> None:
        for j, binding in matches:
            if not self.placements[j]:
                bit = 1 << self.ground.index(j)
                self.ground_state = self.ground_state | bit if op == INSERT else self.ground_state & ~bit
            for star_list, slot, centre, others in self.placements[j]:
                value = pack([binding[i] for i in others])
                if op == INSERT:
                    star_list.add(binding[centre], slot, value)
                elif star_list.holds(binding[centre], slot, value):
                    star_list.discard(binding[centre], slot, value)

    def _collect(self, matches: Sequence[tuple[int, tuple]]) -> set[tuple]:
        out: set[tuple] = set()
        for j, binding in matches:
            summary = [None] * len(self.variables)
            for i, value in zip(self.pattern_vars[j], binding):
                summary[i] = value
            self.find_delta_var_summaries(self.plans[j], summary, out)
        return out

    def apply(self, op: int, matches: Sequence[tuple[int, tuple]]) -> tuple[list[tuple], list[tuple]]:
        """An insert of a triple the graph lacks or a delete of one it has (the engine checks ``holds`` first)."""
        if op == INSERT:
            self._store(op, matches)
            added = self._collect(matches)
            if self.keep_answers:
                self.current |= added
            return list(added), []
        removed = self._collect(matches)
        self._store(op, matches)
        if self.keep_answers:
            self.current -= removed
        return [], list(removed)

    def answer_tuples(self) -> Iterable[tuple]:
        if self.keep_answers:
            return self.current
        out: set[tuple] = set()
        self.find_delta_var_summaries(self.full_plan, [None] * len(self.variables), out)
        return out

    def has_answers(self) -> bool:
        """Whether an answer is kept: the engine asks only a component among several, which keeps them (``keep_answers``)."""
        return bool(self.current)

    def stats(self) -> dict[str, int]:
        return {
            "star_records": sum(len(s.records) for s in self.lists),
            "star_complete": sum(len(s.complete) for s in self.lists),
            "summary_values": sum(s.values() for s in self.lists),
            "ground_patterns": len(self.ground),
            "kept_answers": len(self.current),
        }
