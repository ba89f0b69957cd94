"""Per-update cost of delta, delta-generic, reeval and oxigraph on LUBM update streams, per query class and deletion ratio.

The data are the LUBM generator's (``generators.lubm``, the pure-Python UBA 1.7 port, seed 0),
distinct triples in UBA's stream order. A cell is one (engine, query class, live size N) and runs
in a fresh process: it inserts the stream's first N triples (the prefix, untimed, in events of
20 000 updates), then, for each deletion ratio r, times a measured phase of single-update events
in which a share r are deletes of live triples (drawn uniformly from the current graph) and the rest
inserts of the stream's next, not yet loaded, triples, so the live size stays near N. Two streams
are timed: ``all`` (the generator's own mix, where most updates miss every query pattern) and
``matching`` (only triples unifying with some pattern of the query: the algorithms' own work; the
ground query has no fresh matching triple, so it has no such stream). Each phase is
run ``--repeats`` times on the same graph: after a timed run its updates are undone in reverse
order (untimed; every update of the phase changes the graph, so the inverse restores it exactly),
and the median CPU time is kept (CPU because the two cores are shared; wall time is in the JSON).

The queries are ``benchmarks/queries/delta-lubm/*.rq`` (``cgpm explain`` prints their class; the
cell checks the class with the engine's own decomposition before timing). ``reeval`` and
``oxigraph`` re-evaluate the whole query after each update, so they run fewer updates
(``--baseline-updates``) and only up to ``--reeval-max-size`` / ``--oxigraph-max-size``; a cell past ``--cell-timeout``
seconds is recorded as timed out. For the star class, the delta engines' memory is measured
(tracemalloc over the prefix load, a separate untimed pass, less what the empty engine holds) next
to the number of central-node instances counted from the data, to check Prop. 2. Before each timed run, every
engine of a cell also runs one untimed check phase of ``--baseline-updates`` updates (drawn as a measured phase is,
so the same for every engine) and undoes it: its answer digest (``harness.bench.answers``, instants numbered from
0) is the repetition's ``answer_digest``, which ``cgpm reproduce delta`` compares across the engines of a claim
(``--check-updates`` sets its length: at 10 updates most cells change no answer, 0 to 4 in 1,000 on LUBM, so their
digests are empty and their claims measure no answers).

    python benchmarks/bench_delta_generated.py --sizes 10000,100000,1000000 --json delta-lubm.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

from harness.bench.update_stream import lubm_triples

QUERY_DIR = Path(__file__).parent / "queries" / "delta-lubm"
CLASSES = {  # query file -> the class the delta engine must find for it
    "ground": "ground",
    "simple-star": "simple var-centric star",
    "loosely-connected": "loosely-connected",
    "loosely-connected-product": "loosely-connected",  # its answer product grows with N
    "var-connected": "var-connected",
}
DELTA_ENGINES = ("delta", "delta-generic")
LOAD_BATCH = 20_000
FRESH_TRIPLES = 450_000  # generated past the prefix: the source of the measured phases' inserts


def measured_phase(deletable: list, fresh: list, count: int, delete_ratio: float, seed: int) -> list[tuple[int, tuple]] | None:
    """``count`` updates: a share ``delete_ratio`` deletes of live ``deletable`` triples, the rest inserts of ``fresh`` in order.

    None when ``fresh`` is too short. A delete drawn while no deletable triple is live becomes an insert.
    """
    rng = random.Random(seed)
    deletes = set(rng.sample(range(count), round(count * delete_ratio)))
    if len(fresh) < count:
        return None
    live = list(deletable)
    next_fresh = iter(fresh)
    updates = []
    for step in range(count):
        if step in deletes and live:
            index = rng.randrange(len(live))
            live[index], live[-1] = live[-1], live[index]
            updates.append((-1, live.pop()))
        else:
            triple = next(next_fresh)
            live.append(triple)
            updates.append((1, triple))
    return updates


def central_instances(query, triples) -> int:
    """Prop. 2's count: distinct values of a star's central variable matching at least one of its patterns."""
    from engines.delta.decompose import compile_matcher

    matchers = [compile_matcher(pattern) for pattern in query.patterns]
    centers = set()
    for triple in triples:
        for match in matchers:
            binding = match(triple)
            if binding is not None:
                centers.add(binding[0])
    return len(centers)


def _load(engine_cls, query, triples):
    from engines.model.stream import Event, Update

    engine = engine_cls(query)
    for start in range(0, len(triples), LOAD_BATCH):
        engine.push(Event(0, 0, tuple(Update(1, *t) for t in triples[start:start + LOAD_BATCH])))
    return engine


def checked_phase(engine, events: list, undo: list) -> dict:
    """The answer digest of ``events`` (instants numbered from 0), then the graph restored by ``undo``: every engine of a
    cell runs the same check phase, so their digests must be equal whatever their timed phases' lengths."""
    from harness.bench.answers import AnswerDigest

    digest = AnswerDigest()
    for instant, event in enumerate(events):
        delta = engine.push(event)
        if delta.added or delta.removed:
            digest.record(instant, delta)
    for event in undo:
        engine.push(event)
    return digest.columns()


