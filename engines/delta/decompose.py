"""A query's class and decompositions follow the paper's Defs. 6-13 and Props. 4-5, generalised only where the paper stops.

Gergatsoulis and Damigos consider subject/object variables only (their footnote 1 leaves out
predicate variables). The generalisation used here, and named in ``explain``:

- two variables are *connected* when they occur in one triple pattern (for the paper's patterns
  that is "a triple whose subject is one and object the other", Def. 9); the connected-variable
  partition is the set of connected components, and the connected-variable decomposition
  (Def. 10) gives one subquery per component plus the ground subquery ``Q_G``;
- the star decomposition (Def. 13) has one star per variable: the patterns holding that variable
  in any position (for the paper's queries, exactly its stars over the node variables).

A component is a *simple var-centric star* (Def. 6) when it has one variable, never in predicate
position, and every pattern has a constant at the other end (so no ``?x :p ?x``). A component with
two or more variables and no predicate variable is *var-connected* (Defs. 8, 12). Anything else
(predicate variables; a lone variable with a self-loop) is outside the paper's classes and runs on
the generic algorithm (Algorithms 5-7), which handles every shape.
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.model.stream import Triple, TriplePattern, is_variable

GROUND = "ground"
SIMPLE_STAR = "simple var-centric star"
LOOSELY_CONNECTED = "loosely-connected"
VAR_CONNECTED = "var-connected"
GENERAL = "general BGP"
OUTSIDE = "outside the paper's classes"

KIND_SIMPLE_STAR = "simple-star"
KIND_VAR_CONNECTED = "var-connected"
KIND_GENERIC = "generic"


def pattern_variables(pattern: TriplePattern) -> tuple[str, ...]:
    """The pattern's distinct variables, in position order (subject, predicate, object)."""
    seen: list[str] = []
    for position in pattern:
        if is_variable(position) and position not in seen:
            seen.append(position)
    return tuple(seen)


def compile_matcher(pattern: TriplePattern, encode: Callable[[str], object] | None = None) -> Callable[[tuple], tuple | None]:
    """A function unifying a data triple with ``pattern``: the values of ``pattern_variables(pattern)``, or None.

    With ``encode``, the triple is one of term ids and each constant of ``pattern`` is compared as ``encode(constant)``.
    """
    variables = pattern_variables(pattern)
    constants = tuple((i, term if encode is None else encode(term)) for i, term in enumerate(pattern) if not is_variable(term))
    first = {var: pattern.index(var) for var in variables}
    equal = tuple((i, first[term]) for i, term in enumerate(pattern) if is_variable(term) and first[term] != i)
    slots = tuple(first[var] for var in variables)
    bind = operator.itemgetter(*slots) if len(slots) > 1 else lambda triple: tuple([triple[i] for i in slots])
    if not equal and len(constants) == 2:  # the usual shape (one variable, two constants): unrolled
        (a, term_a), (b, term_b) = constants
        (slot,) = slots

        def match_two(triple: Triple) -> tuple | None:
            if triple[a] != term_a or triple[b] != term_b:
                return None
            return (triple[slot],)

        return match_two

    def match(triple: Triple) -> tuple | None:
        for i, term in constants:
            if triple[i] != term:
                return None
        for i, j in equal:  # a variable repeated in the pattern binds one value
            if triple[i] != triple[j]:
                return None
        return bind(triple)

    return match


def connected_variable_partition(patterns: Sequence[TriplePattern], order: Sequence[str]) -> list[tuple[str, ...]]:
    """Def. 9: variables joined by patterns that hold both, as components in ``order`` of first variable."""
    parent = {var: var for var in order}

    def root(var: str) -> str:
        while parent[var] != var:
            parent[var] = parent[parent[var]]
            var = parent[var]
        return var

    for pattern in patterns:
        variables = pattern_variables(pattern)
        for other in variables[1:]:
            parent[root(other)] = root(variables[0])
    groups: dict[str, list[str]] = {}
    for var in order:
        groups.setdefault(root(var), []).append(var)
    return [tuple(group) for group in groups.values()]


@dataclass(frozen=True)
class Component:
    """One non-ground subquery of the connected-variable decomposition, with its kind and why."""

    variables: tuple[str, ...]
    patterns: tuple[TriplePattern, ...]
    kind: str
    reason: str


