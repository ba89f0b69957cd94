"""SNB's static graph: places (continents, countries, cities), organisations (universities, companies), tags and tag classes."""

from __future__ import annotations

import numpy as np

from generators.snb import places
from generators.snb.rdf import DBO, DBPEDIA, FOAF, RDFS, SN, SNTAG, v

RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
XSD_LONG = "<http://www.w3.org/2001/XMLSchema#long>"


def _place_iri(kind: str, number: int) -> str:
    if kind == "continent":
        return f"<{DBPEDIA}{places.CONTINENTS[number]}>"
    if kind == "country":
        return f"<{DBPEDIA}{places.COUNTRIES[number][0]}>"
    return f"<{DBPEDIA}City_{number}>"


def _describe(subject: str, kind_class: str, identifier: int, name: str, url: str) -> list[str]:
    return [f"{subject} {RDF_TYPE} {kind_class} .", f'{subject} {v("id")} "{identifier}"^^{XSD_LONG} .',
            f'{subject} {FOAF_NAME} "{name}" .', f"{subject} {v('url')} <{url}> ."]


FOAF_NAME = f"<{FOAF}name>"


def static_lines() -> list[str]:
    lines: list[str] = []
    for number, name in enumerate(places.CONTINENTS):
        subject = _place_iri("continent", number)
        lines += _describe(subject, f"<{DBO}Continent>", int(places.continent_id(number)), name, f"{DBPEDIA}{name}")
    for number, (name, continent, _) in enumerate(places.COUNTRIES):
        subject = _place_iri("country", number)
        lines += _describe(subject, f"<{DBO}Country>", int(places.country_id(number)), name, f"{DBPEDIA}{name}")
        lines.append(f"{subject} {v('isPartOf')} {_place_iri('continent', continent)} .")
    for city in range(places.CITIES):
        subject = _place_iri("city", city)
        lines += _describe(subject, f"<{DBO}City>", int(places.city_id(city)), f"City_{city}", f"{DBPEDIA}City_{city}")
        lines.append(f"{subject} {v('isPartOf')} {_place_iri('country', int(places.city_country(city)))} .")
    for university in range(places.UNIVERSITIES):
        subject = f"<{SN}uni{university:06d}>"
        lines += _describe(subject, f"<{DBO}University>", university, f"University_{university}",
                           f"{DBPEDIA}University_{university}")
        lines.append(f"{subject} {v('isLocatedIn')} {_place_iri('city', int(places.university_city(university)))} .")
    for company in range(places.COMPANIES):
        subject = f"<{SN}com{company:06d}>"
        lines += _describe(subject, f"<{DBO}Company>", company, f"Company_{company}", f"{DBPEDIA}Company_{company}")
        lines.append(f"{subject} {v('isLocatedIn')} {_place_iri('country', int(places.company_country(company)))} .")
    for tag_class in range(places.TAG_CLASSES):
        subject = f"<{DBO}TagClass_{tag_class}>"
        lines += [f"{subject} {RDF_TYPE} {v('TagClass')} .", f'{subject} {v("id")} "{tag_class}"^^{XSD_LONG} .',
                  f'{subject} <{RDFS}label> "TagClass_{tag_class}" .']
        if tag_class:
            lines.append(f"{subject} {v('isSubclassOf')} <{DBO}TagClass_{int(places.tag_class_parent(tag_class))}> .")
    for tag in range(places.TAGS):
        subject = f"<{SNTAG}Tag_{tag}>"
        lines += [f"{subject} {RDF_TYPE} {v('Tag')} .", f'{subject} {v("id")} "{tag}"^^{XSD_LONG} .',
                  f'{subject} {FOAF_NAME} "Tag_{tag}" .',
                  f"{subject} {v('hasType')} <{DBO}TagClass_{int(places.tag_class(np.int64(tag)))}> ."]
    return lines
