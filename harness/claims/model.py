"""A claim file is parsed once, where it enters, into frozen dataclasses; anything unknown or malformed is a ConfigError.

One TOML file per paper experiment, ``benchmarks/papers/<paper>/<experiment>.toml``::

    paper = "spectra"                           # spectra | sparkwave | tpjoin | delta
    citation = "S. Gillani, G. Picard, F. Laforest: SPECTRA ..."
    figure = "Table 1"                          # the paper's figure or table
    config = "benchmarks/configs/spectra-table1.toml"   # what `cgpm reproduce` runs (relative to the repository)
    published = "spectra-table1/spectra-table1" # the published folder, relative to the results root

    [[claim]]
    id = "rev-{query}-{window}"                 # unique within the paper once expanded; {key} from `each`
    text = "spectra is at least 3x spectra-rev on {query}"
    kind = "ratio"                              # ratio | metric | growth | break-even | memory
    metric = "steady_triples_per_s"             # a column of the published cells
    numerator = "spectra"                       # ratio, break-even: the two engines; metric, growth, memory: `engine`
    denominator = "spectra-rev"
    cell = { event_shape = "triples:1" }        # the cell's keys (columns of the published cells)
    each = { query = ["L1", "L3"], window = ["sliding:100000:1"] }  # one claim per combination, keys joined to `cell`
    relation = ">= 3"                           # ">= X", "<= X", ">= paper", "within 1.5x of the paper"
    paper_value = 106000                        # or paper_values = { L1 = 106000, ... } keyed by an `each` value
    paper_number = "table1_{query}"             # the [paper_numbers] entry it comes from (harness/claims/paper_numbers.py)
    expected = "met"                            # the verdict the repository records; expected_except = { id = "missed" }
    cost_floor = false                          # true: on purpose over cells that answer nothing
    repetitions = 5                             # the least repetitions of each engine compared (also a file key)

A file may add ``note``, one line a reader needs beside its verdicts (the scale it ran at against the paper's),
which the generated tables print. A claim with a paper value names its ``paper_number``, and the value it types must
be that number's (``paper_numbers.agrees``); a claim naming one without typing a value takes the number's.

An ``each`` key named in an engine field or a side's keys (``numerator = "{engine}"``) picks those and is not a cell
column. ``numerator_cell`` and ``denominator_cell`` add keys to one side of a ratio (a variant: another query or
entailment). ``growth`` compares one engine's cost (1 / a rate, or the metric itself when it is a cost) at ``to`` over ``from``
(cell keys, e.g. ``from = { window = "sliding:10000:1" }``); ``break-even`` is the smallest ``window`` range from
which numerator/denominator stays at or above 1; ``memory`` is the engine's RSS growth minus ``scan``'s in the same
cell, per window triple.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

from common.errors import ConfigError
from common.toml_files import read_toml
from harness.claims.paper_numbers import PaperNumber, agrees, parse_paper_numbers

PAPERS = ("spectra", "sparkwave", "tpjoin", "delta")
KINDS = ("ratio", "metric", "growth", "break-even", "memory")
VERDICTS = ("met", "missed", "not-shown", "undecided", "invalid")
REPETITIONS = 5  # a claim's least repetitions of every engine it compares, unless its file or claim asks otherwise
FILE_KEYS = {"paper", "citation", "figure", "config", "published", "paper_numbers", "claim", "note", "repetitions"}
CLAIM_KEYS = {"id", "text", "kind", "metric", "numerator", "denominator", "engine", "cell", "each", "relation",
              "paper_value", "paper_values", "expected", "expected_except", "from", "to", "baseline",
              "numerator_cell", "denominator_cell", "paper_number", "cost_floor", "repetitions"}
_NUMBER = r"([0-9][0-9_.eE+-]*)"


@dataclass(frozen=True)
class Relation:
    """What the claim's value must satisfy: ``value OP threshold`` or within ``factor`` of the paper's value."""

    op: str            # ">=" | "<=" | "within"
    threshold: float | None  # None: the paper's value
    factor: float | None = None

    def holds(self, value: float, paper_value: float | None) -> bool | None:
        """True / False, or None when the relation needs the paper's value and there is none."""
        target = paper_value if self.threshold is None else self.threshold
        if target is None:
            return None
        if self.op == ">=":
            return value >= target
        if self.op == "<=":
            return value <= target
        return target / self.factor <= value <= target * self.factor

    def __str__(self) -> str:
        if self.op == "within":
            return f"within {self.factor:g}x of the paper"
        return f"{self.op} {'paper' if self.threshold is None else f'{self.threshold:g}'}"


