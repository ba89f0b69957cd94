"""A run configuration is resolved once, defaults < TOML file < command-line flags, and every key is checked by name.

The resolved configuration is a plain dict (``BenchConfig.as_json``) saved in the run's
``run.json``, so a run can be repeated and a rerun can check it continues the same run. A bad
value is a ConfigError naming the key and the file (or the flag) it came from.

File shape (every key optional; relative paths are relative to the file's directory)::

    name = "lubm-windows"
    engines = ["scan", "reeval"]         # default: every registered engine
    repetitions = 5                      # >= 5: a spread (IQR), and power for cgpm compare's t-test (it refuses < 3)
    warmup = 0                           # untimed passes in the cell's process before the timed one
    min_time_s = 1.0                     # a timed loop shorter than this is repeated in its process (at most a quarter of the time-out)
    rate = 0.0                           # events per second: feed events at their scaled arrival times (0: as fast as possible)
    rate_lag_s = 1.0                     # with rate: the engine kept up if no event waited longer than this
    timeout_s = 600.0                    # per cell and repetition
    memory_mb = 4096                     # RSS cap per cell process
    rss_hz = 20.0                        # RSS sampling rate (0: no series, limits still enforced)
    noisy_load = 1.0                     # a cell whose machine's load average per core is above this is `noisy`
    noisy_steal = 0.05                   # ... or whose CPU time stolen is above this share (harness.bench.quiet)
    gate_threshold = 0.10                # cgpm regress --check: a slowdown past this median ratio (and significant) fails
    verify = "smallest-window"           # also check cells against the oracle (untimed): true (all), false, or
                                         # "smallest-window": each workload's cells of its smallest window
    verify_every = 1
    verify_timeout_s = 1800.0            # per verify task: the oracle re-evaluates what the engine maintains, so
                                         # a cell's own time-out is far too short for it
    oracle = "auto"                      # rdflib | plain | oxigraph | spark | auto (harness.oracle_choice)
    runner = "spark"                     # spark: Spark tasks, workers not reused | process: spawn per cell
    parallel = 1                         # timed cells at once
    spark_master = "local[2]"

    [[workloads]]
    stream = "../harness/examples/university"       # a stream directory (or a URI Spark reads: hdfs://...), or
    # generate = { dataset = "lubm", scales = [1], seed = 0, event_shapes = ["entity"] }
    queries = ["../harness/examples/university/queries/*.rq"]
    windows = ["query", "sliding:5s:1s"]             # "query": the query's own window
    entailment = "query"                             # or "none" / "rdfs"
    max_events = 0                                   # 0: the whole stream; N: its first N events
    engines = ["spectra", "scan"]                    # default: the run's engines; else some of them
    concurrent = [1, 10, 50, 100]                    # copies of each query registered together (default [1]);
                                                     # an engine named NAME+perquery runs them one instance each
    partitions = [0, 1, 2, 4]                        # key-partitioned runs (default [0]: unsplit), each partition a
                                                     # Spark task (docs/partitioned-runs.md)

    [[workloads]]                                    # queries over named windows (RSP-QL): a stream per stream IRI
    queries = ["../generators/lsbench/queries/streams/Q6.rq"]
    [workloads.streams]                              # a directory, or a generate table, per IRI a window reads
    "http://www.ins.cwi.nl/sib/stream/posts" = { dataset = "lsbench", scales = [10], options = { stream = "posts" } }
    "http://www.ins.cwi.nl/sib/stream/postlikes" = "../streams/postlikes"
"""

from __future__ import annotations

import glob
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from common.errors import CgpmError, ConfigError
from common.toml_files import read_toml
from engines.model.windows import parse_window
from harness.oracle_choice import ORACLE_CHOICES
from harness.query_files import check_query_file

RUNNERS = ("spark", "process")
VERIFY_POLICIES = ("smallest-window", "all", "none")  # besides true (all) and false (none)
ENTAILMENTS = ("query", "none", "rdfs")
QUERY_WINDOW = "query"


@dataclass(frozen=True)
class Generate:
    """A stream made by a generator for this run: one per (scale, event shape)."""

    dataset: str
    scales: tuple[int, ...] = (1,)
    seed: int = 0
    event_shapes: tuple[str, ...] = ("entity",)
    rate: float | None = None
    options: tuple[tuple[str, object], ...] = ()  # the generator's options (``cgpm generate --option``), sorted by key


