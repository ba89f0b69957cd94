"""A generation benchmark's published folder holds every stream measured into it: run.json, repetitions.csv, table.md, README.md.

``bench_generators`` measures one or more streams and hands each one's repetition rows and run
record to ``publish``, which replaces that stream's earlier rows and record in the folder (other
streams measured by earlier runs stay) and regenerates ``table.md`` and ``README.md`` from the
folder's own ``run.json`` and ``repetitions.csv``; ``retable`` does only the regeneration. Nothing
here starts Spark: the stream specifications are parsed (and refused, in one line) here too.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pandas as pd

from common.errors import ConfigError
from generators.framing import EventShape, GeneratorSpec

SCHEMA_VERSION = "cgpm-generation-bench/1"
RUN_FILE = "run.json"
REPETITIONS = "repetitions.csv"
TABLE = "table.md"
README = "README.md"
MODULE = "benchmarks.bench_generators"
_SPEC_KEYS = {"seed": int, "index": int, "events_of": int, "rate": float}
DOCS_BEGIN = "<!-- BEGIN generation-table: {folder}/table.md, rewritten by `python -m {module} --retable {folder} --docs {doc}` -->"
DOCS_END = "<!-- END generation-table -->"


def _value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_stream(text: str) -> GeneratorSpec:
    """``DATASET:SCALE[:KEY=VALUE,...]`` as a spec: keys seed, index, events_of, rate, else the dataset's options."""
    from generators.pipeline import dataset_module

    dataset, _, rest = text.partition(":")
    scale_text, _, settings = rest.partition(":")
    try:
        scale = int(scale_text.replace("_", ""))
    except ValueError:
        raise ConfigError(f"--stream {text!r}: the scale {scale_text!r} is not an integer "
                          "(expected DATASET:SCALE[:KEY=VALUE,...])") from None
    given, options = {}, []
    for setting in filter(None, settings.split(",")):
        key, separator, value = setting.partition("=")
        if not separator or not key:
            raise ConfigError(f"--stream {text!r}: bad setting {setting!r}, expected KEY=VALUE")
        if key in _SPEC_KEYS:
            try:
                given[key] = _SPEC_KEYS[key](value)
            except ValueError:
                raise ConfigError(f"--stream {text!r}: {key} must be a number, got {value!r}") from None
        else:
            options.append((key, _value(value)))
    events_of = given.pop("events_of", None)
    shape = EventShape.parse(f"triples:{events_of}") if events_of is not None else EventShape("entity")
    spec = GeneratorSpec(dataset=dataset, scale=scale, shape=shape, options=tuple(sorted(options)), **given)
    dataset_module(dataset).units(spec)  # the dataset's own limits (users, days, options), before any Spark
    return spec


def stream_label(spec: GeneratorSpec) -> str:
    """The name ``cgpm bench`` gives this stream in its cache (``harness.bench.datasets.stream_name``); a start
    index, which the bench cannot set, is added to it."""
    from harness.bench.datasets import stream_name

    name = stream_name((spec.dataset, spec.scale, spec.seed, str(spec.shape), spec.rate, spec.options))
    return name + (f"-index{spec.index}" if spec.index else "")


def command_text(argv: list[str]) -> str:
    """The command as typed: ``python -m benchmarks.bench_generators ...`` whatever path started it."""
    return shlex.join(["python", "-m", MODULE, *argv[1:]])


def _quartiles(values: pd.Series) -> tuple[float, float, float]:
    q1, median, q3 = np.percentile(values.astype(float), [25, 50, 75])
    return float(median), float(q1), float(q3)


def _spread(values: pd.Series, scale: float = 1.0) -> str:
    from harness.bench.tables import spread_text

    median, q1, q3 = (value / scale for value in _quartiles(values))
    if len(values) < 2:
        q1 = q3 = float("nan")
    return f"{spread_text(median, q1, q3)} ({len(values)})"


def check_text(check: dict | None) -> str:
    if not check:
        return "not checked"
    verdict = "identical" if check["identical"] else "DIFFERENT"
    return f"{verdict}: {' vs '.join(check['masters'])}, first {check['sample_units']} units, {check['rows']:,} rows"


def summary_table(rows: pd.DataFrame, records: dict) -> pd.DataFrame:
    """One row per stream, every measure as median [IQR] (n) over its repetitions."""
    table = []
    for label, group in rows.groupby("stream", sort=False):
        record = records.get(label, {})
        table.append({
            "stream": label,
            "master": record.get("master", group["master"].iloc[0]),
            "triples": int(group["triples"].iloc[0]),
            "static triples": int(group["static_triples"].iloc[0]),
            "wall s": _spread(group["wall_s"]),
            "CPU s (tree)": _spread(group["cpu_s"]),
            "triples/s (wall)": _spread(group["triples_per_s"]),
            "triples per CPU s": _spread(group["triples_per_cpu_s"]),
            "peak RSS MiB (tree)": _spread(group["peak_rss_bytes"], 2**20),
            "Parquet MB": f"{group['parquet_bytes'].median() / 1e6:,.0f}",
            "partitions": check_text(record.get("partition_check")),
        })
    frame = pd.DataFrame(table)
    frame.attrs["numeric"] = ("wall s", "CPU s (tree)", "triples/s (wall)", "triples per CPU s", "peak RSS MiB (tree)",
                              "Parquet MB")
    return frame


