"""Per-update cost of the delta engines against live graph size, per query class: Table 3 of Gergatsoulis and Damigos, measured.

Each cell (engine, query class, live size N) runs in a fresh process: it loads N distinct random
triples drawn from the class's workload (not timed), then times a stream of single-update events
that keeps the graph near N triples: with probability ``--delete-ratio`` a live triple is deleted,
else a fresh random triple is inserted. Reported per cell: CPU microseconds per update (best of
``--repeats`` runs over the same updates on fresh engines; CPU time because the machine is
shared, wall time is in the JSON too), answers changed per update, the
engine's structure sizes and the bytes it holds after loading (tracemalloc, one extra untimed load:
the engine's structures, not the interned terms, which the stream itself owns). The closing summary gives,
per engine and class, the cost at the largest size over the cost at the smallest (flat = 1), and
``delta-generic`` over ``delta`` at each size. ``reeval`` and ``oxigraph`` can be added with
``--engines`` (they re-evaluate the whole query per update, so give them small sizes).

    python benchmarks/bench_delta.py --sizes 1000,10000,100000 --updates 2000 --json out.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass

EX = "http://ex/"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


@dataclass(frozen=True)
class Workload:
    """A query of one class and the random triples its graph is made of."""

    query: str
    kind: str  # triple generator: "noise", "entities" or "edges"


WORKLOADS = {
    "ground": Workload(":n1 :p0 :n2 . :n2 :p1 :n3 .", "edges"),
    "simple-star": Workload("?x :type :C1 . ?x :color :red . ?x :size :big .", "entities"),
    "loosely-connected": Workload("?x :type :C1 . ?x :color :red . :hub :knows ?y . ?y :size :big .", "entities"),
    "var-connected-chain": Workload("?x :p0 ?y . ?y :p0 ?z .", "edges"),
    "var-connected-triangle": Workload("?x :p0 ?y . ?y :p0 ?z . ?z :p0 ?x .", "edges"),
    # 500 nodes whatever N: the degree, and so each update's join work and output, grow with N
    "var-connected-dense": Workload("?x :p0 ?y . ?y :p0 ?z .", "dense"),
}


def triple_source(kind: str, size: int, rng: random.Random):
    """A function drawing one random triple of the workload at live size ``size``."""
    if kind in ("edges", "dense"):  # four predicates; "edges": size/4 nodes, about one p0 edge out of each
        nodes = [iri(f"n{i}") for i in range(max(size // 4, 4) if kind == "edges" else 500)]
        predicates = [iri(f"p{i}") for i in range(4)]
        return lambda: (rng.choice(nodes), rng.choice(predicates), rng.choice(nodes))
    entities = [iri(f"e{i}") for i in range(max(size // 3, 3))]
    properties = [
        (iri("type"), [iri(f"C{i}") for i in range(10)]),
        (iri("color"), [iri(c) for c in ("red", "green", "blue")]),
        (iri("size"), [iri(s) for s in ("big", "small")]),
    ]
    hub_knows = iri("knows")

    def draw():
        if rng.random() < 0.02:
            return (iri("hub"), hub_knows, rng.choice(entities))
        predicate, values = rng.choice(properties)
        return (rng.choice(entities), predicate, rng.choice(values))

    return draw


def make_updates(workload: Workload, size: int, count: int, delete_ratio: float, seed: int):
    """The N loaded triples and the timed update list (op, triple)."""
    rng = random.Random(seed)
    draw = triple_source(workload.kind, size, rng)
    live: dict = {}
    while len(live) < size:  # (dense: 500 nodes hold 10^6 possible triples, so N <= 10^5 is reachable)
        live.setdefault(draw(), None)
    loaded = list(live)
    current = list(loaded)
    positions = {t: i for i, t in enumerate(current)}
    updates = []
    for _ in range(count):
        if current and rng.random() < delete_ratio:
            index = rng.randrange(len(current))
            triple = current[index]
            last = current.pop()
            if index < len(current):
                current[index] = last
                positions[last] = index
            del positions[triple]
            updates.append((-1, triple))
        else:
            triple = draw()
            if triple not in positions:
                positions[triple] = len(current)
                current.append(triple)
            updates.append((1, triple))
    return loaded, updates


def run_cell(engine_name: str, class_name: str, size: int, count: int, delete_ratio: float, repeats: int, seed: int) -> dict:
    from engines.model.query import parse_query
    from engines.model.stream import Event, Update
    from engines.registry import get_engine

    workload = WORKLOADS[class_name]
    query = parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ {workload.query} }}", window="unbounded", name=class_name)
    loaded, updates = make_updates(workload, size, count, delete_ratio, seed)
    engine_cls = LOCAL_ENGINES.get(engine_name) or get_engine(engine_name)
    events = [Event(i + 1, i + 1, (Update(op, *triple),)) for i, (op, triple) in enumerate(updates)]
    best = best_wall = float("inf")
    changed = 0
    stats: dict = {}
    for _ in range(repeats):
        engine = engine_cls(query)
        for start in range(0, len(loaded), 5000):
            engine.push(Event(0, 0, tuple(Update(1, *t) for t in loaded[start:start + 5000])))
        changed = 0
        began, began_wall = time.process_time(), time.perf_counter()
        for event in events:
            delta = engine.push(event)
            changed += len(delta.added) + len(delta.removed)
        best = min(best, time.process_time() - began)
        best_wall = min(best_wall, time.perf_counter() - began_wall)
        stats = engine.stats()
        del engine
    import tracemalloc

    tracemalloc.start()
    engine = engine_cls(query)
    for start in range(0, len(loaded), 5000):
        engine.push(Event(0, 0, tuple(Update(1, *t) for t in loaded[start:start + 5000])))
    held_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {
        "engine": engine_name, "engine_bytes": held_bytes, "class": class_name, "live_triples": size, "updates": count,
        "delete_ratio": delete_ratio, "us_per_update": best / count * 1e6, "wall_us_per_update": best_wall / count * 1e6,
        "answers_changed_per_update": changed / count, "stats": stats,
    }


def _local_engines() -> dict:
    from engines.delta import DeltaEngine, DeltaGenericEngine

    return {"delta": DeltaEngine, "delta-generic": DeltaGenericEngine}


LOCAL_ENGINES: dict = {}  # filled in the cell's process: works before the registry lists the delta engines


def _cell(arguments):
    LOCAL_ENGINES.update(_local_engines())
    return run_cell(*arguments)


def summarise(rows: list[dict]) -> list[str]:
    lines = []
    by_key = {(r["engine"], r["class"], r["live_triples"]): r for r in rows}
    sizes = sorted({r["live_triples"] for r in rows})
    for engine in sorted({r["engine"] for r in rows}):
        for klass in WORKLOADS:
            small, large = by_key.get((engine, klass, sizes[0])), by_key.get((engine, klass, sizes[-1]))
            if small and large:
                ratio = large["us_per_update"] / small["us_per_update"]
                lines.append(f"{engine:<14} {klass:<24} cost at {sizes[-1]:>7} / at {sizes[0]:>5}: {ratio:6.2f}x")
    for row in rows:  # Prop. 2: a simple star holds one record per central instance
        records = row["stats"].get("star_records")
        if row["class"] == "simple-star" and records:
            lines.append(
                f"{row['engine']:<14} simple-star at {row['live_triples']:>7}: {records} central-instance records, "
                f"{row['engine_bytes'] / records:6.1f} bytes each"
            )
    for klass in WORKLOADS:
        for size in sizes:
            fast, generic = by_key.get(("delta", klass, size)), by_key.get(("delta-generic", klass, size))
            if fast and generic:
                ratio = generic["us_per_update"] / fast["us_per_update"]
                lines.append(f"delta-generic / delta  {klass:<24} at {size:>7}: {ratio:6.2f}x")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="live triple counts, comma-separated")
    parser.add_argument("--classes", default=",".join(WORKLOADS), help="query classes, comma-separated")
    parser.add_argument("--engines", default="delta,delta-generic", help="engines, comma-separated")
    parser.add_argument("--updates", type=int, default=2000, help="timed single-update events per cell")
    parser.add_argument("--delete-ratio", type=float, default=0.5, help="share of timed updates that delete")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per cell; the best is kept")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", help="write the cells and summary to this file")
    args = parser.parse_args(argv)
    cells = [
        (engine, klass, int(size), args.updates, args.delete_ratio, args.repeats, args.seed)
        for klass in args.classes.split(",") for size in args.sizes.split(",") for engine in args.engines.split(",")
    ]
    rows = []
    context = multiprocessing.get_context("spawn")  # a fresh process per cell, one at a time
    for cell in cells:
        with context.Pool(1) as pool:
            row = pool.apply(_cell, (cell,))
        rows.append(row)
        print(
            f"{row['engine']:<14} {row['class']:<24} N={row['live_triples']:>7}  {row['us_per_update']:9.1f} us/update  "
            f"{row['answers_changed_per_update']:8.2f} answers/update  {row['engine_bytes'] / 2**20:7.2f} MB held  {row['stats']}",
            flush=True,
        )
    summary = summarise(rows)
    print("\n".join(summary))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"cells": rows, "summary": summary, "args": vars(args)}, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
