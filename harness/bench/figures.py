"""Every figure is drawn from the stored results alone, one engine one look (``style``), with honest axes, as PDF and PNG.

Figures: throughput against window size (whole cell, and at steady state), break-even (wall time
against re-evaluation's, by window size), latency CDFs (per event; end to end when rate-paced),
memory growth against events processed (first pass of repetition 0: a fast engine is a line too,
from its start and end points) and against window size, and the engines side by side at one window
(the run's largest, so a run of a single window has a figure too; an engine that timed out there is a hatched
bar at the most its rate can be, never a gap). Measures against window size are medians
with their IQR as error bars. A figure whose data is absent (one window size only, no ``reeval``
cells) is not drawn, and ``draw_all`` says why in its return value instead.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a display

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402

from harness.bench.style import compact_number, engine_style, format_axis, legend_columns, window_axis, wrapped  # noqa: E402
from harness.bench.summary import window_range_ms  # noqa: E402

FORMATS = ("pdf", "png")
DPI = 200
PANEL_KEYS = ("dataset", "event_shape", "entailment")
COLUMNS_MAX = 3


def with_panels(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with a ``panel`` column: the query, plus the dataset, event shape or entailment where the run has
    several, so that one curve never joins cells of different workloads (scales may differ along a curve: a large
    window needs a larger stream)."""
    varying = [key for key in PANEL_KEYS if key in frame and frame[key].nunique() > 1]
    panel = frame["query"].astype(str)
    for key in varying:
        panel = panel + " · " + frame[key].astype(str)
    return frame.assign(panel=panel)


def _grid(panels: list[str]):
    columns = min(COLUMNS_MAX, len(panels))
    rows = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.3 * columns, 3.3 * rows), squeeze=False,
                                layout="constrained")  # constrained layout: no tick label runs into the next panel
    for axis in axes.flat[len(panels):]:
        axis.set_visible(False)
    return figure, dict(zip(panels, axes.flat))


def _points(setting: str) -> float:  # an rcParams font size (9, or "large") in points
    return FontProperties(size=plt.rcParams[setting]).get_size_in_points()


def _title(axis, text: str) -> None:
    axis.set_title(wrapped(text, axis.get_position().width * axis.figure.get_figwidth(), _points("axes.titlesize")))


def _legend(figure, engines: list[str]) -> None:
    """Below the panels, in as many columns as the figure's width holds (never cut at its edges)."""
    handles = [plt.Line2D([], [], color=engine_style(e).colour, marker=engine_style(e).marker,
                          linestyle=engine_style(e).linestyle, label=e) for e in engines]
    columns = legend_columns(engines, figure.get_figwidth(), _points("legend.fontsize"))
    figure.legend(handles=handles, loc="outside lower center", ncols=columns, frameon=False)


def _save(figure, directory: Path, name: str, title: str, formats: tuple[str, ...] = FORMATS) -> list[str]:
    figure.suptitle(wrapped(title, figure.get_figwidth(), _points("figure.titlesize")))
    written = []
    for extension in formats:
        path = directory / f"{name}.{extension}"
        figure.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.05)  # the canvas grows to hold every text
        written.append(path.name)
    plt.close(figure)
    return written


def _with_window_size(summary: pd.DataFrame) -> pd.DataFrame:
    frame = with_panels(summary)
    frame["window_s"] = frame["window"].map(window_range_ms) / 1000
    return frame[frame["window_s"].notna()]


