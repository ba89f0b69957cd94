"""The site's own figures, drawn as SVG with the reports' look: a benchmark across commits, and a comparison's ratios.

Both use ``harness.bench.style``: an engine's colour is the same here as in every report figure,
and axes spanning a decade are logarithmic with compact tick labels.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a display

import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as ticker  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from harness.bench.style import compact_number, engine_style, format_axis, legend_columns, wrapped  # noqa: E402

COLUMNS_MAX = 3
CHANGE_COLOURS = {"slower": "#D55E00", "failed": "#D55E00", "faster": "#009E73", "same": "#777777", "noise": "#56B4E9",
                  "undecided": "#E69F00", "not measured": "#BBBBBB"}


def _panels(count: int, width: float = 4.3, height: float = 3.0):
    columns = min(COLUMNS_MAX, max(count, 1))
    rows = math.ceil(max(count, 1) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(width * columns, height * rows), squeeze=False,
                                layout="constrained")
    for axis in axes.flat[count:]:
        axis.set_visible(False)
    return figure, list(axes.flat)


def history_plot(history: pd.DataFrame, points: pd.DataFrame, metric: str, path: Path) -> Path:
    """One panel per query: each cell's median (IQR bars) at each run, runs in order along x, per machine a style."""
    order = {(row.machine, row.commit, row.run_id): number for number, row in enumerate(points.itertuples())}
    frame = history.assign(position=[order[key] for key in zip(history["machine"], history["commit"], history["run_id"])])
    frame = frame.dropna(subset=[metric])
    queries = sorted(frame["query"].astype(str).unique())
    figure, axes = _panels(len(queries))
    labels = [f"{row.commit[:8]}\n{row.run_id[:18]}" for row in points.itertuples()]
    for query, axis in zip(queries, axes):
        part = frame[frame["query"].astype(str) == query]
        for _, line in part.groupby(["machine", "cell_id"], sort=False):  # a line per cell and machine
            line = line.sort_values("position")
            style = engine_style(str(line["engine"].iloc[0]))
            errors = np.vstack([(line[metric] - line[f"{metric}_q1"]).clip(lower=0).fillna(0).to_numpy(float),
                                (line[f"{metric}_q3"] - line[metric]).clip(lower=0).fillna(0).to_numpy(float)])
            axis.errorbar(line["position"], line[metric], yerr=errors, color=style.colour, marker=style.marker,
                          linestyle=style.linestyle, markersize=4, capsize=2, linewidth=1)
        format_axis(axis, list(part[metric]))
        axis.set_xticks(range(len(labels)), labels, fontsize=6)
        axis.set_xlim(-0.5, len(labels) - 0.5)
        axis.set_title(wrapped(query, 4.0, plt.rcParams["font.size"] * 1.2))
        axis.set_ylabel(f"{metric} (median, IQR bars)")
        axis.grid(True, which="major", alpha=0.3)
    engines = list(dict.fromkeys(frame["engine"].astype(str)))
    handles = [plt.Line2D([], [], color=engine_style(e).colour, marker=engine_style(e).marker,
                          linestyle=engine_style(e).linestyle, label=e) for e in engines]
    figure.legend(handles=handles, loc="outside lower center", frameon=False,
                  ncols=legend_columns(engines, figure.get_figwidth(), plt.rcParams["font.size"]))
    figure.suptitle(wrapped(f"{metric} across runs, oldest first (one line per cell)", figure.get_figwidth(),
                            plt.rcParams["font.size"] * 1.2))
    figure.savefig(path, bbox_inches="tight", pad_inches=0.05)  # the canvas grows to hold every label
    plt.close(figure)
    return path


def compare_plot(table: pd.DataFrame, threshold: float, path: Path, title: str) -> Path:
    """Each cell's median ratio (run / base) on a log axis, coloured by ``compare``'s verdict; the band is the
    threshold within which a move is never called a change."""
    frame = table.dropna(subset=["ratio"]).copy()
    frame["cell"] = frame["engine"].astype(str) + " · " + frame["query"].astype(str) + " · " + frame["window"].astype(str)
    frame = frame.sort_values("ratio")
    figure, axis = plt.subplots(figsize=(7.5, max(2.0, 0.22 * len(frame) + 1.2)), layout="constrained")
    axis.axvspan(1 - threshold, 1 + threshold, color="#eeeeee", zorder=0)
    axis.axvline(1.0, color="grey", linewidth=0.8)
    palette = {change: CHANGE_COLOURS.get(change, "#000000") for change in frame["change"].unique()}
    if len(frame):
        sns.scatterplot(frame, x="ratio", y="cell", hue="change", palette=palette, ax=axis, s=30, zorder=3)
        axis.set_xscale("log")
        ticks = sorted({round(value, 2) for value in (1 - threshold, 1.0, 1 + threshold, frame["ratio"].min(),
                                                       frame["ratio"].max()) if value > 0})
        axis.set_xticks(ticks, [compact_number(tick) for tick in ticks])
        axis.xaxis.set_minor_formatter(ticker.NullFormatter())
        axis.legend(title="change", fontsize=7, title_fontsize=7, loc="best")
    axis.tick_params(axis="y", labelsize=6)
    axis.set_xlabel("median ratio, run / base (above 1: slower)")
    axis.set_ylabel("")
    axis.set_title(wrapped(title, figure.get_figwidth() - 1.5, 9), fontsize=9)  # less the cells' labels on the left
    figure.savefig(path, bbox_inches="tight", pad_inches=0.05)
    plt.close(figure)
    return path