def table_markdown(rows: pd.DataFrame, records: dict) -> str:
    from harness.bench.tables import to_markdown

    return ("Generation on Spark, stream directory written (Parquet events, stream.json, static.nt); each measure "
            "median [IQR] (repetitions). CPU s and peak RSS cover the whole process tree (driver, JVM, Python "
            "workers). Generated by `python -m benchmarks.bench_generators`; see README.md.\n\n"
            + to_markdown(summary_table(rows, records)))


def read_folder(folder: Path) -> tuple[dict, pd.DataFrame]:
    """The folder's run record and repetition rows (empty when it holds none yet); another schema is refused."""
    info, rows = {"schema_version": SCHEMA_VERSION, "streams": {}}, pd.DataFrame()
    if (folder / RUN_FILE).is_file():
        info = json.loads((folder / RUN_FILE).read_text())
        if info.get("schema_version") != SCHEMA_VERSION:
            raise ConfigError(f"{folder / RUN_FILE} has schema {info.get('schema_version')!r}, not {SCHEMA_VERSION!r}: "
                              "publish into another folder")
    if (folder / REPETITIONS).is_file():
        rows = pd.read_csv(folder / REPETITIONS, float_precision="round_trip")
    return info, rows


def publish(folder: str | Path, records: dict, rows: list[dict]) -> Path:
    """Put these streams' records and repetitions into ``folder``, replacing what it held for the same streams."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    info, old = read_folder(folder)
    new = pd.DataFrame(rows)
    if not old.empty:
        old = old[~old["stream"].isin(records)]
    merged = pd.concat([old, new], ignore_index=True) if not old.empty else new
    info["streams"].update(records)
    (folder / RUN_FILE).write_text(json.dumps(info, indent=1, default=str) + "\n")
    merged.to_csv(folder / REPETITIONS, index=False)
    return retable(folder)


def retable(folder: str | Path) -> Path:
    """Regenerate ``table.md`` and ``README.md`` from the folder's own run.json and repetitions.csv."""
    folder = Path(folder)
    info, rows = read_folder(folder)
    (folder / TABLE).write_text(table_markdown(rows, info["streams"]))
    (folder / README).write_text(readme_text(info))
    return folder


def readme_text(info: dict) -> str:
    from harness.bench.provenance import machine_text

    lines = ["# Generation benchmark: how to rebuild this folder", "",
             "Each stream below was measured by the command under it, from the repository's root at the commit named; "
             "a later run of the same stream replaces its rows (`--publish` keeps the other streams). "
             "`table.md` is generated from `run.json` and `repetitions.csv` (one row per repetition).", ""]
    for label, record in info["streams"].items():
        git = record.get("git", {})
        affinity = record.get("cpu_affinity")
        pinned = f"taskset -c {','.join(map(str, affinity))} " if affinity and len(affinity) < (
            record.get("machine", {}).get("cpus_logical") or 0) else ""
        nice = f"nice -n {record['nice']} " if record.get("nice") else ""
        lines += [f"## {label}", "", "```bash", f"git checkout {(git.get('commit') or 'unknown')[:12]}",
                  pinned + nice + command_text(record.get("command") or ["?"]), "```", "",
                  f"- commit `{git.get('commit')}`" + (" (uncommitted changes)" if git.get("dirty") else ""),
                  f"- {record.get('started')} to {record.get('finished')}, Spark `{record.get('master')}`, "
                  f"session start {record.get('session_start_s')} s (not in the timings)",
                  f"- machine: {machine_text(record.get('machine', {}))}; shared with other work unless the load "
                  "says otherwise, so CPU seconds are the steadier figure",
                  f"- partition check: {check_text(record.get('partition_check'))}"]
        if record.get("note"):
            lines.append(f"- {record['note']}")
        lines.append("")
    return "\n".join(lines)


def docs_block(folder: str, doc: str) -> str:
    """The table of ``folder`` between the markers a page keeps it in (``folder`` as written in the page)."""
    begin = DOCS_BEGIN.format(folder=folder, module=MODULE, doc=doc)
    return f"{begin}\n\n{(Path(folder) / TABLE).read_text()}\n{DOCS_END}"


def write_docs(doc: str, folder: str) -> None:
    """Replace the block of ``doc`` that holds ``folder``'s table; a page without the markers is refused."""
    text = Path(doc).read_text()
    begin = DOCS_BEGIN.format(folder=folder, module=MODULE, doc=doc)
    start, end = text.find(begin), text.find(DOCS_END)
    if start < 0 or end < start:
        raise ConfigError(f"{doc} has no block for {folder}: put the two lines {begin!r} and {DOCS_END!r} where it goes")
    Path(doc).write_text(text[:start] + docs_block(folder, doc) + text[end + len(DOCS_END):])
