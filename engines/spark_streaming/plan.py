"""A continuous BGP becomes a left-deep plan of streaming scans and equi-joins, or is refused by name; no Spark here.

The plan is what the Spark query (``engines.spark_streaming.dataframes``) is built from, kept apart so that
it is tested without a JVM:

- a *scan* per triple pattern: the positions that must equal constants, the variables it binds, the
  positions that must be equal (a variable used twice), and the FILTER conjuncts that read only its
  variables (pushed down: fewer rows reach the joins' state);
- *steps*: after the first scan, each further scan joins on the variables it shares with what is
  joined so far (a stream-stream join needs an equality key, so a pattern sharing none is a cross
  product and refused by name), the one with the most constants first; each step carries the FILTER
  conjuncts whose variables are first all bound there;
- *native* FILTERs: a conjunct comparing a variable with an IRI or blank node by ``=``/``!=``, or two
  terms by ``sameTerm``, is term (string) equality on canonical N-Triples (DESIGN.md section 2, Terms)
  and becomes a plain column comparison; every other conjunct is evaluated by the project's FILTER
  model (``engines.model.filters``) in a vectorised UDF, so its SPARQL semantics are the engines'.
"""

from __future__ import annotations

from dataclasses import dataclass

from common.errors import EngineError
from engines.model.stream import Call, Compare, ContinuousQuery, Expr, TermExpr, VarExpr, conjuncts, expr_variables

POSITIONS = ("s", "p", "o")


def column(variable_index: int) -> str:
    """The column that holds variable ``variable_index`` of the query (its names may hold any character)."""
    return f"v{variable_index}"


@dataclass(frozen=True)
class NativeFilter:
    """``left op right`` on the columns' strings: each side a column name or a constant term; ``op`` is ``=`` or ``!=``."""

    op: str
    left: tuple[str, str]  # ("column", name) or ("term", N-Triples term)
    right: tuple[str, str]


@dataclass(frozen=True)
class Scan:
    """One triple pattern read from the stream (and from the static graph when it matches there)."""

    pattern: int
    constants: tuple[tuple[str, str], ...]  # (position, term)
    binds: tuple[tuple[str, int], ...]  # (position, variable index): the first position of each variable
    equal: tuple[tuple[str, str], ...]  # (position, position) that one variable occupies twice
    filters: tuple[int, ...]  # conjuncts (indices into JoinPlan.conjuncts) that read only this scan's variables

    @property
    def variables(self) -> frozenset[int]:
        return frozenset(index for _, index in self.binds)

    def matches(self, triple: tuple[str, str, str]) -> tuple[str, ...] | None:
        """The terms this scan binds from ``triple`` (in ``binds`` order), or None when the triple does not fit it."""
        by_position = dict(zip(POSITIONS, triple))
        if any(by_position[position] != term for position, term in self.constants):
            return None
        if any(by_position[a] != by_position[b] for a, b in self.equal):
            return None
        return tuple(by_position[position] for position, _ in self.binds)


@dataclass(frozen=True)
class Step:
    """Join ``scan`` to what the steps before joined, on the variables in ``keys``; then apply ``filters``."""

    scan: Scan
    keys: tuple[int, ...]
    filters: tuple[int, ...]


@dataclass(frozen=True)
class JoinPlan:
    variables: tuple[str, ...]
    first: Scan
    steps: tuple[Step, ...]
    conjuncts: tuple[Expr, ...]
    native: tuple[NativeFilter | None, ...]  # per conjunct: its column form, or None for the UDF
    final_filters: tuple[int, ...]  # conjuncts read once the whole mapping is bound (variable-free, or unknown names)

    @property
    def scans(self) -> tuple[Scan, ...]:
        return (self.first, *(step.scan for step in self.steps))

    def conjunct_columns(self, conjunct: int) -> tuple[int, ...]:
        """The variable indices a conjunct reads (those of the query; an unknown name reads as unbound)."""
        names = expr_variables(self.conjuncts[conjunct])
        return tuple(index for index, name in enumerate(self.variables) if name in names)


