"""The TP-Join automaton (Definition 4.1, Algorithm 2): its final state holds exactly the pattern's mappings over the views that pass every FILTER.

States are the patterns in SortAndCombine order; state k's transition rule is (its view, the join
type, the state that bound its join variable). ``run`` is the traversal: each state's Join extends
the merged mappings ``r`` of the previous state with the rows of its view, and Proceed moves on
only when ``r`` is non-empty, so an empty join ends the run at once (early termination).

Joins. A merged mapping is a tuple of the values bound so far, in binding order (state k knows
statically where each of its variables sits). Equi-joins are hash-merge joins through the view's
Bidirectional MultiMap: a bound subject probes ``a_k`` (s-s and o-s joins), a bound object probes
the value table (s-o and o-o joins), both bound is one pair lookup, a constant subject or object is
a probe with the constant's persistent id. Complex FILTERs (two or more variables) are applied at
the first state where all their variables are bound, pruning ``r`` early (the paper's
SortMergeJoin after the hash join). A state that shares no variable with ``r`` but is tied to it by
a comparison FILTER (``?y < ?x``) is a sort-merge join: its view is sorted on the compared value and
each merged mapping takes the range that can pass, instead of the cross product; the FILTER is
then evaluated with SPARQL semantics on what the range holds, so the range need only be a superset.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engines.model.filters import compile_filters
from engines.model.stream import Expr, expr_variables, is_variable
from engines.tpjoin.partition import PatternShape
from engines.tpjoin.sortmerge import plan_sort_merge, sort_merge_join
from engines.tpjoin.views import View
from engines.tpjoin.wholegraph import scan_join


class State:
    """One automaton state: a pattern, its join type and the function that joins it into ``r``."""

    __slots__ = ("pattern", "join_type", "join_target", "join", "filters")

    def __init__(self, pattern: int, join_type: str, join_target: int | None, join, filters) -> None:
        self.pattern = pattern
        self.join_type = join_type  # e.g. "s-s", "o-s", "s-o", "o-o", "s+o", "scan", "sort-merge"
        self.join_target = join_target  # the state that bound the join variable (None: a scan)
        self.join = join
        self.filters = filters


class Automaton:
    """Definition 4.1 for one state order; ``run(r)`` is Algorithm 2's traversal from merged mappings ``r``."""

    def __init__(
        self,
        order: Sequence[int],
        shapes: Sequence[PatternShape],
        views: Sequence,
        variables: Sequence[str],
        complex_filters: Sequence[Expr],
        dictionary,
        *,
        seed: int | None = None,
        selector=None,
    ) -> None:
        self.order = tuple(order)
        bound: list[str] = [] if seed is None else shapes[seed].variables()
        bound_at: dict[str, tuple[int, int]] = {name: (-1, shapes[seed].pattern.index(name)) for name in bound}
        pending = list(complex_filters)
        self.seed_filter = None
        if seed is not None:
            self.seed_filter, pending = _ready(pending, bound, dictionary)
        self.states: list[State] = []
        for number, j in enumerate(self.order):
            shape = shapes[j]
            new_names = [name for name in shape.variables() if name not in bound]
            after = bound + new_names
            ready_filters, pending = _split_ready(pending, after, last=number == len(self.order) - 1)
            ready = decoded_test(ready_filters, after, dictionary) if ready_filters else None
            join, join_type, target = _compile_join(
                shape, views[j], bound, bound_at, ready, ready_filters, dictionary,
                None if selector is None else selector(j),
            )
            for name in new_names:
                bound_at[name] = (number, shape.pattern.index(name))
            bound = after
            self.states.append(State(j, join_type, target, join, ready))
        self.bound = tuple(bound)
        self.output = itemgetter(*[bound.index(name) for name in variables]) if len(variables) > 1 else None
        self._single = len(variables) == 1
        self._filter_none = None
        if not self.order and pending:
            self._filter_none, _ = _ready(pending, bound, dictionary, last=True)

    def run(self, merged: list[tuple]) -> list[tuple]:
        """Join and Proceed through every state; the merged mappings at the final state, or [] on an empty join."""
        if self.seed_filter is not None:
            merged = [m for m in merged if self.seed_filter(m)]
        for state in self.states:
            if not merged:
                return []  # Proceed refused: nothing can reach the final state
            merged = state.join(merged)
        if self._filter_none is not None:
            merged = [m for m in merged if self._filter_none(m)]
        return merged

    def mappings(self, merged: list[tuple]) -> list[tuple]:
        """Final merged mappings in the query's variable order."""
        if self.output is not None:
            return list(map(self.output, merged))
        if self._single:
            return merged
        return [() for _ in merged]

    def describe(self) -> list[str]:
        return [f"state {k}: pattern {s.pattern} {s.join_type} (target {s.join_target})" for k, s in enumerate(self.states)]


