"""The one escaping function for untrusted server text: what a terminal, CI log, XML reader
or PR comment may obey instead of showing becomes an escape (`visible`), and the last guard of
every write (`inert`). It sits in the model so the formatters and `verbs.output` share it."""

from __future__ import annotations

import re
import unicodedata

# NOTE: server text reaches terminals, CI logs, XML and PR comments. Everything that a terminal
# or viewer may obey instead of showing (C0/C1 controls, DEL, bidi overrides and isolates,
# zero-width and other format characters, Unicode tag characters used for "ASCII smuggling",
# line/paragraph separators, lone surrogates, noncharacters) is shown as a Python-style escape.
#: The characters that may be hidden (asked one by one, `_hidden`): all but printable ASCII,
#: newline and tab; `_ODD_LINE`: those too.
_ODD = re.compile(r"[^\x20-\x7e\n\t]")
_ODD_LINE = re.compile(r"[^\x20-\x7e]")
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _hidden(ch: str, keep: str) -> bool:
    if ch in keep:
        return False
    cp = ord(ch)
    if cp < 0x20 or 0x7F <= cp <= 0x9F:
        return True
    if cp < 0xA0:
        return False
    # Noncharacters (U+FDD0..U+FDEF and every U+xxFFFE/U+xxFFFF) are invalid in XML 1.0 too.
    if 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE:
        return True
    return unicodedata.category(ch) in _HIDDEN_CATEGORIES


def _escape_char(ch: str) -> str:
    cp = ord(ch)
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def visible(text: str, *, keep: str = "\n\t") -> str:
    """`text` with every control or invisible formatting character written as an escape.

    `keep` names the characters passed through (newline and tab by default; pass "" for one-line
    contexts such as table cells and workflow-command titles).
    """
    odd = _ODD if keep == "\n\t" else _ODD_LINE
    return odd.sub(lambda m: _escape_char(m[0]) if _hidden(m[0], keep) else m[0], text)


def _json_escape(ch: str) -> str:
    cp = ord(ch)
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    cp -= 0x10000
    return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"


def inert(text: str) -> str:
    """The last guard of every write (`verbs.output`): what `visible` would hide and is still
    raw is written as a `\\uXXXX` escape (a surrogate pair above U+FFFF).

    Formatters already pass server text through `visible`; what reaches here raw is inside JSON
    strings (C1, bidi and format characters that `json.dumps(ensure_ascii=False)` keeps), where
    `\\uXXXX` is the same value, and in text it is as inert as `visible`'s escapes.
    """
    if text.isascii() and not text.encode("ascii").translate(None, _PLAIN):
        return text  # NOTE: asked in C; `_ODD` would walk a whole report in the regex engine
    return _ODD.sub(lambda m: _json_escape(m[0]) if _hidden(m[0], "\n\t") else m[0], text)


#: What `_ODD` passes: printable ASCII, newline and tab (as bytes, deleted by `translate`).
_PLAIN = bytes(range(0x20, 0x7F)) + b"\n\t"