def _scan(index: int, pattern: tuple[str, str, str], variables: dict[str, int]) -> Scan:
    constants, binds, equal, first_position = [], [], [], {}
    for position, term in zip(POSITIONS, pattern):
        if term.startswith("?"):
            if term in first_position:
                equal.append((first_position[term], position))
            else:
                first_position[term] = position
                binds.append((position, variables[term]))
        else:
            constants.append((position, term))
    return Scan(index, tuple(constants), tuple(binds), tuple(equal), ())


def native_filter(expr: Expr, variables: dict[str, int]) -> NativeFilter | None:
    """The column form of a conjunct that is term equality or inequality on strings, else None (module docstring)."""
    def side(operand: Expr) -> tuple[str, str] | None:
        if isinstance(operand, VarExpr) and operand.name in variables:
            return ("column", column(variables[operand.name]))
        if isinstance(operand, TermExpr):
            return ("term", operand.term)
        return None

    if isinstance(expr, Call) and expr.name == "sameterm" and len(expr.args) == 2:
        left, right = side(expr.args[0]), side(expr.args[1])
        return NativeFilter("=", left, right) if left and right else None
    if isinstance(expr, Compare) and expr.op in ("=", "!="):
        left, right = side(expr.left), side(expr.right)
        if not (left and right):
            return None
        # RDFterm-equal on a node (IRI or blank node) is string identity; between two literals it compares values
        sides = (left, right)
        if any(kind == "term" and term[0] in "<_" for kind, term in sides) and any(kind == "column" for kind, _ in sides):
            return NativeFilter(expr.op, left, right)
    return None


def _order(scans: list[Scan]) -> list[tuple[Scan, tuple[int, ...]]]:
    """Scans in join order with the variables each shares with those before it; a cross product is refused."""
    remaining = sorted(scans, key=lambda scan: (-len(scan.constants), scan.pattern))
    first = remaining.pop(0)
    ordered, bound = [(first, ())], set(first.variables)
    while remaining:
        joinable = [scan for scan in remaining if scan.variables & bound]
        if not joinable:
            lonely = remaining[0].pattern + 1
            raise EngineError(
                f"engine 'spark-streaming' does not support a cross product: triple pattern {lonely} shares no "
                "variable with the patterns before it (a stream-stream join needs an equality key)")
        chosen = min(joinable, key=lambda scan: (-len(scan.constants), -len(scan.variables & bound), scan.pattern))
        remaining.remove(chosen)
        ordered.append((chosen, tuple(sorted(chosen.variables & bound))))
        bound |= chosen.variables
    return ordered


def plan_query(query: ContinuousQuery) -> JoinPlan:
    """The join plan of ``query`` (module docstring); EngineError naming what a streaming join cannot express."""
    variables = {name: index for index, name in enumerate(query.variables)}
    scans = [_scan(index, pattern, variables) for index, pattern in enumerate(query.patterns)]
    for scan in scans:
        if not scan.binds:
            raise EngineError(f"engine 'spark-streaming' does not support a triple pattern without variables "
                              f"(pattern {scan.pattern + 1}: a cross product with the others)")
    ordered = _order(scans)
    parts = tuple(conjuncts(query.filters))
    reads = [frozenset(variables[name] for name in expr_variables(expr) if name in variables) for expr in parts]
    unknown = [bool(expr_variables(expr) - set(variables)) or not reads[i] for i, expr in enumerate(parts)]
    placed: set[int] = set()
    with_filters, bound = [], set()
    for scan, keys in ordered:
        # a conjunct reading only this pattern's variables is pushed into its scan; one that needs the join, after it
        own = tuple(i for i in range(len(parts)) if i not in placed and not unknown[i] and reads[i] <= scan.variables)
        placed.update(own)
        bound |= scan.variables
        after = tuple(i for i in range(len(parts)) if i not in placed and not unknown[i] and reads[i] <= bound)
        placed.update(after)
        with_filters.append((Scan(scan.pattern, scan.constants, scan.binds, scan.equal, own), keys, after))
    final = tuple(i for i in range(len(parts)) if i not in placed)
    steps = tuple(Step(scan, keys, after) for scan, keys, after in with_filters[1:])
    return JoinPlan(tuple(query.variables), with_filters[0][0], steps, parts,
                    tuple(native_filter(expr, variables) for expr in parts), final)
