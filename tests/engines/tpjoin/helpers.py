"""Small builders for the TP-Join tests: IRIs in one namespace, events from "s p o" strings, queries from a BGP."""

from __future__ import annotations

from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Update

EX = "http://ex/"
XSD_INTEGER = "<http://www.w3.org/2001/XMLSchema#integer>"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


def integer(value: int) -> str:
    return f'"{value}"^^{XSD_INTEGER}'


def term(text: str) -> str:
    return integer(int(text)) if text.lstrip("-").isdigit() else iri(text)


def event(index: int, ts: int, *triples: str, op: int = INSERT) -> Event:
    """``event(0, 5, "a p b", "b q 3")``: names become IRIs, digits xsd:integers."""
    return Event(index, ts, tuple(Update(op, *(term(t) for t in triple.split())) for triple in triples))


def deletion(index: int, ts: int, *triples: str) -> Event:
    return event(index, ts, *triples, op=DELETE)


def query(text: str, window="event"):
    return parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ {text} }}", window=window)


def mapping(*names: str) -> tuple:
    return tuple(term(n) for n in names)


def run(engine, events) -> list[tuple[set, set]]:
    """(added, removed) of each push, as sets."""
    return [(set(d.added), set(d.removed)) for d in map(engine.push, events)]
