"""Each offer becomes BSBM's 10 offer triples (in its N-Triples writer's order) plus its product's type triples, built column-wise with Arrow string kernels.

IRIs and literals are those of bsbmtools' ``NTriples`` serializer: offers
``bsbm-inst:dataFromVendor{v}/Offer{o}``, products ``bsbm-inst:dataFromProducer{p}/Product{n}``,
vendors ``…/dataFromVendor{v}/Vendor{v}``, types ``bsbm-inst:ProductType{t}``; the price as
``"1234.56"^^bsbm:USD``, ``validFrom``/``validTo`` as ``xsd:dateTime`` at midnight, delivery days as
``xsd:integer``, ``dc:date`` as ``xsd:date``. After the offer come its product's type triples
(the Sparkwave paper streams one per offer, footnote 9): the leaf type only, or with
``types=closed`` the leaf and every ancestor up to ``ProductType1``, as BSBM's ``-fc`` writes them.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

BSBM = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/"
INST = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
RDFS_SUBCLASS = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>"
DC = "http://purl.org/dc/elements/1.1/"
FOAF = "http://xmlns.com/foaf/0.1/"
XSD = "http://www.w3.org/2001/XMLSchema#"
COUNTRY = "http://downlode.org/rdf/iso-3166/countries#"
STANDARDIZATION_INSTITUTION = f"<{INST}StandardizationInstitution1>"

OFFER_PREDICATES = (
    RDF_TYPE, f"<{BSBM}product>", f"<{BSBM}vendor>", f"<{BSBM}price>", f"<{BSBM}validFrom>", f"<{BSBM}validTo>",
    f"<{BSBM}deliveryDays>", f"<{BSBM}offerWebpage>", f"<{DC}publisher>", f"<{DC}date>",
)
OFFER_TRIPLES = len(OFFER_PREDICATES)


def type_iri(number) -> str:
    return f"<{INST}ProductType{number}>"


def producer_iri(producer) -> str:
    return f"<{INST}dataFromProducer{producer}/Producer{producer}>"


def vendor_iri(vendor) -> str:
    return f"<{INST}dataFromVendor{vendor}/Vendor{vendor}>"


def feature_iri(feature) -> str:
    return f"<{INST}ProductFeature{feature}>"


def _join(*parts) -> pa.Array:
    return pc.binary_join_element_wise(*parts, "")


def _integer(values: np.ndarray) -> pa.Array:
    return pc.cast(pa.array(values, pa.int64()), pa.string())


def _days(days: np.ndarray) -> pa.Array:
    """``YYYY-MM-DD`` of days since the epoch, looked up in the few hundred days the offers span."""
    if not len(days):
        return pa.array([], pa.string())
    first = int(days.min())
    names = np.arange(first, int(days.max()) + 1).astype("datetime64[D]").astype(str)
    return pc.take(pa.array(names, pa.string()), pa.array(days - first))


def date_literals(days: np.ndarray) -> pa.Array:
    return _join('"', _days(days), f'"^^<{XSD}date>')


def offer_columns(offer: dict[str, np.ndarray], type_chains: list[np.ndarray]) -> tuple[pa.Array, pa.Array, pa.Array]:
    """(s, p, o) of each offer's triples, offer after offer: the 10 offer triples, then one type triple per chain."""
    count = len(offer["offer"])
    vendor_ns = _join(f"<{INST}dataFromVendor", _integer(offer["vendor"]), "/")
    offer_iri = _join(vendor_ns, "Offer", _integer(offer["offer"]), ">")
    vendor = _join(vendor_ns, "Vendor", _integer(offer["vendor"]), ">")
    product = _join(f"<{INST}dataFromProducer", _integer(offer["producer"]), "/Product", _integer(offer["product"]), ">")
    cents = offer["price_cents"]
    price = _join('"', _integer(cents // 100), ".", pc.utf8_lpad(_integer(cents % 100), 2, "0"), f'"^^<{BSBM}USD>')
    objects = [
        pa.array([f"<{BSBM}Offer>"] * count, pa.string()),
        product,
        vendor,
        price,
        _join('"', _days(offer["valid_from_day"]), f'T00:00:00"^^<{XSD}dateTime>'),
        _join('"', _days(offer["valid_to_day"]), f'T00:00:00"^^<{XSD}dateTime>'),
        _join('"', _integer(offer["delivery_days"]), f'"^^<{XSD}integer>'),
        _join(vendor_ns, "Offer", _integer(offer["offer"]), "/>"),
        vendor,
        date_literals(offer["published_day"]),
    ]
    subjects = [offer_iri] * OFFER_TRIPLES + [product] * len(type_chains)
    objects += [_join(f"<{INST}ProductType", _integer(types), ">") for types in type_chains]
    predicates = list(OFFER_PREDICATES) + [RDF_TYPE] * len(type_chains)
    width = len(subjects)
    # row r of the block is position r % width of offer r // width
    rows = np.arange(count * width)
    order = pa.array((rows % width) * count + rows // width)
    s = pc.take(pa.concat_arrays([column.cast(pa.string()) for column in subjects]), order)
    o = pc.take(pa.concat_arrays([column.cast(pa.string()) for column in objects]), order)
    p = pc.take(pa.array(predicates, pa.string()), pa.array(np.tile(np.arange(width), count)))
    return s, p, o
