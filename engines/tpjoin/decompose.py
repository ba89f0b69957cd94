"""Query decomposition into star and chain subqueries (section 3.4) and SortAndCombine: a join order in which each pattern joins what is already bound whenever the query allows it.

At query compilation the patterns are clustered into *stars* (patterns sharing a subject, variable
or constant) and the *chain* links between them (a pattern whose object is another star's subject:
an s-o join). At every execution (each event, or each seeded join of the incremental variant)
``sort_and_combine`` orders the patterns from the views' cardinalities:

1. the star with the smallest view starts (or the seed pattern's star, when new rows seed the join);
2. once a star's subject is bound, its remaining patterns follow, smallest view first (a star's
   patterns are consecutive states of the automaton, joined s-s);
3. otherwise the next star is the lightest one connected to what is bound (through a chain link
   or a shared object), entered by its smallest connected pattern; a pattern connected to nothing
   bound (a disconnected query) comes last among equals and is a cross product or, with a
   comparison FILTER, a sort-merge join.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.model.stream import TriplePattern, is_variable


@dataclass(frozen=True)
class Decomposition:
    stars: tuple[tuple[int, ...], ...]  # pattern indices by shared subject, in query order
    chains: tuple[tuple[int, int], ...]  # (i, k): pattern i's object is the subject of pattern k's star
    star_of: tuple[int, ...]  # pattern index -> its star
    subject_key: tuple[str, ...]  # pattern index -> its subject (a variable or a constant term)
    variables: tuple[frozenset[str], ...]  # pattern index -> its variables

    def describe(self) -> list[str]:
        lines = []
        for number, star in enumerate(self.stars):
            kind = "star" if len(star) > 1 else "single"
            lines.append(f"{kind} {number} on {self.subject_key[star[0]]}: patterns {list(star)}")
        for i, k in self.chains:
            lines.append(f"chain: pattern {i} object = subject of pattern {k} (s-o)")
        return lines


def decompose(patterns: Sequence[TriplePattern]) -> Decomposition:
    subject_key = tuple(pattern[0] for pattern in patterns)
    stars: dict[str, list[int]] = {}
    for index, key in enumerate(subject_key):
        stars.setdefault(key, []).append(index)
    star_list = tuple(tuple(members) for members in stars.values())
    star_number = {key: number for number, key in enumerate(stars)}
    chains = tuple(
        (i, stars[pattern[2]][0])
        for i, pattern in enumerate(patterns)
        if is_variable(pattern[2]) and pattern[2] in stars and pattern[2] != pattern[0]
    )
    return Decomposition(
        stars=star_list,
        chains=chains,
        star_of=tuple(star_number[key] for key in subject_key),
        subject_key=subject_key,
        variables=tuple(frozenset(item for item in pattern if is_variable(item)) for pattern in patterns),
    )


def sort_and_combine(decomposition: Decomposition, sizes: Sequence[int], seed: int | None = None) -> tuple[int, ...]:
    """The automaton's state order for views of these sizes; ``seed`` (a pattern index) is bound first and left out."""
    count = len(sizes)
    star_weight = [min(sizes[j] for j in star) for star in decomposition.stars]
    star_of, variables, subject_key = decomposition.star_of, decomposition.variables, decomposition.subject_key
    remaining = [j for j in range(count) if j != seed]
    bound: set[str] = set()
    open_subjects: set[str] = set()
    if seed is not None:
        bound |= variables[seed]
        open_subjects.add(subject_key[seed])
    order: list[int] = []
    while remaining:
        in_star = [j for j in remaining if subject_key[j] in open_subjects]
        if in_star:
            choice = min(in_star, key=lambda j: (sizes[j], j))
        else:
            connected = [j for j in remaining if variables[j] & bound]
            pool = connected or remaining
            choice = min(pool, key=lambda j: (star_weight[star_of[j]], sizes[j], j))
        remaining.remove(choice)
        order.append(choice)
        bound |= variables[choice]
        open_subjects.add(subject_key[choice])
    return tuple(order)
