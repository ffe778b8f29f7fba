"""The one place that writes what a verb produced: `-o FILE` atomically, or stdout; and the
lines a verb says on stderr.

Why atomic: a hook or a CI step that is interrupted (SIGINT, a full disk) must leave the old
file or the new one, never a partial one.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from catalogaudit.errors import InputError
from catalogaudit.model import inert_text as inert
from catalogaudit.model import visible

#: A colour or style sequence (SGR) as the text formatter's rich console writes it.
_SGR = re.compile("(\x1b\\[[0-9;]*m)")
#: Bytes copied at a time from a spooled document to its output.
_BLOCK = 1 << 20


def _inert_styled(text: str) -> str:
    """`inert`, except that SGR sequences pass: the only escapes coloured text may hold (server
    text reached the formatter through `visible`, so none of them is the server's)."""
    return "".join(p if i % 2 else inert(p) for i, p in enumerate(_SGR.split(text)))


def emit(
    output: str | None, content: str | bytes, *, document: bool = False, styled: bool = False
) -> None:
    """Write `content` to stdout (`-` or None) or atomically to the file `output`.

    Text passes `formatters.base.inert` (no raw control, C1 or bidi character from a server
    reaches a terminal or log), except a `document` (a snapshot as `snapshot` and `rewrite`
    write it: its bytes are the one written form, hashed and compared) and bytes (JCS); a
    `styled` text (coloured output) keeps its SGR colour sequences and nothing else.
    """
    if isinstance(content, str) and not document:
        content = _inert_styled(content) if styled else inert(content)
    if output in (None, "-"):
        if sys.stdout is None:
            raise InputError("cannot write the report: stdout is closed")
        try:
            if isinstance(content, bytes):
                sys.stdout.flush()
                sys.stdout.buffer.write(content)
            else:
                sys.stdout.write(content)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise InputError(f"cannot write to stdout: {exc.strerror or exc}") from None
        return
    if output == "":
        raise InputError("-o needs a file name ('-' for stdout)")
    try:
        write_atomic(output, content)
    except FileNotFoundError:
        raise InputError(f"cannot write {output}: no such directory") from None
    except OSError as exc:
        raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None


def emit_document(
    output: str | None, write: Callable[[BinaryIO], int], check: Callable[[int], None]
) -> None:
    """`emit` of a document (see `emit`) that `write(fh)` writes in pieces, returning its size.

    Why: a snapshot's written form is never held whole. `fh` is a temporary file, so a writer
    may start over (seek back, truncate) and `check(size)` may refuse the document (raise)
    before any byte of it reaches the output.
    """
    if output == "":
        raise InputError("-o needs a file name ('-' for stdout)")
    if output not in (None, "-"):
        try:
            _atomic(output, write, check)
        except FileNotFoundError:
            raise InputError(f"cannot write {output}: no such directory") from None
        except OSError as exc:
            raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None
        return
    if sys.stdout is None:
        raise InputError("cannot write the report: stdout is closed")
    with _spool() as fh:
        check(write(fh))
        fh.seek(0)
        buffer = getattr(sys.stdout, "buffer", None)
        try:
            if buffer is not None:  # NOTE: the written form is UTF-8, whatever the locale
                sys.stdout.flush()
                _copy(fh, buffer)
            else:  # NOTE: a text-only stdout (a test's StringIO)
                sys.stdout.write(fh.read().decode("utf-8"))
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise InputError(f"cannot write to stdout: {exc.strerror or exc}") from None


def _copy(source: BinaryIO, target: BinaryIO) -> None:
    """`shutil.copyfileobj` without importing shutil on every start-up path."""
    while block := source.read(_BLOCK):
        target.write(block)


def _spool() -> BinaryIO:
    """Where a document waits for its check: a temporary file, or memory when none can be
    made (a read-only or full temporary directory)."""
    import tempfile  # NOTE: lazy, as in `write_atomic`

    try:
        return tempfile.TemporaryFile()
    except OSError:
        return io.BytesIO()


def write_atomic(path: str, content: str | bytes) -> None:
    """Write a file so readers see the old content or the new, never a partial file.

    A symlink is written through (its target is replaced, the link stays); an existing file
    keeps its mode; a device, FIFO or socket (`/dev/stdout`, `/dev/null`) is written to in
    place, since renaming over it would replace the device itself.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    _atomic(path, lambda fh: fh.write(data), lambda _: None, spool=False)


def _atomic(
    path: str,
    write: Callable[[BinaryIO], int],
    check: Callable[[int], None],
    *,
    spool: bool = True,
) -> None:
    """`write_atomic` of what `write(fh)` writes; `check(size)` may refuse it before it is
    published (`spool`: a device gets it only once it is whole and checked)."""
    target = Path(os.path.realpath(path))
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError(f"cannot write {path}: it is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not spool:
            with open(target, "wb") as fh:
                check(write(fh))
            return
        with _spool() as spooled:
            check(write(spooled))
            spooled.seek(0)
            with open(target, "wb") as fh:
                _copy(spooled, fh)
        return
    directory = target.parent
    try:
        import tempfile  # NOTE: lazy: `verbs.config` imports us on every start-up path

        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    try:
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w+b") as fh:
            check(write(fh))
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
    with every control or invisible character escaped (`visible`), since they quote servers;
    on a terminal (or with `COLUMNS`) wrapped between words at its width, under itself."""
    from catalogaudit.verbs.terminal import stderr_width

    width = stderr_width()
    text = "".join(_wrapped(visible(line, keep=""), width) for line in lines)
    if text:
        sys.stderr.write(text)
        sys.stderr.flush()


def _wrapped(line: str, width: int | None) -> str:
    if width is None or len(line) <= width:
        return line + "\n"
    from catalogaudit.formatters import wrap_offsets

    rows = wrap_offsets(line, width, width - 2)
    return "".join(("  " if i else "") + line[s:e] + "\n" for i, (s, e) in enumerate(rows))


__all__ = ["emit", "emit_document", "say", "write_atomic"]
