"""The Spark oracle at the edges of its interval logic: presences that touch, overlap, nest, leave for one instant or last one.

Each scenario is a few events of one query, ``?x p ?y . ?y q ?z``, and the instants at which its one
mapping ``(a, b, c)`` is an answer, worked out by hand from DESIGN.md section 2 (``X`` present,
``·`` absent). Spark's fixed cost per job is what makes a test slow, so the scenarios of one window
run as one stream: each has its own terms (``<http://ex/N/a>``), and its timestamps are shifted by a
multiple of the window's slide, which shifts τ_b by the same amount, so its answers at its own
instants are what they would be alone. The whole batch must also equal the plain oracle at every instant.
"""

from __future__ import annotations

from math import ceil

import pytest

from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from oracles.evaluate import oracle_answers

EX = "http://ex/"
QUERY = f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?y <{EX}q> ?z }}"
# (timestamp, updates) per event: "+ab" inserts (a p b), "-bc" deletes (b q c), "+f" inserts a triple no pattern matches
SCENARIOS = {
    "sliding:3:1": [  # an occurrence at ts stays while τ_j <= ts + 2
        ("overlap of one instant", [(0, "+ab"), (1, "+f"), (2, "+bc"), (3, "+f"), (4, "+f")], "··X··"),
        ("touching presences of two triples", [(0, "+ab"), (1, "+f"), (2, "+f"), (3, "+bc"), (4, "+f")], "·····"),
        ("nested, the outer from two touching occurrences",
         [(0, "+ab"), (1, "+f"), (2, "+bc"), (3, "+ab"), (4, "+f"), (5, "+f"), (6, "+f")], "··XXX··"),
        ("leaves for the smallest gap and returns",
         [(0, "+ab +bc"), (1, "+f"), (2, "+f"), (3, "+bc"), (4, "+ab"), (5, "+f"), (6, "+bc"), (7, "+f")], "XXX·XXX·"),
        ("equal timestamps", [(0, "+ab"), (0, "+bc"), (2, "+f"), (3, "+f")], "·XX·"),
        ("a static triple", [(0, "+ab"), (1, "+f"), (2, "+f"), (3, "+f")], "XXX·"),
    ],
    "tumbling:3": [  # the window restarts at every multiple of 3
        ("vanishes at the boundary and comes back",
         [(0, "+ab"), (1, "+bc"), (2, "+f"), (3, "+ab"), (4, "+bc"), (5, "+f"), (6, "+f")], "·XX·XX·"),
        ("equal timestamps before the boundary", [(0, "+ab"), (2, "+bc"), (2, "+f"), (3, "+f")], "·XX·"),
        ("lasts one instant", [(0, "+f"), (2, "+ab +bc"), (3, "+f")], "·X·"),
    ],
    "sliding:4:2": [  # τ_b(τ) = (⌊(τ − 4)/2⌋ + 1)·2
        ("negative timestamps", [(-3, "+ab +bc"), (-1, "+f"), (0, "+f"), (1, "+f")], "XX··"),
        ("the second occurrence outlives the first", [(0, "+ab"), (1, "+bc"), (2, "+f"), (3, "+f"), (4, "+f"), (5, "+f")], "·XXX··"),
        ("leaves for one instant and returns", [(1, "+ab +bc"), (2, "+f"), (4, "+f"), (5, "+ab +bc"), (6, "+f")], "XX·XX"),
    ],
    "event": [
        ("only when both arrive together", [(0, "+ab"), (1, "+ab +bc"), (2, "+bc"), (3, "+ab +bc")], "·X·X"),
        ("a static triple", [(0, "+ab"), (1, "+f"), (2, "+ab")], "X·X"),
    ],
    "unbounded": [  # the last update of a triple in an event decides
        ("deleted, re-inserted, deleted within events",
         [(0, "+ab +bc"), (1, "-ab"), (2, "+ab"), (3, "-bc +bc"), (4, "+bc -bc"), (5, "+bc"), (6, "-ab"), (7, "-ab")], "X·XX·X··"),
        ("a delete of an absent triple, then inserts", [(0, "+bc"), (1, "-ab +ab"), (2, "+ab -ab +ab"), (3, "-ab")], "·XX·"),
        ("a static triple survives its deletion", [(0, "+ab"), (1, "-bc"), (2, "-ab"), (3, "+ab")], "XX·X"),
    ],
}
TRIPLES = {"ab": ("a", "p", "b"), "bc": ("b", "q", "c"), "f": ("f", "r", "f")}


def term(scenario: int, name: str) -> str:
    return f"<{EX}{name}>" if name in ("p", "q", "r") else f"<{EX}{scenario}/{name}>"


def batch(window: str, slide: int) -> tuple[Stream, list[tuple[int, range, str]]]:
    """One stream holding every scenario of ``window``; per scenario its number, its positions and its pattern."""
    events, static, placed = [], [], []
    end = None
    for number, (name, steps, pattern) in enumerate(SCENARIOS[window]):
        assert len(steps) == len(pattern), name
        shift = 0 if end is None else ceil((end + 1 - steps[0][0]) / slide) * slide
        first = len(events)
        for ts, text in steps:
            updates = tuple(
                Update(INSERT if change[0] == "+" else DELETE, *(term(number, part) for part in TRIPLES[change[1:]]))
                for change in text.split()
            )
            events.append(Event(len(events), ts + shift, updates))
        end = events[-1].ts
        if "static" in name:
            static.append(tuple(term(number, part) for part in TRIPLES["bc"]))
        placed.append((number, range(first, len(events)), pattern))
    return Stream(tuple(events), tuple(static)), placed


SLIDES = {"sliding:3:1": 1, "tumbling:3": 3, "sliding:4:2": 2, "event": 1, "unbounded": 1}


@pytest.mark.spark
@pytest.mark.parametrize("window", sorted(SCENARIOS))
def test_each_scenario_has_its_worked_answers(spark, window):
    from oracles.spark import oracle_answers as spark_answers

    stream, placed = batch(window, SLIDES[window])
    query = parse_query(QUERY, window=window)
    actual = list(spark_answers(spark, query, stream))
    for number, positions, pattern in placed:
        name = SCENARIOS[window][number][0]
        target = tuple(term(number, part) for part in "abc")
        mine = {term(number, part) for part in "abcf"}
        seen = "".join(
            "X" if target in answers else "·"
            for _, _, answers in actual[positions.start:positions.stop]
        )
        strays = [m for _, _, answers in actual[positions.start:positions.stop] for m in answers if m != target and m[0] in mine]
        assert (seen, strays) == (pattern, []), f"{window}, {name}"
    assert actual == list(oracle_answers(query, stream, oracle="plain"))
