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
an answer added then removed within one event appears in neither list. A change of one component is
combined with the others' answers only when none of them is empty (``has_answers``), so an empty
component costs no materialisation of the others.

Static data is loaded at construction, into the components alone (no full answer is formed before
the first event), and is in every instant's graph, ``G(τ) = D(τ) ∪ S``: an
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
(``engines.adapters``); the engines themselves take unbounded insert/delete streams only, and
offer the adapter ``insert_arrival``/``delete_key`` so that it keeps a window of term ids.

Terms are ids of one ``TermDictionary`` (``engines.delta.terms``), taken when a triple enters the
graph and given back when it leaves; answers are turned back into terms only where they leave
the engine (``_combine``), and FILTER conjuncts read decoded mappings. Only the triples some
pattern unifies with are held, and of the static triples only those: the others change no answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import product

from common.errors import EngineError, StreamError
from engines.delta.connected import ConnectedEvaluator
from engines.delta.decompose import (
    KIND_SIMPLE_STAR,
    connected_variable_decomposition,
)
from engines.delta.filtering import Check, compile_conjuncts, split_by_scope
from engines.delta.ground import GroundEvaluator
from engines.delta.star import SimpleStarEvaluator
from engines.delta.terms import TermDictionary
from engines.delta.unify import PatternIndex
from engines.model.stream import (
    DELETE,
    INSERT,
    ContinuousQuery,
    Delta,
    Event,
    Expr,
    Mapping,
    Term,
    Triple,
    expr_variables,
)
from engines.protocol import Capabilities

CAPABILITIES = Capabilities(
    windows=frozenset({"unbounded"}), deletions=True, entailment=frozenset({"none"}), static=True, filters=True
)

Key = tuple[int, int, int]  # a held triple's term ids


