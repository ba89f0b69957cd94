"""Taxi trips against the 2013 targets of datasets.md section 4, and their RDF form (24 canonical triples a trip)."""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import pyoxigraph
import pytest

from engines.model.query import load_query
from engines.model.terms import parse_term
from generators.framing import EventShape, GeneratorSpec
from generators.pipeline import twin_table
from generators.taxi import model
from generators.taxi.rdf import CELL_LAT, CELL_LON, GRID_ORIGIN_LAT, GRID_ORIGIN_LON, TRIPLES_PER_TRIP, cells

QUERIES = Path(resources.files("generators.taxi")) / "queries"
WEEK = 7 * 24


@pytest.fixture(scope="module")
def week() -> dict[str, np.ndarray]:
    """Two weeks of trips at 10,000 a day: enough for every hour of the week."""
    return model.trips(seed=11, first=0, count=140_000, trips_per_day=10_000)


def test_trips_are_ordered_by_dropoff_and_pickup_precedes_dropoff(week):
    assert np.all(np.diff(week["dropoff_ms"]) >= 0)
    assert np.all(week["pickup_ms"] < week["dropoff_ms"])
    assert np.all(week["trip_time_in_secs"] * 1000 == week["dropoff_ms"] - week["pickup_ms"])


def test_distance_and_duration_match_the_2013_targets(week):
    distance, minutes = week["trip_distance"], week["trip_time_in_secs"] / 60
    assert 1.65 <= np.median(distance) <= 1.85 and 2.7 <= distance.mean() <= 3.3
    histogram = np.histogram(distance, bins=[8, 9, 11, 12, 14, 17, 20, 22])[0] / np.diff([8, 9, 11, 12, 14, 17, 20, 22])
    assert histogram[1] > 2 * histogram[3]  # LaGuardia bump at 9-11 mi over the 12-14 mi valley
    assert histogram[5] > 2 * histogram[4]  # JFK bump at 17-20 mi over 14-17 mi
    assert 9.5 <= np.median(minutes) <= 11.5 and 11.5 <= minutes.mean() <= 13.5