def _against_window(frame: pd.DataFrame, column: str, directory: Path, name: str, title: str, ylabel: str,
                    scale: float = 1.0, reference: float | None = None, formats: tuple[str, ...] = FORMATS) -> list[str]:
    panels = sorted(frame["panel"].unique())
    figure, axes = _grid(panels)
    engines = list(dict.fromkeys(frame["engine"]))
    for panel, axis in axes.items():
        part = frame[frame["panel"] == panel]
        for engine in engines:
            line = part[part["engine"] == engine].sort_values("window_s")
            if line.empty:
                continue
            style = engine_style(engine)
            middle = line[column] / scale
            errors = None
            if f"{column}_q1" in line:
                low, high = line[f"{column}_q1"] / scale, line[f"{column}_q3"] / scale
                errors = np.vstack([(middle - low).clip(lower=0).fillna(0), (high - middle).clip(lower=0).fillna(0)])
            axis.errorbar(line["window_s"], middle, yerr=errors, color=style.colour, marker=style.marker,
                          linestyle=style.linestyle, markersize=5, capsize=2, linewidth=1.2, label=engine)
        if reference is not None:
            axis.axhline(reference, color="grey", linestyle="--", linewidth=1)
        window_axis(axis, list(part["window_s"]))
        format_axis(axis, list(part[column] / scale) + ([reference] if reference else []))
        _title(axis, panel)
        axis.set_xlabel("window range")
        axis.set_ylabel(ylabel)
        axis.grid(True, which="major", alpha=0.3)
    _legend(figure, engines)
    return _save(figure, directory, name, title, formats)


def throughput_vs_window(summary: pd.DataFrame, directory: Path, column: str = "triples_per_s",
                         formats: tuple[str, ...] = FORMATS) -> list[str] | str:
    frame = _with_window_size(summary).dropna(subset=[column])
    if frame["window_s"].nunique() < 2:
        return "throughput against window size needs at least two window sizes"
    steady = column.startswith("steady")
    return _against_window(frame, column, directory, "steady_throughput_vs_window" if steady else "throughput_vs_window",
                           "Steady-state throughput (events after the window is full)" if steady else
                           "Throughput against window size (whole cell)",
                           "triples/s (median, IQR bars)", formats=formats)


def break_even(summary: pd.DataFrame, directory: Path) -> list[str] | str:
    frame = _with_window_size(summary).dropna(subset=["x_reeval"])
    if frame.empty or frame["window_s"].nunique() < 2:
        return "break-even curves need reeval cells and at least two window sizes"
    return _against_window(frame, "x_reeval", directory, "break_even",
                           "Break-even against re-evaluation (below 1: incremental wins)",
                           "wall time / re-evaluation's (medians)", reference=1.0)


def rss_vs_window(summary: pd.DataFrame, directory: Path) -> list[str] | str:
    column = "rss_own_bytes" if "rss_own_bytes" in summary else "rss_growth_bytes"
    frame = _with_window_size(summary).dropna(subset=[column])
    if frame["window_s"].nunique() < 2:
        return "RSS against window size needs at least two window sizes"
    floored = column == "rss_own_bytes" and frame["rss_floor_bytes"].notna().any()
    return _against_window(frame, column, directory, "rss_vs_window", "Memory growth against window size",
                           f"peak RSS − baseline{' − scan’s' if floored else ''} (MiB, median, IQR bars)", scale=2**20)


