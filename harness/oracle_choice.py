"""Which oracle checks a run: the one asked for, else the Spark oracle exactly when re-evaluating the checked instants would take too long, and why.

The re-evaluating oracles (rdflib, plain, oxigraph) rebuild M(τ) at each checked instant, so their
cost grows with the *triple-instants*: the sum, over the checked instants, of the triples in the
window then (the static graph included). They also read the whole stream once, as the engine does,
and every triple of it enters their graph and leaves it once, whatever ``--every`` skips: the
stream's triples count as that many triple-instants more (``PASS_WEIGHT``), so a long stream checked
rarely is weighed by its length. Measured here they get through a few 10^4 triple-instants a second
(docs/verification-at-scale.md), while the Spark oracle pays about a minute whatever the size, then
grows with the stream alone. ``auto`` therefore takes rdflib (the reference) up to
``REEVALUATION_LIMIT`` triple-instants (about a minute of rdflib) and the Spark oracle beyond, and
says which figures decided (``OracleChoice.reason``, printed by ``cgpm verify``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engines.model.stream import ContinuousQuery
from harness.checkpoints import CheckpointRule, WindowSpan, checked_instants, timeline_events
from harness.streams.event_index import facts_of

ORACLE_CHOICES = ("auto", "rdflib", "plain", "oxigraph", "spark")
REEVALUATION_LIMIT = 2_000_000
PASS_WEIGHT = 1  # triple-instants a stream triple costs a re-evaluating oracle's pass: one add and one remove


@dataclass(frozen=True)
class OracleChoice:
    oracle: str
    reason: str


def _targets(instants: Iterable[int]):
    if isinstance(instants, (list, tuple, set, frozenset, range)):
        return iter(sorted(set(instants)))
    return iter(instants)


def _window_cost(query: ContinuousQuery, stream, instants: Iterable[int]) -> tuple[int, int]:
    """(window triples summed over ``instants``, how many instants), one walk of the timeline."""
    targets = _targets(instants)
    target = next(targets, None)
    static = len(stream.static)
    cost = count = 0
    if query.named_windows and hasattr(stream, "sources"):
        walk = _named_window_updates(query, stream)
    else:
        walk = _window_updates(query, stream)
    for index, updates in walk:
        if target is None:
            break
        if index == target:
            cost += updates + static
            count += 1
            target = next(targets, None)
    return cost, count


def _window_updates(query: ContinuousQuery, stream):
    rule = CheckpointRule(query, 1, 0)
    for index, ts, size, deletes in timeline_events(stream):
        rule.checks(index, ts, size, deletes)
        yield index, rule.window_updates


def _named_window_updates(query: ContinuousQuery, merged):
    """Each instant's updates in each named window, its own stream's events in its range up to the instant's time.

    Events tied with the instant's time on a later stream are counted too: an estimate, never short."""
    sources = dict(merged.sources)
    spans = [WindowSpan(named.window) for named in query.named_windows]
    owns = [timeline_events(sources[named.stream]) for named in query.named_windows]
    ahead = [next(own, None) for own in owns]
    for index, now, _, _ in timeline_events(merged):
        updates = 0
        for k, span in enumerate(spans):
            while ahead[k] is not None and ahead[k][1] <= now:
                span.enter(ahead[k][1], ahead[k][2])
                ahead[k] = next(owns[k], None)
            span.move(now)
            updates += span.updates
        yield index, updates


def reevaluation_cost(query: ContinuousQuery, stream, instants: Iterable[int]) -> int:
    """Triple-instants a re-evaluating oracle's evaluations handle: window triples (updates in it, plus the static graph) summed over ``instants`` (event positions, increasing).

    ``stream`` is a ``Stream`` or a ``OpenStream`` (only timestamps and sizes per event are read, a piece at a time), or for
    named windows a ``MergedStream``, whose windows each hold their own stream's updates."""
    return _window_cost(query, stream, instants)[0]


def oracle_choice(name: str, query: ContinuousQuery, stream, instants: Iterable[int] | None = None,
                  every: int = 1) -> OracleChoice:
    """``name`` itself, or for ``auto``: rdflib up to REEVALUATION_LIMIT triple-instants, spark beyond, with the figures.

    ``instants``: the checked ones, increasing (by default those ``every`` checks, computed as the timeline passes)."""
    if name != "auto":
        return OracleChoice(name, f"the {name} oracle, as asked")
    window, checked = _window_cost(query, stream, checked_instants(query, stream, every) if instants is None else instants)
    passing = facts_of(stream).triples * PASS_WEIGHT
    cost = window + passing
    chosen = "spark" if cost > REEVALUATION_LIMIT else "rdflib"
    relation = "over" if chosen == "spark" else "within"
    return OracleChoice(chosen, f"auto chose {chosen}: re-evaluation would handle {cost:,} triple-instants "
                                f"({window:,} in the window at {checked:,} checked instants, {passing:,} for the stream's "
                                f"triples passing through), {relation} the limit of {REEVALUATION_LIMIT:,}")


def choose_oracle(name: str, query: ContinuousQuery, stream, instants: Iterable[int] | None = None, every: int = 1) -> str:
    """``name`` itself, or for ``auto``: rdflib up to REEVALUATION_LIMIT triple-instants, spark beyond."""
    return oracle_choice(name, query, stream, instants, every).oracle
