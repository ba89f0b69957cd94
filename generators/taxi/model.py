"""NYC-taxi-like trips as numpy columns, each value a pure function of (seed, trip id), trips ordered by drop-off time.

Every random number is a counter-based hash of (seed, trip id, field), so any block of trip ids
is made alone and identically wherever it runs. Drop-off times come from the inverse of the
weekly demand curve at position ``id + u`` (u uniform in [0, 1)), which keeps them non-decreasing
in the trip id: the stream is ordered by drop-off, as DEBS 2015's is, without a global sort.

Targets (``shared/reference/datasets.md`` section 4, 2013 FOIL data and DEBS 2015): distance
median ~1.75 mi and mean ~3 mi with airport bumps (LGA ~10 mi, JFK ~18 mi); duration median
~10-11 min, mean ~12-13 min; fares by the 2013 rate card (code 1 meter $2.50 + $0.50 per 1/5 mi
or slow minute, night $0.50 and weekday-peak $1.00 surcharges, $0.50 MTA tax; code 2 JFK flat
$52; code 3 Newark meter + $17.50); ~55% card / ~44% cash, tips on card trips only, mostly the
20/25/30% buttons; mostly one passenger; the hourly demand curve below, Fri/Sat nights busier.
Coordinates are drawn around Manhattan hot spots and stay inside the DEBS 300x300 grid.
"""

from __future__ import annotations

import numpy as np

from generators.mixing import GOLDEN, mix

# The stream starts Monday 2013-01-07 00:00 local NYC wall-clock time (encoded as if UTC).
START_MS = 1_357_516_800_000
TRIPS_PER_DAY = 470_000  # ~0.47 M trips a day in 2013
MEDALLIONS = 13_437
DRIVERS = 32_224

# Relative trips per hour, Monday..Sunday (hour 0 = midnight to 1 am).
_WEEKDAY = [2.2, 1.3, 0.9, 0.6, 0.5, 0.6, 1.8, 3.6, 4.5, 4.6, 4.4, 4.5, 4.7, 4.7, 4.9, 4.7, 4.0, 4.4, 6.0, 6.3, 5.9, 5.8, 5.6, 4.3]
_FRIDAY = _WEEKDAY[:20] + [6.2, 6.3, 6.6, 6.0]
_SATURDAY = [5.0, 4.2, 3.4, 2.5, 1.4, 0.7, 0.6, 0.9, 1.5, 2.4, 3.4, 4.1, 4.6, 4.7, 4.7, 4.6, 4.4, 4.6, 5.2, 5.4, 5.2, 5.2, 5.6, 5.4]
_SUNDAY = _SATURDAY[:18] + [4.6, 4.3, 3.8, 3.3, 2.8, 2.0]
_DAY_WEIGHTS = [0.92, 0.98, 1.00, 1.05, 1.08, 1.08, 0.89]


def _weekly_hour_shares() -> np.ndarray:
    days = [_WEEKDAY, _WEEKDAY, _WEEKDAY, _WEEKDAY, _FRIDAY, _SATURDAY, _SUNDAY]
    shares = [np.array(day) / sum(day) * weight for day, weight in zip(days, _DAY_WEIGHTS)]
    weekly = np.concatenate(shares)
    return weekly * (7.0 / weekly.sum())  # a mean day holds exactly trips_per_day trips


WEEKLY_HOUR_SHARES = _weekly_hour_shares()  # 168 values, sum 7
_WEEKLY_CUMULATIVE = np.concatenate(([0.0], np.cumsum(WEEKLY_HOUR_SHARES)))

# Manhattan hot spots: (latitude, longitude, weight), sd ~0.012 deg.
_HOTSPOTS = np.array([
    (40.7549, -73.9840, 0.30), (40.7150, -74.0060, 0.15), (40.7736, -73.9566, 0.17),
    (40.7870, -73.9754, 0.13), (40.7380, -73.9960, 0.20), (40.7230, -73.9880, 0.05),
])
LGA = (40.7769, -73.8740)
JFK = (40.6413, -73.7781)
EWR = (40.6895, -74.1745)
_MILES_PER_DEG_LAT = 69.0
_MILES_PER_DEG_LON = 52.4  # at 40.75 N
MANHATTAN_AXIS = np.deg2rad(29.0)