def _cell_panels(frame: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (rows of cells) with the cell's engine and a ``panel`` label: the workload's panel and the window."""
    from harness.bench.paper import window_label

    labels = with_panels(summary).set_index("cell_id")[["engine", "panel", "window"]]
    frame = frame.join(labels, on="cell_id", how="inner")
    return frame.assign(panel=frame["panel"] + " · " + frame["window"].map(lambda w: window_label(w, with_slide=True)),
                        order=frame["window"].map(_window_key))


def _window_key(spec: str) -> tuple:
    from harness.bench.paper import window_parts

    kind, range_ms, slide_ms = window_parts(spec)
    return (kind not in ("sliding", "tumbling"), range_ms if range_ms == range_ms else 0.0, slide_ms if slide_ms == slide_ms else 0.0)


def _ordered_panels(frame: pd.DataFrame) -> list[str]:
    """Panels by query (natural order: L2 before L10), then window size."""
    from harness.bench.paper import _natural

    first = frame.drop_duplicates("panel")
    return [row.panel for row in sorted(first.itertuples(), key=lambda row: (_natural(row.panel.split(" · ")[0]),
                                                                               row.panel.split(" · ")[1:-1], row.order))]


def latency_cdf(latencies: pd.DataFrame, summary: pd.DataFrame, directory: Path, column: str = "latency_ms") -> list[str] | str:
    if latencies.empty or column not in latencies:
        return "no per-event latencies were stored" if column == "latency_ms" else "no rate-paced cells"
    frame = _cell_panels(latencies.dropna(subset=[column]), summary)
    frame = frame[frame[column] > 0]
    if frame.empty:
        return "no per-event latencies were stored"
    panels = _ordered_panels(frame)
    figure, axes = _grid(panels)
    engines = list(dict.fromkeys(frame["engine"]))
    for panel, axis in axes.items():
        part = frame[frame["panel"] == panel]
        for engine in engines:
            values = np.sort(part.loc[part["engine"] == engine, column].to_numpy())
            if len(values):
                style = engine_style(engine)
                axis.step(values, np.arange(1, len(values) + 1) / len(values), where="post", color=style.colour,
                          linestyle=style.linestyle, linewidth=1.3)
        format_axis(axis, [part[column].min(), part[column].max()], "x")
        axis.set_ylim(0, 1.02)
        _title(axis, panel)
        axis.set_xlabel("end-to-end latency, arrival to answer (ms)" if column == "e2e_ms" else "per-event latency (ms)")
        axis.set_ylabel("fraction of events")
        axis.grid(True, which="major", alpha=0.3)
    _legend(figure, engines)
    if column == "e2e_ms":
        return _save(figure, directory, "e2e_latency_cdf", "End-to-end latency at the paced rate, all repetitions")
    return _save(figure, directory, "latency_cdf", "Per-event processing latency, all repetitions")


def rss_vs_events(rss: pd.DataFrame, summary: pd.DataFrame, directory: Path) -> list[str] | str:
    """Memory growth against events processed: samples of the first pass of each cell's first repetition, at each
    query's largest window (where memory tells engines apart; the growth at every window is ``rss_vs_window``)."""
    if rss.empty or "events" not in rss or rss["events"].notna().sum() == 0:
        return "no RSS series with event counts were stored (rss_hz = 0, or a run older than this figure)"
    first = rss[rss["repetition"] == rss.groupby("cell_id")["repetition"].transform("min")].dropna(subset=["events"])
    first = first[first["t_s"] >= 0]  # from the baseline point at the loop's start (samples before it are loading)
    base = first.sort_values("t_s").groupby("cell_id")["rss_bytes"].transform("first")
    frame = _cell_panels(first.assign(growth_mib=(first["rss_bytes"] - base) / 2**20), summary)
    largest = frame.groupby(frame["panel"].str.rsplit(" · ", n=1).str[0])["order"].transform("max")
    frame = frame[frame["order"] == largest]
    panels = _ordered_panels(frame)
    figure, axes = _grid(panels)
    engines = list(dict.fromkeys(frame["engine"]))
    for panel, axis in axes.items():
        part = frame[frame["panel"] == panel]
        for engine in engines:
            line = part[part["engine"] == engine].sort_values(["events", "t_s"])
            if len(line):
                style = engine_style(engine)
                axis.plot(line["events"], line["growth_mib"], color=style.colour, linestyle=style.linestyle,
                          marker=style.marker, markevery=max(1, len(line) // 8), markersize=4, linewidth=1.2)
        axis.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(compact_number))
        axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(compact_number))
        _title(axis, panel)
        axis.set_xlabel("events processed")
        axis.set_ylabel("RSS − baseline (MiB)")
        axis.grid(True, which="major", alpha=0.3)
    _legend(figure, engines)
    return _save(figure, directory, "rss_vs_events",
                 "Memory growth against events processed (largest window, first repetition)")


def engines_at_window(summary: pd.DataFrame, directory: Path, column: str = "triples_per_s",
                      formats: tuple[str, ...] = FORMATS, bounds: pd.Series | None = None) -> list[str] | str:
    """The engines side by side at one window, the run's largest (where engines differ most): a bar per engine and
    workload panel, the median with its IQR. Needs no second window size, unlike the curves above. An engine that
    timed out is not left out: ``bounds`` (cell id -> the most its rate can be, as the claims bound it) draws it as a
    hatched bar marked ``≤``; without one it is marked "timed out" at the axis."""
    from harness.bench.paper import _natural, window_label

    frame = _with_window_size(summary)
    timed_out = frame["status"].astype(str).str.contains("timeout") & frame[column].isna()
    bound = frame["cell_id"].map(bounds if bounds is not None else {}).where(timed_out)
    frame = frame.assign(timed_out=timed_out, height=frame[column].fillna(bound))[frame[column].notna() | timed_out]
    if frame["height"].isna().all():
        return f"no finished cell has {column}, nor a bound on it"
    frame = frame[frame["window_s"] == frame["window_s"].max()]
    panels = sorted(frame["panel"].unique(), key=_natural)
    figure, axes = _grid(panels)
    engines = list(dict.fromkeys(frame["engine"]))
    for panel, axis in axes.items():
        part = frame[frame["panel"] == panel].drop_duplicates("engine").set_index("engine").reindex(
            [e for e in engines if e in set(frame.loc[frame["panel"] == panel, "engine"])]).reset_index()
        colours = [engine_style(engine).colour for engine in part["engine"]]
        bars = axis.bar(range(len(part)), part["height"].fillna(0), color=colours, width=0.8)
        if f"{column}_q1" in part:
            low = (part[column] - part[f"{column}_q1"]).clip(lower=0).fillna(0)
            high = (part[f"{column}_q3"] - part[column]).clip(lower=0).fillna(0)
            axis.errorbar(range(len(part)), part[column], yerr=np.vstack([low, high]), fmt="none", ecolor="black",
                          capsize=3, linewidth=1)
        for position, (bar, row) in enumerate(zip(bars, part.itertuples())):
            if row.timed_out:
                bar.set(facecolor="white", edgecolor=colours[position], hatch="//", linewidth=1.2)
                known = row.height == row.height  # not NaN: a bound is known
                axis.annotate(f"≤ {compact_number(row.height)}\ntimed out" if known else "timed out",
                              (position, row.height if known else 0), xycoords="data" if known else axis.get_xaxis_transform(),
                              ha="center", va="bottom", fontsize=7, xytext=(0, 2), textcoords="offset points")
        format_axis(axis, list(part["height"].dropna()))
        if part["timed_out"].any():  # headroom for the bound's label above its bar
            axis.set_ylim(axis.get_ylim()[0], axis.get_ylim()[1] * (3 if axis.get_yscale() == "log" else 1.2))
        axis.set_xticks(range(len(part)), part["engine"], rotation=30, ha="right", rotation_mode="anchor")
        _title(axis, panel)
        axis.set_ylabel("triples/s (median, IQR bars)" if column == "triples_per_s" else column)
        axis.grid(True, axis="y", which="major", alpha=0.3)
    window = frame["window"].iloc[0]
    return _save(figure, directory, "engines_at_window",
                 f"Engines side by side at one window ({window_label(window, with_slide=True)}, the run's largest)", formats)


def draw_all(summary: pd.DataFrame, rss: pd.DataFrame, latencies: pd.DataFrame, directory: Path) -> dict[str, list[str] | str]:
    """Figure name -> files written, or the reason it was not drawn."""
    directory.mkdir(parents=True, exist_ok=True)
    plt.rcParams.update({"font.size": 8, "axes.titlesize": 9, "legend.fontsize": 8, "figure.titlesize": 10})
    return {
        "throughput_vs_window": throughput_vs_window(summary, directory),
        "steady_throughput_vs_window": throughput_vs_window(summary, directory, "steady_triples_per_s"),
        "break_even": break_even(summary, directory),
        "latency_cdf": latency_cdf(latencies, summary, directory),
        "e2e_latency_cdf": latency_cdf(latencies, summary, directory, "e2e_ms"),
        "rss_vs_events": rss_vs_events(rss, summary, directory),
        "rss_vs_window": rss_vs_window(summary, directory),
        "engines_at_window": engines_at_window(summary, directory),
    }