def _split_ready(pending: list[Expr], bound: list[str], last: bool = False) -> tuple[list[Expr], list[Expr]]:
    """(the FILTERs whose variables are all bound, or every one left at the last state; those still pending)."""
    names = set(bound)
    ready = [f for f in pending if last or expr_variables(f) <= names]
    return ready, [f for f in pending if not any(f is r for r in ready)]


def _ready(pending: list[Expr], bound: list[str], dictionary, last: bool = False):
    """(a test of merged mappings for the FILTERs ready at this point, or None; the FILTERs still pending)."""
    ready, pending = _split_ready(pending, bound, last)
    return (decoded_test(ready, bound, dictionary) if ready else None), pending


def decoded_test(filters: Sequence[Expr], bound: Sequence[str], dictionary):
    """FILTERs as a test of an encoded merged mapping: the variables they read are decoded, then SPARQL decides."""
    names = [name for name in bound if any(name in expr_variables(f) for f in filters)]
    positions = [bound.index(name) for name in names]
    test = compile_filters(filters, tuple(names))
    terms = dictionary.terms

    def holds(merged: tuple) -> bool:
        return test(tuple([terms[merged[i]] for i in positions]))

    return holds


def _source(item: str, bound: list[str], dictionary):
    """How a pattern position is known before the join: ("c", id), ("b", index in r) or ("n", None)."""
    if not is_variable(item):
        return "c", dictionary.encode(item)
    if item in bound:
        return "b", bound.index(item)
    return "n", None


def _compile_join(shape: PatternShape, view, bound, bound_at, ready, ready_filters, dictionary, select):
    s_item, p_item, o_item = shape.pattern
    s_kind, s_at = _source(s_item, bound, dictionary)
    o_kind, o_at = _source(o_item, bound, dictionary)
    p_kind, p_at = _source(p_item, bound, dictionary)
    same_so = is_variable(s_item) and s_item == o_item
    target = None
    for item, kind, letter in ((s_item, s_kind, "s"), (o_item, o_kind, "o")):
        if kind == "b":
            state, position = bound_at[item]
            target = state
            join_type = f"{'spo'[position]}-{letter}"
            break
    else:
        join_type = "s+o" if s_kind == "c" and o_kind == "c" else ("probe" if "c" in (s_kind, o_kind) else "scan")
    if s_kind != "n" and o_kind != "n" and join_type not in ("s+o",):
        join_type = f"{join_type}+pair"
    sort_merge = None
    if s_kind == "n" and o_kind == "n" and not same_so and ready_filters:
        sort_merge = plan_sort_merge(shape, bound, ready_filters)
    if sort_merge is not None:
        join_type = "sort-merge"
    if select is not None:  # E-CGPM*: scan the whole event at this state (``wholegraph``)
        if sort_merge is None:
            join = scan_join(shape, view, bound, select)
        else:
            join = _scanned_sort_merge(view, select, shape, s_kind, s_at, p_kind, p_at, o_kind, o_at, sort_merge, dictionary)
    elif view.predicates is None and not same_so and sort_merge is None:
        join = _fast_join(view.pairs, s_kind, s_at, o_kind, o_at)
    else:
        join = _general_join(view, shape, s_kind, s_at, p_kind, p_at, o_kind, o_at, same_so, sort_merge, dictionary)
    if ready is not None:
        inner = join

        def join(merged, inner=inner, keep=ready):
            return [m for m in inner(merged) if keep(m)]

    return join, join_type, target


