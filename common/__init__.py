"""What every layer shares and no layer owns: the one error tree (``common.errors``).

Engines, generators, oracles and the harness all import it, so that no layer has to import
another only to raise or catch a user error.
"""
