"""A DataFrame becomes a Markdown, LaTeX (booktabs) or CSV table with the same rows, columns and number formatting."""

from __future__ import annotations

import math

import pandas as pd

_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def format_value(value) -> str:
    """Numbers with three significant digits (thousands grouped), missing values as a dash."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) >= 1000):
        return f"{int(value):,}"
    if isinstance(value, float):
        if value == 0:
            return "0"
        magnitude = math.floor(math.log10(abs(value)))
        decimals = max(0, 2 - magnitude)
        return f"{value:,.{decimals}f}"
    return str(value)


def spread_text(median, q1, q3) -> str:
    """``median [q1–q3]``: the median with the interquartile range of the repetitions, a dash when unmeasured."""
    if median is None or median != median:
        return "–"
    if q1 is None or q3 is None or q1 != q1 or q3 != q3:
        return format_value(float(median))
    return f"{format_value(float(median))} [{format_value(float(q1))}–{format_value(float(q3))}]"


def _right_aligned(frame: pd.DataFrame) -> list[bool]:
    numeric = set(frame.attrs.get("numeric", ()))
    return [pd.api.types.is_numeric_dtype(frame[column]) or column in numeric for column in frame.columns]


def _cells(frame: pd.DataFrame) -> list[list[str]]:
    return [[format_value(value.item() if hasattr(value, "item") else value) for value in row]
            for row in frame.itertuples(index=False)]


def to_markdown(frame: pd.DataFrame) -> str:
    header = [str(column) for column in frame.columns]
    numeric = _right_aligned(frame)
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if is_number else "---" for is_number in numeric) + "|"]
    for row in _cells(frame):
        lines.append("| " + " | ".join(cell.replace("|", r"\|") for cell in row) + " |")
    return "\n".join(lines) + "\n"


def latex_escape(text: str) -> str:
    escaped = "".join(_LATEX_SPECIAL.get(character, character) for character in text)
    return escaped.replace("×", r"$\times$").replace("−", "$-$")


def to_latex(frame: pd.DataFrame, *, caption: str, label: str) -> str:
    """A booktabs table environment, ready for \\input in a paper (needs \\usepackage{booktabs})."""
    numeric = _right_aligned(frame)
    spec = "".join("r" if is_number else "l" for is_number in numeric)
    lines = [r"\begin{table}[t]", r"\centering", r"\small", rf"\caption{{{latex_escape(caption)}}}",
             rf"\label{{{label}}}", rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(latex_escape(str(column)) for column in frame.columns) + r" \\", r"\midrule"]
    for row in _cells(frame):
        lines.append(" & ".join(latex_escape(cell).replace("–", "--") for cell in row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def to_csv(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False)


def to_text(frame: pd.DataFrame) -> str:
    """Aligned plain-text columns for a terminal."""
    header = [str(column) for column in frame.columns]
    rows = _cells(frame)
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    numeric = _right_aligned(frame)

    def line(cells) -> str:
        return "  ".join(cell.rjust(width) if is_number else cell.ljust(width)
                         for cell, width, is_number in zip(cells, widths, numeric)).rstrip()

    return "\n".join([line(header), line(["-" * width for width in widths]), *(line(row) for row in rows)]) + "\n"
