"""Streams on disk (Parquet + stream.json + N-Triples) and in text (timestamped N-Triples, RSP-QL TriG), read exactly.

``read_stream`` / ``write_stream`` handle the stream directory (``harness.streams.parquet_io``);
``check_window`` rejects deletions under a window that is not unbounded; the text formats live in
``harness.streams.nt_events`` and ``harness.streams.trig``. The layout is documented in docs/streams.md.
"""

from harness.streams.checks import check_window
from harness.streams.nt_events import export_nt_events, import_nt_events
from harness.streams.parquet_io import read_stream, write_stream
from harness.streams.trig import export_trig, import_trig

__all__ = [
    "check_window",
    "export_nt_events",
    "export_trig",
    "import_nt_events",
    "import_trig",
    "read_stream",
    "write_stream",
]
