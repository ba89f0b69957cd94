"""Every piece of text reaches a page escaped: pages are assembled from ``string.Template`` and ``html.escape``, never by hand.

A page links its stylesheet and every other page relatively (``../style.css``), so the site
opens from disk with no server and fetches nothing from the network (no CDN, no script).
"""

from __future__ import annotations

import html
import math
from string import Template

import pandas as pd

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 78rem; padding: 1rem 2rem; color: #222; }
nav { border-bottom: 1px solid #ccc; padding-bottom: .5rem; margin-bottom: 1rem; }
nav a { margin-right: 1rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0 1.5rem; }
th, td { border: 1px solid #ddd; padding: .2rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.met { background: #e2f4e2; } .missed { background: #fbe3e3; } .not-shown { background: #f4f0dc; }
.undecided { background: #e8eaf6; } .invalid { background: #f4c7c7; font-weight: bold; }
.regression { color: #a00; font-weight: bold; }
.accepted { color: #555; font-style: italic; }
figure { margin: 1rem 0; } figure img { max-width: 100%; border: 1px solid #eee; }
pre { background: #f8f8f8; padding: .5rem; overflow-x: auto; font-size: .8rem; }
.scroll { overflow-x: auto; }
"""

PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="stylesheet" href="${root}style.css">
<link rel="icon" href="data:,">
</head>
<body>
<nav><a href="${root}index.html">cgpm-bench results</a>$crumbs</nav>
<h1>$title</h1>
$body
</body>
</html>
""")


def escape(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def page(title: str, body: str, depth: int = 0, crumbs: list[tuple[str, str]] = ()) -> str:
    """A whole page; ``depth`` is how many folders below the site's root it lives (for its relative links)."""
    root = "../" * depth
    trail = "".join(f" › {link(root + href, text)}" for href, text in crumbs)
    return PAGE.substitute(title=escape(title), root=escape(root), crumbs=trail, body=body)


def link(href: str, text) -> str:
    return f'<a href="{escape(href)}">{escape(text)}</a>'


def heading(text, level: int = 2, anchor: str | None = None) -> str:
    identity = f' id="{escape(anchor)}"' if anchor else ""
    return f"<h{level}{identity}>{escape(text)}</h{level}>"


def paragraph(text) -> str:
    return f"<p>{escape(text)}</p>"


def items(entries: list[str]) -> str:
    """A list of already built fragments (each made by the helpers here)."""
    return "<ul>" + "".join(f"<li>{entry}</li>" for entry in entries) + "</ul>" if entries else ""


def figure(src: str, caption) -> str:
    return f'<figure><img src="{escape(src)}" alt="{escape(caption)}"><figcaption>{escape(caption)}</figcaption></figure>'


def preformatted(text) -> str:
    return f"<pre>{escape(text)}</pre>"


def number(value: float) -> str:
    """Three significant digits below 1000, whole numbers with thousands separators above: ``0.412``, ``106,195``."""
    return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def _cell(value) -> tuple[str, bool]:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "", False
    if isinstance(value, float):
        return number(value), True
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}", True
    return str(value), False


def table(frame: pd.DataFrame, links: dict[str, dict] | None = None, row_class: str | None = None) -> str:
    """``frame`` as an HTML table, every cell escaped; ``links`` maps a column to {value: href} for linked cells;
    ``row_class`` names a column whose value becomes the row's CSS class (and is not shown)."""
    links = links or {}
    shown = [column for column in frame.columns if column != row_class]
    head = "".join(f"<th>{escape(column)}</th>" for column in shown)
    rows = []
    for record in frame.to_dict("records"):
        cells = []
        for column in shown:
            text, numeric = _cell(record[column])
            href = links.get(column, {}).get(record[column])
            content = link(href, text) if href else escape(text)
            cells.append(f'<td class="num">{content}</td>' if numeric else f"<td>{content}</td>")
        css = f' class="{escape(record[row_class])}"' if row_class and record.get(row_class) else ""
        rows.append(f"<tr{css}>{''.join(cells)}</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
