"""LUBM as UBA 1.7 makes it: the dataset adapter is ``generators.lubm.dataset``, the draw-exact port ``uba``."""
