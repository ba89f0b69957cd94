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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.delta.decompose import Star, ordered_array, overlap_graph, pattern_variables, star_decomposition
from engines.delta.filtering import Check
from engines.model.stream import INSERT, TriplePattern

# join steps of a compiled Algorithm 7 run
GROUND_CHECK, CENTER_BOUND, CENTER_ANY, SLOT_CHECK, SLOT_EXPAND, FILTER = range(6)


class StarList:
    """The extended list of one star: central value -> [non-empty slot count, slot sets...]."""

    def __init__(self, star: Star) -> None:
        self.size = len(star.patterns)
        self.records: dict[str, list] = {}
        self.complete: set[str] = set()

    def add(self, center: str, slot: int, values: tuple) -> None:
        record = self.records.get(center)
        if record is None:
            record = self.records[center] = [0] + [None] * self.size
        entries = record[slot + 1]
        if entries is None:
            entries = record[slot + 1] = set()
            record[0] += 1
            if record[0] == self.size:
                self.complete.add(center)
        entries.add(values)

    def discard(self, center: str, slot: int, values: tuple) -> None:
        record = self.records[center]
        entries = record[slot + 1]
        entries.discard(values)
        if not entries:
            record[slot + 1] = None
            if record[0] == self.size:
                self.complete.discard(center)
            record[0] -= 1
            if not record[0]:
                del self.records[center]

    def holds(self, center: str, slot: int, values: tuple) -> bool:
        record = self.records.get(center)
        return record is not None and record[slot + 1] is not None and values in record[slot + 1]


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
        self.stars = star_decomposition(self.patterns, self.variables)
        self.adjacent = overlap_graph(self.stars)
        self.lists = [StarList(star) for star in self.stars]
        # pattern j -> its variables' positions, and (list, slot, centre index in binding, other indices)
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
                known = tuple((k, i) for k, i in enumerate(others) if i in bound)
                fresh = tuple((k, i) for k, i in enumerate(others) if i not in bound)
                if fresh:
                    steps.append((SLOT_EXPAND, index, slot, known, fresh))
                    bound.update(i for _, i in fresh)
                else:  # bound by an earlier expansion in this star
                    steps.append((SLOT_CHECK, index, slot, others))
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
                    if tuple(summary[i] for i in step[3]) not in entries:
                        return
                elif kind == CENTER_BOUND:
                    star_list = lists[step[1]]
                    centre = summary[step[2]]
                    if centre not in star_list.complete:  # getGroundItems: complete records at the centre
                        return
                    records[step[1]] = star_list.records[centre]
                elif kind == SLOT_EXPAND:
                    _, index, slot, known, fresh = step
                    for values in records[index][slot + 1]:
                        if all(values[p] == summary[i] for p, i in known):
                            for p, i in fresh:
                                summary[i] = values[p]
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

    def _present(self, j: int, binding: tuple) -> bool:
        if not self.placements[j]:
            return bool(self.ground_state >> self.ground.index(j) & 1)
        star_list, slot, centre, others = self.placements[j][0]
        return star_list.holds(binding[centre], slot, tuple(binding[i] for i in others))

    def _store(self, op: int, matches: Sequence[tuple[int, tuple]]) -> None:
        for j, binding in matches:
            if not self.placements[j]:
                bit = 1 << self.ground.index(j)
                self.ground_state = self.ground_state | bit if op == INSERT else self.ground_state & ~bit
            for star_list, slot, centre, others in self.placements[j]:
                values = tuple(binding[i] for i in others)
                if op == INSERT:
                    star_list.add(binding[centre], slot, values)
                elif star_list.holds(binding[centre], slot, values):
                    star_list.discard(binding[centre], slot, values)

    def _collect(self, matches: Sequence[tuple[int, tuple]]) -> set[tuple]:
        out: set[tuple] = set()
        for j, binding in matches:
            summary = [None] * len(self.variables)
            for i, value in zip(self.pattern_vars[j], binding):
                summary[i] = value
            self.find_delta_var_summaries(self.plans[j], summary, out)
        return out

    def apply(self, op: int, matches: Sequence[tuple[int, tuple]]) -> tuple[list[tuple], list[tuple]]:
        present = self._present(*matches[0])
        if op == INSERT:
            if present:
                return [], []
            self._store(op, matches)
            added = self._collect(matches)
            if self.keep_answers:
                self.current |= added
            return list(added), []
        if not present:
            return [], []
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
            "summary_values": sum(
                len(entries) for s in self.lists for record in s.records.values() for entries in record[1:] if entries
            ),
            "ground_patterns": len(self.ground),
            "kept_answers": len(self.current),
        }
