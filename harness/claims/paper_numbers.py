"""A paper value is only as good as its source: each carries the table, the number as printed and a quotation of its line.

A claim file keeps the numbers it takes from its paper in one table, keyed by a name::

    [paper_numbers.lubm_triples]
    source = "Sec. 6.1, Datasets (4)"
    printed = "24 million"                    # as the paper prints it: 226, 3.2M, 145K, 24 million
    quote = "We generated a dataset of 150 universities, with a total of 24 million triples."

    [paper_numbers.table2_100_Q1]
    source = "Table II (time in seconds), events of 100 triples"
    printed = "226"
    quote = "100 226 97 189 76 27 36 204"     # the printed line; `printed` must stand in it as a whole number
    row = "100"                               # optional: the row's label, the quote's first field
    columns = ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7"]   # optional, with `column`: the header after the label
    column = "Q1"                             # the printed number is the quote's field under this column
    derivation = "24_000_000 / 226"           # optional: the value a claim uses, in arithmetic on numbers only

Without a derivation the number's value is the printed one. A derivation uses the printed number, and every other
number in it is one the quote prints or another paper number of the file prints (24_000_000 above: ``lubm_triples``).
A claim names its number with ``paper_number`` (``"table2_100_{query}"``, filled from ``each``); a ``paper_value``
it types must equal that value to the precision it is typed in, so a digit added or another row's value is refused.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from decimal import Decimal

from common.errors import ConfigError

KEYS = {"source", "printed", "quote", "derivation", "row", "column", "columns"}
_SCALES = {"": 1, "k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9}
_PRINTED = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)\s*(k|m|b|thousand|million|billion)?", re.IGNORECASE)
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos}


@dataclass(frozen=True)
class PaperNumber:
    name: str
    source: str               # the table or figure (and where in it)
    printed: str              # the number exactly as printed
    quote: str                # the printed line it stands in
    value: float              # what a claim compares with: the derivation's result, else the printed number
    derivation: str = ""      # e.g. "24_000_000 / 226" (24M triples over 226 s)
    row: str = ""
    column: str = ""

    def describe(self) -> str:
        """``Table II, row 100, Q1: 24_000_000 / 226`` — where a reader finds it, and how it became the value."""
        place = ", ".join([self.source] + ([f"row {self.row}"] if self.row else []) + ([self.column] if self.column else []))
        return f"{place}: {self.derivation or self.printed}"


def printed_value(printed: str, where: str) -> float:
    """The number a paper prints as ``226``, ``3.2M``, ``145K``, ``1,000`` or ``24 million``."""
    match = _PRINTED.fullmatch(printed.strip())
    if not match:
        raise ConfigError(f"{where}: printed {printed!r} is not a number as printed (226, 3.2M, 145K, 24 million)")
    return float(match.group(1).replace(",", "")) * _SCALES[(match.group(2) or "").lower()]


def stands_in(printed: str, quote: str) -> bool:
    """``printed`` is in ``quote`` as a whole number: 226 is in "100 226 97", not in "2226" nor in "226.5"."""
    return re.search(r"(?<![\w.])(?<!\d,)" + re.escape(printed) + r"(?![\w])(?![.,]\d)", quote) is not None


def evaluate(derivation: str, where: str) -> tuple[float, list[float]]:
    """The derivation's value and the numbers it uses; only + - * / ** on numbers, never a name or a call."""
    try:
        tree = ast.parse(derivation, mode="eval")
    except SyntaxError:
        raise ConfigError(f"{where}: derivation {derivation!r} is not arithmetic") from None
    literals: list[float] = []

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            literals.append(float(node.value))
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.operand))
        raise ConfigError(f"{where}: derivation {derivation!r} may hold only numbers and + - * / **, "
                          f"not {type(node).__name__}")

    try:
        result = value(tree.body)
    except (ZeroDivisionError, OverflowError) as error:
        raise ConfigError(f"{where}: derivation {derivation!r}: {error}") from None
    return result, literals