def component_kind(variables: tuple[str, ...], patterns: Sequence[TriplePattern]) -> tuple[str, str]:
    predicate_vars = sorted({p[1] for p in patterns if is_variable(p[1])})
    if predicate_vars:
        return KIND_GENERIC, f"predicate variable {', '.join(predicate_vars)} (the paper has none): generic algorithm"
    if len(variables) == 1:
        (var,) = variables
        if all((p[0] == var) != (p[2] == var) for p in patterns):
            return KIND_SIMPLE_STAR, f"one variable {var}, a constant at the other end of every pattern (Def. 6)"
        return KIND_GENERIC, f"{var} is adjacent to itself (self-loop), so not a simple star (Def. 6): generic algorithm"
    return KIND_VAR_CONNECTED, "two or more variables joined by constant-free paths (Defs. 8, 12)"


def connected_variable_decomposition(
    patterns: Sequence[TriplePattern], order: Sequence[str]
) -> tuple[tuple[TriplePattern, ...], list[Component]]:
    """Def. 10: the ground subquery ``Q_G`` and one classified subquery per connected-variable component."""
    ground = tuple(p for p in patterns if not pattern_variables(p))
    components = []
    for group in connected_variable_partition(patterns, order):
        members = set(group)
        own = tuple(p for p in patterns if members & set(pattern_variables(p)))
        kind, reason = component_kind(group, own)
        components.append(Component(group, own, kind, reason))
    return ground, components


def query_class(ground: Sequence[TriplePattern], components: Sequence[Component]) -> str:
    """The paper's class of the whole query (Defs. 6, 8, 11, 12), or GENERAL / OUTSIDE."""
    if not components:
        return GROUND
    if any(c.kind == KIND_GENERIC for c in components):
        return OUTSIDE
    if all(c.kind == KIND_SIMPLE_STAR for c in components):
        return SIMPLE_STAR if len(components) == 1 and not ground else LOOSELY_CONNECTED
    if len(components) == 1 and not ground:
        return VAR_CONNECTED
    return GENERAL


# ---------------------------------------------------------------- star decomposition (Def. 13)


@dataclass(frozen=True)
class Star:
    """The generalised star of ``central``: indices of the patterns holding it (Def. 13)."""

    central: str
    patterns: tuple[int, ...]


def star_decomposition(patterns: Sequence[TriplePattern], variables: Sequence[str]) -> list[Star]:
    return [
        Star(var, tuple(j for j, p in enumerate(patterns) if var in pattern_variables(p))) for var in variables
    ]


def maximal_stars(stars: Sequence[Star]) -> list[Star]:
    """The stars whose pattern set is in no other star's (the first of equal ones): the others' checks are theirs."""
    kept = []
    for k, star in enumerate(stars):
        own = set(star.patterns)
        if own and not any(
            own < set(other.patterns) or (own == set(other.patterns) and m < k)
            for m, other in enumerate(stars) if m != k
        ):
            kept.append(star)
    return kept


def overlap_graph(stars: Sequence[Star]) -> list[set[int]]:
    """The overlapping-subqueries graph (Sec. 6.5): stars sharing at least one pattern are adjacent."""
    adjacent: list[set[int]] = [set() for _ in stars]
    for a, star in enumerate(stars):
        for b in range(a + 1, len(stars)):
            if set(star.patterns) & set(stars[b].patterns):
                adjacent[a].add(b)
                adjacent[b].add(a)
    return adjacent


def ordered_array(stars: Sequence[Star], adjacent: Sequence[set[int]], first: Sequence[str]) -> list[int]:
    """Prop. 5's ``findOrderedArray``: stars centred on ``first`` lead, then breadth-first over the overlap graph.

    When the graph is not connected (only in the generic variant, or for no-seed enumeration) the
    unreached stars follow, each unreached one starting a new breadth-first run.
    """
    leading = [i for i, star in enumerate(stars) if star.central in first]
    order: list[int] = []
    seen: set[int] = set()
    for start in leading + list(range(len(stars))):
        if start in seen:
            continue
        seen.add(start)
        queue = deque([start])
        order.append(start)
        while queue:
            for nxt in sorted(adjacent[queue.popleft()]):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
                    order.append(nxt)
    # the stars centred on ``first`` take the first positions (Prop. 5, item 1); they share the seed
    # pattern, so moving them forward keeps every later star after one it overlaps (item 2)
    return [i for i in order if i in leading] + [i for i in order if i not in leading]