def test_fares_follow_the_2013_rate_card(week):
    fare, code = week["fare_amount"], week["rate_code"]
    assert 11.0 <= fare.mean() / 100 <= 13.0
    standard = code == 1
    assert np.all((fare[standard] - 250) % 50 == 0) and np.all(fare[standard] >= 300)
    assert np.all(fare[code == 2] == 5200)
    assert np.all((fare[code == 3] - 1750 - 250) % 50 == 0)
    assert np.all(week["mta_tax"] == 50)
    hour = ((week["pickup_ms"] - model.START_MS) // 3_600_000) % 24
    weekday = ((week["pickup_ms"] - model.START_MS) // 86_400_000) % 7 < 5
    peak = standard & weekday & (hour >= 16) & (hour < 20)
    night = standard & ((hour >= 20) | (hour < 6))
    assert np.all(week["surcharge"][peak] == 100)
    assert np.all(week["surcharge"][night & ~peak] == 50)
    assert np.all(week["surcharge"][standard & ~peak & ~night] == 0)
    parts = fare + week["surcharge"] + week["mta_tax"] + week["tip_amount"] + week["tolls_amount"]
    assert np.array_equal(parts, week["total_amount"])


def test_payment_split_and_card_only_tips_at_the_default_buttons(week):
    card, cash = week["payment_type"] == 0, week["payment_type"] == 1
    assert 0.53 <= card.mean() <= 0.57 and 0.42 <= cash.mean() <= 0.46
    assert np.all(week["tip_amount"][~card] == 0)
    base = (week["fare_amount"] + week["surcharge"] + week["mta_tax"])[card]
    tips = week["tip_amount"][card]
    at_buttons = np.zeros(len(tips), dtype=bool)
    for share in (0.20, 0.25, 0.30):
        at_buttons |= np.abs(tips - np.round(base * share)) <= 1
    assert 0.7 <= at_buttons.mean() <= 0.8
    passengers = Counter(week["passenger_count"].tolist())
    assert passengers.most_common(1)[0][0] == 1 and passengers[1] / len(tips) > 1.0  # mostly one (share of all ~0.7)


def test_hourly_demand_has_the_documented_shape(week):
    hour_of_week = ((week["dropoff_ms"] - model.START_MS) // 3_600_000) % WEEK
    observed = np.bincount(hour_of_week, minlength=WEEK) / len(hour_of_week)
    assert np.abs(observed - model.WEEKLY_HOUR_SHARES / 7).max() < 0.0015
    weekday = observed[: 4 * 24].reshape(4, 24).mean(axis=0)
    assert 3 <= int(np.argmin(weekday)) <= 6  # trough 04-06 h
    assert weekday[8] > 2 * weekday[5]  # morning ramp
    assert weekday[16] < weekday[15] and weekday[16] < weekday[18]  # shift-change dip
    assert int(np.argmax(weekday)) in range(18, 23)  # evening peak
    late = lambda day: observed[day * 24 + 1 : day * 24 + 4].sum()  # noqa: E731 (01-04 h)
    assert late(5) > 2 * late(1) and late(6) > 2 * late(2)  # Fri and Sat nights (early Sat/Sun) busier


def test_coordinates_lie_in_the_debs_grid(week):
    for lat, lon in (("pickup_latitude", "pickup_longitude"), ("dropoff_latitude", "dropoff_longitude")):
        east, south = cells(week[lat], week[lon])
        assert east.min() >= 1 and east.max() <= 300 and south.min() >= 1 and south.max() <= 300
    east, south = cells(np.array([GRID_ORIGIN_LAT]), np.array([GRID_ORIGIN_LON]))
    assert (east[0], south[0]) == (1, 1)
    east, south = cells(np.array([GRID_ORIGIN_LAT - CELL_LAT]), np.array([GRID_ORIGIN_LON + CELL_LON]))
    assert (east[0], south[0]) == (2, 2)


def test_a_block_of_trips_is_the_same_wherever_it_is_cut():
    whole = model.trips(seed=3, first=0, count=300)
    part = model.trips(seed=3, first=120, count=50)
    for name, column in part.items():
        assert np.array_equal(column, whole[name][120:170]), name


def test_each_trip_is_one_event_of_24_canonical_triples():
    table = twin_table(GeneratorSpec("taxi", 200, seed=2))
    assert table.num_rows == 200 * TRIPLES_PER_TRIP
    assert Counter(table.column("event").to_pylist()) == {event: TRIPLES_PER_TRIP for event in range(200)}
    ts = table.column("ts").to_pylist()
    assert ts == sorted(ts) and ts[0] >= model.START_MS
    for column in "spo":
        terms = set(table.column(column).to_pylist())
        assert all(parse_term(term) == term for term in terms), column
    objects = table.column("o").to_pylist()
    assert all(re.fullmatch(r"<http://example.org/cgpm-taxi/taxi/[0-9A-F]{32}>", o) for o in objects[1::24])
    assert objects[7].startswith('"2013-01-0') and objects[7].endswith('"^^<http://www.w3.org/2001/XMLSchema#dateTime>')


def test_events_of_k_and_rate_reframe_the_same_triples():
    spec = GeneratorSpec("taxi", 50, seed=2)
    trips = twin_table(spec)
    chunked = twin_table(GeneratorSpec("taxi", 50, seed=2, shape=EventShape.parse("triples:10"), rate=100))
    assert chunked.column("o").to_pylist() == trips.column("o").to_pylist()
    assert chunked.column("event").to_pylist()[:21] == [0] * 10 + [1] * 10 + [2]
    assert chunked.column("ts").to_pylist()[20] == 20 * 1000 // 100
    natural = twin_table(GeneratorSpec("taxi", 50, seed=2, shape=EventShape.parse("triples:10")))
    # event 3 starts at triple 30, in the second trip: its time is that trip's drop-off
    assert natural.column("ts").to_pylist()[30] == trips.column("ts").to_pylist()[24]


def test_taxi_queries_parse_and_match_on_a_small_stream():
    table = twin_table(GeneratorSpec("taxi", 2000, seed=4))
    store = pyoxigraph.Store()
    text = "".join(f"{s} {p} {o} .\n" for s, p, o in zip(*(table.column(c).to_pylist() for c in "spo")))
    store.load(text.encode(), format=pyoxigraph.RdfFormat.N_TRIPLES)
    counts = {}
    for path in sorted(QUERIES.glob("*.rq")):
        query = load_query(path, window="unbounded")
        assert len(query.patterns) == 6, path.name
        counts[path.stem] = len(list(store.query(path.read_text())))
    assert len(counts) == 9
    for shape in ("Q1_star", "Q2_chain", "Q3_complex"):
        assert counts[shape] > counts[f"{shape}_atomic"] > 0, shape
        assert counts[shape] > counts[f"{shape}_complex"] > 0, shape
    assert counts["Q1_star"] == 2000
