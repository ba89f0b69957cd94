"""One table per metric in a paper's layout: rows are engines (and queries), columns are windows, each cell a median with its IQR.

For every workload (dataset, scale, event shape, entailment) of a run and every metric the run
measured, ``paper_tables`` builds a grid: a row per engine (per engine and query when the workload
has several queries), a column per window, ordered by window size; rows and columns with no cell
are left out, so no column is empty. A cell is ``median [q1–q3]`` over the finished repetitions;
a cell that did not finish shows a dash with a footnote mark (``a``, ``b``, ...) whose note says
what happened (time-out, memory cap, refused, error); a cell whose timed loop stayed shorter than
``min_time_s`` after the most passes allowed is marked ``†``. No status columns: the marks carry it.
Written as LaTeX (booktabs; ``\\usepackage{booktabs}``) and as Markdown.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field

import pandas as pd

from harness.bench.memory_floor import add_own_memory
from harness.bench.tables import format_value, latex_escape, spread_text

# a table per workload; the scale is not one of its keys (a larger window may need a larger stream of the same dataset)
WORKLOAD_KEYS = ("dataset", "event_shape", "entailment")
# name -> (column of the summary, title, unit divisor)
METRICS = {
    "throughput": ("triples_per_s", "Throughput over the whole cell (triples/s)", 1.0),
    "steady_throughput": ("steady_triples_per_s", "Steady-state throughput, events after the window is full (triples/s)", 1.0),
    "latency_p99": ("latency_p99_ms", "Per-event processing latency, 99th percentile (ms)", 1.0),
    "memory_growth": ("rss_own_bytes", "Memory growth over the baseline RSS, less scan's in the same cell (MiB)", 2.0**20),
    "bytes_per_triple": ("own_bytes_per_window_triple",
                         "Memory growth less scan's in the same cell, per distinct triple in the window at the end (bytes)", 1.0),
    "e2e_p99": ("e2e_p99_ms", "End-to-end latency at the paced rate, arrival to answer, 99th percentile (ms)", 1.0),
}
# a memory table whose workload has no scan cell shows raw growth, and says so instead of claiming the floor is off
RAW_TITLES = {"rss_own_bytes": "Memory growth over the baseline RSS, raw: no scan cell measured the floor (MiB)",
              "own_bytes_per_window_triple": "Memory growth per distinct triple in the window at the end, raw: no scan "
                                             "cell measured the floor (bytes)"}
SHORT_MARK = "†"
STATUS_NOTES = {"timeout": "did not finish within the time-out", "memory": "passed the memory cap",
                "unsupported": "refused by the engine (outside its declared capabilities)", "error": "failed with an error"}


def duration_text(ms: float) -> str:
    if ms % 3_600_000 == 0:
        return f"{ms / 3_600_000:g} h"
    if ms >= 1000 and ms % 1000 == 0:
        return f"{ms / 1000:g} s"
    return f"{ms:g} ms"


def window_parts(spec: str) -> tuple[str, float, float]:
    """(kind, range ms, slide ms) of a window spec; NaN range and slide for event and unbounded windows."""
    parts = str(spec).split(":")
    if parts[0] == "sliding" and len(parts) == 3:
        return "sliding", float(parts[1]), float(parts[2])
    if parts[0] == "tumbling" and len(parts) == 2:
        return "tumbling", float(parts[1]), float(parts[1])
    return parts[0], float("nan"), float("nan")


def window_label(spec: str, *, with_slide: bool) -> str:
    """A column header: the window's range (``100 s``), with its slide when the columns' slides differ."""
    kind, range_ms, slide_ms = window_parts(spec)
    if kind == "tumbling":
        return f"tumbling {duration_text(range_ms)}"
    if kind == "sliding":
        return f"{duration_text(range_ms)} / {duration_text(slide_ms)}" if with_slide else duration_text(range_ms)
    return kind


def _window_order(spec: str) -> tuple:
    kind, range_ms, slide_ms = window_parts(spec)
    return ({"event": 0, "sliding": 1, "tumbling": 1, "unbounded": 2}.get(kind, 3), range_ms, slide_ms)


@dataclass
class PaperTable:
    metric: str
    title: str
    workload: dict
    row_names: list[str]   # "engine" or "engine", "query"
    rows: list[list[str]]  # row labels then cells
    columns: list[str]     # window headers
    notes: list[str] = field(default_factory=list)
    caption_extra: str = ""


def _workload_text(workload: dict) -> str:
    scales = [str(scale) for scale in workload.get("scales", []) if scale == scale and scale not in (None, "", "None")]
    scale = f"({', '.join(scales)})" if scales else ""
    return f"{workload['dataset']}{scale}, events {workload['event_shape']}, entailment {workload['entailment']}"


def paper_tables(summary: pd.DataFrame, *, repetitions: int | None = None, timeout_s: float | None = None,
                 min_time_s: float | None = None, engines: list[str] | None = None) -> list[PaperTable]:
    """Every (metric, workload) table the run has data for; rows in the order of ``engines`` (the run's)."""
    result = []
    if summary.empty:
        return result
    frame = summary.copy()
    if "rss_own_bytes" not in frame and {"engine", "rss_peak_bytes", "rss_base_bytes"} <= set(frame):
        from harness.bench.summary import workload_key  # a summary written before the floor was subtracted
        frame = add_own_memory(frame, workload_key(frame))
    frame["workload"] = frame[list(WORKLOAD_KEYS)].astype(str).agg("|".join, axis=1)
    paced = "rate_eps" in frame and frame["rate_eps"].notna().all()
    for metric, (column, title, divisor) in METRICS.items():
        if column not in frame or frame[column].notna().sum() == 0:
            continue
        if paced and metric == "throughput":
            continue  # the pace sets a paced cell's length: its whole-cell throughput is the rate, not the engine's
        for _, part in frame.groupby("workload", sort=False):
            table = _one_table(part, metric, column, _memory_title(part, column, title) if column in RAW_TITLES else title,
                               divisor, timeout_s, min_time_s, engines or [])
            if table is not None:
                table.caption_extra = f"median [interquartile range] over {repetitions} repetitions" if repetitions else ""
                result.append(table)
    return result


def _memory_title(part: pd.DataFrame, column: str, title: str) -> str:
    measured = part[part[column].notna()]
    floors = measured["rss_floor_bytes"] if "rss_floor_bytes" in measured else pd.Series(float("nan"), measured.index)
    if floors.isna().all():
        return RAW_TITLES[column]
    return title + ("; raw growth where a window has no scan cell" if floors.isna().any() else "")


def _one_table(part, metric, column, title, divisor, timeout_s, min_time_s, order) -> PaperTable | None:
    measured = part[part[column].notna() | (part["status"] != "ok")]
    if measured.empty or part[column].notna().sum() == 0:
        return None
    windows = sorted(measured["window"].unique(), key=_window_order)
    slides = {window_parts(w)[2] for w in windows if window_parts(w)[0] == "sliding"}
    by_query = part["query"].nunique() > 1
    keys = ["engine", "query"] if by_query else ["engine"]
    marks: dict[str, str] = {}
    notes: list[str] = []

    def mark_for(status: str, error: str) -> str:
        if status not in marks:
            marks[status] = string.ascii_lowercase[len(marks) % 26]
            detail = STATUS_NOTES.get(status, status)
            if status == "timeout" and timeout_s:
                detail += f" of {timeout_s:g} s"
            notes.append(f"{marks[status]}: {detail}")
        return marks[status]

    rows = []
    present = list(dict.fromkeys(part["engine"]))
    engines = [engine for engine in order if engine in present] + [engine for engine in present if engine not in order]
    queries = sorted(part["query"].unique(), key=_natural)
    for engine in engines:
        for query in queries if by_query else [None]:
            chosen = part[(part["engine"] == engine) & ((part["query"] == query) if query is not None else True)]
            if chosen.empty:
                continue
            cells = []
            for window in windows:
                cell = chosen[chosen["window"] == window]
                cells.append(_cell_text(cell, column, divisor, mark_for))
            if any(cells):
                rows.append([engine, *([query] if by_query else []), *cells])
    if not rows:
        return None
    keep = [i for i in range(len(windows)) if any(row[len(keys) + i] for row in rows)]
    rows = [row[: len(keys)] + [row[len(keys) + i] for i in keep] for row in rows]
    columns = [window_label(windows[i], with_slide=len(slides) > 1) for i in keep]
    if any(SHORT_MARK in cell for row in rows for cell in row):
        notes.append(f"{SHORT_MARK}: timed loop shorter than {min_time_s or 0:g} s even after the most passes allowed")
    extra = f"sliding by {duration_text(next(iter(slides)))}" if len(slides) == 1 else ""
    workload = {key: part[key].iloc[0] for key in WORKLOAD_KEYS}
    workload["scales"] = sorted({scale for scale in part["scale"] if scale == scale}) if "scale" in part else []
    return PaperTable(metric, title + (f"; windows {extra}" if extra else ""), workload, keys, rows, columns, notes)


def _natural(name: str) -> tuple:
    digits = "".join(character for character in str(name) if character.isdigit())
    return (str(name).rstrip(string.digits), int(digits) if digits else 0, str(name))


def _cell_text(cell: pd.DataFrame, column: str, divisor: float, mark_for) -> str:
    if cell.empty:
        return ""
    row = cell.iloc[0]
    value = row[column]
    if value != value or value is None:
        if row["status"] == "ok":
            return ""
        first = str(row["status"]).split("/")[0]
        return f"–^{mark_for(first, row.get('error', ''))}"
    text = spread_text(value / divisor, row.get(f"{column}_q1", float("nan")) / divisor,
                       row.get(f"{column}_q3", float("nan")) / divisor)
    if row.get("short") is True or row.get("short") == 1:
        text += SHORT_MARK
    if row["status"] != "ok":  # some repetitions finished, others did not
        text += f"^{mark_for(str(row['status']).split('/')[-1], row.get('error', ''))}"
    return text


def to_markdown(table: PaperTable) -> str:
    header = [*table.row_names, *table.columns]
    lines = [f"**{table.title}** — {_workload_text(table.workload)}; {table.caption_extra}", "",
             "| " + " | ".join(header) + " |",
             "|" + "|".join(["---"] * len(table.row_names) + ["---:"] * len(table.columns)) + "|"]
    for row in table.rows:
        lines.append("| " + " | ".join(cell.replace("^", "") if cell else "" for cell in row) + " |")
    if table.notes:
        lines += ["", "; ".join(table.notes)]
    return "\n".join(lines) + "\n"


def _latex_cell(cell: str) -> str:
    text, _, mark = cell.partition("^")
    text = latex_escape(text).replace("–", "--").replace("†", r"\textsuperscript{\dag}")
    text = text.replace(" [", r" {\scriptsize[").replace("]", "]}") if "[" in text else text
    return text + (rf"\textsuperscript{{{mark}}}" if mark else "")


def to_latex(table: PaperTable, label: str) -> str:
    columns = len(table.row_names) + len(table.columns)
    spec = "l" * len(table.row_names) + "r" * len(table.columns)
    caption = f"{table.title}. {_workload_text(table.workload)}; {table.caption_extra}."
    lines = [r"\begin{table}[t]", r"\centering", r"\small", rf"\caption{{{latex_escape(caption)}}}", rf"\label{{{label}}}",
             rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join([*(name.capitalize() for name in table.row_names), *(latex_escape(c) for c in table.columns)]) + r" \\",
             r"\midrule"]
    previous = None
    for row in table.rows:
        labels = [latex_escape(str(value)) for value in row[: len(table.row_names)]]
        if len(table.row_names) > 1 and labels[0] == previous:
            labels[0] = ""  # the engine once per group of its queries
        elif len(table.row_names) > 1 and previous is not None:
            lines.append(r"\addlinespace")
        previous = latex_escape(str(row[0]))
        lines.append(" & ".join([*labels, *(_latex_cell(cell) if cell else "" for cell in row[len(table.row_names):])]) + r" \\")
    lines.append(r"\bottomrule")
    for note in table.notes:
        mark, _, text = note.partition(": ")
        mark = r"\dag" if mark == SHORT_MARK else mark
        lines.append(rf"\multicolumn{{{columns}}}{{l}}{{\footnotesize\textsuperscript{{{mark}}} {latex_escape(text)}}} \\")
    lines += [r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


__all__ = ["METRICS", "PaperTable", "paper_tables", "to_latex", "to_markdown", "window_label", "format_value"]