@dataclass(frozen=True)
class Workload:
    """Queries run over one stream (or generated streams), under each window listed; or over several named streams."""

    queries: tuple[str, ...]
    stream: str | None = None
    generate: Generate | None = None
    # (stream IRI, directory or Generate) per stream the queries' named windows read (harness.bench.workload_streams)
    streams: tuple[tuple[str, str | Generate], ...] = ()
    windows: tuple[str, ...] = (QUERY_WINDOW,)
    entailment: str = "query"
    max_events: int = 0
    engines: tuple[str, ...] = ()  # empty: the run's engines; else the ones of them this workload runs
    concurrent: tuple[int, ...] = (1,)  # how many copies of each query run together (harness.bench.query_copies)
    partitions: tuple[int, ...] = (0,)  # 0: unsplit; N: split into N partitions (harness.bench.split_cell)


@dataclass(frozen=True)
class BenchConfig:
    name: str = "bench"
    engines: tuple[str, ...] = ()  # empty: every registered engine
    repetitions: int = 5
    warmup: int = 0
    min_time_s: float = 1.0
    rate: float = 0.0
    rate_lag_s: float = 1.0
    timeout_s: float = 600.0
    memory_mb: int = 4096
    rss_hz: float = 20.0
    verify: bool | str = "smallest-window"  # harness.bench.verify_policy.verified_cells
    verify_every: int = 1
    verify_timeout_s: float = 1800.0  # a verify task's time-out (untimed work: a guard, not a measure)
    oracle: str = "auto"
    runner: str = "spark"
    parallel: int = 1
    spark_master: str = "local[2]"
    workloads: tuple[Workload, ...] = ()
    stream_cache: str = "results/runs/.streams"
    noisy_load: float = 1.0   # a cell is noisy above this load average per core (harness.bench.quiet)
    noisy_steal: float = 0.05  # or above this share of its CPU time stolen
    gate_threshold: float = 0.10  # cgpm regress --check fails on a significant slowdown beyond this (harness.bench.gate)

    def as_json(self) -> dict:
        return asdict(self)


# keys that may differ between a run and its resumption without changing what the cells measure
VOLATILE_KEYS = ("parallel", "spark_master", "stream_cache", "oracle", "noisy_load", "noisy_steal", "verify",
                 "verify_timeout_s", "gate_threshold")

_TOP_TYPES = {
    "name": str, "engines": list, "repetitions": int, "warmup": int, "min_time_s": (int, float),
    "rate": (int, float), "rate_lag_s": (int, float), "timeout_s": (int, float), "memory_mb": int,
    "rss_hz": (int, float), "verify": (bool, str), "verify_every": int, "oracle": str, "runner": str, "parallel": int,
    "spark_master": str, "workloads": list, "stream_cache": str, "noisy_load": (int, float), "noisy_steal": (int, float),
    "gate_threshold": (int, float), "verify_timeout_s": (int, float),
}
_WORKLOAD_TYPES = {"queries": list, "stream": str, "generate": dict, "streams": dict, "windows": list, "entailment": str,
                   "max_events": int, "engines": list, "concurrent": list, "partitions": list}
_GENERATE_TYPES = {"dataset": str, "scales": list, "seed": int, "event_shapes": list, "rate": (int, float), "options": dict}


