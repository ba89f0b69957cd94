"""A ContinuousQuery written back as one plain SPARQL SELECT whose solutions are the query's full mappings.

Query blank nodes (``?_:b0``) become ordinary variables (``?_bnode_b0``) so that ``SELECT *``
returns them too; FILTERs are printed from the model's AST. Used by engines that delegate
matching to a SPARQL store (the ``oxigraph`` baseline).
"""

from __future__ import annotations

from engines.model import stream as m

_BUILTIN_NAMES = {
    "bound": "BOUND", "isiri": "isIRI", "isuri": "isURI", "isblank": "isBLANK", "isliteral": "isLITERAL",
    "isnumeric": "isNUMERIC", "str": "STR", "lang": "LANG", "datatype": "DATATYPE", "sameterm": "sameTerm",
    "langmatches": "langMatches", "regex": "REGEX",
}


def sparql_variable(variable: str) -> str:
    """The SPARQL spelling of a model variable (``?_:b0`` is not a legal SPARQL variable name)."""
    if variable.startswith("?_:"):
        return "?_bnode_" + variable[3:].replace("-", "_").replace(".", "_")
    return variable


def expression_text(expr: m.Expr) -> str:
    if isinstance(expr, m.VarExpr):
        return sparql_variable(expr.name)
    if isinstance(expr, m.TermExpr):
        return expr.term
    if isinstance(expr, m.And):
        return "(" + " && ".join(expression_text(a) for a in expr.args) + ")"
    if isinstance(expr, m.Or):
        return "(" + " || ".join(expression_text(a) for a in expr.args) + ")"
    if isinstance(expr, m.Not):
        return f"(!{expression_text(expr.arg)})"
    if isinstance(expr, (m.Compare, m.Arith)):
        return f"({expression_text(expr.left)} {expr.op} {expression_text(expr.right)})"
    if isinstance(expr, m.Unary):
        return f"({expr.op}{expression_text(expr.arg)})"
    if isinstance(expr, m.Call):
        name = expr.name if expr.name.startswith("<") else _BUILTIN_NAMES[expr.name]
        return f"{name}(" + ", ".join(expression_text(a) for a in expr.args) + ")"
    raise TypeError(f"not an expression: {expr!r}")


def select_all_text(query: m.ContinuousQuery) -> str:
    """``SELECT <all variables> WHERE { patterns FILTER(...) }``, variables in ``query.variables`` order; over named
    windows, window k's patterns inside ``GRAPH <urn:cgpm:window:k> { ... }``."""
    head = " ".join(sparql_variable(v) for v in query.variables) or "*"  # a ground pattern has no variables
    written = [" ".join(sparql_variable(x) if m.is_variable(x) else x for x in pattern) + " ." for pattern in query.patterns]
    if query.named_windows:  # each window's patterns in its named graph, the others in the default (static) graph
        lines = [f"GRAPH <{m.WINDOW_GRAPH}{k}> {{ " + " ".join(line for line, at in zip(written, query.pattern_windows)
                                                         if at == k) + " }"
                 for k in sorted({k for k in query.pattern_windows if k is not None})]
        lines += [line for line, at in zip(written, query.pattern_windows) if at is None]
    else:
        lines = written
    lines += [f"FILTER({expression_text(f)})" for f in query.filters]
    return f"SELECT {head} WHERE {{\n  " + "\n  ".join(lines) + "\n}"
