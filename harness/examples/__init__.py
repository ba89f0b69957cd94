"""Small hand-made streams and queries shipped for the demo and the tests (regenerate with make_examples.py)."""

from pathlib import Path

EXAMPLES = Path(__file__).parent
UNIVERSITY = EXAMPLES / "university"
UPDATES = EXAMPLES / "updates"
