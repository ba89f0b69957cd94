"""Each taxi trip becomes the same 24 triples, in a fixed order, built column-wise with Arrow string kernels.

The vocabulary is the project's own (``http://example.org/cgpm-taxi#``, documented in
docs/generators.md), shaped after the TP-Join paper's trip events: the trip, its taxi and
driver, pick-up and drop-off places (cells of the DEBS 2015 500 m grid, so trips meet at places),
times, distance, coordinates, payment and the six money fields of the 2013 data. Literals carry
the lexical forms the 2013 files use: money and distance with two decimals, coordinates with six,
times as ``xsd:dateTime`` without a zone (NYC wall-clock time).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from generators.mixing import mix
from generators.taxi.model import DRIVERS, MEDALLIONS, PAYMENT_TYPES

TX = "http://example.org/cgpm-taxi#"
BASE = "http://example.org/cgpm-taxi/"
XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"

# DEBS 2015 grid: cell 1.1 is centred at (41.474937, -74.913585); cells are 0.005986 deg east, 0.004491556 deg south.
GRID_ORIGIN_LAT, GRID_ORIGIN_LON = 41.474937, -74.913585
CELL_LON, CELL_LAT = 0.005986, 0.004491556

PREDICATES = (
    "rdf:type", "taxi", "driver", "drives", "pickupPlace", "dropoffPlace", "pickupTime", "dropoffTime",
    "duration", "distance", "pickupLongitude", "pickupLatitude", "dropoffLongitude", "dropoffLatitude",
    "paymentType", "fare", "surcharge", "mtaTax", "tip", "tolls", "total", "passengers", "rateCode", "rdf:type",
)
TRIPLES_PER_TRIP = len(PREDICATES)
CLASSES = ("Trip", "Taxi", "Driver", "Place")


def _iri(name: str) -> str:
    return RDF_TYPE if name == "rdf:type" else f"<{TX}{name}>"


def _hex_ids(seed: int, kind: int, count: int) -> list[str]:
    """32-hex-digit ids (like the MD5 medallions and licences of the 2013 files), one per number."""
    numbers = np.arange(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        key = np.uint64((seed << 4) | kind) * np.uint64(0x9E3779B97F4A7C15)
        high = mix(numbers + key)
        low = mix(high ^ np.uint64(0xD1B54A32D192ED03))
    return [f"{a:016X}{b:016X}" for a, b in zip(high.tolist(), low.tolist())]


@lru_cache(maxsize=8)
def entity_iris(seed: int) -> tuple[pa.Array, pa.Array]:
    """IRIs of every taxi (medallion) and driver (hack licence) for a seed."""
    taxis = pa.array([f"<{BASE}taxi/{h}>" for h in _hex_ids(seed, 1, MEDALLIONS)], pa.string())
    drivers = pa.array([f"<{BASE}driver/{h}>" for h in _hex_ids(seed, 2, DRIVERS)], pa.string())
    return taxis, drivers


def _join(*parts) -> pa.Array:
    return pc.binary_join_element_wise(*parts, "")


def _integer(values: np.ndarray) -> pa.Array:
    return pc.cast(pa.array(values, pa.int64()), pa.string())


def _fixed(values: np.ndarray, digits: int) -> pa.Array:
    """Decimal strings with exactly ``digits`` decimals from integers scaled by 10**digits."""
    scale = 10**digits
    negative = values < 0
    magnitude = np.abs(values)
    whole = _integer(magnitude // scale)
    fraction = pc.utf8_lpad(_integer(magnitude % scale), digits, "0")
    sign = pa.array(np.where(negative, "-", ""), pa.string())
    return _join(sign, whole, ".", fraction)


def _typed(lexical: pa.Array, datatype: str) -> pa.Array:
    return _join('"', lexical, f'"^^<{XSD}{datatype}>')


def _datetime(ms: np.ndarray) -> pa.Array:
    stamps = pa.array(ms // 1000, pa.timestamp("s"))
    return _typed(pc.strftime(stamps, format="%Y-%m-%dT%H:%M:%S"), "dateTime")


def cells(lat: np.ndarray, lon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DEBS 500 m cell numbers (east, south), 1-based."""
    east = np.floor((lon - (GRID_ORIGIN_LON - CELL_LON / 2)) / CELL_LON).astype(np.int64) + 1
    south = np.floor(((GRID_ORIGIN_LAT + CELL_LAT / 2) - lat) / CELL_LAT).astype(np.int64) + 1
    return east, south


def _place(lat: np.ndarray, lon: np.ndarray) -> pa.Array:
    east, south = cells(lat, lon)
    return _join(f"<{BASE}cell/", _integer(east), ".", _integer(south), ">")


