"""The delta engines report, per event, exactly ``M(after) − M(before)`` and ``M(before) − M(after)`` of an update stream.

``DeltaEngine`` (``delta``) follows the paper's generic procedure (Sec. 6.1): the connected-variable
decomposition (Def. 10) splits the query into a ground subquery (Algorithm 1), simple var-centric
stars (Algorithm 2) and var-connected subqueries (Algorithms 5-7); the answers are the Cartesian
product of theirs (Algorithm 3 for loosely-connected queries, the same product for the others).
``DeltaGenericEngine`` (``delta-generic``) treats every query as var-connected and runs Algorithms
5-7 on the whole query, so the gain of the class-specific algorithms can be measured.

Set semantics (DESIGN.md section 2), where the paper assumes an insert only of an absent triple
and a delete only of a present one: every structure is a function of the current graph (a bit or a
set member per matching triple), so a repeated insert or a delete of an absent triple leaves it as
it is and reports nothing. An update changing several components is applied one component at a
time, each step reporting its exact change of the product, and an event's raw changes are netted:
an answer added then removed within one event appears in neither list.

Static data is loaded at construction and is in every instant's graph, ``G(τ) = D(τ) ∪ S``: an
update to a static triple changes ``D`` but never ``G``, so it is ignored. The first event's delta
is taken from the empty answer set (nothing has been reported before it), so it also carries the
answers the static data alone gives; ``answers()`` is empty until the first event, like the
re-evaluation baseline's.

FILTERs (the paper has none) keep the answers equal to the oracle's because ``M`` is the BGP's
answers restricted to the mappings passing the filter, a function of the mapping alone: each
top-level conjunct is tested as soon as the variables it reads are bound (inside a star's
component, or inside the join steps of Algorithms 5-7), the rest on full mappings, so a delta
never holds a mapping the filter rejects and never misses one it accepts (``engines.delta.filtering``).
Windows reach these engines through the window adapter
(``engines.adapters``); the engines themselves take unbounded insert/delete streams only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import product

from common.errors import EngineError, StreamError
from engines.delta.connected import ConnectedEvaluator
from engines.delta.decompose import KIND_SIMPLE_STAR, compile_matcher, connected_variable_decomposition
from engines.delta.filtering import compile_conjuncts, split_by_scope
from engines.delta.ground import GroundEvaluator
from engines.delta.star import SimpleStarEvaluator
from engines.model.stream import DELETE, INSERT, ContinuousQuery, Delta, Event, Expr, Mapping, Triple, expr_variables
from engines.protocol import Capabilities

CAPABILITIES = Capabilities(
    windows=frozenset({"unbounded"}), deletions=True, entailment=frozenset({"none"}), static=True, filters=True
)


def _unique(patterns) -> tuple:
    return tuple(dict.fromkeys(patterns))  # a BGP is a set of patterns


def _connected(variables, patterns, filters: list[Expr], keep_answers: bool) -> ConnectedEvaluator:
    conjuncts = [(frozenset(expr_variables(e)), compile_conjuncts([e], variables)) for e in filters]
    return ConnectedEvaluator(variables, patterns, accept_conjuncts=conjuncts, keep_answers=keep_answers)


class DeltaEngine:
    name = "delta"
    capabilities = CAPABILITIES
    generic = False

    def __init__(self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options) -> None:
        if options:
            raise EngineError(f"engine {self.name!r} takes no options, got {', '.join(sorted(options))}")
        if query.window.kind != "unbounded":
            raise EngineError(f"engine {self.name!r} takes unbounded update streams; run {query.window} windows through the window adapter")
        if query.entailment != "none":
            raise EngineError(f"engine {self.name!r} does not support entailment {query.entailment!r}")
        self.query = query
        self.variables = query.variables
        patterns = _unique(query.patterns)
        self.components = self._build(patterns, query.filters)
        self._index_patterns()
        self.static = frozenset(static)
        self.started = False
        self.counts = Counter()
        for triple in self.static:
            for _ in self._apply(INSERT, triple):
                pass

    def _build(self, patterns, filters) -> list:
        """The evaluators, each with the positions of its variables in the query's variable order."""
        position = {var: i for i, var in enumerate(self.variables)}
        if self.generic:
            local, top = split_by_scope(filters, [self.variables])
            self.top_filter = compile_conjuncts(top, self.variables)
            return [(_connected(self.variables, patterns, local[0], False), tuple(range(len(self.variables))))]
        ground, parts = connected_variable_decomposition(patterns, self.variables)
        local, top = split_by_scope(filters, [part.variables for part in parts])
        self.top_filter = compile_conjuncts(top, self.variables)
        several = len(parts) + bool(ground) > 1
        components: list = [(GroundEvaluator(ground), ())] if ground else []
        for part, own in zip(parts, local):
            if part.kind == KIND_SIMPLE_STAR:
                evaluator = SimpleStarEvaluator(part.variables[0], part.patterns, compile_conjuncts(own, part.variables))
            else:
                evaluator = _connected(part.variables, part.patterns, own, keep_answers=several)
            components.append((evaluator, tuple(position[v] for v in part.variables)))
        return components

    def _index_patterns(self) -> None:
        """Patterns by constant predicate (and a list for variable predicates), for unification."""
        self.by_predicate: dict[str, list] = defaultdict(list)
        self.any_predicate: list = []
        for number, (evaluator, _) in enumerate(self.components):
            for j, pattern in enumerate(evaluator.patterns):
                entry = (number, j, compile_matcher(pattern))
                if pattern[1][0] == "?":
                    self.any_predicate.append(entry)
                else:
                    self.by_predicate[pattern[1]].append(entry)

    # ------------------------------------------------------------ applying updates

    def _apply(self, op: int, triple: Triple) -> Iterable[tuple[int, Mapping]]:
        """Apply one update; yield the raw (+1/-1, answer) changes, component by component."""
        matches: dict[int, list] = {}
        for number, j, match in (*self.by_predicate.get(triple[1], ()), *self.any_predicate):
            binding = match(triple)
            if binding is not None:
                matches.setdefault(number, []).append((j, binding))
        for number in sorted(matches):
            added, removed = self.components[number][0].apply(op, matches[number])
            for sign, changed in ((INSERT, added), (DELETE, removed)):
                if changed:
                    for answer in self._combine(number, changed):
                        yield sign, answer

    def _combine(self, number: int, partials: list[tuple]) -> Iterable[Mapping]:
        """Full mappings: component ``number``'s changed answers times the others' current ones (Algorithm 3)."""
        components = self.components
        if len(components) == 1 and components[0][1] == tuple(range(len(self.variables))):
            pools, slots = [partials], [components[0][1]]
        else:
            pools, slots = [], []
            for index, (evaluator, positions) in enumerate(components):
                if index == number:
                    pools.append(partials)
                else:
                    current = list(evaluator.answer_tuples())
                    if not current:
                        return
                    pools.append(current)
                slots.append(positions)
        accept = self.top_filter
        width = len(self.variables)
        for combination in product(*pools):
            full = [None] * width
            for values, positions in zip(combination, slots):
                for position, value in zip(positions, values):
                    full[position] = value
            if accept is None or accept(full):
                yield tuple(full)

    def push(self, event: Event) -> Delta:
        before: dict[Mapping, bool] = {}  # answer -> held before the event (first change seen)
        after: dict[Mapping, bool] = {}
        if not self.started:
            self.started = True
            for answer in self._all_answers():  # static-only answers: nothing was reported before
                before[answer] = False
                after[answer] = True
        for update in event.updates:
            if update.op not in (INSERT, DELETE):
                raise StreamError(f"event {event.index}: update op must be +1 or -1, got {update.op!r}")
            triple = (update.s, update.p, update.o)
            if triple in self.static:
                self.counts["static_updates_ignored"] += 1
                continue
            self.counts["updates"] += 1
            for sign, answer in self._apply(update.op, triple):
                before.setdefault(answer, sign == DELETE)
                after[answer] = sign == INSERT
        return Delta(
            added=[a for a, held in after.items() if held and not before[a]],
            removed=[a for a, held in after.items() if not held and before[a]],
        )

    def _all_answers(self) -> Iterable[Mapping]:
        components = self.components
        pools = [list(evaluator.answer_tuples()) for evaluator, _ in components]
        width = len(self.variables)
        for combination in product(*pools):
            full = [None] * width
            for values, (_, positions) in zip(combination, components):
                for position, value in zip(positions, values):
                    full[position] = value
            if self.top_filter is None or self.top_filter(full):
                yield tuple(full)

    def answers(self) -> Counter[Mapping]:
        return Counter(self._all_answers()) if self.started else Counter()

    def stats(self) -> dict[str, int]:
        totals: Counter = Counter({"components": len(self.components), "static_triples": len(self.static)})
        for evaluator, _ in self.components:
            totals.update(evaluator.stats())
        totals.update(self.counts)
        return dict(totals)


class DeltaGenericEngine(DeltaEngine):
    name = "delta-generic"
    generic = True