def parse_paper_numbers(raw: object, where: str) -> dict[str, PaperNumber]:
    """The ``[paper_numbers]`` table of a claim file, every number checked against its quote and its derivation."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(entry, dict) for entry in raw.values()):
        raise ConfigError(f"{where}: key 'paper_numbers' must be a table of [paper_numbers.NAME] tables")
    numbers = {name: _paper_number(name, entry, f"{where}: paper_numbers.{name}") for name, entry in raw.items()}
    printed_elsewhere = {name: printed_value(number.printed, where) for name, number in numbers.items()}
    for name, number in numbers.items():
        if number.derivation:
            _check_sources(number, {value for other, value in printed_elsewhere.items() if other != name},
                           f"{where}: paper_numbers.{name}")
    return numbers


def _paper_number(name: str, entry: dict, where: str) -> PaperNumber:
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
    for key in ("source", "printed", "quote"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise ConfigError(f"{where}: key {key!r} must be a non-empty string")
    for key in ("derivation", "row", "column"):
        if not isinstance(entry.get(key, ""), str):
            raise ConfigError(f"{where}: key {key!r} must be a string")
    printed, quote = entry["printed"].strip(), " ".join(entry["quote"].split())
    printed_value(printed, where)
    if not stands_in(printed, quote):
        raise ConfigError(f"{where}: printed {printed!r} does not stand in its quote {quote!r}")
    _check_place(entry, printed, quote, where)
    derivation = entry.get("derivation", "").strip()
    value = evaluate(derivation, where)[0] if derivation else printed_value(printed, where)
    return PaperNumber(name, entry["source"].strip(), printed, quote, value, derivation,
                       entry.get("row", ""), entry.get("column", ""))


def _check_place(entry: dict, printed: str, quote: str, where: str) -> None:
    """A table cell's number is the quote's field under ``column`` in the row labelled ``row``."""
    fields = quote.split()
    if entry.get("row") and fields[0] != entry["row"]:
        raise ConfigError(f"{where}: the quote's row label is {fields[0]!r}, not row {entry['row']!r}")
    if "column" not in entry and "columns" not in entry:
        return
    columns = entry.get("columns")
    if not (isinstance(columns, list) and all(isinstance(c, str) for c in columns) and entry.get("column") in columns):
        raise ConfigError(f"{where}: key 'column' must name one of 'columns', a list of the table's headers")
    cells = fields[1:] if entry.get("row") else fields
    if len(cells) != len(columns):
        raise ConfigError(f"{where}: the quote has {len(cells)} fields after its label, the table {len(columns)} columns")
    under = cells[columns.index(entry["column"])]
    if under != printed:
        raise ConfigError(f"{where}: the quote prints {under!r} under {entry['column']!r}, not {printed!r}")


def _check_sources(number: PaperNumber, printed_elsewhere: set[float], where: str) -> None:
    """A derivation uses its printed number, and takes every other number from its quote or another paper number."""
    _, literals = evaluate(number.derivation, where)
    own = printed_value(number.printed, where)
    if own not in literals:
        raise ConfigError(f"{where}: derivation {number.derivation!r} does not use the printed {number.printed!r}")
    quoted = {printed_value(match.group(0), where) for match in re.finditer(r"[0-9][0-9,]*(?:\.[0-9]+)?", number.quote)}
    for literal in literals:
        if literal != own and literal not in quoted and literal not in printed_elsewhere:
            raise ConfigError(f"{where}: derivation {number.derivation!r} uses {literal:g}, which neither its quote "
                              "nor another paper number of the file prints")


def agrees(typed: float | int, number: PaperNumber) -> bool:
    """``typed`` is ``number``'s value rounded to the precision it is typed in (106195 for 106194.69, 9.6e5 for 960000)."""
    exponent = Decimal(repr(typed)).normalize().as_tuple().exponent
    return abs(typed - number.value) <= 0.5 * 10.0 ** exponent * (1 + 1e-9)
