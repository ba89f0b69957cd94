"""The shared vocabulary of streams and continuous queries, exactly as DESIGN.md section 2 defines it.

Terms are N-Triples strings in canonical form (see ``engines.model.terms``), so two equal RDF terms are
two equal Python strings and hashing a term is hashing a string. A query variable is a string that
starts with ``?``; nothing else does, so a triple pattern position is a variable exactly when
``position[0] == "?"``.

This module holds data only. Evaluation (terms, filters, joins) lives elsewhere, so that the
oracles can use these types without sharing the engines' evaluation code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from common.errors import WindowError

Term = str
Triple = tuple[Term, Term, Term]
Mapping = tuple[Term, ...]
"""A full solution mapping: one term per query variable, in ``ContinuousQuery.variables`` order."""

INSERT = 1
DELETE = -1


class Update(NamedTuple):
    """One change to the dynamic graph: ``op`` is +1 (insert) or -1 (delete)."""

    op: int
    s: Term
    p: Term
    o: Term

    @property
    def triple(self) -> Triple:
        return (self.s, self.p, self.o)


@dataclass(frozen=True, slots=True)
class Event:
    """``e_i = (τ_i, U_i)``: the i-th event of a stream, its timestamp in ms, and its batch of updates.

    ``stream`` is the IRI of the stream it came from when several streams are merged into one instant
    sequence (DESIGN.md section 2, Several streams); ``""`` for the one stream of a single-window query.
    """

    index: int
    ts: int
    updates: tuple[Update, ...]
    stream: str = ""


@dataclass(frozen=True, slots=True)
class Stream:
    """A whole stream in memory: events in order, static graph, schema and provenance."""

    events: tuple[Event, ...]
    static: tuple[Triple, ...] = ()
    schema: tuple[Triple, ...] = ()
    provenance: dict = field(default_factory=dict)

    @property
    def has_deletions(self) -> bool:
        return any(u.op == DELETE for e in self.events for u in e.updates)

    @property
    def triple_count(self) -> int:
        return sum(len(e.updates) for e in self.events)


WINDOW_KINDS = ("sliding", "event", "unbounded")


@dataclass(frozen=True, slots=True)
class Window:
    """One window of a continuous query.

    ``sliding`` has ``range_ms = ω`` and ``slide_ms = x`` with ``1 <= x <= ω``; window instances are
    ``[k·x, k·x + ω)`` and at instant τ the content is every event with ``start(τ) <= ts <= τ``.
    ``event`` holds the current event alone; ``unbounded`` holds every event so far.
    """

    kind: str
    range_ms: int | None = None
    slide_ms: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in WINDOW_KINDS:
            raise WindowError(f"unknown window kind {self.kind!r}; expected one of {', '.join(WINDOW_KINDS)}")
        if self.kind == "sliding":
            if self.range_ms is None or self.slide_ms is None:
                raise WindowError("a sliding window needs a range and a slide")
            if not 1 <= self.slide_ms <= self.range_ms:
                raise WindowError(
                    f"sliding window needs 1 <= slide <= range, got range={self.range_ms}ms slide={self.slide_ms}ms"
                )
        elif self.range_ms is not None or self.slide_ms is not None:
            raise WindowError(f"an {self.kind} window takes no range or slide")

    @classmethod
    def sliding(cls, range_ms: int, slide_ms: int) -> Window:
        return cls("sliding", range_ms, slide_ms)

    @classmethod
    def tumbling(cls, range_ms: int) -> Window:
        return cls("sliding", range_ms, range_ms)

    @property
    def allows_deletions(self) -> bool:
        return self.kind == "unbounded"

    def start(self, ts: int) -> int | None:
        """``τ_b(τ)``: the earliest timestamp still in the window at instant ``ts`` (None: no lower bound)."""
        if self.kind != "sliding":
            return None
        return ((ts - self.range_ms) // self.slide_ms + 1) * self.slide_ms

    def spec(self) -> str:
        """The command-line form that parses back to this window."""
        if self.kind != "sliding":
            return self.kind
        if self.slide_ms == self.range_ms:
            return f"tumbling:{self.range_ms}"
        return f"sliding:{self.range_ms}:{self.slide_ms}"

    def __str__(self) -> str:
        return self.spec()


@dataclass(frozen=True, slots=True)
class NamedWindow:
    """An RSP-QL named window: ``FROM NAMED WINDOW <name> ON <stream> [RANGE .. STEP ..]``.

    ``name`` is spelled as the query writes it (``:w1`` or ``<http://...>``); ``stream`` is the stream's
    IRI without angle brackets, the one ``--stream IRI=DIR`` names on the command line.
    """

    name: str
    stream: str
    window: Window


WINDOW_GRAPH = "urn:cgpm:window:"
"""The graph IRI prefix that names named window ``k`` (``urn:cgpm:window:0``, ...) in a query's ``where_sparql``:
each ``WINDOW <w> { ... }`` block becomes ``GRAPH <urn:cgpm:window:k> { ... }``, so SPARQL evaluators take
each window's graph as a named graph and the static graph as the default graph."""


# ---------------------------------------------------------------- FILTER expressions


@dataclass(frozen=True, slots=True)
class VarExpr:
    name: str  # with the leading "?"


@dataclass(frozen=True, slots=True)
class TermExpr:
    term: Term


@dataclass(frozen=True, slots=True)
class And:
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Or:
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Not:
    arg: Expr


COMPARISONS = ("=", "!=", "<", ">", "<=", ">=")
ARITHMETIC = ("+", "-", "*", "/")


@dataclass(frozen=True, slots=True)
class Compare:
    op: str  # one of COMPARISONS
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Arith:
    op: str  # one of ARITHMETIC
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "+"
    arg: Expr


BUILTINS = (
    "bound", "isiri", "isuri", "isblank", "isliteral", "isnumeric", "str", "lang", "datatype",
    "sameterm", "langmatches", "regex",
)


@dataclass(frozen=True, slots=True)
class Call:
    """A builtin (lower-case name from BUILTINS) or a cast (``name`` is the XSD datatype IRI in ``<...>``)."""

    name: str
    args: tuple[Expr, ...]


Expr = VarExpr | TermExpr | And | Or | Not | Compare | Arith | Unary | Call


def expr_variables(expr: Expr) -> frozenset[str]:
    """The variables an expression reads."""
    if isinstance(expr, VarExpr):
        return frozenset((expr.name,))
    if isinstance(expr, TermExpr):
        return frozenset()
    if isinstance(expr, (And, Or, Call)):
        return frozenset().union(*(expr_variables(a) for a in expr.args))
    if isinstance(expr, (Not, Unary)):
        return expr_variables(expr.arg)
    return expr_variables(expr.left) | expr_variables(expr.right)


def conjuncts(filters: Sequence[Expr]) -> list[Expr]:
    """The FILTERs split at top-level ``&&``, in order: ``A && B`` holds exactly when A and B both hold (an error is false)."""
    flat: list[Expr] = []
    for expr in filters:
        if isinstance(expr, And):
            flat.extend(conjuncts(expr.args))
        else:
            flat.append(expr)
    return flat


# ---------------------------------------------------------------- queries


def is_variable(position: str) -> bool:
    return position[0] == "?"


TriplePattern = tuple[str, str, str]
"""Each position is a variable (``?name``) or a term."""

ENTAILMENTS = ("none", "rdfs")


@dataclass(frozen=True)
class ContinuousQuery:
    """A SELECT over one basic graph pattern with FILTERs, a window and an entailment regime.

    ``variables`` are all the pattern's variables in order of first appearance (blank nodes of the
    query become variables named ``?_:label``, never projected by default). ``projection`` is the
    SELECT list (None for ``SELECT *``), applied by the harness, not by engines.
    ``where_sparql`` is a standalone ``SELECT * WHERE {...}`` query (prologue included) over the
    same pattern and filters, for evaluators that take SPARQL text.

    A query over several named windows (``named_windows``, two or more) gives each pattern the window
    whose ``WINDOW`` block holds it (``pattern_windows[k]``, an index into ``named_windows``) or None for
    a pattern outside every block, which matches the static graph; ``window`` is then the first named
    window's, for what reports one. With one window or none declared both are empty: every pattern
    matches the window's graph with the static graph, as before named windows existed.
    """

    patterns: tuple[TriplePattern, ...]
    filters: tuple[Expr, ...]
    variables: tuple[str, ...]
    window: Window
    entailment: str = "none"
    projection: tuple[str, ...] | None = None
    distinct: bool = False
    text: str = ""
    where_sparql: str = ""
    name: str = "query"
    named_windows: tuple[NamedWindow, ...] = ()
    pattern_windows: tuple[int | None, ...] = ()

    def __post_init__(self) -> None:
        if self.entailment not in ENTAILMENTS:
            raise ValueError(f"unknown entailment {self.entailment!r}")
        if self.named_windows and len(self.pattern_windows) != len(self.patterns):
            raise ValueError("pattern_windows needs one entry per pattern in a query over named windows")

    @property
    def window_spec(self) -> str:
        """The window as reports print it: its spec, or each named window as ``name=spec@stream``."""
        if not self.named_windows:
            return self.window.spec()
        return " ".join(f"{named.name}={named.window.spec()}@<{named.stream}>" for named in self.named_windows)

    @property
    def streams(self) -> tuple[str, ...]:
        """The IRIs of the streams the named windows read, in the order the query declares them (empty: one stream)."""
        return tuple(dict.fromkeys(named.stream for named in self.named_windows))

    @property
    def output_variables(self) -> tuple[str, ...]:
        if self.projection is not None:
            return self.projection
        return tuple(v for v in self.variables if not v.startswith("?_:"))

    def with_window(self, window: Window) -> ContinuousQuery:
        from dataclasses import replace

        if self.named_windows:
            raise WindowError(f"query {self.name} declares {len(self.named_windows)} named windows; one window cannot replace them")
        return replace(self, window=window)

    def with_entailment(self, entailment: str) -> ContinuousQuery:
        from dataclasses import replace

        return replace(self, entailment=entailment)


@dataclass(slots=True)
class Delta:
    """The change of ``M`` at one instant: ``added = M(τ_i) − M(τ_{i−1})``, ``removed`` the reverse."""

    added: list[Mapping] = field(default_factory=list)
    removed: list[Mapping] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)

    @classmethod
    def between(cls, before: set[Mapping], after: set[Mapping]) -> Delta:
        """The delta that takes the answers ``before`` to ``after``."""
        return cls(added=list(after - before), removed=list(before - after))


# The delta of an event that changed nothing, shared because most events on selective queries
# change nothing and allocating one per event is a measurable share of their cost. Deltas are
# read by their consumers, never modified (Engine.push's contract).
NO_CHANGE = Delta()


def split_filters(query: ContinuousQuery) -> tuple[dict[str, list[Expr]], list[Expr]]:
    """The query's FILTER conjuncts: the atomic ones (one query variable) by variable, and the rest (two or more, or none).

    Engines push atomic FILTERs down to where a single term is admitted (SPECTRA's summarisation,
    TP-Join's partitioning) and keep the rest for the join.
    """
    atomic: dict[str, list[Expr]] = {}
    rest: list[Expr] = []
    for expression in conjuncts(query.filters):
        names = expr_variables(expression)
        if len(names) == 1 and next(iter(names)) in query.variables:
            atomic.setdefault(next(iter(names)), []).append(expression)
        else:
            rest.append(expression)
    return atomic, rest
