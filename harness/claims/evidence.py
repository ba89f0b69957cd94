"""A verdict stands only on its evidence: the engines compared gave the same, non-empty answers, on enough repetitions, on a quiet machine.

A number says how fast an engine computed something; it says nothing unless the something is the answer, and is
not nothing. So before a claim's value is compared with its target, the rows it is judged on are read for:

- **answers** (``harness.bench.answers``): the engines a claim compares on one cell must show one answer digest
  (or, in folders published before digests, equal counts of rows added and removed over the pass), else the claim
  is ``invalid`` and names the cells; a cell whose query answered nothing over the pass makes the claim
  ``not-shown`` ("measures no answers"), unless the claim file marks it ``cost_floor`` (the cost of finding nothing,
  on purpose);
- **repetitions**: every engine compared needs the claim's ``repetitions`` (default 5) rows with a finite metric,
  else ``not-shown (n=K < R)``; a timed-out side is one run by design (a time-out is not repeated) and is not counted;
- **quiet**: a row marked ``noisy`` (``harness.bench.quiet``) makes the claim ``undecided``.

Each check returns a verdict that overrides the value's (or None) and a few words for the evidence column.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from harness.bench.quiet import noisy_rows

EMPTY_DIGEST = "0" * 16
# a claim's metric that older folders record under another column: a memory claim's growth is peak less base
MEASURED_BY = {"rss_growth_bytes": "rss_peak_bytes"}


@dataclass(frozen=True)
class Side:
    """The rows of one engine in one cell that a claim reads, named for the messages."""

    label: str
    rows: pd.DataFrame
    engine: str = ""  # the engine whose rows these are (a cost floor is never compared for its answers)


@dataclass(frozen=True)
class Finding:
    verdict: str | None   # "invalid" | "not-shown" | "undecided", or None: the value's verdict stands
    note: str


def _finished(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[rows.status.astype(str) == "ok"] if "status" in rows else rows


def _answers(rows: pd.DataFrame) -> tuple[str, list]:
    """How a side's answers were recorded ("digest", "counts" or "none") and one value per finished repetition."""
    done = _finished(rows)
    if done.empty:
        return "none", []
    if "answer_digest" in done and done.answer_digest.notna().all():
        return "digest", [str(value).zfill(16) for value in done.answer_digest]
    if {"added", "removed"} <= set(done) and done[["added", "removed"]].notna().all().all():
        counts = done[["added", "removed"]].apply(pd.to_numeric, errors="coerce")
        return "counts", [(int(added), int(removed)) for added, removed in counts.itertuples(index=False)]
    return "none", []


def _empty(kind: str, values: list) -> bool:
    if kind == "digest":
        return all(value == EMPTY_DIGEST for value in values)
    return all(added == 0 and removed == 0 for added, removed in values)


def answers(sides: list[Side], *, compared: bool, cost_floor: bool) -> Finding:
    """``compared``: the sides are one cell's engines, whose answers must be equal (not variants of a query)."""
    recorded = [(side, *_answers(side.rows)) for side in sides]
    known = [(side, kind, values) for side, kind, values in recorded if kind != "none"]
    if not known:
        return Finding(None, "answers not recorded")
    empty = [side.label for side, kind, values in known if _empty(kind, values)]
    if empty and len(empty) == len(known) and not cost_floor:
        return Finding("not-shown", "measures no answers: " + ", ".join(empty) + " answered nothing over the pass")
    if compared and len(known) > 1 and len({_read(side.rows) for side, _, _ in known}) == 1:
        # digests where every side has one, else the counts every timed row has
        kind = "digest" if all(kind == "digest" for _, kind, _ in known) else "counts"
        values = {side.label: (vals if kind == "digest" else _answers(side.rows.drop(columns="answer_digest",
                                                                                   errors="ignore"))[1])
                  for side, _, vals in known}
        distinct = {label: sorted(set(map(str, vals))) for label, vals in values.items()}
        if len({tuple(vals) for vals in distinct.values()}) > 1 or any(len(vals) > 1 for vals in distinct.values()):
            shown = "; ".join(f"{label}: {', '.join(vals)}" for label, vals in distinct.items())
            what = "answer digests" if kind == "digest" else "answer counts (added, removed)"
            return Finding("invalid", f"the engines' {what} differ: {shown}")
        agreed = "equal answer digests" if kind == "digest" else "equal answer counts (no digest recorded)"
        return Finding(None, agreed + ("; a cost floor: no answers, on purpose" if cost_floor and empty else ""))
    if cost_floor and empty:
        return Finding(None, "a cost floor: no answers, on purpose")
    if empty:  # a variant that finds nothing beside one that finds something (a query without its entailment)
        return Finding(None, "non-empty answers; " + ", ".join(empty) + " answered nothing")
    apart = compared and len(known) > 1  # one cell's engines that read different prefixes of the stream
    unknown = [side.label for side, kind, _ in recorded if kind == "none"]
    return Finding(None, "non-empty answers" + ("; not compared: the engines read different events" if apart else "")
                   + (f"; not compared: {', '.join(unknown)} recorded no answers" if compared and unknown else ""))


