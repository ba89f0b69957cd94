"""The static results site: published runs, papers and histories as HTML pages that open from disk (``cgpm site``)."""
