"""The independent second oracle: pyoxigraph evaluates the query over G(τ), from scratch, as a set of full mappings.

The query sent to Oxigraph is the model's triple patterns (blank nodes as named variables, so their
bindings are part of the mapping) with the FILTER clauses cut verbatim from ``where_sparql``, under
its prologue: Oxigraph, not rdflib nor ``engines.model.filters``, decides the filters.

Known divergence, handled here: Oxigraph stores typed literals of the XSD types it knows by value,
so ``"01"^^xsd:integer`` comes back as ``"1"^^xsd:integer`` and the two merge into one term. Each
solution is therefore expanded back to every input term that Oxigraph stores as the bound term,
and kept only where every pattern, so instantiated, is an input triple. Value-based filters give
the same result on the rewritten terms; filters that read a lexical form (``str``, ``regex``,
``sameTerm``, casts) do not, so when the query has one and a query constant, or a binding of the
pattern without its filters, is a literal Oxigraph rewrites, the oracle raises OracleLimitation
rather than answer wrongly.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache

import pyoxigraph as ox

from common.errors import QueryError
from common.oxigraph_store import CopyingStore
from engines.model.stream import Call, ContinuousQuery, Expr, Mapping, TermExpr, Triple, is_variable
from oracles import OracleLimitation, nterms

_MASKED = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r'|<[^<>"{}|^`\\\x00-\x20]*>'
    r"|#[^\n]*"
)
_FILTER = re.compile(r"\bFILTER\b", re.IGNORECASE)
_SELECT = re.compile(r"\bSELECT\b", re.IGNORECASE)
_LEXICAL_BUILTINS = {"str", "regex", "sameterm"}


def _mask(text: str) -> str:
    return _MASKED.sub(lambda match: " " * len(match.group(0)), text)


def _closing(masked: str, open_index: int) -> int:
    depth = 0
    for index in range(open_index, len(masked)):
        if masked[index] == "(":
            depth += 1
        elif masked[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    raise QueryError("unbalanced parentheses in a FILTER")


def filter_clauses(where_sparql: str) -> tuple[str, list[str]]:
    """The prologue of ``where_sparql`` and the text of each FILTER constraint in it."""
    masked = _mask(where_sparql)
    select = _SELECT.search(masked)
    if select is None:
        raise QueryError("oxigraph oracle: where_sparql has no SELECT")
    constraints = []
    for match in _FILTER.finditer(masked, select.end()):
        open_index = masked.find("(", match.end())
        if open_index < 0:
            raise QueryError("oxigraph oracle: a FILTER without a parenthesised constraint")
        constraints.append(where_sparql[match.end() : _closing(masked, open_index) + 1].strip())
    return where_sparql[: select.start()], constraints


def _sparql_variable(variable: str, index: int) -> str:
    return f"?cgpmBnode{index}" if variable.startswith("?_:") else variable


@lru_cache(maxsize=256)
def _query_text(where_sparql: str, patterns: tuple, variables: tuple, with_filters: bool = True) -> str:
    prologue, constraints = filter_clauses(where_sparql)
    constraints = constraints if with_filters else []
    names = {v: _sparql_variable(v, i) for i, v in enumerate(variables)}
    taken = set(variables)
    if any(name in taken for v, name in names.items() if name != v):
        raise QueryError("oxigraph oracle: a query variable clashes with the oracle's blank-node variable names")
    body = [" ".join(names[x] if is_variable(x) else x for x in pattern) + " ." for pattern in patterns]
    body += [f"FILTER({constraint})" for constraint in constraints]
    select = " ".join(names[v] for v in variables) or "*"  # a ground pattern: one empty solution or none
    return f"{prologue}SELECT {select} WHERE {{\n  " + "\n  ".join(body) + "\n}"


def _reads_lexical_form(expr: Expr) -> bool:
    if isinstance(expr, Call) and (expr.name in _LEXICAL_BUILTINS or expr.name.startswith("<")):
        return True
    return any(_reads_lexical_form(child) for child in _children(expr))


def _children(expr: Expr) -> tuple:
    for attribute in ("args",):
        if hasattr(expr, attribute):
            return tuple(getattr(expr, attribute))
    if hasattr(expr, "arg"):
        return (expr.arg,)
    if hasattr(expr, "left"):
        return (expr.left, expr.right)
    return ()


def _constants(query: ContinuousQuery) -> set[str]:
    found = {x for pattern in query.patterns for x in pattern if not is_variable(x)}
    stack = list(query.filters)
    while stack:
        expr = stack.pop()
        if isinstance(expr, TermExpr):
            found.add(expr.term)
        stack.extend(_children(expr))
    return {term for term in found if term[0] == '"'}


class OxigraphOracle:
    """Holds G in a pyoxigraph Store (updated by difference) and evaluates one query over it from scratch."""

    def __init__(self, query: ContinuousQuery) -> None:
        if query.named_windows:
            raise OracleLimitation(f"the oxigraph oracle takes one window; query {query.name} has "
                                   f"{len(query.named_windows)} named windows (use --oracle rdflib or plain)")
        self.query = query
        self.text = _query_text(query.where_sparql, query.patterns, query.variables)
        self.reads_lexical_form = any(_reads_lexical_form(f) for f in query.filters)
        self.store = CopyingStore()  # pyoxigraph keeps removed quads' old versions: a copy drops them
        self.content: set[Triple] = set()
        self._stored_as: dict[str, str] = {}  # input term -> canonical string of what the store gives back
        self._inputs_of: dict[str, set[str]] = defaultdict(set)  # stored canonical -> input terms stored as it
        self._copies: Counter[Triple] = Counter()  # stored triple -> input triples in the content stored as it
        self._constants = sorted(_constants(query))
        self._constant_set = frozenset(self._constants)
        self._uses: Counter[str] = Counter()  # input term -> places in content triples that hold it
        for constant in self._constants:
            self._record(constant)

    def _quad(self, triple: Triple) -> ox.Quad:
        s, p, o = (nterms.to_oxigraph(term) for term in triple)
        return ox.Quad(s, p, o, ox.DefaultGraph())

    def _record(self, term: str) -> None:
        if term in self._stored_as:
            return
        stored = term
        if term[0] == '"':
            probe = ox.Store()
            probe.add(ox.Quad(ox.NamedNode("urn:s"), ox.NamedNode("urn:p"), nterms.to_oxigraph(term), ox.DefaultGraph()))
            stored = nterms.from_oxigraph(next(iter(probe)).object)
        self._stored_as[term] = stored
        self._inputs_of[stored].add(term)

    def _forget(self, term: str) -> None:
        """Drop a data term no content triple uses any longer (query constants stay): the oracle holds the window's terms."""
        stored = self._stored_as.pop(term)
        inputs = self._inputs_of[stored]
        inputs.discard(term)
        if not inputs:
            del self._inputs_of[stored]

    def _stored_triple(self, triple: Triple) -> Triple:
        for term in triple:
            self._record(term)
        stored = self._stored_as
        return (stored[triple[0]], stored[triple[1]], stored[triple[2]])

    def update(self, added: Iterable[Triple], removed: Iterable[Triple]) -> None:
        """Add and remove triples (several input triples may share one stored quad)."""
        for triple in removed:
            if triple not in self.content:
                continue
            self.content.discard(triple)
            stored = self._stored_triple(triple)
            self._copies[stored] -= 1
            if not self._copies[stored]:
                del self._copies[stored]
                self.store.remove(self._quad(triple))
            for term in triple:
                self._uses[term] -= 1
                if not self._uses[term]:
                    del self._uses[term]
                    if term not in self._constant_set:
                        self._forget(term)
        quads = []
        for triple in added:
            if triple in self.content:
                continue
            self.content.add(triple)
            stored = self._stored_triple(triple)
            self._copies[stored] += 1
            quads.append(self._quad(triple))
            for term in triple:
                self._uses[term] += 1
        self.store.extend(quads)
        self.store.copy_if_due()

    def set_content(self, triples: Iterable[Triple]) -> None:
        """Make the store hold exactly ``triples``."""
        wanted = set(triples)
        self.update(wanted - self.content, self.content - wanted)

    def rewritten_terms(self) -> set[str]:
        """Input terms (data and query constants seen so far) that Oxigraph stores differently."""
        return {term for term, stored in self._stored_as.items() if stored != term}

    def answers(self) -> frozenset[Mapping]:
        """M over the current store: the set of full mappings in the query's variable order."""
        try:
            solutions = self.store.query(self.text)
        except (SyntaxError, ValueError, OSError) as error:
            raise QueryError(f"oxigraph oracle cannot evaluate the query: {error}") from None
        if self.reads_lexical_form:
            self._refuse_rewritten_bindings()
        answers = set()
        width = len(self.query.variables)
        for solution in solutions:
            bound = [nterms.from_oxigraph(solution[index]) for index in range(width)]
            # Always check the pattern instances: a query constant may be rewritten by Oxigraph as well.
            answers.update(self._expand(bound))
        return frozenset(answers)

    def _refuse_rewritten_bindings(self) -> None:
        """Raise when a lexical filter could see a rewritten literal: a constant, or a binding of the bare pattern."""
        rewritten_constants = [c for c in self._constants if self._stored_as[c] != c]
        if rewritten_constants:
            raise OracleLimitation(
                f"oxigraph oracle: the query's filters read lexical forms, and Oxigraph rewrites the constant {rewritten_constants[0]}"
            )
        if not self.rewritten_terms() & {term for triple in self.content for term in triple}:
            return
        width = len(self.query.variables)
        bare = _query_text(self.query.where_sparql, self.query.patterns, self.query.variables, with_filters=False)
        for solution in self.store.query(bare):
            for mapping in self._expand([nterms.from_oxigraph(solution[index]) for index in range(width)]):
                rewritten = [term for term in mapping if self._stored_as.get(term, term) != term]
                if rewritten:
                    raise OracleLimitation(
                        f"oxigraph oracle: the query's filters read lexical forms, and Oxigraph rewrites {rewritten[0]}, "
                        "which the pattern binds"
                    )

    def _expand(self, bound: list[str]) -> Iterable[Mapping]:
        """Every mapping of input terms that Oxigraph would report as ``bound`` and whose pattern instances are input triples."""
        choices = [sorted(self._inputs_of.get(term, {term})) for term in bound]
        position = {v: i for i, v in enumerate(self.query.variables)}
        for candidate in itertools.product(*choices):
            instances = (
                tuple(candidate[position[x]] if is_variable(x) else x for x in pattern) for pattern in self.query.patterns
            )
            if all(instance in self.content for instance in instances):
                yield candidate


def evaluate(query: ContinuousQuery, triples: Iterable[Triple]) -> frozenset[Mapping]:
    """M over the graph ``triples`` by the Oxigraph oracle."""
    oracle = OxigraphOracle(query)
    oracle.set_content(triples)
    return oracle.answers()
