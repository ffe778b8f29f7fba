"""The machine-readable audit report: one JSON document under the envelope of kind `audit`
(`model.envelope`), described by `formatters/schemas/audit.schema.json`."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from catalogaudit._version import __version__
from catalogaudit.model import Report, RuleMeta
from catalogaudit.model import with_envelope as envelope


def rule_dict(meta: RuleMeta) -> dict[str, Any]:
    """A rule's metadata as reports publish it (every field, empty strings included)."""
    return {
        "id": meta.id,
        "name": meta.name,
        "severity": meta.severity.value,
        "summary": meta.summary,
        "description": meta.description,
        "hint": meta.hint,
        "source": meta.source,
        "origin": meta.origin,
        "versions": meta.versions,
        "confidence": meta.confidence,
    }


def report_document(report: Report) -> dict[str, Any]:
    """The report as plain data (also the basis of other machine formats' property bags)."""
    return envelope(
        "audit",
        {
            "tool": {"name": "catalogaudit", "version": __version__},
            "inputs": list(report.inputs),
            "revision": report.revision or None,
            "revisionAssumed": report.revision_assumed,
            "profiles": list(report.profiles),
            "rewritten": report.rewritten,
            "notes": list(report.notes),
            "counts": report.counts(),
            "suppressed": report.suppressed,
            "findings": [f.report_dict() for f in report.sorted_findings()],
            "ruleErrors": [
                {"ruleId": e.rule_id, "error": e.error}
                for e in sorted(report.rule_errors, key=lambda e: (e.rule_id, e.error))
            ],
            "rules": [rule_dict(report.rules[k]) for k in sorted(report.rules)],
        },
    )


def _fallback(value: object) -> Any:
    # `Finding.extra` is open-ended; never let an odd value crash the report. Sets are sorted
    # so the output stays deterministic.
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return str(value)


def dumps(document: Any) -> str:
    """Deterministic JSON: sorted keys, two-space indent, ASCII only, final newline.

    ASCII-only output keeps server text's control and bidi characters as `\\uXXXX` escapes,
    so even `cat report.json` on a terminal cannot be hijacked, and lone surrogates survive.
    Written by orjson where its text is `exact_dumps`'s (`_orjson`), else by `exact_dumps`.
    """
    data = _orjson(document)
    if data is None:
        return exact_dumps(document)
    del document  # NOTE: let a caller's document go before its text is decoded (peak memory)
    text = data.decode("utf-8")
    del data
    if not text.isascii() or "\x7f" in text:
        text = _UNESCAPED.sub(_escape, text)
    return text


def exact_dumps(document: Any) -> str:
    """`dumps` by the standard library: the reference (with an indent, its pure-Python
    encoder)."""
    return (
        json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True, default=_fallback) + "\n"
    )


#: What `ensure_ascii` escapes and orjson writes as it is: DEL and every non-ASCII character
#: (only ever inside strings; orjson escapes the other control characters as `json` does).
_UNESCAPED = re.compile("[\x7f-\U0010ffff]")


_OPTIONS = (
    orjson.OPT_INDENT_2
    | orjson.OPT_SORT_KEYS
    | orjson.OPT_APPEND_NEWLINE
    | orjson.OPT_PASSTHROUGH_SUBCLASS  # NOTE: no default: a subclass (a key too) is refused
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _orjson(document: Any) -> bytes | None:
    """`exact_dumps(document)` written by orjson (as UTF-8, non-ASCII unescaped), or None where
    its text could differ: a value other than a dict with str keys, list, tuple, str, int,
    bool or None (a float is spelt otherwise, NaN as null; an enum, set or subclass goes
    another way than `_fallback`), an integer beyond 64 bits or a lone surrogate (orjson
    refuses both)."""
    if not _builtin(document):
        return None
    try:
        return orjson.dumps(document, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return None


#: The types `_builtin` lets orjson write: containers (walked) and scalars.
_CONTAINERS = frozenset({dict, list, tuple})
_SCALARS = frozenset({str, int, bool, type(None)})


def _builtin(value: Any) -> bool:
    """Whether `value` holds only dicts, lists, tuples, strs, ints, bools and None, each of
    exactly that type (no subclass), without recursion. Keys are orjson's to refuse: it
    writes str keys only, and no subclass of str (`OPT_PASSTHROUGH_SUBCLASS`)."""
    if type(value) not in _CONTAINERS:
        return type(value) in _SCALARS
    stack = [value]
    while stack:
        node = stack.pop()
        for item in node.values() if type(node) is dict else node:
            kind = type(item)
            if kind in _SCALARS:
                continue
            if kind not in _CONTAINERS:
                return False
            stack.append(item)
    return True


def format_json(report: Report) -> str:
    """The full JSON document, also when the report is clean."""
    return dumps(report_document(report))