def _fast_join(pairs, s_kind, s_at, o_kind, o_at):
    """Hash-merge joins for a constant-predicate view: the paper's s-s, o-s (probe a_k), s-o, o-o (probe values).

    The multimap's entries are read inline: a bare partner (a functional property's one value) extends
    the mapping without building a one-element sequence, a tuple or set is iterated in C.
    """
    values_of, keys_of = pairs.tables
    if s_kind != "n" and o_kind != "n":
        has = pairs.has

        def join(merged):
            return [m for m in merged if has(s_at if s_kind == "c" else m[s_at], o_at if o_kind == "c" else m[o_at])]
    elif s_kind == "c" or o_kind == "c":
        found = pairs.values_of if s_kind == "c" else pairs.keys_of
        constant = s_at if s_kind == "c" else o_at

        def join(merged):
            partners = found(constant)
            return [m + (partner,) for m in merged for partner in partners]
    elif s_kind != "n" or o_kind != "n":
        get, at = (values_of.get, s_at) if s_kind != "n" else (keys_of.get, o_at)

        def join(merged):
            out = []
            append = out.append
            for m in merged:
                partners = get(m[at])
                if partners is None:
                    continue
                kind = partners.__class__
                if kind is tuple or kind is set:
                    out.extend([m + (partner,) for partner in partners])
                else:
                    append(m + (partners,))
            return out
    else:
        def join(merged):
            every = list(pairs)
            return [m + pair for m in merged for pair in every]
    return join


def _scanned_sort_merge(graph, select, shape, s_kind, s_at, p_kind, p_at, o_kind, o_at, sort_merge, dictionary):
    """E-CGPM*'s sort-merge join: the scan's survivors, sorted and ranged as a view's rows would be."""

    def join(merged):
        scanned = View(with_predicates=True)
        for triple in select(graph.triples):
            scanned.add(triple)
        inner = _general_join(scanned, shape, s_kind, s_at, p_kind, p_at, o_kind, o_at, False, sort_merge, dictionary)
        return inner(merged)

    return join


def _general_join(view, shape, s_kind, s_at, p_kind, p_at, o_kind, o_at, same_so, sort_merge, dictionary):
    """Any other state: variable predicates, ``?x :p ?x``, sort-merge."""
    pairs, predicates = view.pairs, view.predicates
    p_item = shape.pattern[1]
    p_same = "s" if p_item == shape.pattern[0] else ("o" if p_item == shape.pattern[2] else None)
    p_new = p_kind == "n" and p_same is None

    def candidates(m):
        s = s_at if s_kind == "c" else (m[s_at] if s_kind == "b" else None)
        o = o_at if o_kind == "c" else (m[o_at] if o_kind == "b" else None)
        if same_so and o is None:
            o = s
        if s is not None and o is not None:
            return ((s, o),) if (s, o) in pairs else ()
        if s is not None:
            return [(s, value) for value in pairs.values_of(s)]
        if o is not None:
            return [(key, o) for key in pairs.keys_of(o)]
        return list(pairs)

    def extend(m, s, o, out):
        if same_so and s != o:
            return
        for p in (predicates[(s, o)] if predicates is not None else (None,)):
            if p is not None:
                if p_kind == "c" and p != p_at:
                    continue
                if p_kind == "b" and p != m[p_at]:
                    continue
                if p_same == "s" and p != s or p_same == "o" and p != o:
                    continue
            tail = ()
            if s_kind == "n":
                tail += (s,)
            if p_new:
                tail += (p,)
            if o_kind == "n" and not same_so:
                tail += (o,)
            out.append(m + tail)

    if sort_merge is not None:
        return sort_merge_join(sort_merge, pairs, extend, dictionary)

    def join(merged):
        out: list[tuple] = []
        for m in merged:
            for s, o in candidates(m):
                extend(m, s, o, out)
        return out

    return join
