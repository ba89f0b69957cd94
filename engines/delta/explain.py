"""``explain`` says which class a query is in, how it is decomposed and which algorithm runs each part, and why.

The dict form (for ``--json``) and the text form carry the same facts: the paper's class of the
whole query, the ground subquery, each connected-variable component with its kind, the reason
for it and its algorithm, the star decomposition and overlapping-subqueries graph of every part
that runs Algorithms 5-7, and where each FILTER conjunct is applied.
"""

from __future__ import annotations

from engines.delta.decompose import (
    KIND_GENERIC,
    KIND_SIMPLE_STAR,
    OUTSIDE,
    connected_variable_decomposition,
    maximal_stars,
    overlap_graph,
    query_class,
    star_decomposition,
)
from engines.delta.filtering import split_by_scope
from engines.model import stream as m
from engines.model.stream import ContinuousQuery, TriplePattern

ALGORITHMS = {
    KIND_SIMPLE_STAR: "Algorithm 2 (hash map of ground var-centric instances)",
    "var-connected": "Algorithms 5-7 (extended lists, variables-summaries, propagation over the overlap graph)",
    KIND_GENERIC: "Algorithms 5-7, generalised (generic algorithm)",
}


def _pattern_text(pattern: TriplePattern) -> str:
    return " ".join(pattern)


def _expr_text(expr) -> str:
    """A FILTER expression in SPARQL-like syntax, for reading only."""
    if isinstance(expr, m.VarExpr):
        return expr.name
    if isinstance(expr, m.TermExpr):
        return expr.term
    if isinstance(expr, (m.And, m.Or)):
        joiner = " && " if isinstance(expr, m.And) else " || "
        return "(" + joiner.join(_expr_text(a) for a in expr.args) + ")"
    if isinstance(expr, m.Not):
        return f"!{_expr_text(expr.arg)}"
    if isinstance(expr, m.Unary):
        return f"{expr.op}{_expr_text(expr.arg)}"
    if isinstance(expr, m.Call):
        return f"{expr.name}(" + ", ".join(_expr_text(a) for a in expr.args) + ")"
    return f"({_expr_text(expr.left)} {expr.op} {_expr_text(expr.right)})"


def _stars(variables, patterns) -> dict:
    stars = star_decomposition(patterns, variables)
    adjacent = overlap_graph(stars)
    return {
        "stars": [
            {"central": star.central, "patterns": [_pattern_text(patterns[j]) for j in star.patterns]} for star in stars
        ],
        "overlap_edges": [[stars[a].central, stars[b].central] for a in range(len(stars)) for b in sorted(adjacent[a]) if a < b],
        "lists_kept": [star.central for star in maximal_stars(stars)],
        "replicated_patterns": sorted(
            {_pattern_text(patterns[j]) for star in stars for j in star.patterns if sum(j in s.patterns for s in stars) > 1}
        ),
    }


def explain(query: ContinuousQuery, *, generic: bool = False) -> dict:
    """The query's class and decomposition as a dict; ``generic`` describes the ``delta-generic`` engine's plan."""
    patterns = tuple(dict.fromkeys(query.patterns))
    ground, parts = connected_variable_decomposition(patterns, query.variables)
    klass = query_class(ground, parts)
    notes = []
    if len(patterns) < len(query.patterns):
        notes.append("repeated triple patterns are counted once (a BGP is a set)")
    if any(p[0] == p[2] and p[0][0] == "?" for p in patterns):
        notes.append("a pattern repeats a variable: a triple matches it only with equal terms in those positions")
    result = {
        "query": query.name,
        "engine": "delta-generic" if generic else "delta",
        "class": klass,
        "variables": list(query.variables),
        "ground": [_pattern_text(p) for p in ground],
        "components": [],
        "notes": notes,
    }
    if klass == OUTSIDE:
        notes.append("outside the paper's classes: the affected components run the generic algorithm")
    if generic:
        local, top = split_by_scope(query.filters, [query.variables])
        result["plan"] = "the whole query as one var-connected query: Algorithms 5-7 over all its stars"
        if ground:
            result["plan"] += "; ground patterns checked as a triple match state (Algorithm 1's bits)"
        result["components"].append({
            "variables": list(query.variables),
            "patterns": [_pattern_text(p) for p in patterns],
            "kind": "generic",
            "reason": "delta-generic treats every query as var-connected",
            "algorithm": ALGORITHMS[KIND_GENERIC],
            "filters": [_expr_text(e) for e in local[0]],
            **_stars(query.variables, patterns),
        })
    else:
        local, top = split_by_scope(query.filters, [part.variables for part in parts])
        pieces = (["ground subquery: Algorithm 1 (triple match state)"] if ground else []) + [
            ALGORITHMS[part.kind] for part in parts
        ]
        combined = len(pieces) > 1
        if combined:
            pieces = [piece.split(" (")[0] for piece in pieces]
        result["plan"] = ("Cartesian product of the subqueries' answers (Sec. 6.1, Algorithm 3): " if combined else "") + "; ".join(
            pieces or ["Algorithm 1 (triple match state)"]
        )
        for part, own in zip(parts, local):
            entry = {
                "variables": list(part.variables),
                "patterns": [_pattern_text(p) for p in part.patterns],
                "kind": part.kind,
                "reason": part.reason,
                "algorithm": ALGORITHMS[part.kind],
                "filters": [_expr_text(e) for e in own],
            }
            if part.kind != KIND_SIMPLE_STAR:
                entry.update(_stars(part.variables, part.patterns))
            result["components"].append(entry)
    result["filters_on_full_mappings"] = [_expr_text(e) for e in top]
    return result


def explain_text(info: dict) -> str:
    lines = [
        f"query {info['query']}: {info['class']}",
        f"engine {info['engine']}: {info['plan']}",
        f"variables: {' '.join(info['variables']) or '(none)'}",
    ]
    if info["ground"]:
        lines.append("ground subquery Q_G (Algorithm 1):")
        lines.extend(f"    {p}" for p in info["ground"])
    for number, part in enumerate(info["components"], 1):
        lines.append(f"component {number} [{part['kind']}] {' '.join(part['variables'])}: {part['algorithm']}")
        lines.append(f"  why: {part['reason']}")
        lines.extend(f"    {p}" for p in part["patterns"])
        for star in part.get("stars", ()):
            lines.append(f"  star of {star['central']}: " + " . ".join(star["patterns"]))
        if "lists_kept" in part:
            lines.append(f"  star lists kept: {' '.join(part['lists_kept'])} (a star inside another keeps none)")
        if "overlap_edges" in part:
            edges = ", ".join(f"{a}-{b}" for a, b in part["overlap_edges"]) or "(none)"
            lines.append(f"  overlapping-subqueries graph: {edges}")
        for expr in part["filters"]:
            lines.append(f"  filter (pushed down): {expr}")
    for expr in info["filters_on_full_mappings"]:
        lines.append(f"filter on full mappings: {expr}")
    lines.extend(f"note: {note}" for note in info["notes"])
    return "\n".join(lines)
