"""Re-evaluation of DESIGN.md section 2 from scratch: the reference (rdflib) and an independent second oracle."""