def _type_name(kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false", list: "a list", dict: "a table"}
    return " or ".join(names[k] for k in kinds)


def _checked(table: dict, types: dict, where: str, prefix: str = "") -> dict:
    """``table`` with every key known and of its type; ConfigError naming the first bad key otherwise."""
    for key, value in table.items():
        name = f"{prefix}{key}"
        if key not in types:
            raise ConfigError(f"unknown key {name!r} in {where} (known: {', '.join(sorted(types))})")
        kind = types[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise ConfigError(f"key {name!r} in {where} must be {_type_name(kind)}, not {value!r}")
    return table


def _resolve_path(text: str, base: Path | None) -> str:
    path = Path(text).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    return str(path.resolve())


def is_remote(location: str) -> bool:
    """Whether ``location`` names a stream on a filesystem other than this machine's (hdfs:, s3a:, ...)."""
    from generators.hadoop_fs import local_path

    return local_path(location) is None


def stream_location(text: str, base: Path | None) -> str:
    """A local stream as an absolute path (a ``file:`` URI becomes its path); any other URI as written."""
    from generators.hadoop_fs import local_path

    local = local_path(text)
    return text if local is None else _resolve_path(str(local), base)


def _expand_queries(patterns, base: Path | None, where: str, key: str) -> tuple[str, ...]:
    found: list[str] = []
    for pattern in patterns:
        if not isinstance(pattern, str):
            raise ConfigError(f"key {key!r} in {where} must list file names, not {pattern!r}")
        resolved = _resolve_path(pattern, base)
        matches = sorted(glob.glob(resolved)) if glob.has_magic(resolved) else [resolved]
        if not matches:
            raise ConfigError(f"key {key!r} in {where}: no query file matches {pattern!r}")
        for match in matches:
            if not Path(match).is_file():
                raise ConfigError(f"key {key!r} in {where}: query file {match} does not exist")
            try:
                check_query_file(match)
            except CgpmError as error:
                raise ConfigError(f"key {key!r} in {where}: {error}") from None
            found.append(match)
    return tuple(found)


def generate_from(table: dict, where: str, key: str) -> Generate:
    _checked(table, _GENERATE_TYPES, where, f"{key}.")
    if "dataset" not in table:
        raise ConfigError(f"key {key + '.dataset'!r} is missing in {where}")
    scales = tuple(table.get("scales", [1]))
    if not scales or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in scales):
        raise ConfigError(f"key {key + '.scales'!r} in {where} must list integers >= 1, not {table['scales']!r}")
    shapes = tuple(table.get("event_shapes", ["entity"]))
    if not shapes or not all(isinstance(s, str) for s in shapes):
        raise ConfigError(f"key {key + '.event_shapes'!r} in {where} must list shapes like 'entity' or 'triples:10'")
    rate = table.get("rate")
    options = table.get("options", {})
    for name, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ConfigError(f"key {key + '.options.' + name!r} in {where} must be a string or a number, not {value!r}")
    return Generate(table["dataset"], scales, table.get("seed", 0), shapes, None if rate is None else float(rate),
                    tuple(sorted(options.items())))


def workload_from(table: dict, base: Path | None, where: str, key: str) -> Workload:
    _checked(table, _WORKLOAD_TYPES, where, f"{key}.")
    if sum(name in table for name in ("stream", "generate", "streams")) != 1:
        raise ConfigError(f"{key} in {where} needs exactly one of 'stream' (a directory), 'generate' (a dataset) or "
                          "'streams' (a directory or a generate table per stream IRI)")
    if not table.get("queries"):
        raise ConfigError(f"key {key + '.queries'!r} is missing or empty in {where}")
    windows = tuple(table.get("windows", [QUERY_WINDOW]))
    for window in windows:
        if window != QUERY_WINDOW:
            try:
                parse_window(window) if isinstance(window, str) else None
            except CgpmError as error:
                raise ConfigError(f"key {key + '.windows'!r} in {where}: {error}") from None
            if not isinstance(window, str):
                raise ConfigError(f"key {key + '.windows'!r} in {where} must list window specs, not {window!r}")
    entailment = table.get("entailment", "query")
    if entailment not in ENTAILMENTS:
        raise ConfigError(f"key {key + '.entailment'!r} in {where} must be one of {', '.join(ENTAILMENTS)}")
    if table.get("max_events", 0) < 0:
        raise ConfigError(f"key {key + '.max_events'!r} in {where} must be >= 0")
    concurrent = table.get("concurrent", [1])
    if not concurrent or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in concurrent):
        raise ConfigError(f"key {key + '.concurrent'!r} in {where} must list query counts >= 1, not {concurrent!r}")
    partitions = table.get("partitions", [0])
    if not partitions or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in partitions):
        raise ConfigError(f"key {key + '.partitions'!r} in {where} must list partition counts >= 0 (0: unsplit), "
                          f"not {partitions!r}")
    engines = table.get("engines", [])
    if not all(isinstance(engine, str) for engine in engines):
        raise ConfigError(f"key {key + '.engines'!r} in {where} must list engine names, not {engines!r}")
    stream = stream_location(table["stream"], base) if "stream" in table else None
    if stream is not None and not is_remote(stream) and not Path(stream).is_dir():
        raise ConfigError(f"key {key + '.stream'!r} in {where}: stream directory {stream} does not exist")
    from harness.bench.workload_streams import check_named_windows, named_streams

    workload = Workload(
        queries=_expand_queries(table["queries"], base, where, f"{key}.queries"),
        stream=stream,
        generate=generate_from(table["generate"], where, f"{key}.generate") if "generate" in table else None,
        streams=named_streams(table["streams"], base, where, f"{key}.streams") if "streams" in table else (),
        windows=windows, entailment=entailment, max_events=table.get("max_events", 0), engines=tuple(engines),
        concurrent=tuple(concurrent), partitions=tuple(partitions),
    )
    check_named_windows(workload, where, key)
    return workload