def run_cell(engine_name: str, class_name: str, size: int, updates: int, ratios: list[float], repeats: int, seed: int,
             check_updates: int = 0) -> dict:
    from engines.delta.decompose import compile_matcher, connected_variable_decomposition, query_class
    from engines.model.query import load_query
    from engines.model.stream import Event, Update
    from engines.registry import get_engine

    query = load_query(QUERY_DIR / f"{class_name}.rq", window="unbounded")
    ground, parts = connected_variable_decomposition(query.patterns, query.variables)
    found = query_class(ground, parts)
    if found != CLASSES[class_name]:
        raise SystemExit(f"query {class_name}.rq is {found!r}, not {CLASSES[class_name]!r}")
    data = lubm_triples(size + FRESH_TRIPLES, seed=0)
    prefix, fresh = data[:size], data[size:]
    matchers = [compile_matcher(pattern) for pattern in query.patterns]

    def matches(triple) -> bool:
        return any(match(triple) is not None for match in matchers)

    streams = {  # "all": the generator's own mix; "matching": only triples unifying with a query pattern
        "all": (prefix, fresh),
        "matching": ([t for t in prefix if matches(t)], [t for t in fresh if matches(t)]),
    }
    engine_cls = get_engine(engine_name)
    row: dict = {"engine": engine_name, "class": class_name, "live_triples": size, "updates": updates, "repeats": repeats}
    began = time.process_time()
    engine = _load(engine_cls, query, prefix)
    row["load_cpu_s"] = time.process_time() - began
    row["answers_after_load"] = sum(engine.answers().values())
    row["phases"] = {}
    clock = 1

    def events(updates, clock: int) -> tuple[list, int]:
        built = [Event(clock + i, clock + i, (Update(op, *t),)) for i, (op, t) in enumerate(updates)]
        return built, clock + len(built)

    for stream_kind, (deletable, insertable) in streams.items():
        for ratio in ratios:
            phase = measured_phase(deletable, insertable, updates, ratio, seed)
            key = f"{stream_kind}:{ratio}"
            if phase is None:
                row["phases"][key] = {"status": f"not applicable: {len(insertable)} fresh {stream_kind} triples"}
                continue
            cpu, wall, changed, answers = [], [], 0, []
            check = measured_phase(deletable, insertable, check_updates, ratio, seed) if check_updates else None
            for _ in range(repeats):
                if check:  # untimed: the same updates for every engine, whose answers are compared by digest
                    forward, clock = events(check, clock)
                    backward, clock = events(((-op, t) for op, t in reversed(check)), clock)
                    answers.append(checked_phase(engine, forward, backward))
                forward, clock = events(((op, t) for op, t in phase), clock)  # timestamps must only grow
                backward, clock = events(((-op, t) for op, t in reversed(phase)), clock)
                changed = 0
                start_cpu, start_wall = time.process_time(), time.perf_counter()
                for event in forward:
                    delta = engine.push(event)
                    changed += len(delta.added) + len(delta.removed)
                cpu.append(time.process_time() - start_cpu)
                wall.append(time.perf_counter() - start_wall)
                for event in backward:
                    engine.push(event)
            row["phases"][key] = {
                "us_per_update": statistics.median(cpu) / updates * 1e6,
                "wall_us_per_update": statistics.median(wall) / updates * 1e6,
                "cpu_s_runs": cpu,
                "deletes": sum(op < 0 for op, _ in phase),
                "matching_updates": sum(matches(t) for _, t in phase),
                "answers_changed_per_update": changed / updates,
                "answers_runs": answers,
            }
    row["stats"] = engine.stats() if hasattr(engine, "stats") else {}
    del engine
    if class_name == "simple-star" and engine_name in DELTA_ENGINES:
        import gc
        import tracemalloc

        engine_cls(query)  # imports and caches made on first use are not the engine's structures
        gc.collect()
        tracemalloc.start()
        engine = engine_cls(query)
        gc.collect()
        empty_bytes = tracemalloc.get_traced_memory()[0]
        for start in range(0, len(prefix), LOAD_BATCH):
            engine.push(Event(0, 0, tuple(Update(1, *t) for t in prefix[start:start + LOAD_BATCH])))
        gc.collect()
        row["engine_bytes"] = tracemalloc.get_traced_memory()[0] - empty_bytes  # what the data made it hold
        tracemalloc.stop()
        row["central_instances"] = central_instances(query, prefix)
    return row


