"""Re-evaluation of DESIGN.md section 2 from scratch: the reference (rdflib) and an independent second oracle.

``oracles.spark`` states the same semantics as intervals and computes every instant in one Spark job.
"""

from common.errors import CgpmError


class OracleLimitation(CgpmError):
    """An oracle cannot evaluate this input exactly; it says why instead of answering wrongly."""