def _unique(patterns) -> tuple:
    return tuple(dict.fromkeys(patterns))  # a BGP is a set of patterns


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
        self.dictionary = TermDictionary()
        patterns = _unique(query.patterns)
        self.components = self._build(patterns, query.filters)
        self.whole = len(self.components) == 1 and self.components[0][1] == tuple(range(len(self.variables)))
        # patterns by predicate id, for unification on ids; pins the query's constants
        self.index = PatternIndex([evaluator.patterns for evaluator, _ in self.components], self.dictionary)
        self._matches = self.index.matches
        self.static: set[Key] = set()  # the static triples some pattern unifies with
        self.static_count = 0
        self.started = False
        # the open event's answers -> held before it (first change seen), and held now
        self.before: dict[Mapping, bool] = {}
        self.after: dict[Mapping, bool] = {}
        self.updates = 0  # updates to a non-static triple
        self.static_updates_ignored = 0
        for triple in dict.fromkeys(static):
            self.static_count += 1
            self._load(triple)

    def _decoded(self, check: Check | None) -> Check | None:
        """``check`` (over terms) on a mapping of term ids."""
        if check is None:
            return None
        decode = self.dictionary.decode
        return lambda mapping: check(decode(mapping))

    def _connected(self, variables, patterns, filters: list[Expr], keep_answers: bool) -> ConnectedEvaluator:
        conjuncts = [(frozenset(expr_variables(e)), self._decoded(compile_conjuncts([e], variables))) for e in filters]
        return ConnectedEvaluator(variables, patterns, accept_conjuncts=conjuncts, keep_answers=keep_answers)

    def _build(self, patterns, filters) -> list:
        """The evaluators, each with the positions of its variables in the query's variable order."""
        position = {var: i for i, var in enumerate(self.variables)}
        if self.generic:
            local, top = split_by_scope(filters, [self.variables])
            self.top_filter = compile_conjuncts(top, self.variables)
            return [(self._connected(self.variables, patterns, local[0], False), tuple(range(len(self.variables))))]
        ground, parts = connected_variable_decomposition(patterns, self.variables)
        local, top = split_by_scope(filters, [part.variables for part in parts])
        self.top_filter = compile_conjuncts(top, self.variables)
        several = len(parts) + bool(ground) > 1
        components: list = [(GroundEvaluator(ground), ())] if ground else []
        for part, own in zip(parts, local):
            if part.kind == KIND_SIMPLE_STAR:
                accept = self._decoded(compile_conjuncts(own, part.variables))
                evaluator = SimpleStarEvaluator(part.variables[0], part.patterns, accept)
            else:
                evaluator = self._connected(part.variables, part.patterns, own, keep_answers=several)
            components.append((evaluator, tuple(position[v] for v in part.variables)))
        return components

    # ------------------------------------------------------------ applying updates

    def _lookup(self, s: Term, p: Term, o: Term) -> tuple:
        ids = self.dictionary.ids
        return ids.get(s), ids.get(p), ids.get(o)

    def _load(self, triple: Triple) -> None:
        """Add a static triple to the components: nothing has been reported yet, so no full answer is formed
        (the first event's delta takes the static-only answers from ``_all_answers``); its terms stay pinned."""
        key = self._lookup(*triple)
        matches = self._matches(key)
        if not matches or key in self.static:
            return
        key = self.dictionary.take(key, *triple)
        matches = self.index.taken_matches(key, matches)
        if not matches:  # two new terms only seemed equal
            self.dictionary.give_back(key)
            return
        self.static.add(key)
        components = self.components
        for number, found in matches.items():
            components[number][0].apply(INSERT, found)

    def insert_arrival(self, s: Term, p: Term, o: Term) -> tuple[Key, bool] | None:
        """Insert a triple: its ids and whether it was already held, or None when no pattern unifies or it is static."""
        dictionary = self.dictionary
        ids = dictionary.ids
        key = (ids.get(s), ids.get(p), ids.get(o))
        if key in self.static:
            self.static_updates_ignored += 1
            return None
        self.updates += 1
        matches = self._matches(key)
        if not matches:
            return None
        if None in key:  # a new term: the triple is not held
            key = dictionary.take(key, s, p, o)
            if self.index.repeats_a_variable or len(matches) > 1:
                matches = self.index.taken_matches(key, matches)
                if not matches:  # two new terms only seemed equal
                    self.dictionary.give_back(key)
                    return None
            else:  # one component: bind its pairs to the ids in place
                ((number, found),) = matches.items()
                positions = self.index.positions[number]
                matches[number] = [(j, tuple([key[i] for i in positions[j]])) for j, _ in found]
        else:
            number = next(iter(matches))
            if self.components[number][0].holds(matches[number]):
                return key, True
            uses = dictionary.uses
            uses[key[0]] += 1
            uses[key[1]] += 1
            uses[key[2]] += 1
        self._apply(INSERT, matches)
        return key, False

    def delete_key(self, key: tuple) -> None:
        """Delete the triple of ids ``key`` (a None id: a term the engine does not hold, so the triple is absent)."""
        if key in self.static:
            self.static_updates_ignored += 1
            return
        self.updates += 1
        if None in key:
            return
        matches = self._matches(key)
        if not matches:
            return
        number = next(iter(matches))
        if not self.components[number][0].holds(matches[number]):
            return
        self._apply(DELETE, matches)
        self.dictionary.give_back(key)

    def _apply(self, op: int, matches: dict[int, list]) -> None:
        """Apply one update the graph does not have yet (insert) or has (delete), component by component,
        recording each step's exact change of the product in the open event's changes."""
        before, after = self.before, self.after
        for number in sorted(matches) if len(matches) > 1 else matches:
            added, removed = self.components[number][0].apply(op, matches[number])
            if added:
                for answer in self._combine(number, added):
                    before.setdefault(answer, False)
                    after[answer] = True
            if removed:
                for answer in self._combine(number, removed):
                    before.setdefault(answer, True)
                    after[answer] = False

    def _decode_all(self, partials: Iterable[tuple]) -> list[tuple]:
        terms = self.dictionary.terms
        return [tuple([terms[number] for number in partial]) for partial in partials]

    def _combine(self, number: int, partials: list[tuple]) -> Iterable[Mapping]:
        """Full mappings: component ``number``'s changed answers times the others' current ones (Algorithm 3)."""
        components = self.components
        if self.whole:  # one component in the query's variable order: its answers are the full mappings
            terms, accept = self.dictionary.terms, self.top_filter
            for partial in partials:
                full = tuple([terms[number] for number in partial])
                if accept is None or accept(full):
                    yield full
            return
        else:
            # one empty component empties the product: ask every other one first, materialise none before
            if not all(evaluator.has_answers() for index, (evaluator, _) in enumerate(components) if index != number):
                return
            pools, slots = [], []
            for index, (evaluator, positions) in enumerate(components):
                pools.append(self._decode_all(partials if index == number else evaluator.answer_tuples()))
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

    def open_event(self) -> None:
        """Start an event's changes; the first event starts from the static-only answers (nothing was reported before)."""
        self.before, self.after = {}, {}
        if not self.started:
            self.started = True
            for answer in self._all_answers():
                self.before[answer] = False
                self.after[answer] = True

    def close_event(self) -> Delta:
        """The open event's changes, netted: an answer added then removed within the event is in neither list."""
        before, after = self.before, self.after
        self.before, self.after = {}, {}
        return Delta(
            added=[a for a, held in after.items() if held and not before[a]],
            removed=[a for a, held in after.items() if not held and before[a]],
        )

    def push(self, event: Event) -> Delta:
        self.open_event()
        insert, delete, ids = self.insert_arrival, self.delete_key, self.dictionary.ids
        for update in event.updates:
            if update.op == INSERT:
                insert(update.s, update.p, update.o)
            elif update.op == DELETE:
                delete((ids.get(update.s), ids.get(update.p), ids.get(update.o)))
            else:
                raise StreamError(f"event {event.index}: update op must be +1 or -1, got {update.op!r}")
        if not self.after:  # nothing changed (before has the same answers)
            return Delta([], [])
        return self.close_event()

    def _all_answers(self) -> Iterable[Mapping]:
        components = self.components
        pools = [self._decode_all(evaluator.answer_tuples()) for evaluator, _ in components]
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
        totals: Counter = Counter({"components": len(self.components), "static_triples": self.static_count,
                                   "terms": len(self.dictionary)})
        for evaluator, _ in self.components:
            totals.update(evaluator.stats())
        totals.update(updates=self.updates, static_updates_ignored=self.static_updates_ignored)
        return dict(totals)


class DeltaGenericEngine(DeltaEngine):
    name = "delta-generic"
    generic = True