def _read(rows: pd.DataFrame) -> tuple:
    """What a side read: its stream's events and triples (an engine run on a prefix of the stream is another cell)."""
    done = _finished(rows)
    return tuple(tuple(sorted(set(pd.to_numeric(done[column], errors="coerce").dropna())))
                 for column in ("events", "triples") if column in done)


def repetitions(sides: list[Side], metric: str, wanted: int, per_repetition: bool) -> Finding:
    """Every side that finished has ``wanted`` repetitions with a finite metric (a published median: its ``ok`` count)."""
    counts = {}
    for side in sides:
        rows = side.rows
        if rows.empty or ("status" in rows and (rows.status.astype(str) != "ok").all()):
            continue  # a timed-out side: a bound, one run by design
        if per_repetition:
            column = metric if metric in rows else MEASURED_BY.get(metric, metric)
            values = pd.to_numeric(_finished(rows)[column], errors="coerce") if column in rows else pd.Series([])
            counts[side.label] = int(values.notna().sum())
        else:
            fewest = pd.to_numeric(rows.get("ok", pd.Series([1])), errors="coerce").min()
            counts[side.label] = int(fewest) if fewest == fewest else 0  # a blank count: none known
    short = {label: count for label, count in counts.items() if count < wanted}
    if short:
        label, count = min(short.items(), key=lambda item: item[1])
        return Finding("not-shown", f"n={count} < {wanted}: {label} has {count} finite repetition(s) of {metric}")
    return Finding(None, "")


def quiet(sides: list[Side]) -> Finding:
    noisy = [side.label for side in sides if any(noisy_rows(side.rows))]
    if noisy:
        rows = pd.concat([side.rows[noisy_rows(side.rows)] for side in sides if any(noisy_rows(side.rows))],
                         ignore_index=True)
        return Finding("undecided", f"measured on a noisy machine{_why_noisy(rows)}: " + ", ".join(noisy))
    if all("noisy" in side.rows for side in sides if not side.rows.empty):
        return Finding(None, "quiet machine")
    return Finding(None, "load not recorded per cell")


def _why_noisy(rows: pd.DataFrame) -> str:
    """What the noisy rows read: their highest load average and share of CPU time stolen (either can mark a row)."""
    said = []
    if {"load_start", "load_end", "cores"} <= set(rows):
        most = pd.to_numeric(rows[["load_start", "load_end"]].stack(), errors="coerce").max()
        if most == most:
            said.append(f"load average up to {most:.2f} on {int(pd.to_numeric(rows.cores).max())} cores")
    if "steal_share" in rows:
        stolen = pd.to_numeric(rows.steal_share, errors="coerce").max()
        if stolen == stolen:
            said.append(f"CPU time stolen up to {stolen:.1%}")
    return f" (its noisy rows: {', '.join(said)})" if said else ""