def run_cell_with_timeout(cell: tuple, timeout: float) -> dict:
    context = multiprocessing.get_context("spawn")  # a fresh process per cell, one at a time
    pool = context.Pool(1)
    try:
        return pool.apply_async(run_cell, cell).get(timeout)
    except multiprocessing.TimeoutError:
        engine, klass, size = cell[:3]
        return {"engine": engine, "class": klass, "live_triples": size, "status": f"timed out after {timeout:.0f} s"}
    finally:
        pool.terminate()
        pool.join()


STREAM_KINDS = ("all", "matching")


def _cost(row: dict | None, key: str) -> float | None:
    phase = (row or {}).get("phases", {}).get(key, {})
    return phase.get("us_per_update")


def _ratio_text(numerator: dict | None, denominator: dict | None, keys: list[str], digits: int) -> str | None:
    parts = []
    for key in keys:
        top, bottom = _cost(numerator, key), _cost(denominator, key)
        if top and bottom:
            parts.append(f"del {float(key.split(':')[1]):.0%}: {top / bottom:.{digits}f}x")
    return ", ".join(parts) or None


def summarise(rows: list[dict], ratios: list[str], sizes: list[int]) -> list[str]:
    lines = []
    by_key = {(r["engine"], r["class"], r["live_triples"]): r for r in rows}
    engines = list(dict.fromkeys(r["engine"] for r in rows))
    classes = [klass for klass in CLASSES if any(r["class"] == klass for r in rows)]
    for kind in STREAM_KINDS:
        keys = [f"{kind}:{r}" for r in ratios]
        lines.append(f"## stream '{kind}': CPU microseconds per update (median of repeats); '-' not run, 'T/O' timed out, 'n/a' no fresh triples")
        for klass in classes:
            lines.append(f"### {kind} / {klass}")
            lines.append("| engine | N | " + " | ".join(f"del {float(r):.0%}" for r in ratios) + " | answers after load | answers changed per update (max del) |")
            lines.append("|---|---:|" + "---:|" * len(ratios) + "---:|---:|")
            for engine in engines:
                for size in sizes:
                    row = by_key.get((engine, klass, size))
                    changed = "-"
                    if row is None:
                        cells, answers = ["-"] * len(ratios), "-"
                    elif "phases" not in row:
                        cells, answers = ["T/O"] * len(ratios), "-"
                    else:
                        cells = [f"{_cost(row, k):.1f}" if _cost(row, k) else "n/a" for k in keys]
                        answers = str(row["answers_after_load"])
                        changed = f"{row['phases'][keys[-1]].get('answers_changed_per_update', 0):.3f}" if _cost(row, keys[-1]) else "n/a"
                    lines.append(f"| {engine} | {size:,} | " + " | ".join(cells) + f" | {answers} | {changed} |")
        small, large = sizes[0], sizes[-1]
        lines.append(f"## stream '{kind}': flatness, cost at N={large:,} / cost at N={small:,} (target <= 1.5 for ground and simple-star)")
        for engine in engines:
            for klass in classes:
                text = _ratio_text(by_key.get((engine, klass, large)), by_key.get((engine, klass, small)), keys, 2)
                if text:
                    lines.append(f"- {engine} {klass}: {text}")
        lines.append(f"## stream '{kind}': baseline / delta at each size (target: oxigraph/delta >= 10 at N=100,000)")
        for baseline in ("oxigraph", "reeval", "delta-generic"):
            for klass in classes:
                for size in sizes:
                    text = _ratio_text(by_key.get((baseline, klass, size)), by_key.get(("delta", klass, size)), keys, 1)
                    if text:
                        lines.append(f"- {baseline}/delta {klass} N={size:,}: {text}")
    lines.append("## Prop. 2: memory held for the star query against central-node instances")
    for engine in DELTA_ENGINES:
        held = sorted((r["central_instances"], r["engine_bytes"], r) for r in rows
                      if r["engine"] == engine and r.get("central_instances"))
        for instances, held_bytes, row in held:
            lines.append(
                f"- {engine} N={row['live_triples']:,}: {instances:,} central instances, "
                f"{row['stats'].get('star_records', '-')} star records, {held_bytes / 2**20:.2f} MB, "
                f"{held_bytes / instances:.1f} bytes per instance"
            )
        if len(held) >= 2:
            (i0, b0, _), (i1, b1, _) = held[0], held[-1]
            lines.append(f"- {engine}: instances grew {i1 / i0:.1f}x, bytes grew {b1 / b0:.1f}x; "
                         f"marginal {(b1 - b0) / (i1 - i0):.1f} bytes per added instance")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="live triple counts, comma-separated")
    parser.add_argument("--classes", default=",".join(CLASSES), help="query classes, comma-separated")
    parser.add_argument("--engines", default="delta,delta-generic,reeval,oxigraph", help="engines, comma-separated")
    parser.add_argument("--delete-ratios", default="0,0.1,0.25,0.5", help="deletion shares of the measured phase")
    parser.add_argument("--updates", type=int, default=1000, help="timed updates per phase for the delta engines")
    parser.add_argument("--baseline-updates", type=int, default=10, help="timed updates per phase for reeval and oxigraph")
    parser.add_argument("--check-updates", type=int, help="updates of the untimed check phase whose answer digest every "
                        "engine of a cell records (default: --baseline-updates; 0: none)")
    parser.add_argument("--reeval-max-size", type=int, default=100_000, help="largest N reeval runs at")
    parser.add_argument("--oxigraph-max-size", type=int, default=1_000_000, help="largest N oxigraph runs at")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per phase; the median is kept")
    parser.add_argument("--cell-timeout", type=float, default=150, help="seconds before a cell is recorded as timed out")
    parser.add_argument("--seed", type=int, default=7, help="seed of the measured phases' draws")
    parser.add_argument("--json", help="write the cells and summary to this file")
    parser.add_argument("--publish", metavar="DIR", help="also write DIR/repetitions.csv (a row per phase repetition) "
                                                         "and DIR/run.json, the folder `cgpm reproduce delta` judges")
    args = parser.parse_args(argv)
    ratios = [str(float(r)) for r in args.delete_ratios.split(",")]
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    for klass in args.classes.split(","):
        for size in sizes:
            for engine in args.engines.split(","):
                baseline = engine not in DELTA_ENGINES
                largest = {"reeval": args.reeval_max_size, "oxigraph": args.oxigraph_max_size}.get(engine)
                if largest is not None and size > largest:
                    print(f"{engine:<14} {klass:<18} N={size:>8,}  not run (larger than --{engine}-max-size)", flush=True)
                    continue
                updates = args.baseline_updates if baseline else args.updates
                cell = (engine, klass, size, updates, [float(r) for r in ratios], args.repeats, args.seed,
                        args.baseline_updates if args.check_updates is None else args.check_updates)
                row = run_cell_with_timeout(cell, args.cell_timeout)
                rows.append(row)
                if "phases" in row:
                    costs = "  ".join(f"{_cost(row, f'{kind}:{r}') or float('nan'):8.1f}" for kind in STREAM_KINDS for r in ratios)
                    print(f"{engine:<14} {klass:<18} N={size:>8,}  us/update (all, then matching; by deletion ratio): {costs}  "
                          f"load {row['load_cpu_s']:.1f} s  answers {row['answers_after_load']}", flush=True)
                else:
                    print(f"{engine:<14} {klass:<18} N={size:>8,}  {row['status']}", flush=True)
    summary = summarise(rows, ratios, sizes)
    print("\n".join(summary))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"cells": rows, "summary": summary, "args": vars(args)}, handle, indent=2)
    if args.publish:
        publish(rows, vars(args), Path(args.publish))
    return 0


