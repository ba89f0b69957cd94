"""One engine, one look: its colour, marker and line style are a function of its name alone, the same in every figure.

Known engines have fixed entries (Okabe and Ito's colour-blind-safe palette). Any other engine
gets one by a deterministic rule: a name ``FAMILY-VARIANT`` whose family is known takes the
family's colour, a dashed line and a marker chosen from the variant's name; an unknown family
takes a colour and a marker chosen from a hash of its name (sha1, never Python's salted
``hash``), so ``sparkwave`` or ``tpjoin-event`` look the same in every figure of every run.
Axis helpers keep every figure's ticks alike: compact numbers (``1k``, ``10M``), log scale
where the data spans a decade or more, and every window size labelled by its own duration.
Text never runs off a figure: titles are wrapped to the figure's width (``wrapped``) and a legend
below the panels takes as many columns as fit (``legend_columns``).
"""

from __future__ import annotations

import hashlib
import math
import textwrap
from dataclasses import dataclass

import matplotlib.ticker as ticker


@dataclass(frozen=True)
class EngineStyle:
    colour: str
    marker: str
    linestyle: str = "-"


KNOWN = {
    "spectra": EngineStyle("#0072B2", "o"),
    "spectra-rev": EngineStyle("#56B4E9", "s"),
    "spectra-rev-onchange": EngineStyle("#56B4E9", "D", "--"),
    "reeval": EngineStyle("#D55E00", "^"),
    "oxigraph": EngineStyle("#E69F00", "v"),
    "scan": EngineStyle("#777777", "x", ":"),
    "delta": EngineStyle("#009E73", "P"),
    "delta-generic": EngineStyle("#009E73", "X", "--"),
    "sparkwave": EngineStyle("#CC79A7", "*"),
    "tpjoin": EngineStyle("#8C564B", "h"),
}
EXTRA_COLOURS = ("#000000", "#F0E442", "#1F77B4", "#9467BD", "#17BECF", "#BCBD22", "#E377C2", "#2CA02C", "#FF7F0E",
                 "#8C564B")
MARKERS = ("o", "s", "^", "v", "D", "P", "X", "*", "h", "<", ">", "p", "d")


def _pick(name: str, choices: tuple) -> str:
    return choices[int(hashlib.sha1(name.encode()).hexdigest(), 16) % len(choices)]


def engine_style(name: str) -> EngineStyle:
    """The engine's colour, marker and line style (see the module docstring for the rule)."""
    if name in KNOWN:
        return KNOWN[name]
    family, _, variant = name.partition("-")
    if family in KNOWN and variant:
        return EngineStyle(KNOWN[family].colour, _pick(variant, MARKERS), "--")
    return EngineStyle(_pick(family, EXTRA_COLOURS), _pick(name, MARKERS), "--" if variant else "-")


def compact_number(value: float, _position=None) -> str:
    """``0.5``, ``20``, ``1k``, ``2.5M``: one tick format for every axis of every figure."""
    if value == 0 or not math.isfinite(value):
        return "0"
    for divisor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= divisor:
            return f"{value / divisor:.3g}{suffix}"
    return f"{value:.3g}"


def spans_decades(values) -> bool:
    positive = [float(v) for v in values if v is not None and math.isfinite(float(v)) and float(v) > 0]
    return len(positive) > 1 and max(positive) / min(positive) >= 10


def format_axis(axis, values, which: str = "y") -> None:
    """Log scale when ``values`` span a decade or more (all positive), compact tick labels either way."""
    target = axis.yaxis if which == "y" else axis.xaxis
    if spans_decades(values):
        (axis.set_yscale if which == "y" else axis.set_xscale)("log")
        target.set_minor_formatter(ticker.NullFormatter())
    target.set_major_formatter(ticker.FuncFormatter(compact_number))


def window_axis(axis, seconds: list[float]) -> None:
    """An x axis of window ranges: log when they span decades, a tick at every window, labelled ``100 ms``, ``1 s``."""
    values = sorted(set(seconds))
    if spans_decades(values):
        axis.set_xscale("log")
    axis.xaxis.set_major_locator(ticker.FixedLocator(values))
    axis.xaxis.set_minor_locator(ticker.NullLocator())
    axis.xaxis.set_major_formatter(ticker.FixedFormatter([duration_label(v) for v in values]))
    if len(values) > 4:
        for label in axis.get_xticklabels():
            label.set_rotation(30)
            label.set_horizontalalignment("right")


def duration_label(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{seconds / 3600:g} h"
    if seconds >= 1:
        return f"{seconds:g} s"
    return f"{seconds * 1000:g} ms"


CHARACTER_WIDTH_EM = 0.6  # a generous average width of a character of the default sans-serif font, in ems


def wrapped(text: str, width_in: float, fontsize: float) -> str:
    """``text`` broken into lines that fit ``width_in`` inches at ``fontsize`` points (a long title, a long panel name)."""
    characters = max(12, int(width_in * 72 / (fontsize * CHARACTER_WIDTH_EM)))
    return "\n".join(textwrap.wrap(text, characters, break_on_hyphens=False)) or text


def legend_columns(labels: list[str], width_in: float, fontsize: float) -> int:
    """How many legend entries fit side by side in ``width_in`` inches (each a marker and its label)."""
    widest = max((len(label) for label in labels), default=1) * fontsize * CHARACTER_WIDTH_EM / 72 + 0.6
    return max(1, min(len(labels), 6, int(width_in / widest)))