def _validated(config: BenchConfig, where: str) -> BenchConfig:
    positive = {"repetitions": 1, "verify_every": 1, "parallel": 1, "memory_mb": 1}
    for key, least in positive.items():
        if getattr(config, key) < least:
            raise ConfigError(f"key {key!r} in {where} must be >= {least}, not {getattr(config, key)!r}")
    if config.warmup < 0:
        raise ConfigError(f"key 'warmup' in {where} must be >= 0")
    for key in ("timeout_s", "verify_timeout_s"):
        if not getattr(config, key) > 0:
            raise ConfigError(f"key {key!r} in {where} must be > 0")
    if config.min_time_s < 0:
        raise ConfigError(f"key 'min_time_s' in {where} must be >= 0 (0: one pass per repetition)")
    if config.rate < 0:
        raise ConfigError(f"key 'rate' in {where} must be 0 (as fast as possible) or events per second > 0")
    if not config.rate_lag_s > 0:
        raise ConfigError(f"key 'rate_lag_s' in {where} must be > 0")
    if isinstance(config.verify, str) and config.verify not in VERIFY_POLICIES:
        raise ConfigError(f"key 'verify' in {where} must be true, false or one of {', '.join(VERIFY_POLICIES)}, "
                          f"not {config.verify!r}")
    if not config.noisy_load > 0:
        raise ConfigError(f"key 'noisy_load' in {where} must be a load average per core > 0")
    if not 0 < config.noisy_steal <= 1:
        raise ConfigError(f"key 'noisy_steal' in {where} must be a share of CPU time in (0, 1]")
    if not 0 < config.gate_threshold < 1:
        raise ConfigError(f"key 'gate_threshold' in {where} must be a median change in (0, 1), such as 0.10")
    if config.rss_hz != 0 and config.rss_hz < 10:
        raise ConfigError(f"key 'rss_hz' in {where} must be 0 (no series) or at least 10 samples per second")
    if config.oracle not in ORACLE_CHOICES:
        raise ConfigError(f"key 'oracle' in {where} must be one of {', '.join(ORACLE_CHOICES)}, not {config.oracle!r}")
    if config.runner not in RUNNERS:
        raise ConfigError(f"key 'runner' in {where} must be one of {', '.join(RUNNERS)}, not {config.runner!r}")
    for engine in config.engines:
        if not isinstance(engine, str):
            raise ConfigError(f"key 'engines' in {where} must list engine names, not {engine!r}")
    return config


def config_from_table(table: dict, *, base: Path | None = None, where: str = "the configuration",
                      start: BenchConfig | None = None) -> BenchConfig:
    """``start`` (default: the defaults) updated by the keys of ``table``."""
    _checked(table, _TOP_TYPES, where)
    values = {key: value for key, value in table.items() if key != "workloads"}
    if "engines" in values:
        values["engines"] = tuple(values["engines"])
    for key in ("timeout_s", "verify_timeout_s", "rss_hz", "min_time_s", "rate", "rate_lag_s", "gate_threshold"):
        if key in values:
            values[key] = float(values[key])
    if "stream_cache" in values:
        values["stream_cache"] = _resolve_path(values["stream_cache"], base)
    if "workloads" in table:
        workloads = []
        for number, item in enumerate(table["workloads"], start=1):
            if not isinstance(item, dict):
                raise ConfigError(f"key 'workloads' in {where} must be [[workloads]] tables")
            workloads.append(workload_from(item, base, where, f"workloads[{number}]"))
        values["workloads"] = tuple(workloads)
    return _validated(replace(start or BenchConfig(), **values), where)


def load_config(path: str | Path) -> BenchConfig:
    """The defaults updated by the TOML file at ``path``."""
    path = Path(path)
    table = read_toml(path, "configuration")
    return config_from_table(table, base=path.resolve().parent, where=str(path))


def with_flags(config: BenchConfig, flags: dict, *, workload: dict | None = None) -> BenchConfig:
    """``config`` with the command-line values that were given (None means not given); a one-cell workload replaces the file's."""
    given = {key: value for key, value in flags.items() if value is not None}
    unknown = set(given) - {f.name for f in fields(BenchConfig)}
    if unknown:
        raise ConfigError(f"unknown configuration keys from the command line: {', '.join(sorted(unknown))}")
    table = {key: (list(value) if isinstance(value, tuple) else value) for key, value in given.items()}
    if workload is not None:
        table["workloads"] = [workload]
    return config_from_table(table, base=Path.cwd(), where="the command line", start=config)


def config_digest_view(config_json: dict) -> dict:
    """The part of a resolved configuration that decides what the cells measure."""
    return {key: value for key, value in config_json.items() if key not in VOLATILE_KEYS}


DEFAULTS = BenchConfig()
__all__ = ["BenchConfig", "DEFAULTS", "Generate", "Workload", "load_config", "with_flags", "config_from_table",
           "config_digest_view"]
