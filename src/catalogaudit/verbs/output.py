"""The one place that writes what a verb produced: `-o FILE` atomically, or stdout; and the
lines a verb says on stderr.

Why atomic: a hook or a CI step that is interrupted (SIGINT, a full disk) must leave the old
file or the new one, never a partial one.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from catalogaudit.errors import InputError
from catalogaudit.formatters.base import inert, visible


def emit(output: str | None, content: str | bytes, *, document: bool = False) -> None:
    """Write `content` to stdout (`-` or None) or atomically to the file `output`.

    Text passes `formatters.base.inert` (no raw control, C1 or bidi character from a server
    reaches a terminal or log), except a `document` (a snapshot as `snapshot` and `rewrite`
    write it: its bytes are the one written form, hashed and compared) and bytes (JCS).
    """
    if isinstance(content, str) and not document:
        content = inert(content)
    if output in (None, "-"):
        if isinstance(content, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(content)
        else:
            sys.stdout.write(content)
        sys.stdout.flush()
        return
    try:
        write_atomic(output, content)
    except FileNotFoundError:
        raise InputError(f"cannot write {output}: no such directory") from None


def write_atomic(path: str, content: str | bytes) -> None:
    """Write a file so readers see the old content or the new, never a partial file."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def say(lines: Iterable[str]) -> None:
    """Print lines on stderr (notes, warnings; stdout belongs to the report), each one line
    with every control or invisible character escaped (`visible`), since they quote servers."""
    text = "".join(f"{visible(line, keep='')}\n" for line in lines)
    if text:
        sys.stderr.write(text)
        sys.stderr.flush()


__all__ = ["emit", "say", "write_atomic"]
