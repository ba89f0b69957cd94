"""A FILTER is compiled once into nested closures over the mapping tuple and holds exactly when SPARQL 1.1 says its value is true.

``compile_filters(filters, variables)`` gives one callable for a query's FILTERs: it takes a mapping
as a tuple of terms in ``variables`` order (None for unbound) and returns the conjunction of the
filters' effective boolean values, an error counting as false. Sub-expressions are closures that
return ``engines.model.values.Value`` objects read through a cache keyed by term, so evaluating a filter
builds no dict and parses no term twice. Variable-free sub-expressions are evaluated at compile time.

Operators, effective boolean value and casts live in ``engines.model.values`` and ``engines.model.casts``;
REGEX patterns in ``engines.model.xpath_regex``; ``docs/filters.md`` lists what departs from SPARQL 1.1.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import lru_cache

from common.errors import QueryError
from engines.model import values as v
from engines.model.casts import CAST_TARGETS, cast
from engines.model.stream import And, Arith, Call, Compare, Expr, Not, Or, TermExpr, Unary, VarExpr, expr_variables
from engines.model.values import ExprError, Value, term_value
from engines.model.xpath_regex import compile_regex

Row = Sequence[str | None]
ValueFn = Callable[[Row], Value]
TestFn = Callable[[Row], bool]

_ARITY = {"bound": (1, 1), "isiri": (1, 1), "isuri": (1, 1), "isblank": (1, 1), "isliteral": (1, 1),
          "isnumeric": (1, 1), "str": (1, 1), "lang": (1, 1), "datatype": (1, 1), "sameterm": (2, 2),
          "langmatches": (2, 2), "regex": (2, 3)}
_KIND_TESTS = {
    "isiri": lambda value: value.kind == v.IRI,
    "isuri": lambda value: value.kind == v.IRI,
    "isblank": lambda value: value.kind == v.BNODE,
    "isliteral": lambda value: value.kind >= v.STRING,
    "isnumeric": lambda value: value.kind == v.NUMERIC,
}
_PYTHON_OPS = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt, "<=": operator.le,
               ">=": operator.ge}


def _unbound(row: Row) -> Value:
    raise ExprError("unbound variable")


def _string_value(value: Value) -> str:
    if value.kind != v.STRING:
        raise ExprError("expected a simple literal or xsd:string")
    return value.value


def _str(value: Value) -> Value:
    if value.kind == v.IRI or value.kind == v.STRING:
        return v.string(value.value)
    if value.kind >= v.STRING:
        return v.string(v.lexical_form(value))
    raise ExprError("STR of a blank node")


def _lang(value: Value) -> Value:
    if value.kind < v.STRING:
        raise ExprError("LANG of a non-literal")
    return v.string(value.lang or "")


def _datatype(value: Value) -> Value:
    if value.kind < v.STRING:
        raise ExprError("DATATYPE of a non-literal")
    return term_value(f"<{value.datatype}>")


def lang_matches(tag: str, language_range: str) -> bool:
    """RFC 4647 basic filtering, case-insensitive; ``*`` matches any non-empty tag."""
    if language_range == "*":
        return tag != ""
    tag, language_range = tag.lower(), language_range.lower()
    return tag == language_range or tag.startswith(language_range + "-")


class _Compiler:
    def __init__(self, variables: Sequence[str]) -> None:
        self.index = {name: position for position, name in enumerate(variables)}

    def value(self, expr: Expr) -> ValueFn:
        if isinstance(expr, TermExpr):
            return _Constant(term_value(expr.term))
        if isinstance(expr, VarExpr):
            return self._variable(expr.name)
        if not expr_variables(expr):
            return _folded(self._value(expr))
        return self._value(expr)

    def test(self, expr: Expr) -> TestFn:
        if not expr_variables(expr):
            return _folded(self._test(expr))
        return self._test(expr)

    def _variable(self, name: str) -> ValueFn:
        position = self.index.get(name)
        if position is None:
            return _unbound

        def read(row: Row, position=position, cached=v.VALUES.get, term_value=term_value) -> Value:
            term = row[position]
            if term is None:
                raise ExprError("unbound variable")
            return cached(term) or term_value(term)

        return read

    def _value(self, expr: Expr) -> ValueFn:
        if isinstance(expr, Arith):
            left, right, op = self.value(expr.left), self.value(expr.right), expr.op
            return lambda row: v.arithmetic(op, left(row), right(row))
        if isinstance(expr, Unary):
            arg, operation = self.value(expr.arg), v.negate if expr.op == "-" else v.plus
            return lambda row: operation(arg(row))
        if isinstance(expr, Call) and expr.name in ("str", "lang", "datatype"):
            self._check_arity(expr)
            arg, function = self.value(expr.args[0]), {"str": _str, "lang": _lang, "datatype": _datatype}[expr.name]
            return lambda row: function(arg(row))
        if isinstance(expr, Call) and expr.name.startswith("<"):
            target = expr.name[1:-1]
            if target not in CAST_TARGETS:
                raise QueryError(f"FILTER cast to {expr.name} is not supported")
            if len(expr.args) != 1:
                raise QueryError(f"FILTER cast to {expr.name} takes one argument, got {len(expr.args)}")
            arg = self.value(expr.args[0])
            return lambda row: cast(target, arg(row))
        test = self._test(expr)
        return lambda row: v.TRUE if test(row) else v.FALSE

    def _test(self, expr: Expr) -> TestFn:
        if isinstance(expr, And):
            return _conjunction([self.test(arg) for arg in expr.args])
        if isinstance(expr, Or):
            return _disjunction([self.test(arg) for arg in expr.args])
        if isinstance(expr, Not):
            arg = self.test(expr.arg)
            return lambda row: not arg(row)
        if isinstance(expr, Compare):
            return self._compare(expr)
        if isinstance(expr, Call) and not expr.name.startswith("<") and expr.name not in ("str", "lang", "datatype"):
            return self._builtin_test(expr)
        value = self.value(expr)
        effective_boolean = v.effective_boolean
        return lambda row: effective_boolean(value(row))

    def _compare(self, expr: Compare) -> TestFn:
        """Two values of one family (see Value) compare directly; anything else goes through the operator rules."""
        op, python_op, left = expr.op, _PYTHON_OPS[expr.op], self.value(expr.left)
        if expr.op in ("=", "!="):
            slow = v.equal if op == "=" else lambda a, b: not v.equal(a, b)
        else:
            order_pair = v.order_pair

            def slow(a: Value, b: Value) -> bool:
                return python_op(*order_pair(a, b))

        if isinstance(expr.right, TermExpr) or not expr_variables(expr.right):
            constant = _constant(self.value(expr.right))
            if isinstance(constant, Value):
                known, family = constant.value, constant.family

                def compare_constant(row: Row) -> bool:
                    a = left(row)
                    if a.family == family and family >= 0:
                        return python_op(a.value, known)
                    return slow(a, constant)

                return compare_constant
        right = self.value(expr.right)

        def compare(row: Row) -> bool:
            a, b = left(row), right(row)
            if a.family == b.family and a.family >= 0:
                return python_op(a.value, b.value)
            return slow(a, b)

        return compare

    def _check_arity(self, expr: Call) -> None:
        if expr.name not in _ARITY:
            raise QueryError(f"FILTER function {expr.name} is not supported")
        low, high = _ARITY[expr.name]
        if not low <= len(expr.args) <= high:
            raise QueryError(f"FILTER function {expr.name} takes {low}-{high} arguments, got {len(expr.args)}")

    def _builtin_test(self, expr: Call) -> TestFn:
        self._check_arity(expr)
        name, args = expr.name, expr.args
        if name == "bound":
            if not isinstance(args[0], VarExpr):
                raise QueryError("BOUND takes a variable")
            position = self.index.get(args[0].name)
            return (lambda row: False) if position is None else (lambda row: row[position] is not None)
        if name in _KIND_TESTS:
            arg, kind_test = self.value(args[0]), _KIND_TESTS[name]
            return lambda row: kind_test(arg(row))
        if name == "sameterm":
            left, right = self.value(args[0]), self.value(args[1])
            return lambda row: left(row).term == right(row).term
        if name == "langmatches":
            tag, language_range = self.value(args[0]), self.value(args[1])
            return lambda row: lang_matches(_string_value(tag(row)), _string_value(language_range(row)))
        return self._regex(args)

    def _regex(self, args: tuple[Expr, ...]) -> TestFn:
        text = self.value(args[0])
        if all(isinstance(arg, TermExpr) for arg in args[1:]):
            try:
                pattern = compile_regex(*(_string_value(term_value(arg.term)) for arg in args[1:]))
            except ExprError as error:
                return _raising(error)
            return lambda row: pattern.search(_text_value(text(row))) is not None
        pattern_fn, flags_fn = self.value(args[1]), self.value(args[2]) if len(args) > 2 else None

        def regex(row: Row) -> bool:
            subject = _text_value(text(row))
            flags = _string_value(flags_fn(row)) if flags_fn else ""
            return compile_regex(_string_value(pattern_fn(row)), flags).search(subject) is not None

        return regex


def _text_value(value: Value) -> str:
    if value.kind != v.STRING and value.kind != v.LANG:
        raise ExprError("REGEX text must be a string literal")
    return value.value


def _raising(error: ExprError) -> Callable[[Row], object]:
    def fail(row: Row):
        raise error

    return fail


class _Constant:
    """A folded expression: calling it gives its value, whatever the row."""

    __slots__ = ("result",)

    def __init__(self, result) -> None:
        self.result = result

    def __call__(self, row: Row):
        return self.result


def _constant(function: Callable[[Row], object]):
    """The constant result of a folded expression, or None when it is not one (or folds to an error)."""
    return function.result if isinstance(function, _Constant) else None


def _folded(function: Callable[[Row], object]) -> Callable[[Row], object]:
    """A variable-free expression, evaluated now: its constant result, or a closure raising its error."""
    try:
        result = function(())
    except ExprError as error:
        return _raising(error)
    return _Constant(result)


def _conjunction(tests: list[TestFn]) -> TestFn:
    """``&&``: false if any operand is false, else an error if any is an error, else true."""

    def conjunction(row: Row) -> bool:
        error = None
        for test in tests:
            try:
                if not test(row):
                    return False
            except ExprError as caught:
                error = caught
        if error is not None:
            raise error
        return True

    return conjunction


def _disjunction(tests: list[TestFn]) -> TestFn:
    """``||``: true if any operand is true, else an error if any is an error, else false."""

    def disjunction(row: Row) -> bool:
        error = None
        for test in tests:
            try:
                if test(row):
                    return True
            except ExprError as caught:
                error = caught
        if error is not None:
            raise error
        return False

    return disjunction


def _top_level_tests(compiler: _Compiler, filters: Sequence[Expr]) -> list[TestFn]:
    """At the top, ``a && b`` holds exactly when both hold (an error is as false), so conjunctions flatten."""
    tests: list[TestFn] = []
    for expr in filters:
        if isinstance(expr, And):
            tests.extend(_top_level_tests(compiler, expr.args))
        else:
            tests.append(compiler.test(expr))
    return tests


def _holding(tests: list[TestFn]) -> TestFn:
    if len(tests) == 1:
        (test,) = tests

        def holds(row: Row) -> bool:
            try:
                return test(row)
            except ExprError:
                return False

    elif len(tests) == 2:
        first, second = tests

        def holds(row: Row) -> bool:
            try:
                return first(row) and second(row)
            except ExprError:
                return False

    else:

        def holds(row: Row) -> bool:
            try:
                for test in tests:
                    if not test(row):
                        return False
                return True
            except ExprError:
                return False

    return holds


def compile_filter(expr: Expr, variables: Sequence[str]) -> TestFn:
    """The effective boolean value of ``expr`` on a mapping tuple, an error counting as false."""
    return _holding(_top_level_tests(_Compiler(variables), [expr]))


def compile_filters(filters: Sequence[Expr], variables: Sequence[str]) -> TestFn | None:
    """The conjunction of ``filters`` on a mapping tuple (an error makes it false); None when there are none."""
    if not filters:
        return None
    return _holding(_top_level_tests(_Compiler(variables), filters))


@lru_cache(maxsize=4096)
def _compiled(expr: Expr, variables: tuple[str, ...]) -> TestFn:
    return compile_filter(expr, variables)


def filter_holds(expr: Expr, binding: dict[str, str]) -> bool:
    """``compile_filter`` for callers holding a dict from variable (with ``?``) to term."""
    return _compiled(expr, tuple(binding))(tuple(binding.values()))


def expression_term(expr: Expr, binding: dict[str, str]) -> str | None:
    """The canonical term an expression evaluates to, or None when its evaluation is an error."""
    try:
        return _Compiler(tuple(binding)).value(expr)(tuple(binding.values())).term
    except ExprError:
        return None


TERM_VERDICTS_LIMIT = 1 << 16


def term_test(filters: Sequence[Expr], variable: str) -> Callable[[str], bool]:
    """The one-variable FILTERs on ``variable`` as a test of one term, remembering each term's verdict.

    Terms repeat a lot in streams; the memory is cleared once it holds ``TERM_VERDICTS_LIMIT`` terms
    so a stream of distinct literals cannot grow it without bound.
    """
    test = compile_filters(filters, (variable,))
    verdicts: dict[str, bool] = {}

    def holds(term: str) -> bool:
        verdict = verdicts.get(term)
        if verdict is None:
            if len(verdicts) >= TERM_VERDICTS_LIMIT:
                verdicts.clear()
            verdict = verdicts[term] = bool(test((term,)))
        return verdict

    return holds
