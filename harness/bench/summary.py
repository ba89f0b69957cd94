"""Repetitions collapse to one row per cell (medians of the finished ones, with their interquartile range), with ratios to the baselines measured in the same run.

Every measured column ``C`` gets ``C`` (the median over the cell's ``ok`` repetitions), ``C_q1`` and
``C_q3`` (its first and third quartiles, linear interpolation, as numpy's default): a table prints
the median with its IQR so a reader sees how far repetitions spread. Memory that tells engines
apart is the growth over the baseline (``rss_growth_bytes`` = peak - baseline RSS, per repetition)
and ``bytes_per_window_triple`` (that growth over the distinct triples in the window at the end).

Ratios are of median wall times on the same stream, query, window and entailment, measured side
by side in one run: ``x_scan`` (the cost of merely receiving the stream), ``x_oxigraph`` and
``x_reeval`` (re-evaluation; below 1 the incremental engine wins, the break-even is where it
crosses 1), and ``x_variant`` for an engine named ``BASE-suffix`` against ``BASE`` (``spectra-rev``
against ``spectra``, ``delta-generic`` against ``delta``). A ratio above 1 means slower.
"""

from __future__ import annotations

import pandas as pd

from harness.bench.matrix import KEY_COLUMNS
from harness.bench.memory_floor import FLOOR_ENGINE, add_own_memory

WORKLOAD_COLUMNS = tuple(column for column in KEY_COLUMNS if column != "engine")
RATIO_BASES = ("scan", "oxigraph", "reeval")
MEDIAN_COLUMNS = ("wall_s", "cpu_s", "triples_per_s", "events_per_s", "steady_triples_per_s", "steady_events_per_s",
                  "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms", "rss_base_bytes",
                  "rss_peak_bytes", "rss_growth_bytes", "bytes_per_window_triple", "rss_own_bytes",
                  "own_bytes_per_window_triple", "answers", "sampler_share",
                  "inner_passes", "e2e_p50_ms", "e2e_p99_ms", "max_wait_s", "rate_eps",
                  "merge_s", "end_to_end_s", "partition_skew")  # the last three: split cells (harness.bench.split_cell)
SPREAD_COLUMNS = ("wall_s", "triples_per_s", "events_per_s", "steady_triples_per_s", "steady_events_per_s",
                  "latency_p50_ms", "latency_p99_ms", "rss_growth_bytes", "bytes_per_window_triple", "rss_own_bytes",
                 "own_bytes_per_window_triple", "e2e_p50_ms",
                  "e2e_p99_ms", "merge_s", "end_to_end_s")


def _status(statuses: pd.Series) -> str:
    distinct = sorted(set(statuses.dropna()))
    return distinct[0] if len(distinct) == 1 else "/".join(distinct)


