"""Edits of JSON texts that keep every byte they do not change: an object's top-level members
as exact value texts, an array's elements as exact texts, and an object re-joined from them.

`serve` rebuilds a captured page this way when an option asks for a change, and `rewrite`
writes a rewritten item into a captured page this way, so the rest stays as served.
"""

from __future__ import annotations

from catalogaudit.model import jsonwire
from catalogaudit.model.jsonwrite import dump_string


def members(text: str) -> list[tuple[str, str]]:
    """Top-level (key, exact value text) pairs of an object text, in served order."""
    spans = jsonwire.parse_members(text)
    return [(key, text[m.start : m.end]) for key, m in spans.items()]


def join(pairs: list[tuple[str, str]]) -> str:
    """An object text from (key, value text) pairs: compact, RFC 8785 key escapes."""
    return "{" + ",".join(dump_string(k) + ":" + v for k, v in pairs) + "}"


def array_items(text: str) -> list[str]:
    """The exact text of each element of an array text (lexemes and whitespace kept)."""
    out: list[str] = []
    ws = jsonwire.WS.match
    pos = ws(text, text.index("[") + 1).end()  # type: ignore[union-attr]
    while not text.startswith("]", pos):
        _, end = jsonwire.raw_decode(text, pos)
        out.append(text[pos:end])
        pos = ws(text, end).end()  # type: ignore[union-attr]
        pos = ws(text, pos + text.startswith(",", pos)).end()  # type: ignore[union-attr]
    return out


def replace_member(text: str, key: str, value: str) -> str:
    """Replace one top-level member's value text (appended when the object had none)."""
    pairs = members(text)
    if any(k == key for k, _ in pairs):
        return join([(k, value if k == key else v) for k, v in pairs])
    return join([*pairs, (key, value)])
