"""A dataset's units become one ordered stream of event rows, on Spark or in plain Python, with the same rows either way.

A dataset module (``generators.lubm.dataset``, ``generators.taxi.dataset``) provides ``units``,
``unit_counts`` or ``known_counts``, ``unit_batches``, ``schema_ntriples``, ``static_ntriples`` and
``provenance`` (``static_ntriples`` may give an iterable of text chunks instead of one string,
for static graphs too large to hold whole). The pipeline counts each unit's entities and triples, turns the counts into each
unit's offsets in the whole stream (a prefix sum on the driver: a few numbers per unit), then
makes every unit's rows independently. ``generate`` does that as two Spark jobs (a count job, done
in the driver when there are few units, then ``mapInArrow`` over the units, one contiguous slice of units per partition, so partition order is
event order); ``twin_batches`` does it in this process for tests and small streams.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType

import pyarrow as pa

from common.errors import GeneratorError
from generators.framing import SPARK_EVENT_SCHEMA, GeneratorSpec

DATASETS = {
    "lubm": "generators.lubm.dataset",
    "taxi": "generators.taxi.dataset",
    "bsbm": "generators.bsbm.dataset",
    "lsbench": "generators.lsbench.dataset",
    "snb": "generators.snb.dataset",
}


def dataset_module(name: str) -> ModuleType:
    """The module implementing dataset ``name``; an unknown name is a GeneratorError listing the known ones."""
    if name not in DATASETS:
        raise GeneratorError(f"unknown dataset {name!r}; known: {', '.join(sorted(DATASETS))}")
    return importlib.import_module(DATASETS[name])


@dataclass(frozen=True)
class UnitPlace:
    """Where one unit's rows start in the whole stream, and how many it has."""

    unit: int
    first_entity: int
    first_triple: int
    entities: int
    triples: int


def places(units: list[int], counts: list[tuple[int, int]]) -> list[UnitPlace]:
    """Prefix sums of per-unit (entities, triples), in unit order."""
    result, entity, triple = [], 0, 0
    for unit, (entities, triples) in zip(units, counts):
        result.append(UnitPlace(unit, entity, triple, entities, triples))
        entity += entities
        triple += triples
    return result


def stream_counts(spec: GeneratorSpec, unit_places: list[UnitPlace]) -> dict[str, int]:
    """Events and triples of the whole stream, from the unit counts alone."""
    triples = sum(place.triples for place in unit_places)
    entities = sum(place.entities for place in unit_places)
    events = entities if spec.shape.kind == "entity" else -(-triples // spec.shape.size)
    return {"events": events, "triples": triples, "entities": entities}


def twin_places(spec: GeneratorSpec) -> list[UnitPlace]:
    dataset = dataset_module(spec.dataset)
    units = dataset.units(spec)
    counts = dataset.known_counts(spec) or [dataset.unit_counts(spec, unit) for unit in units]
    return places(units, counts)


def twin_batches(spec: GeneratorSpec, unit_places: list[UnitPlace] | None = None) -> Iterator[pa.RecordBatch]:
    """Every event row of the stream, made in this process: the pure-Python twin of ``generate``."""
    dataset = dataset_module(spec.dataset)
    for place in unit_places if unit_places is not None else twin_places(spec):
        yield from dataset.unit_batches(spec, place.unit, place.first_entity, place.first_triple)


def twin_table(spec: GeneratorSpec) -> pa.Table:
    from generators.framing import EVENT_SCHEMA

    return pa.Table.from_batches(list(twin_batches(spec)), schema=EVENT_SCHEMA)


def _count_unit(spec: GeneratorSpec, unit: int) -> tuple[int, int, int]:
    entities, triples = dataset_module(spec.dataset).unit_counts(spec, unit)
    return unit, entities, triples


DRIVER_COUNT_LIMIT = 64  # up to this many units, counting in the driver beats starting a Spark job


def spark_places(spark, spec: GeneratorSpec, partitions: int, count_on: str = "auto") -> list[UnitPlace]:
    """Per-unit counts and offsets. ``count_on``: ``spark`` (one task per slice of units), ``driver``
    (in this process), or ``auto``: the driver for up to DRIVER_COUNT_LIMIT units, else Spark."""
    dataset = dataset_module(spec.dataset)
    units = dataset.units(spec)
    counts = dataset.known_counts(spec)
    if counts is None and (count_on == "driver" or (count_on == "auto" and len(units) <= DRIVER_COUNT_LIMIT)):
        counts = [dataset.unit_counts(spec, unit) for unit in units]
    if counts is None:
        counted = spark.sparkContext.parallelize(units, partitions).map(lambda unit: _count_unit(spec, unit)).collect()
        by_unit = {unit: (entities, triples) for unit, entities, triples in counted}
        counts = [by_unit[unit] for unit in units]
    return places(units, counts)


def partition_count(spark, spec: GeneratorSpec) -> int:
    """The spec's partition count, else a few tasks per core, never more than there are units."""
    units = len(dataset_module(spec.dataset).units(spec))
    wanted = spec.partitions or 2 * max(1, spark.sparkContext.defaultParallelism)
    return max(1, min(wanted, units))


def generate(spark, spec: GeneratorSpec, unit_places: list[UnitPlace] | None = None):
    """The stream's event rows as a Spark DataFrame (``event, ts, op, s, p, o``), partitions in event order."""
    partitions = partition_count(spark, spec)
    if unit_places is None:
        unit_places = spark_places(spark, spec, partitions)
    rows = [(place.unit, place.first_entity, place.first_triple) for place in unit_places]
    frame = spark.createDataFrame(
        spark.sparkContext.parallelize(rows, partitions), "unit long, first_entity long, first_triple long"
    )

    def make_rows(batches):
        dataset = dataset_module(spec.dataset)
        for batch in batches:
            columns = batch.to_pydict()
            for unit, entity, triple in zip(columns["unit"], columns["first_entity"], columns["first_triple"]):
                yield from dataset.unit_batches(spec, unit, entity, triple)

    return frame.mapInArrow(make_rows, SPARK_EVENT_SCHEMA)