def trip_columns(seed: int, trip: dict[str, np.ndarray]) -> tuple[pa.Array, pa.Array, pa.Array]:
    """(s, p, o) of every trip's 24 triples, trip after trip, in PREDICATES order."""
    count = len(trip["trip"])
    taxis, drivers = entity_iris(seed)
    trip_iri = _join(f"<{BASE}trip/", _integer(trip["trip"]), ">")
    taxi_iri = pc.take(taxis, pa.array(trip["medallion"]))
    driver_iri = pc.take(drivers, pa.array(trip["hack_license"]))
    money = {name: _typed(_fixed(trip[column], 2), "decimal") for name, column in (
        ("fare", "fare_amount"), ("surcharge", "surcharge"), ("mtaTax", "mta_tax"), ("tip", "tip_amount"),
        ("tolls", "tolls_amount"), ("total", "total_amount"))}
    coordinate = {name: _typed(_fixed(np.round(trip[column] * 1e6).astype(np.int64), 6), "decimal") for name, column in (
        ("pickupLongitude", "pickup_longitude"), ("pickupLatitude", "pickup_latitude"),
        ("dropoffLongitude", "dropoff_longitude"), ("dropoffLatitude", "dropoff_latitude"))}
    payment = pc.take(pa.array([f'"{name}"' for name in PAYMENT_TYPES]), pa.array(trip["payment_type"]))
    positions = [
        (trip_iri, pa.array([f"<{TX}Trip>"] * count, pa.string())),
        (trip_iri, taxi_iri),
        (trip_iri, driver_iri),
        (driver_iri, taxi_iri),
        (trip_iri, _place(trip["pickup_latitude"], trip["pickup_longitude"])),
        (trip_iri, _place(trip["dropoff_latitude"], trip["dropoff_longitude"])),
        (trip_iri, _datetime(trip["pickup_ms"])),
        (trip_iri, _datetime(trip["dropoff_ms"])),
        (trip_iri, _typed(_integer(trip["trip_time_in_secs"]), "integer")),
        (trip_iri, _typed(_fixed(np.round(trip["trip_distance"] * 100).astype(np.int64), 2), "decimal")),
        *((trip_iri, coordinate[name]) for name in ("pickupLongitude", "pickupLatitude", "dropoffLongitude", "dropoffLatitude")),
        (trip_iri, payment),
        *((trip_iri, money[name]) for name in ("fare", "surcharge", "mtaTax", "tip", "tolls", "total")),
        (trip_iri, _typed(_integer(trip["passenger_count"]), "integer")),
        (trip_iri, _typed(_integer(trip["rate_code"]), "integer")),
        (taxi_iri, pa.array([f"<{TX}Taxi>"] * count, pa.string())),
    ]
    assert len(positions) == TRIPLES_PER_TRIP
    # row r of the stream is position r % 24 of trip r // 24
    order = pa.array((np.arange(count * TRIPLES_PER_TRIP) % TRIPLES_PER_TRIP) * count
                     + np.arange(count * TRIPLES_PER_TRIP) // TRIPLES_PER_TRIP)
    subjects = pc.take(pa.concat_arrays([s.cast(pa.string()) for s, _ in positions]), order)
    objects = pc.take(pa.concat_arrays([o.cast(pa.string()) for _, o in positions]), order)
    predicate_names = pa.array([_iri(name) for name in PREDICATES], pa.string())
    predicates = pc.take(predicate_names, pa.array(np.tile(np.arange(TRIPLES_PER_TRIP), count)))
    return subjects, predicates, objects


def schema_ntriples() -> str:
    """A small RDFS vocabulary: the four classes and each property's domain and range."""
    rdfs = "http://www.w3.org/2000/01/rdf-schema#"
    lines = [f"<{TX}{name}> {RDF_TYPE} <{rdfs}Class> ." for name in CLASSES]
    object_ranges = {"taxi": "Taxi", "driver": "Driver", "pickupPlace": "Place", "dropoffPlace": "Place"}
    for name in PREDICATES:
        if name == "rdf:type":
            continue
        domain = "Driver" if name == "drives" else "Trip"
        lines.append(f"<{TX}{name}> <{rdfs}domain> <{TX}{domain}> .")
        if name == "drives":
            lines.append(f"<{TX}{name}> <{rdfs}range> <{TX}Taxi> .")
        elif name in object_ranges:
            lines.append(f"<{TX}{name}> <{rdfs}range> <{TX}{object_ranges[name]}> .")
    return "\n".join(sorted(set(lines))) + "\n"
