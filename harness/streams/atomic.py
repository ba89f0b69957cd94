"""A file written here is either complete or absent: it is written beside its target, then renamed over it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from common.errors import StreamError


def current_umask() -> int:
    """The process umask (os.umask can only be read by setting it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def replace_atomically(path: Path, fill: Callable, *, binary: bool = False) -> Path:
    """Call ``fill(handle)`` on a file beside ``path``, then rename it over ``path``; raises OSError as it comes.

    On any failure the partial file is removed and ``path`` keeps what it held before.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, partial = tempfile.mkstemp(prefix=f".{path.name}.partial-", dir=path.parent)
    try:
        os.chmod(partial, 0o666 & ~current_umask())  # mkstemp makes it private; the result is an ordinary file
        mode = {"mode": "wb"} if binary else {"mode": "w", "encoding": "utf-8", "newline": "\n"}
        with os.fdopen(descriptor, **mode) as handle:
            fill(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return path


def write_text_atomically(path: str | Path, lines: Iterable[str]) -> Path:
    """Write ``lines`` (each with its line break) to ``path``; a failure leaves ``path`` as it was."""
    path = Path(path)
    if path.is_dir():
        raise StreamError(f"cannot write {path}: it is a directory")
    try:
        return replace_atomically(path, lambda handle: handle.writelines(lines))
    except OSError as error:
        raise StreamError(f"cannot write {path}: {error.strerror or error}") from None
