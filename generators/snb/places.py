"""SNB's static world, made up but shaped like the datagen's dictionaries: continents, countries, cities, universities, companies, tags, tag classes.

Numbers stand in for the datagen's dictionary files: 6 continents, 40 countries with population
weights, 5 cities each, 3 universities per city, 5 companies per country, 40 tag classes in a
tree and 800 tags drawn by a Zipf law (popular tags first). Names are synthetic
(``City_17``, ``Tag_204``), the IRIs follow the Turtle serializer (``dbpedia:`` places,
``sn:uni%06d`` / ``sn:com%06d`` organisations, ``sntag:`` tags, ``dbpedia-owl:`` tag classes).
"""

from __future__ import annotations

import numpy as np

CONTINENTS = ("Europe", "Asia", "Africa", "North_America", "South_America", "Oceania")
COUNTRIES = (
    ("Germany", 0, 8), ("France", 0, 7), ("United_Kingdom", 0, 7), ("Italy", 0, 6), ("Spain", 0, 5), ("Poland", 0, 4),
    ("Netherlands", 0, 3), ("Sweden", 0, 2), ("Austria", 0, 2), ("Ireland", 0, 1), ("Greece", 0, 2), ("Portugal", 0, 2),
    ("China", 1, 30), ("India", 1, 28), ("Japan", 1, 10), ("Vietnam", 1, 6), ("Indonesia", 1, 9), ("Pakistan", 1, 7),
    ("Philippines", 1, 5), ("Thailand", 1, 4), ("Turkey", 1, 5), ("Iran", 1, 5), ("South_Korea", 1, 4),
    ("Nigeria", 2, 7), ("Egypt", 2, 5), ("Ethiopia", 2, 4), ("Kenya", 2, 3), ("South_Africa", 2, 3), ("Morocco", 2, 2),
    ("United_States", 3, 16), ("Mexico", 3, 7), ("Canada", 3, 3), ("Cuba", 3, 1),
    ("Brazil", 4, 12), ("Argentina", 4, 3), ("Colombia", 4, 3), ("Chile", 4, 2), ("Peru", 4, 2),
    ("Australia", 5, 2), ("New_Zealand", 5, 1),
)
CITIES_PER_COUNTRY = 5
UNIVERSITIES_PER_CITY = 3
COMPANIES_PER_COUNTRY = 5
TAG_CLASSES = 40
TAGS = 800
LANGUAGES = ("en", "de", "fr", "it", "es", "pl", "nl", "sv", "de", "en", "el", "pt", "zh", "hi", "ja", "vi", "id", "ur",
             "tl", "th", "tr", "fa", "ko", "en", "ar", "am", "sw", "en", "ar", "en", "es", "en", "es", "pt", "es", "es",
             "es", "es", "en", "en")

COUNTRY_WEIGHTS = np.array([country[2] for country in COUNTRIES], dtype=np.float64)
COUNTRY_CONTINENT = np.array([country[1] for country in COUNTRIES])
CITIES = len(COUNTRIES) * CITIES_PER_COUNTRY
UNIVERSITIES = CITIES * UNIVERSITIES_PER_CITY
COMPANIES = len(COUNTRIES) * COMPANIES_PER_COUNTRY


def city_country(city: np.ndarray) -> np.ndarray:
    return np.asarray(city) // CITIES_PER_COUNTRY


def university_city(university: np.ndarray) -> np.ndarray:
    return np.asarray(university) // UNIVERSITIES_PER_CITY


def company_country(company: np.ndarray) -> np.ndarray:
    return np.asarray(company) // COMPANIES_PER_COUNTRY


def tag_class_parent(tag_class: np.ndarray) -> np.ndarray:
    """Tag classes form a tree: class 0 is the root (``Thing``), class c > 0 is a subclass of (c - 1) // 4."""
    return (np.asarray(tag_class) - 1) // 4


def tag_class(tag: np.ndarray) -> np.ndarray:
    return 1 + np.asarray(tag) % (TAG_CLASSES - 1)


# Place ids as the datagen numbers them: continents, then countries, then cities.
def continent_id(continent) -> np.ndarray:
    return np.asarray(continent)


def country_id(country) -> np.ndarray:
    return len(CONTINENTS) + np.asarray(country)


def city_id(city) -> np.ndarray:
    return len(CONTINENTS) + len(COUNTRIES) + np.asarray(city)