_FIELDS = {name: number for number, name in enumerate((
    "time", "kind", "distance", "speed", "spot", "spot_lat", "spot_lon", "angle", "direction", "to_airport",
    "payment", "tip_kind", "tip_custom", "tolls", "passengers", "driver", "own_taxi", "taxi", "dist_a", "dist_b",
))}


def uniform(seed: int, ids: np.ndarray, field: str) -> np.ndarray:
    """U[0,1) for each id, a function of (seed, id, field) only."""
    key = mix(np.array([(seed << 8) | _FIELDS[field]], dtype=np.uint64))[0]
    with np.errstate(over="ignore"):
        bits = mix(ids.astype(np.uint64) * GOLDEN + key)
    return (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def normal(seed: int, ids: np.ndarray, field_a: str, field_b: str) -> np.ndarray:
    """Standard normal by Box-Muller from two independent uniforms."""
    u1 = 1.0 - uniform(seed, ids, field_a)
    u2 = uniform(seed, ids, field_b)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def dropoff_ms(seed: int, ids: np.ndarray, trips_per_day: float = TRIPS_PER_DAY) -> np.ndarray:
    """Drop-off time of each trip: the demand curve's inverse at ``id + u``, rounded down to the second."""
    position = (ids.astype(np.float64) + uniform(seed, ids, "time")) / trips_per_day  # in mean days
    weeks = np.floor(position / 7.0)
    within = position - weeks * 7.0
    hour = np.clip(np.searchsorted(_WEEKLY_CUMULATIVE, within, side="right") - 1, 0, 167)
    fraction = (within - _WEEKLY_CUMULATIVE[hour]) / WEEKLY_HOUR_SHARES[hour]
    seconds = (weeks * 168 + hour + fraction) * 3600.0
    return START_MS + np.floor(seconds).astype(np.int64) * 1000


def trips(seed: int, first: int, count: int, trips_per_day: float = TRIPS_PER_DAY) -> dict[str, np.ndarray]:
    """The 17 DEBS fields (plus rate code and passengers) of trips ``first .. first+count-1``, money in cents."""
    ids = np.arange(first, first + count, dtype=np.int64)
    u = lambda field: uniform(seed, ids, field)  # noqa: E731
    dropoff = dropoff_ms(seed, ids, trips_per_day)
    hour = ((dropoff - START_MS) // 3_600_000) % 24

    # kind: 0 city, 1 LaGuardia, 2 JFK, 3 Newark
    kind_draw = u("kind")
    kind = np.select([kind_draw < 0.930, kind_draw < 0.970, kind_draw < 0.997], [0, 1, 2], 3)
    gauss = normal(seed, ids, "dist_a", "dist_b")
    distance = np.select(
        [kind == 0, kind == 1, kind == 2],
        [np.minimum(1.65 * np.exp(0.75 * gauss), 25.0), 10.0 + 0.8 * gauss, 18.0 + 1.2 * gauss], 17.0 + 1.5 * gauss,
    )
    distance = np.clip(np.round(distance, 2), 0.1, 30.0)

    # Speeds: slowest mid-day and at the evening peak, fastest at night; airport runs use highways.
    city_mph = np.where((hour >= 1) & (hour < 6), 18.0, np.where((hour >= 8) & (hour < 19), 10.8, 13.0))
    # longer city trips reach avenues and highways: speed grows slowly with distance
    mph = np.where(kind == 0, city_mph * (distance / 1.75) ** 0.25, city_mph + 12.0)
    mph = mph * np.exp(0.22 * (u("speed") - 0.5) * 2.0)
    duration = np.round(distance / mph * 3600.0 + 80.0).astype(np.int64)
    pickup = dropoff - duration * 1000
    pickup_hour = ((pickup - START_MS) // 3_600_000) % 24
    pickup_day = ((pickup - START_MS) // 86_400_000) % 7

    # Meter: 1/5 mile while at least 12 mph, 60 s while slower (the slow time is what the distance does not explain).
    slow_seconds = np.maximum(0.0, duration - distance / 15.0 * 3600.0)
    units = np.ceil(distance * 5.0 + slow_seconds / 60.0 - 1e-9)
    meter = 250 + 50 * units.astype(np.int64)
    rate_code = np.where(kind == 2, np.where(u("to_airport") < 0.75, 2, 1), np.where(kind == 3, 3, 1))
    fare = np.where(rate_code == 2, 5200, np.where(rate_code == 3, meter + 1750, meter))
    night = (pickup_hour >= 20) | (pickup_hour < 6)
    peak = (pickup_day < 5) & (pickup_hour >= 16) & (pickup_hour < 20)
    surcharge = np.where(rate_code == 2, 0, np.where(peak, 100, np.where(night, 50, 0)))
    mta_tax = np.full(count, 50, dtype=np.int64)
    tolls = np.where((kind > 0) & (u("tolls") < 0.35), 533, np.where((kind == 0) & (u("tolls") < 0.015), 533, 0))

    payment_draw = u("payment")
    payment = np.select([payment_draw < 0.55, payment_draw < 0.99, payment_draw < 0.995, payment_draw < 0.998],
                        [0, 1, 2, 3], 4)  # CRD, CSH, NOC, DIS, UNK
    tip_draw = u("tip_kind")
    tip_rate = np.select([tip_draw < 0.45, tip_draw < 0.65, tip_draw < 0.75, tip_draw < 0.90],
                         [0.20, 0.25, 0.30, 0.05 + 0.30 * u("tip_custom")], 0.0)
    tip = np.where(payment == 0, np.round((fare + surcharge + mta_tax) * tip_rate).astype(np.int64), 0)
    total = fare + surcharge + mta_tax + tip + tolls
    passenger_draw = u("passengers")
    passengers = np.searchsorted(np.cumsum([0.70, 0.14, 0.04, 0.02, 0.06, 0.04]), passenger_draw, side="right") + 1
    passengers = np.minimum(passengers, 6)

    # Places: pick-up near a hot spot, drop-off at the distance along a mostly north-south street grid.
    spot = np.searchsorted(np.cumsum(_HOTSPOTS[:, 2]) / _HOTSPOTS[:, 2].sum(), u("spot"), side="right")
    spot = np.minimum(spot, len(_HOTSPOTS) - 1)
    pickup_lat = _HOTSPOTS[spot, 0] + 0.012 * normal(seed, ids, "spot_lat", "angle")
    pickup_lon = _HOTSPOTS[spot, 1] + 0.012 * normal(seed, ids, "spot_lon", "direction")
    straight = distance / 1.3  # streets are ~30% longer than the crow flies
    angle = MANHATTAN_AXIS + np.where(u("direction") < 0.7, 0.0, np.pi / 2) + np.where(u("angle") < 0.5, 0.0, np.pi)
    dropoff_lat = pickup_lat + straight * np.cos(angle) / _MILES_PER_DEG_LAT
    dropoff_lon = pickup_lon + straight * np.sin(angle) / _MILES_PER_DEG_LON
    airport = np.select([kind == 1, kind == 2], [LGA[0], JFK[0]], EWR[0]), np.select([kind == 1, kind == 2], [LGA[1], JFK[1]], EWR[1])
    from_airport = u("to_airport") >= 0.5
    to_airport = (kind > 0) & ~from_airport
    leaving_airport = (kind > 0) & from_airport
    dropoff_lat = np.where(to_airport, airport[0], dropoff_lat)
    dropoff_lon = np.where(to_airport, airport[1], dropoff_lon)
    pickup_lat_final = np.where(leaving_airport, airport[0], pickup_lat)
    pickup_lon_final = np.where(leaving_airport, airport[1], pickup_lon)
    dropoff_lat = np.where(leaving_airport, pickup_lat, dropoff_lat)
    dropoff_lon = np.where(leaving_airport, pickup_lon, dropoff_lon)

    driver = np.floor(u("driver") * DRIVERS).astype(np.int64)
    own_taxi = driver % MEDALLIONS
    taxi = np.where(u("own_taxi") < 0.9, own_taxi, np.floor(u("taxi") * MEDALLIONS).astype(np.int64))
    return {
        "trip": ids, "medallion": taxi, "hack_license": driver, "pickup_ms": pickup, "dropoff_ms": dropoff,
        "trip_time_in_secs": duration, "trip_distance": distance,
        "pickup_longitude": pickup_lon_final, "pickup_latitude": pickup_lat_final,
        "dropoff_longitude": dropoff_lon, "dropoff_latitude": dropoff_lat,
        "payment_type": payment, "fare_amount": fare, "surcharge": surcharge, "mta_tax": mta_tax,
        "tip_amount": tip, "tolls_amount": tolls, "total_amount": total,
        "rate_code": rate_code, "passenger_count": passengers, "kind": kind,
    }


PAYMENT_TYPES = ("CRD", "CSH", "NOC", "DIS", "UNK")
