"""``cgpm generate``: make a dataset's stream directory, on Spark only where it pays, refusing bad input first.

Spark from ``SPARK_FROM_TRIPLES`` expected triples or for an ``--out`` only Spark can write; below, the dataset's
pure-Python twin, which writes the same bytes (``tests/generators`` check the twins agree). ``--spark`` and
``--no-spark`` force either; one line on stderr says which was chosen and why.

Everything the user can get wrong (dataset name, scale, seed, event shape, rate, an output
directory that already holds data) is checked before Spark starts, so mistakes cost no JVM start.
While it works, progress goes to stderr (the Spark job's tasks, or the triples the pure-Python twin has
written: a bar on a terminal, a line every 10 s otherwise); the summary of what was written goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

from common.errors import ConfigError
from generators.framing import EventShape, GeneratorSpec
from generators.pipeline import DATASETS, dataset_module

# the twin writes ~170,000 triples/s on one core, Spark's start costs ~20 s before its job: from here Spark pays
SPARK_FROM_TRIPLES = 5_000_000


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "generate", help="generate a stream directory (Parquet events, stream.json, schema/static N-Triples)",
        description="Generate a dataset's stream. LUBM reproduces UBA 1.7 exactly (scale = universities); "
        "taxi makes NYC-taxi-like trips (scale = trips; option stream=all|trips|fares); bsbm makes BSBM offers in publish-date order "
        "(scale = products, 20 offers each). "
        "lsbench: S2Gen-like social streams (scale = users; options days, stream=all|posts,comments,likes,postlikes,photolikes,photos,gps); "
        "snb: LDBC-SNB-like (scale = persons; options years, events=message|week, stream=all|messages,likes,...).",
    )
    parser.add_argument("dataset", choices=sorted(DATASETS), help="dataset to generate")
    parser.add_argument("--scale", type=int, required=True, help="LUBM: universities; taxi: trips; bsbm: products")
    parser.add_argument("--seed", type=int, default=0, help="random seed, 0..2^31-1 (LUBM: UBA's -seed)")
    parser.add_argument("--index", type=int, default=0, help="LUBM: UBA's start index (-index); taxi: first trip id; bsbm: 0")
    parser.add_argument("--out", required=True, help="output stream directory (must not hold data): a path, or with "
                        "Spark any URI its Hadoop configuration can write (file:///..., hdfs://..., s3a://...)")
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--events-of", type=int, metavar="K", help="group K consecutive triples into one event")
    shape.add_argument("--events", choices=("entity",), help="one event per entity description (the default)")
    parser.add_argument("--rate", type=float, help="triples per second of stream time; sets timestamps "
                        "(default: LUBM 1000/s; taxi uses drop-off times; bsbm offer publish times)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="dataset option, repeatable (taxi: trips_per_day, block; lubm: ontology; "
                        "bsbm: types=leaf|closed, types_in=stream|static, hierarchy_scale, block)")
    parser.add_argument("--master", help="Spark master URL (default local[*])")
    parser.add_argument("--partitions", type=int, help="Spark partitions (default: twice the cores); output is identical")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--spark", dest="spark", action="store_true", default=None,
                       help=f"generate on Spark whatever the size (default: Spark from {SPARK_FROM_TRIPLES:,} expected "
                       "triples, with --master, or for an --out only Spark writes; else the in-process twin: the same bytes)")
    where.add_argument("--no-spark", dest="spark", action="store_false",
                       help="generate in this process with the pure-Python twin whatever the size")
    parser.add_argument("--json", action="store_true", help="print the written stream.json on stdout")
    parser.set_defaults(handler=run)


def _option(text: str) -> tuple[str, object]:
    key, separator, value = text.partition("=")
    if not separator or not key:
        raise ConfigError(f"bad --option {text!r}: expected KEY=VALUE")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def spec_from_args(args: argparse.Namespace) -> GeneratorSpec:
    shape = EventShape.parse(f"triples:{args.events_of}") if args.events_of is not None else EventShape("entity")
    return GeneratorSpec(
        dataset=args.dataset, scale=args.scale, seed=args.seed, index=args.index, shape=shape,
        rate=args.rate, partitions=args.partitions, options=tuple(_option(text) for text in args.option),
    )


def run(args: argparse.Namespace) -> int:
    from generators.writer import check_output, write_stream_local, write_stream_spark

    spec = spec_from_args(args)
    dataset_module(spec.dataset).units(spec)  # validates dataset-specific limits before any work
    check_output(args.out)
    use_spark, reason = choose_spark(spec, args.out, args.spark, args.master)
    print(f"cgpm generate: {reason}", file=sys.stderr)
    if not use_spark:
        from harness.progress_lines import following, progress_bar

        bar = progress_bar(0, f"generate {spec.dataset}", "triple", leave=False)
        try:
            info = write_stream_local(spec, args.out, progress=following(bar))
        finally:
            bar.close()
    else:
        from harness.spark import spark_session
        from harness.spark_progress import spark_progress

        spark = spark_session(args.master, app_name=f"cgpm generate {spec.dataset}")
        with spark_progress(f"generate {spec.dataset} on Spark"):
            info = write_stream_spark(spark, spec, args.out)
    if args.json:
        print(json.dumps(info, indent=1))
    else:
        counts = info["counts"]
        print(f"{args.out}: {spec.dataset} scale {spec.scale} seed {spec.seed}: "
              f"{counts['triples']:,} triples in {counts['events']:,} events ({info['generation_seconds']} s)")
    return 0


def expected_triples(spec: GeneratorSpec) -> int:
    """The stream's triples, exact where the dataset knows them from its parameters, else its first unit's (a
    university, a day of users, ...) times its units: an estimate that costs one unit's draws, not the stream's."""
    dataset = dataset_module(spec.dataset)
    units = dataset.units(spec)
    known = dataset.known_counts(spec)
    if known:
        return sum(triples for _, triples in known)
    return dataset.unit_counts(spec, units[0])[1] * len(units) if units else 0


def choose_spark(spec: GeneratorSpec, out: str, forced: bool | None, master: str | None = None) -> tuple[bool, str]:
    """(on Spark?, the line that says why): ``--spark``/``--no-spark`` when given; Spark at a ``--master`` given, for
    an ``--out`` only Spark writes (hdfs://, s3a://), or from ``SPARK_FROM_TRIPLES`` expected triples; else the twin, which for LUBM(1)
    takes 0.6 s where Spark's start and job take two minutes, byte for byte the same stream."""
    from generators.hadoop_fs import local_path

    if forced is not None:
        return forced, "on Spark (--spark)" if forced else "in this process, the pure-Python twin (--no-spark)"
    if master:
        return True, f"on Spark at {master} (--master)"
    if local_path(out) is None:
        return True, f"on Spark: only Spark writes {out}"
    triples = expected_triples(spec)
    if triples >= SPARK_FROM_TRIPLES:
        return True, f"on Spark: about {triples:,} triples expected, from {SPARK_FROM_TRIPLES:,} (--no-spark: in this process)"
    return False, (f"in this process, the pure-Python twin: about {triples:,} triples expected, below "
                   f"{SPARK_FROM_TRIPLES:,} (--spark: on Spark)")
