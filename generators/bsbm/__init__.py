"""BSBM offers as a stream: the product-type hierarchy as schema, products, producers and vendors as static data, offers in publish-date order."""
