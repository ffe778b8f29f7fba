"""Parts of the written form rendered ahead of `snapshot.build.write`, into a spool file.

Why: on a big catalog, writing the readable items and the page texts in the written form (the
pure-Python indented writer) and hashing the items are the longest steps of `snapshot --from`,
and neither needs the other: `build.build_rendered` has another process render them into a
file both share while this one hashes, and `write` copies the text instead of writing those
parts again. The text is the writer's own at the depth where the part stands
(`jsonwire.write_written`), so the file is the same bytes (tests/snapshot/test_ahead.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from catalogaudit.model import jsonwire

#: Where a part stands in the document: its keys from the top.
Path = tuple[str, ...]
#: Bytes copied at a time from the spool.
_BLOCK = 1 << 20


class Rendered:
    """Parts of one document rendered into `spool` (a seekable file, shared with the process
    that renders): each with the list it was rendered from, so a part whose list no longer
    holds the same values (the document changed) is written in place, as is any part not
    rendered (one holding a lone surrogate: the exact writer then writes the document)."""

    def __init__(self, spool: BinaryIO | None = None) -> None:
        self.spool = spool
        #: Each part's list, where its text is in the spool, and the text of its last
        #: elements rendered by this process (`tail`; empty when the spool holds it all).
        self.parts: dict[Path, tuple[list[Any], int, int, bytes]] = {}

    def render(self, parts: dict[Path, list[Any]]) -> dict[Path, tuple[int, int]]:
        """Write each part's text into the spool from its start; where each went (offset,
        size). Flushed: the process that renders may end with `os._exit`."""
        spool = self.spool
        assert spool is not None  # NOTE: `build_rendered` renders only with a spool
        spool.seek(0)
        spool.truncate()
        spans: dict[Path, tuple[int, int]] = {}
        for path, value in parts.items():
            start = spool.tell()
            try:
                jsonwire.write_written(value, lambda t: spool.write(t.encode()), depth=len(path))
            except (UnicodeEncodeError, RecursionError):
                spool.seek(start)
                spool.truncate()
                continue
            spans[path] = (start, spool.tell() - start)
        spool.flush()
        return spans

    def keep(
        self,
        parts: dict[Path, list[Any]],
        spans: dict[Path, tuple[int, int]],
        tails: dict[Path, bytes | None] | None = None,
    ) -> None:
        """Record where `render` put `parts`; `tails`: for a part `render` was given only the
        first elements of, the text of the others (`tail`; None: not rendered)."""
        for path, (start, size) in spans.items():
            rest = (tails or {}).get(path, b"")
            if rest is not None:
                self.parts[path] = (parts[path], start, size, rest)

    @staticmethod
    def tail(value: list[Any], depth: int) -> bytes | None:
        """The text of a list's last elements (`value`, not empty) for `keep`: rendered as a
        list of its own at `depth`, which `view` joins to the spool's list of the first ones
        (a list's text is its elements' texts, each after a comma and the same line break)."""
        pieces: list[bytes] = []
        try:
            jsonwire.write_written(value, lambda t: pieces.append(t.encode()), depth=depth)
        except (UnicodeEncodeError, RecursionError):
            return None
        return b"".join(pieces)

    def view(self, doc: dict[str, Any]) -> dict[str, Any]:
        """`doc` with each part still holding the values rendered replaced by its text."""
        if not self.parts or self.spool is None:
            return doc
        length = self.spool.seek(0, 2)
        out = doc
        for path, (value, start, size, rest) in self.parts.items():
            now: Any = doc
            for key in path:
                now = now.get(key) if isinstance(now, dict) else None
            if type(now) is not list or len(now) != len(value) or start + size > length:
                continue
            if not all(a is b for a, b in zip(now, value, strict=True)):
                continue
            text: Iterable[bytes] = self._read(start, size)
            if rest:
                # NOTE: `[A]` and `[B]` make `[A,B]`: the first without its closing line and
                # bracket, a comma, the second without its opening bracket
                close = b"\n" + b"  " * len(path) + b"]"
                self.spool.seek(start + size - len(close))
                if self.spool.read(len(close)) != close or not rest.startswith(b"[\n"):
                    continue
                text = itertools.chain(self._read(start, size - len(close)), (b",", rest[1:]))
            out = _replaced(out, path, jsonwire.Verbatim(text))
        return out

    def _read(self, start: int, size: int) -> Iterator[bytes]:
        spool = self.spool
        assert spool is not None
        spool.seek(start)
        while size > 0:
            block = spool.read(min(size, _BLOCK))
            if not block:
                raise OSError("the spool of the rendered snapshot was cut short")
            size -= len(block)
            yield block


def _replaced(doc: dict[str, Any], path: Path, value: Any) -> dict[str, Any]:
    """A copy of `doc` along `path` (the rest shared) with `value` at its end."""
    head, rest = path[0], path[1:]
    return {**doc, head: _replaced(doc[head], rest, value) if rest else value}