@dataclass(frozen=True)
class Claim:
    paper: str
    experiment: str
    claim_id: str
    text: str
    kind: str
    metric: str
    numerator: str          # the engine for metric, growth and memory
    denominator: str | None
    cell: tuple[tuple[str, str], ...]
    relation: Relation
    paper_value: float | None
    expected: str
    start: tuple[tuple[str, str], ...] = ()   # growth: the cell keys of the first point
    end: tuple[tuple[str, str], ...] = ()     # growth: the cell keys of the last point
    baseline: str = "scan"                    # memory: whose growth is the harness's own
    numerator_cell: tuple[tuple[str, str], ...] = ()    # ratio: keys only the numerator's rows have (a variant)
    denominator_cell: tuple[tuple[str, str], ...] = ()
    paper_number: PaperNumber | None = None   # where the paper value comes from
    cost_floor: bool = False                  # on purpose over cells that answer nothing (the cost of finding nothing)
    repetitions: int = REPETITIONS            # the least repetitions of every engine the claim compares


@dataclass(frozen=True)
class Experiment:
    paper: str
    name: str
    path: Path
    citation: str
    figure: str
    config: str
    published: str
    claims: tuple[Claim, ...]
    note: str = ""                            # the scale it ran at, and other caveats the tables print
    paper_numbers: tuple[PaperNumber, ...] = ()


def parse_relation(text: object, where: str) -> Relation:
    spoken = str(text).strip().lower()
    if match := re.fullmatch(r"within\s+" + _NUMBER + r"\s*x\s+of\s+the\s+paper", spoken):
        return Relation("within", None, _float(match.group(1), where))
    if match := re.fullmatch(r"(>=|<=)\s*(paper|" + _NUMBER + ")", spoken):
        threshold = None if match.group(2) == "paper" else _float(match.group(2), where)
        return Relation(match.group(1), threshold)
    raise ConfigError(f"{where}: relation {text!r} is not '>= X', '<= X', '>= paper' or 'within F x of the paper'")


