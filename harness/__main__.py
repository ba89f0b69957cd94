"""``python -m harness`` is the ``cgpm`` command."""

from harness.cli import main

raise SystemExit(main())
