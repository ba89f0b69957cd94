"""LUBM(N, S, I) as a stream: one unit per university, rows identical to UBA 1.7's statements, in UBA's order.

Each university is replayed on its own (UBA re-seeds per university), so any split of the
universities over tasks gives the same rows. An entity is one UBA section: a subject with the
properties UBA writes for it (a student with all its triples), plus the nested
``rdf:type ub:University`` statements of its university values. The schema is the univ-bench
ontology (``univ-bench.nt``, converted from the published OWL file); there is no static graph.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources

import numpy as np
import pyarrow as pa

from generators.framing import GeneratorSpec, entity_events, event_batch, rate_timestamps
from generators.lubm.render import sections
from generators.lubm.uba import ONTOLOGY, plan_university, section_sizes

NAME = "lubm"
VERSION = "uba-1.7-port/1"
DEFAULT_RATE = 1000.0  # triples per second of stream time: LUBM has no clock of its own
SCHEMA_FILE = "univ-bench.nt"
UNIT = "university"


def units(spec: GeneratorSpec) -> list[int]:
    """University indices, as UBA's ``-index I -univ N`` numbers them."""
    return list(range(spec.index, spec.index + spec.scale))


def ontology(spec: GeneratorSpec) -> str:
    return str(spec.option("ontology", ONTOLOGY))


def unit_counts(spec: GeneratorSpec, unit: int) -> tuple[int, int]:
    """(entities, triples) of one university, from its draws alone."""
    sizes = section_sizes(plan_university(unit, spec.seed))
    return len(sizes), sum(sizes)


def known_counts(spec: GeneratorSpec) -> None:
    """LUBM sizes come from the draws: counting needs a pass over the universities."""
    return None


def unit_batches(spec: GeneratorSpec, unit: int, first_entity: int, first_triple: int) -> Iterator[pa.RecordBatch]:
    """The rows of one university, numbered from its place in the whole stream."""
    triples: list[tuple[str, str, str]] = []
    sizes: list[int] = []
    for section in sections(plan_university(unit, spec.seed), ontology(spec)):
        sizes.append(len(section))
        triples.extend(section)
    subjects = [triple[0] for triple in triples]
    predicates = [triple[1] for triple in triples]
    objects = [triple[2] for triple in triples]
    event, first = entity_events(np.array(sizes, dtype=np.int64), first_entity, first_triple, spec.shape)
    ts = rate_timestamps(first, spec.rate or DEFAULT_RATE)
    yield event_batch(event, ts, subjects, predicates, objects)


def schema_ntriples(spec: GeneratorSpec) -> str:
    """The univ-bench ontology as N-Triples (its namespace rewritten if ``ontology`` was changed)."""
    text = resources.files("generators.lubm").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    if ontology(spec) != ONTOLOGY:
        text = text.replace(ONTOLOGY, ontology(spec))
    return text


def static_ntriples(spec: GeneratorSpec) -> str | None:
    return None


def provenance(spec: GeneratorSpec) -> dict:
    return {
        "generator": {"name": NAME, "version": VERSION, "reproduces": "UBA 1.7 (Lehigh), OWL writer"},
        "uba_arguments": f"-univ {spec.scale} -index {spec.index} -seed {spec.seed} -onto {ontology(spec)}",
        "unit": UNIT,
        "rate": spec.rate or DEFAULT_RATE,
    }
