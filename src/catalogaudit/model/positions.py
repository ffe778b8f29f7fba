"""Line and column of a value in a JSON text by JSON Pointer (the regions of findings), in a
snapshot file in any layout or a raw list input (a `tools/list` result, a JSON-RPC response).

NOTE: found along each pointer, not from a map of every value: a finding in one of 500 files
cost a pure-Python tokenizer over the whole file, or a re-rendering of the snapshot.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable
from json.decoder import scanstring  # type: ignore[attr-defined]
from operator import itemgetter
from typing import Any

from catalogaudit.model.jsonwire import pointer_join

_WS = re.compile(r"[ \t\r\n]*")


#: The C scanner, plain: what `Finder` skips values with (their objects are dropped at once);
#: and one for a value with an integer longer than `int()` reads (a plain parse raises).
_DECODERS: tuple[Any, Any] = (json.JSONDecoder(), json.JSONDecoder(parse_int=str, parse_float=str))
_SKIP: Callable[[str, int], tuple[Any, int]] = _DECODERS[0].scan_once
_SKIP_LONG: Callable[[str, int], tuple[Any, int]] = _DECODERS[1].scan_once


class Finder:
    """Where values are in one JSON text: the containers on a pointer's way are read member by
    member (each value passed over by the C scanner), and what was read is kept for the next.

    `doc` must be the text's parse (`jsonwire`): in a `WireObject` (duplicate keys) the last
    member with a key is the one the document holds, so such an object is read to its end.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        #: By a container's offset: its members' value offsets so far (by key, or by index),
        #: and where to read on (`_past`; -1: read to its end).
        self._read: dict[int, tuple[dict[str | int, int], list[int]]] = {}
        #: (offset, its line, where that line starts) for each offset asked for so far, sorted:
        #: a position is counted from the nearest one before it, not from the start of the text
        #: (findings by the thousand in a big file, maybe all on one line).
        self._seen = [(0, 1, 0)]

    def position(self, doc: Any, pointer: str) -> tuple[int, int] | None:
        """Line and column (1-based, columns in code points) of the value at `pointer`, or
        None when `doc` has no such value."""
        try:
            at = self._offset(doc, pointer)
        except (ValueError, LookupError, StopIteration, RecursionError):
            return None  # NOTE: not the text `doc` was parsed from; no position, not a wrong one
        if at is None:
            return None
        text = self.text
        near = bisect_right(self._seen, at, key=_offset) - 1
        start, line, begins = self._seen[near]
        if start != at:
            newlines = text.count("\n", start, at)
            if newlines:
                line, begins = line + newlines, text.rfind("\n", start, at) + 1
            self._seen.insert(near + 1, (at, line, begins))
        return line, at - begins + 1

    def _offset(self, doc: Any, pointer: str) -> int | None:
        if pointer and not pointer.startswith("/"):
            return None
        node = doc
        at = _WS.match(self.text, 0).end()  # type: ignore[union-attr]
        for token in pointer.split("/")[1:] if pointer else ():
            if isinstance(node, dict):
                key = token.replace("~1", "/").replace("~0", "~")
                if key not in node or pointer_join("", key) != "/" + token:
                    return None
                at = self._child(at, key, type(node) is not dict)
                node = node[key]
            elif isinstance(node, list) and _INDEX.fullmatch(token) and int(token) < len(node):
                at = self._child(at, int(token), False)
                node = node[int(token)]
            else:
                return None
        return at

    def _child(self, start: int, want: str | int, last: bool) -> int:
        """The offset of member `want` (a key, or an index) of the container at `start`."""
        text = self.text
        if text[start] != ("[" if type(want) is int else "{"):
            raise ValueError("not the container the document has")
        found, read = self._read.setdefault(start, ({}, [start + 1, -1]))
        while read[0] >= 0 and (last or want not in found):
            at = _WS.match(text, _past(text, read)).end()  # type: ignore[union-attr]
            if text[at] in "]}":
                read[0] = -1
                break
            if text[at] == ",":
                at = _WS.match(text, at + 1).end()  # type: ignore[union-attr]
            name: str | int = len(found)
            if text[start] == "{":
                name, at = scanstring(text, at + 1)
                at = _WS.match(text, at).end() + 1  # type: ignore[union-attr]  # past the colon
                at = _WS.match(text, at).end()  # type: ignore[union-attr]
            found[name] = read[1] = at  # NOTE: a later duplicate replaces it, as the parse did
        return found[want]


def _past(text: str, read: list[int]) -> int:
    """Where to read a container's next member or element: `read` is [offset, the start of
    the value last found, not passed over yet (-1: none)]. A value is passed over only when
    the one after it is asked for, so descending into it costs nothing."""
    if read[1] >= 0:
        try:
            read[0] = _SKIP(text, read[1])[1]
        except ValueError:  # an integer too long for int(): read its digits as text
            read[0] = _SKIP_LONG(text, read[1])[1]
        read[1] = -1
    return read[0]


_INDEX = re.compile("0|[1-9][0-9]*")
_offset = itemgetter(0)
