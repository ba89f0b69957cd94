"""``cgpm verify``: exit 0 when the engine agrees with the oracle at every checked instant, 1 when it does not.

Progress (stderr; a line every 10 s when it is not a terminal): the Spark oracle's job shows its own stages' tasks while it runs
(``harness.spark_progress``), and the comparison's bar over events starts at the first compared
event, so its rate and ETA are the comparison's, not the job's.

Several ``--query``: one engine holds them all (``harness.verify_many``), each query is checked at
its own checkpoints, and the verdict has a line per query; a divergence names its query, and
``cgpm verify`` with that query alone shrinks a reproducer.

``--semantics PROFILE`` compares reports instead of instants, and ``--answers FILE`` (in place of
``--engine``) judges a recorded report stream: ``harness.commands.verify_profile``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from common.errors import ConfigError
from harness.commands.common import add_query_arguments, load_many_inputs, progress_bar
from harness.commands.partitioned import add_partition_arguments, check_partition_arguments, executor_for
from harness.commands.verify_profile import add_profile_arguments, check_profile_arguments, run_under_profile
from harness.oracle_choice import ORACLE_CHOICES, REEVALUATION_LIMIT
from harness.spark_progress import spark_progress
from harness.verify import verify


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify", help="check an engine against the oracle at every instant",
        description="Feed an engine the stream, apply its deltas, and compare its answers with an oracle's "
        "re-evaluation at every instant (or every K-th, plus every instant where the window drops events). Exit 0 "
        "when it agrees, 1 when not, with the first divergence and a shrunk reproducer; exit 2 for bad input.")
    parser.add_argument("--engine", help="engine: a name (see cgpm engines), package.module:Class, or an external engine's .toml descriptor")
    add_query_arguments(parser)
    add_profile_arguments(parser)
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="check every K-th instant plus every instant where the window drops events (default 1)")
    parser.add_argument("--oracle", choices=ORACLE_CHOICES, default="auto",
                        help="reference evaluator: rdflib (the reference), plain (the independent second oracle), oxigraph, "
                        "spark (the whole answer history in one Spark job); auto (default): rdflib up to "
                        f"{REEVALUATION_LIMIT:,} triple-instants (window triples x checked instants, plus the "
                        "stream's triples), spark beyond, and it says why")
    parser.add_argument("--master", help="Spark master URL for the spark oracle and an engine that is a Spark query "
                        "(spark-streaming; default local[*])")
    parser.add_argument("--reproducer", type=Path, help="where to write a shrunk failing stream on a mismatch "
                        "(default: results/runs/reproducers/ENGINE-QUERY-TIME)")
    parser.add_argument("--no-reproducer", action="store_true", help="do not shrink and write a reproducer")
    parser.add_argument("--per-query", action="store_true",
                        help="several queries: one engine instance per query even when the engine shares")
    add_partition_arguments(parser, master=False)
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.set_defaults(handler=run)


def _reproduce(args, query, stream, result) -> str:
    from harness.reproduce import failing_suffix, reproducer_directory, shrink, write_reproducer

    partitions = getattr(args, "partitions", None) or 0

    # a shrunk stream is small: the Spark oracle's start-up would dominate each of the many candidates
    oracle = "auto" if result.oracle == "spark" else result.oracle

    def still_fails(candidate) -> bool:
        try:  # a split run is shrunk split alike, in this process: the split and the merge are the same code
            return not verify(args.engine, query, candidate, oracle=oracle, max_divergences=1,
                              partitions=partitions).agrees
        except Exception:  # a candidate the engine crashes on still reproduces a bug
            return True

    # shrinking tries many sub-sequences: of a suffix of the events up to the first divergence, held in memory
    small = shrink(failing_suffix(stream, result.first.event_index, still_fails), still_fails)
    directory = args.reproducer or reproducer_directory(result.engine, query.name, time.strftime("%Y%m%d-%H%M%S"))
    extra = ["--partitions", str(partitions), "--partition-runner", "in-process"] if partitions else []
    write_reproducer(directory, args.engine, query, small, oracle=oracle, extra=extra)
    return str(directory)


class _LazyBar:
    """The comparison's bar, made at its first event: an oracle's job before it does not count in its rate and ETA."""

    def __init__(self, total, description: str) -> None:  # total: a count, or a callable counting only for a terminal
        self.total, self.description, self.bar = total, description, None

    def update(self, _index: int) -> None:
        if self.bar is None:
            self.bar = progress_bar(self.total, self.description)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run(args: argparse.Namespace) -> int:
    if args.every < 1:
        raise ConfigError(f"--every must be at least 1, got {args.every}")
    check_profile_arguments(args)
    queries, stream = load_many_inputs(args)
    partitions = check_partition_arguments(args, queries)
    if args.semantics is not None or args.answers is not None:
        return run_under_profile(args, queries, stream)
    if args.master:
        from harness.spark import spark_session

        spark_session(args.master, app_name="cgpm verify")  # the spark oracle then runs on it
    if len(queries) > 1:
        return run_many(args, queries, stream)
    query = queries[0]
    comparison = _LazyBar(lambda: len(stream.events), f"verify {args.engine}")
    with spark_progress(f"{args.oracle if args.oracle != 'auto' else 'spark'} oracle job"):
        result = verify(args.engine, query, stream, oracle=args.oracle, every=args.every, progress=comparison.update,
                        partitions=partitions, executor=executor_for(args) if partitions else None)
    comparison.close()
    if not result.agrees and not args.no_reproducer:
        result.reproducer = _reproduce(args, query, stream, result)
    first = result.first.as_json(query.variables) if result.first else None
    split = ""
    if partitions:
        from harness.partitions.plan import choose_key

        split = f" in {partitions} partitions by {choose_key(query)}"
    if args.json:
        print(json.dumps({
            "engine": result.engine, "partitions": partitions or None, "query": result.query, "window": result.window, "oracle": result.oracle,
            "oracle_reason": result.oracle_reason, "checked": result.checked, "events": result.events, "checkpoints": result.checkpoints,
            "mismatches": result.mismatches, "agrees": result.agrees, "first_divergence": first,
            "reproducer": result.reproducer,
        }))
    else:
        verdict = "agrees" if result.agrees else f"DISAGREES ({result.mismatches} mismatches)"
        print(f"{result.engine}{split} on {result.query} [{result.window}] {verdict} with the {result.oracle} oracle: "
              f"{result.checkpoints} checkpoints over {result.events} events ({result.checked})")
        if args.oracle == "auto":
            print(f"  oracle: {result.oracle_reason}")
        if first:
            print(f"  first divergence at event {first['event']} (ts {first['ts']}, {first['what']}): "
                  f"missing {first['missing'][:5]}, extra {first['extra'][:5]}")
        if result.reproducer:
            print(f"  reproducer: {result.reproducer}")
    return 0 if result.agrees else 1


def run_many(args: argparse.Namespace, queries, stream) -> int:
    from harness.verify_many import verify_many

    comparison = _LazyBar(lambda: len(stream.events), f"verify {args.engine} ({len(queries)} queries)")
    with spark_progress(f"{args.oracle if args.oracle != 'auto' else 'spark'} oracle job"):
        results = verify_many(args.engine, queries, stream, oracle=args.oracle, every=args.every,
                              progress=comparison.update, share=not args.per_query)
    comparison.close()
    agrees = all(result.agrees for result in results)
    if args.json:
        print(json.dumps({"engine": results[0].engine, "agrees": agrees, "queries": [{
            "query": result.query, "window": result.window, "oracle": result.oracle,
            "oracle_reason": result.oracle_reason, "checked": result.checked,
            "events": result.events, "checkpoints": result.checkpoints, "mismatches": result.mismatches,
            "agrees": result.agrees,
            "first_divergence": result.first.as_json(query.variables) if result.first else None,
        } for query, result in zip(queries, results, strict=True)]}))
        return 0 if agrees else 1
    print(f"{results[0].engine} on {len(queries)} queries {'agrees' if agrees else 'DISAGREES'}")
    for query, result in zip(queries, results, strict=True):
        verdict = "agrees" if result.agrees else f"DISAGREES ({result.mismatches} mismatches)"
        print(f"  {result.query} [{result.window}] {verdict} with the {result.oracle} oracle: "
              f"{result.checkpoints} checkpoints over {result.events} events ({result.checked})")
        if args.oracle == "auto":
            print(f"    oracle: {result.oracle_reason}")
        if result.first:
            first = result.first.as_json(query.variables)
            print(f"    first divergence at event {first['event']} (ts {first['ts']}, {first['what']}): "
                  f"missing {first['missing'][:5]}, extra {first['extra'][:5]}; "
                  f"cgpm verify with --query for {result.query} alone writes a reproducer")
    return 0 if agrees else 1