def per_cell(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: medians over its ``ok`` repetitions, its status(es) and verdict."""
    if cells.empty:
        return pd.DataFrame(columns=["cell_id", *KEY_COLUMNS, "concurrent", "streams", "repetitions", "ok", "status", "verdict", *MEDIAN_COLUMNS])
    frame = cells.copy()
    if "concurrent" not in frame:  # cells stored before the concurrent axis ran one query each
        frame["concurrent"] = 1
    if "streams" not in frame:  # cells stored before named windows read one stream each
        frame["streams"] = ""
    if "partitions" not in frame:  # cells stored before split runs were unsplit
        frame["partitions"] = 0
    for column in (*MEDIAN_COLUMNS, "window_triples"):
        if column not in frame:
            frame[column] = float("nan")
    for column in ("rss_peak_bytes", "rss_base_bytes", "window_triples"):
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    frame = add_own_memory(frame.drop(columns=["rss_growth_bytes"], errors="ignore"), workload_key(frame))
    frame["bytes_per_window_triple"] = frame["rss_growth_bytes"] / frame["window_triples"].where(frame["window_triples"] > 0)
    for column in MEDIAN_COLUMNS:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    frame["ok_flag"] = frame["status"] == "ok"
    rows = []
    for cell_id, group in frame.groupby("cell_id", sort=False):
        ok = group[group["ok_flag"]]
        row = {"cell_id": cell_id, **{column: group[column].iloc[0] for column in KEY_COLUMNS},
               "concurrent": group["concurrent"].iloc[0], "streams": group["streams"].fillna("").iloc[0],
               "partitions": int(pd.to_numeric(group["partitions"], errors="coerce").fillna(0).iloc[0])}
        row.update(repetitions=len(group), ok=len(ok), status=_status(group["status"]),
                   verdict=group["verdict"].iloc[0], error=next((e for e in group["error"] if isinstance(e, str) and e), ""))
        for column in ("events", "triples", "window_triples"):
            row[column] = pd.to_numeric(group[column], errors="coerce").max()
        row["added"] = pd.to_numeric(ok["added"], errors="coerce").max() if "added" in ok else float("nan")
        for column in MEDIAN_COLUMNS:
            values = ok[column].dropna()
            row[column] = values.median() if len(values) else float("nan")
        for column in SPREAD_COLUMNS:
            values = ok[column].dropna()
            row[f"{column}_q1"] = values.quantile(0.25) if len(values) else float("nan")
            row[f"{column}_q3"] = values.quantile(0.75) if len(values) else float("nan")
        row["rss_floor_bytes"] = group["rss_floor_bytes"].iloc[0]  # the workload's, whether or not this cell finished
        row["verify_error"] = group["verify_error"].iloc[0] if "verify_error" in group else ""
        row["short"] = bool(any(value is True or value == 1 for value in ok["short"])) if "short" in ok else False
        row["kept_up"] = _all_or_none(ok["kept_up"]) if "kept_up" in ok else None
        rows.append(row)
    return add_ratios(pd.DataFrame(rows))


def failed_cells(summary: pd.DataFrame) -> list[tuple[str, str]]:
    """(cell, reason) for each cell that errored: a repetition whose status is ``error``, or a verification that could
    not run for an error. A time-out or a memory cap is a result and ``unsupported`` a refusal: neither is a failure."""
    failed = []
    for row in summary.itertuples(index=False):
        statuses = str(row.status).split("/")
        verify_failed = str(row.verdict) == "not checked (error)"
        if "error" not in statuses and not verify_failed:
            continue
        reason = (row.error if "error" in statuses else "") or getattr(row, "verify_error", "") or "no reason recorded"
        where = "verification" if "error" not in statuses else f"{row.ok}/{row.repetitions} runs ok"
        failed.append((f"{row.engine} {row.dataset} {row.query} {row.window}", f"{where}: {reason}"))
    return failed


def silent_cells(summary: pd.DataFrame, matches=lambda engine: True) -> list[str]:
    """The cells whose query added no answer over a whole finished pass: a result, but more often a query whose
    constants the stream does not hold (a user the generator did not make), so bench names them. ``matches(engine)``
    is False for an engine that answers nothing by design (``scan``)."""
    if "added" not in summary or summary.empty:
        return []
    answering = summary["engine"].map(lambda engine: bool(matches(engine)))
    silent = summary[answering & (summary["ok"] > 0) & (pd.to_numeric(summary["added"], errors="coerce") == 0)]
    return [f"{row.engine} {row.dataset} {row.query} {row.window}" for row in silent.itertuples(index=False)]


def diverging_cells(cells: pd.DataFrame, matches=lambda engine: True) -> list[str]:
    """The workloads (one query, window and stream) whose answering engines' finished repetitions show more than one
    answer digest (``harness.bench.answers``): some engine computed other answers, and its figures measure those."""
    if "answer_digest" not in cells or cells.empty:
        return []
    done = cells[(cells["status"] == "ok") & cells["answer_digest"].notna()
                 & cells["engine"].map(lambda engine: bool(matches(engine)))]
    if done.empty:
        return []
    found = []
    for _, rows in done.groupby(workload_key(done), sort=False):
        digests = rows.groupby("engine")["answer_digest"].agg(lambda values: ",".join(sorted(set(map(str, values)))))
        if rows["answer_digest"].nunique() > 1:
            first = rows.iloc[0]
            found.append(f"{first.dataset} {first.query} {first.window}: "
                         + "; ".join(f"{engine} {digest}" for engine, digest in digests.items()))
    return found


def _all_or_none(values: pd.Series):
    known = values.dropna()
    return None if known.empty else bool(known.astype(bool).all())


def workload_key(frame: pd.DataFrame) -> pd.Series:
    # the streams of a query over named windows are part of what it ran on (empty for one stream)
    # a split cell is compared with cells split alike (the same partitions)
    columns = [*WORKLOAD_COLUMNS, *(["streams"] if "streams" in frame else []), *(["partitions"] if "partitions" in frame else [])]
    return frame[columns].fillna("").astype(str).agg("|".join, axis=1)


def add_ratios(summary: pd.DataFrame) -> pd.DataFrame:
    summary = summary.copy()
    workloads = list(workload_key(summary))
    engines = list(summary["engine"])
    walls = list(summary["wall_s"])
    wall = {}
    for workload, engine, value in zip(workloads, engines, walls):
        wall.setdefault((workload, engine), value)

    def ratio(workload: str, engine: str, value: float, base: str | None) -> float:
        if base is None or engine == base or (workload, base) not in wall:
            return float("nan")
        return value / wall[(workload, base)]

    for base in RATIO_BASES:
        summary[f"x_{base}"] = [ratio(w, e, v, base) for w, e, v in zip(workloads, engines, walls)]
    names = set(engines)
    variants = [next((base for base in sorted(names) if name != base and name.startswith(base + "-")), None)
                for name in engines]
    summary["variant_of"] = variants
    summary["x_variant"] = [ratio(w, e, v, b) for w, e, v, b in zip(workloads, engines, walls, variants)]
    return summary


def window_range_ms(window: str) -> float:
    """The window's range for plotting against window size: sliding/tumbling range; NaN for event and unbounded."""
    parts = str(window).split(":")
    if parts[0] in ("sliding", "tumbling") and len(parts) > 1:
        try:
            return float(parts[1])
        except ValueError:
            return float("nan")
    return float("nan")


def _with_spread(summary: pd.DataFrame, column: str, scale: float = 1.0) -> list[str]:
    """``median [q1–q3]`` per cell (the IQR over its finished repetitions), the value alone when one repetition
    finished (its "range" would be the value twice), a dash where nothing finished."""
    from harness.bench.tables import spread_text

    nan = float("nan")
    return [spread_text(m / scale, q1 / scale if ok > 1 else nan, q3 / scale if ok > 1 else nan) for m, q1, q3, ok in
            zip(summary[column], summary[f"{column}_q1"], summary[f"{column}_q3"], summary["ok"])]


OWN_MIB, OWN_PER_TRIPLE = "own RSS MiB", "own B/window triple"
RAW_MARK = " raw"
MEMORY_LEGEND = (f"Memory ({OWN_MIB}, {OWN_PER_TRIPLE}) is the engine's own: its peak RSS less the RSS before the pass, "
                 f"less the median growth of `{FLOOR_ENGINE}` (which holds nothing: the harness's own growth) on the same "
                 f"stream, query, window and entailment in this run, as the claims measure it "
                 f"(`harness.bench.memory_floor`); a value marked `raw` is the growth alone, the run having no "
                 f"`{FLOOR_ENGINE}` cell there (add `{FLOOR_ENGINE}` to the engines to measure the floor).")


def _raw_marked(summary: pd.DataFrame, texts: list[str]) -> list[str]:
    """A measure with no floor under it (no scan cell in its workload) says it is raw growth."""
    floors = summary["rss_floor_bytes"] if "rss_floor_bytes" in summary else pd.Series(float("nan"), index=summary.index)
    return [text + RAW_MARK if floor != floor and text != "–" else text for text, floor in zip(texts, floors)]


def display_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The columns a reader wants, with units in the names, each measure as median [IQR], ratios beside the absolutes."""
    runs = summary["ok"].astype(str) + "/" + summary["repetitions"].astype(str)
    short = summary["short"].map(lambda value: value is True or value == 1) if "short" in summary else \
        pd.Series(False, index=summary.index)
    table = pd.DataFrame({
        "engine": summary["engine"],
        "dataset": summary["dataset"],
        "query": summary["query"],
        "window": summary["window"],
        "queries": summary["concurrent"] if "concurrent" in summary else 1,
        "partitions": summary["partitions"] if "partitions" in summary else 0,
        "events": summary["events"],
        "runs ok": runs.where(~short, runs + " short"),
        "status": summary["status"],
        "verdict": summary["verdict"],
        "wall s": _with_spread(summary, "wall_s"),
        "triples/s": _with_spread(summary, "triples_per_s"),
        "steady triples/s": _with_spread(summary, "steady_triples_per_s"),
        "p99 ms": _with_spread(summary, "latency_p99_ms"),
        OWN_MIB: _raw_marked(summary, _with_spread(summary, "rss_own_bytes", 2**20)),
        OWN_PER_TRIPLE: _raw_marked(summary, _with_spread(summary, "own_bytes_per_window_triple")),
        "×scan": summary["x_scan"],
        "×oxigraph": summary["x_oxigraph"],
        "×reeval": summary["x_reeval"],
    })
    if summary["x_variant"].notna().any():
        table["variant of"] = summary["variant_of"].fillna("")
        table["×variant"] = summary["x_variant"]
    if "e2e_p99_ms" in summary and summary["e2e_p99_ms"].notna().any():
        table["end-to-end p99 ms"] = _with_spread(summary, "e2e_p99_ms")
        table["kept up"] = summary["kept_up"].map(lambda v: "–" if v is None or v != v else ("yes" if v else "no"))
    table.attrs["numeric"] = ("wall s", "triples/s", "steady triples/s", "p99 ms", OWN_MIB, OWN_PER_TRIPLE,
                              "end-to-end p99 ms")
    return table


# display_table's columns in the order a person reads them first; the terminal shows as many as fit
TERMINAL_COLUMNS = ("engine", "query", "window", "queries", "partitions", "status", "verdict", "wall s", "triples/s", "×reeval", "runs ok",
                    "dataset", "p99 ms", OWN_MIB, "×variant", "kept up")
WINDOW_WIDTH = 40  # characters of the window column in the terminal's table (the report keeps it whole)
TERMINAL_WIDTH = 120


def terminal_table(summary: pd.DataFrame, width: int = TERMINAL_WIDTH) -> pd.DataFrame:
    """The few columns of ``display_table`` a person reads first, as many as fit ``width`` characters of text;
    the report keeps them all. ``dataset`` and ``queries`` (concurrent) are shown only when the run has more than one."""
    from harness.bench.tables import to_text

    table = display_table(summary)
    if "window" in table:  # named windows spell every window: cut, so the status and verdict still fit
        table["window"] = table["window"].map(lambda text: text if len(str(text)) <= WINDOW_WIDTH else f"{str(text)[:WINDOW_WIDTH - 1]}…")
    candidates = [column for column in TERMINAL_COLUMNS if column in table
                  and (column != "dataset" or table["dataset"].nunique() > 1)
                  and (column != "queries" or table["queries"].nunique() > 1)]
    chosen: list[str] = []
    for column in candidates:
        trial = table[[name for name in candidates if name in chosen or name == column]]
        if not chosen or _text_width(to_text(trial)) <= width:
            chosen.append(column)
    shown = table[[column for column in candidates if column in chosen]]
    shown.attrs["numeric"] = table.attrs["numeric"]
    return shown


def _text_width(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)