def repetition_rows(rows: list[dict]) -> list[dict]:
    """A row per (cell, stream, deletion ratio, repetition): CPU and wall µs per update, the runner's columns kept."""
    table = []
    for row in rows:
        keys = {"engine": row["engine"], "query": row["class"], "live_triples": row["live_triples"]}
        if "phases" not in row:
            table.append({**keys, "repetition": 0, "status": "timeout"})
            continue
        for phase_key, phase in row["phases"].items():
            stream, ratio = phase_key.split(":")
            if "cpu_s_runs" not in phase:
                continue
            answers = phase.get("answers_runs") or [{}] * len(phase["cpu_s_runs"])
            for repetition, (cpu_s, checked) in enumerate(zip(phase["cpu_s_runs"], answers)):
                table.append({**keys, "stream": stream, "delete_ratio": float(ratio), "repetition": repetition,
                              "status": "ok", "us_per_update": cpu_s / row["updates"] * 1e6,
                              "answers_changed_per_update": phase["answers_changed_per_update"], **checked})
    return table


def publish(rows: list[dict], arguments: dict, folder: Path) -> None:
    import pandas as pd

    from harness.bench.machine import git_info, machine_info

    folder.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(repetition_rows(rows)).to_csv(folder / "repetitions.csv", index=False)
    info = {"run_id": folder.name, "command": sys.argv, "machine": machine_info(), "git": git_info(),
            "config": {**arguments, "timeout_s": arguments["cell_timeout"]}}
    (folder / "run.json").write_text(json.dumps(info, indent=2, default=str) + "\n")


if __name__ == "__main__":
    sys.exit(main())
