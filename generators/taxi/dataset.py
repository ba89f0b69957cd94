"""NYC-taxi-like trips as a stream: units are blocks of trip ids, one event per trip (24 triples) by default.

``--scale N`` trips with ids ``index .. index+N-1``; the drop-off time of a trip is its event time
unless a ``--rate`` is given. Every block is made alone from (seed, trip ids), so the counts are
known without a pass (24 triples per trip) and the rows do not depend on the partitioning.
Options (``GeneratorSpec.options``): ``trips_per_day`` (default 470,000, the 2013 volume) and
``block`` (trips per unit, default 20,000; it changes only how the work is split, never the rows), and
``stream``: ``all`` (default), ``trips`` or ``fares``, the 2013 data's two files apart (trip_data and
trip_fare): a fare event holds the trip's payment type and six amounts (7 triples), a trip event the rest
(17), both at the drop-off time, for a query over two named windows (``queries/streams/``).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from common.errors import GeneratorError
from generators.framing import GeneratorSpec, event_batch, rate_timestamps
from generators.taxi import model
from generators.taxi.rdf import PREDICATES, TRIPLES_PER_TRIP, trip_columns
from generators.taxi.rdf import schema_ntriples as _schema

NAME = "taxi"
VERSION = "nyc-taxi-like/1"
BLOCK = 20_000  # trips per unit: ~480k rows, a comfortable Arrow batch
FARE_POSITIONS = tuple(range(PREDICATES.index("paymentType"), PREDICATES.index("total") + 1))
STREAM_POSITIONS = {
    "all": tuple(range(TRIPLES_PER_TRIP)),
    "fares": FARE_POSITIONS,
    "trips": tuple(position for position in range(TRIPLES_PER_TRIP) if position not in FARE_POSITIONS),
}


def kept_positions(spec: GeneratorSpec) -> tuple[int, ...]:
    """Which of a trip's triples (by position in ``PREDICATES``) the chosen stream holds."""
    value = spec.option("stream", "all")
    if value not in STREAM_POSITIONS:
        raise GeneratorError(f"taxi option stream must be one of {', '.join(STREAM_POSITIONS)}, got {value!r}")
    return STREAM_POSITIONS[value]


def trips_per_day(spec: GeneratorSpec) -> float:
    value = spec.option("trips_per_day", model.TRIPS_PER_DAY)
    if not isinstance(value, (int, float)) or value <= 0:
        raise GeneratorError(f"taxi option trips_per_day must be a number > 0, got {value!r}")
    return float(value)


def block_size(spec: GeneratorSpec) -> int:
    value = spec.option("block", BLOCK)
    if not isinstance(value, int) or value < 1:
        raise GeneratorError(f"taxi option block must be an integer >= 1, got {value!r}")
    return value


def units(spec: GeneratorSpec) -> list[int]:
    trips_per_day(spec)  # validated here, before any work starts
    kept_positions(spec)
    return list(range(-(-spec.scale // block_size(spec))))


def _block(spec: GeneratorSpec, unit: int) -> tuple[int, int]:
    first = unit * block_size(spec)
    return spec.index + first, min(block_size(spec), spec.scale - first)


def unit_counts(spec: GeneratorSpec, unit: int) -> tuple[int, int]:
    _, count = _block(spec, unit)
    return count, count * len(kept_positions(spec))


def known_counts(spec: GeneratorSpec) -> list[tuple[int, int]]:
    return [unit_counts(spec, unit) for unit in units(spec)]


def unit_batches(spec: GeneratorSpec, unit: int, first_entity: int, first_triple: int) -> Iterator[pa.RecordBatch]:
    first_trip, count = _block(spec, unit)
    trips = model.trips(spec.seed, first_trip, count, trips_per_day(spec))
    subjects, predicates, objects = trip_columns(spec.seed, trips)
    kept = kept_positions(spec)
    per_trip = len(kept)
    if per_trip < TRIPLES_PER_TRIP:  # one of the two files: the trip's other triples are left out
        mask = pa.array(np.isin(np.arange(count * TRIPLES_PER_TRIP) % TRIPLES_PER_TRIP, kept))
        subjects, predicates, objects = (column.filter(mask) for column in (subjects, predicates, objects))
    rows = count * per_trip
    triple = np.arange(first_triple, first_triple + rows, dtype=np.int64)
    if spec.shape.kind == "entity":
        event = triple // per_trip
        first_of_event = event * per_trip
    else:
        event = triple // spec.shape.size
        first_of_event = event * spec.shape.size
    if spec.rate:
        ts = rate_timestamps(first_of_event, spec.rate)
    else:  # the drop-off time of the trip holding the event's first triple (it may lie in the block before)
        owner = spec.index + first_of_event // per_trip
        ts = model.dropoff_ms(spec.seed, owner, trips_per_day(spec))
    yield event_batch(event, ts, subjects, predicates, objects)


def schema_ntriples(spec: GeneratorSpec) -> str:
    return _schema()


def static_ntriples(spec: GeneratorSpec) -> None:
    return None


def provenance(spec: GeneratorSpec) -> dict:
    return {
        "generator": {"name": NAME, "version": VERSION},
        "unit": f"block of {block_size(spec)} trips",
        "trips": spec.scale,
        "first_trip": spec.index,
        "trips_per_day": trips_per_day(spec),
        "stream": spec.option("stream", "all"),
        "rate": spec.rate,
        "ts_source": "rate" if spec.rate else "drop-off time (ms, NYC wall-clock encoded as UTC)",
    }