def _float(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ConfigError(f"{where}: {text!r} is not a number") from None


def load_experiment(path: str | Path) -> Experiment:
    """The experiment of one claim file, every claim expanded and checked."""
    path = Path(path)
    table = read_toml(path, "claim file")
    _check_keys(table, FILE_KEYS, ("paper", "citation", "figure", "config", "published"), str(path))
    if table["paper"] not in PAPERS:
        raise ConfigError(f"{path}: paper {table['paper']!r} is not one of {', '.join(PAPERS)}")
    if not isinstance(table.get("claim"), list) or not table["claim"]:
        raise ConfigError(f"{path}: no [[claim]] table")
    if not isinstance(table.get("note", ""), str):
        raise ConfigError(f"{path}: key 'note' must be a string")
    numbers = parse_paper_numbers(table.get("paper_numbers"), str(path))
    claims = [claim for index, raw in enumerate(table["claim"])
              for claim in _claims(raw, table["paper"], path.stem, f"{path}: claim {index + 1}", numbers,
                                   _repetitions(table, REPETITIONS, str(path)))]
    seen: set[str] = set()
    for claim in claims:
        if claim.claim_id in seen:
            raise ConfigError(f"{path}: claim id {claim.claim_id!r} appears twice")
        seen.add(claim.claim_id)
    return Experiment(table["paper"], path.stem, path, table["citation"], table["figure"], table["config"],
                      table["published"], tuple(claims), table.get("note", ""), tuple(numbers.values()))


def _keys(raw: object, where: str, key: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: key {key!r} must be a table of cell keys")
    return {name: str(value) for name, value in raw.items()}


def _check_keys(table: dict, known: set[str], required: tuple[str, ...], where: str) -> None:
    """No key outside ``known``; every ``required`` key a non-empty string."""
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    for key in required:
        if not isinstance(table.get(key), str) or not table[key]:
            raise ConfigError(f"{where}: key {key!r} must be a non-empty string")


def _repetitions(table: dict, default: int, where: str) -> int:
    """The ``repetitions`` a file or claim asks for: an integer of at least 1 (a bound's time-out is one run)."""
    value = table.get("repetitions", default)
    if type(value) is not int or value < 1:
        raise ConfigError(f"{where}: key 'repetitions' must be an integer >= 1, not {value!r}")
    return value


def _claims(raw: dict, paper: str, experiment: str, where: str, numbers: dict[str, PaperNumber],
            file_repetitions: int = REPETITIONS) -> list[Claim]:
    _check_keys(raw, CLAIM_KEYS, ("id", "text", "kind", "metric", "relation"), where)
    kind = raw["kind"]
    if kind not in KINDS:
        raise ConfigError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    engine_keys = ("numerator", "denominator") if kind in ("ratio", "break-even") else ("engine",)
    for key in engine_keys:
        if not isinstance(raw.get(key), str):
            raise ConfigError(f"{where}: a {kind} claim needs {key!r}")
    if kind == "growth" and not (isinstance(raw.get("from"), dict) and isinstance(raw.get("to"), dict)):
        raise ConfigError(f"{where}: a growth claim needs 'from' and 'to' tables of cell keys")
    relation = parse_relation(raw["relation"], where)
    each = raw.get("each") or {}
    if not isinstance(each, dict) or not all(isinstance(v, list) and v for v in each.values()):
        raise ConfigError(f"{where}: key 'each' must map cell keys to non-empty lists")
    expected = raw.get("expected", "met")
    exceptions = raw.get("expected_except") or {}
    for verdict in [expected, *exceptions.values()]:
        if verdict not in VERDICTS:
            raise ConfigError(f"{where}: expected verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    paper_values = raw.get("paper_values") or {}
    cost_floor = raw.get("cost_floor", False)
    if not isinstance(cost_floor, bool):
        raise ConfigError(f"{where}: key 'cost_floor' must be true or false")
    repetitions = _repetitions(raw, file_repetitions, where)
    claims = []
    for combination in itertools.product(*each.values()) if each else [()]:
        chosen = {name: str(value) for name, value in zip(each, combination)}
        try:
            claim_id, text = raw["id"].format(**chosen), raw["text"].format(**chosen)
        except (KeyError, IndexError) as error:
            raise ConfigError(f"{where}: id or text names {error} which 'each' does not give") from None
        paper_value = raw.get("paper_value")
        for value in chosen.values():
            paper_value = paper_values.get(value, paper_value)
        number = _paper_number(raw, chosen, paper_value, numbers, f"{where} ({claim_id})")
        if number is not None and paper_value is None:
            paper_value = number.value
        # an `each` key named in an engine or a side's keys ("{engine}") picks those, not a cell column
        engines = {key: raw[key].format(**chosen) for key in ("numerator", "denominator", "engine") if key in raw}
        sides = {key: {name: value.format(**chosen) for name, value in _keys(raw.get(key), where, key).items()}
                 for key in ("numerator_cell", "denominator_cell")}
        templates = [raw[key] for key in engines] + [str(raw.get(key) or "") for key in sides]
        picked = {name for name in chosen if any(f"{{{name}}}" in template for template in templates)}
        cell = {**_keys(raw.get("cell"), where, "cell"), **{k: v for k, v in chosen.items() if k not in picked}}
        claims.append(Claim(
            paper=paper, experiment=experiment, claim_id=f"{experiment}.{claim_id}", text=text, kind=kind,
            metric=raw["metric"], numerator=engines.get("numerator") or engines.get("engine"),
            denominator=engines.get("denominator"), cell=tuple(sorted(cell.items())), relation=relation,
            paper_value=None if paper_value is None else float(paper_value),
            expected=exceptions.get(claim_id, expected),
            start=tuple(sorted(_keys(raw.get("from"), where, "from").items())),
            end=tuple(sorted(_keys(raw.get("to"), where, "to").items())), baseline=raw.get("baseline", "scan"),
            numerator_cell=tuple(sorted(sides["numerator_cell"].items())),
            denominator_cell=tuple(sorted(sides["denominator_cell"].items())), paper_number=number,
            cost_floor=cost_floor, repetitions=repetitions))
    unused = sorted(set(exceptions) - {claim.claim_id.split(".", 1)[1] for claim in claims})
    if unused:
        raise ConfigError(f"{where}: expected_except names {unused[0]!r}, which is no claim of this table")
    return claims


def _paper_number(raw: dict, chosen: dict[str, str], paper_value: object, numbers: dict[str, PaperNumber],
                  where: str) -> PaperNumber | None:
    """The paper number a claim names, its typed value checked against it; a typed value must name one."""
    if "paper_number" not in raw:
        if paper_value is not None:
            raise ConfigError(f"{where}: key 'paper_value' needs 'paper_number', the [paper_numbers] entry it comes from")
        return None
    try:
        name = str(raw["paper_number"]).format(**chosen)
    except (KeyError, IndexError) as error:
        raise ConfigError(f"{where}: key 'paper_number' names {error} which 'each' does not give") from None
    if name not in numbers:
        raise ConfigError(f"{where}: key 'paper_number' names {name!r}, which is no [paper_numbers] entry of the file")
    number, key = numbers[name], "paper_values" if "paper_values" in raw else "paper_value"
    if paper_value is not None:
        if type(paper_value) not in (int, float) or paper_value != paper_value or abs(paper_value) == float("inf"):
            raise ConfigError(f"{where}: key {key!r}: {paper_value!r} must be a finite number")
        if not agrees(paper_value, number):
            raise ConfigError(f"{where}: key {key!r}: {paper_value!r} is not paper_numbers.{name} "
                              f"({number.describe()} = {number.value:.6g})")
    return number
