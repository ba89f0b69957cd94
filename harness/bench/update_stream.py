"""The regression suite's insert/delete stream is the same rows at every run: LUBM(1)'s triples inserted, then single updates of which a seeded quarter delete a live triple.

No generator makes deletions (they stream what a dataset describes), yet the delta engines' hot path is the
maintenance of an answer under deletes of an unbounded window. ``write_update_stream`` makes that stream from the
LUBM generator's own triples (``generators.lubm``, UBA 1.7's order, seed 0, duplicates dropped): a prefix of
``PREFIX_TRIPLES`` inserted in events of ``PREFIX_BATCH``, then ``TAIL_EVENTS`` events of one update each, a share
``DELETE_SHARE`` of them deleting a triple drawn from the live graph (``random.Random(SEED)``) and the rest inserting
the next unseen triple, so the live graph stays near the prefix's size. One millisecond per event; run it with an
``unbounded`` window. ``ensure_update_stream`` writes it into a stream cache once and leaves it there, as
``harness.bench.datasets`` keeps generated streams; ``stream.json`` names the recipe, so a changed recipe is refused
rather than silently mixed with old figures.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from common.errors import ConfigError

NAME = "regress-lubm-updates"
RECIPE = "harness/bench/update_stream.py v1"
PREFIX_TRIPLES = 5_000
PREFIX_BATCH = 100
TAIL_EVENTS = 20_000
DELETE_SHARE = 0.25
SEED = 0


def lubm_triples(count: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """The first ``count`` distinct triples of LUBM(n, seed) in UBA's order, n as large as needed."""
    from generators.lubm.render import sections
    from generators.lubm.uba import ONTOLOGY, plan_university

    seen: dict = {}
    university = 0
    while len(seen) < count:
        for section in sections(plan_university(university, seed), ONTOLOGY):
            for triple in section:
                seen.setdefault(triple, None)
        university += 1
    return list(seen)[:count]


def update_events(prefix: int = PREFIX_TRIPLES, tail: int = TAIL_EVENTS, share: float = DELETE_SHARE,
                  seed: int = SEED) -> list[list[tuple[int, tuple[str, str, str]]]]:
    """The stream's events, each a list of (op, triple): the prefix's inserts, then one update an event."""
    from engines.model.stream import DELETE, INSERT

    triples = lubm_triples(prefix + tail, seed)
    live, fresh = triples[:prefix], iter(triples[prefix:])
    events = [[(INSERT, triple) for triple in live[start:start + PREFIX_BATCH]]
              for start in range(0, prefix, PREFIX_BATCH)]
    rng = random.Random(seed)
    for _ in range(tail):
        if live and rng.random() < share:
            index = rng.randrange(len(live))  # swap-remove: a uniform draw from the live graph, O(1)
            live[index], live[-1] = live[-1], live[index]
            events.append([(DELETE, live.pop())])
        else:
            triple = next(fresh)
            live.append(triple)
            events.append([(INSERT, triple)])
    return events


def provenance(events: list) -> dict:
    updates = [update for event in events for update in event]
    return {"dataset": "lubm-updates", "recipe": RECIPE, "generator": "harness/bench/update_stream.py",
            "description": "LUBM(1) triples inserted, then single updates, a quarter of them deletes; an unbounded "
                           "window only", "prefix_triples": PREFIX_TRIPLES, "tail_events": TAIL_EVENTS,
            "delete_share": DELETE_SHARE, "seed": SEED, "events": len(events), "updates": len(updates),
            "deletes": sum(1 for op, _ in updates if op < 0)}


def write_update_stream(target: str | Path) -> Path:
    from engines.model.stream import Event, Stream, Update
    from harness.streams.parquet_io import write_stream

    events = update_events()
    stream = Stream(events=tuple(Event(index, index, tuple(Update(op, *triple) for op, triple in updates))
                                 for index, updates in enumerate(events)), provenance=provenance(events))
    return write_stream(stream, target)


def ensure_update_stream(cache: str | Path) -> Path:
    """``cache``/``NAME``, written when missing; a ConfigError when it holds another recipe's stream."""
    target = Path(cache) / NAME
    info = target / "stream.json"
    if not info.is_file():
        return write_update_stream(target)
    try:
        recipe = json.loads(info.read_text(encoding="utf-8")).get("recipe")
    except (OSError, ValueError) as error:
        raise ConfigError(f"cannot read {info}: {error}") from None
    if recipe != RECIPE:
        raise ConfigError(f"{target} holds a stream made by {recipe!r}, not {RECIPE!r}: delete it to make it again")
    return target
