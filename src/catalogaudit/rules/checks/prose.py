"""Text checks: substrings, regexes, lengths and rewrites over prose (via the walker) or fields."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from catalogaudit.model import Catalog
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.checks.common import TEXT_TARGET, around, check, text_targets

_REGEX_ITEM: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["regex"],
    "properties": {
        "regex": {"type": "string", "format": "regex"},
        "ignore_case": {"type": "boolean"},
        "label": {"type": "string", "description": "How messages name the pattern."},
    },
}


def _flags(spec: Mapping[str, Any]) -> int:
    return re.IGNORECASE if spec.get("ignore_case") else 0


@check(
    "forbidden-substrings",
    {
        **TEXT_TARGET,
        "patterns": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "ignore_case": {"type": "boolean"},
    },
    required=["patterns"],
)
def forbidden_substrings(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """A plain substring test (`pattern in text`), the way ContextForge's
    `validate_description` works: matches inside Markdown code spans count. One hit per
    pattern found, so each can be reworded; the excerpt is the pattern itself."""
    fold = bool(params.get("ignore_case"))
    for t in text_targets(catalog, params):
        hay = t.text.lower() if fold else t.text
        for pattern in params["patterns"]:
            at = hay.find(pattern.lower() if fold else pattern)
            if at < 0:
                continue
            context = around(t.text, at, at + len(pattern))
            yield Hit(
                t.item,
                t.pointer,
                f"{t.item.label}: {t.what} contains {quote(pattern)} (in {quote(context)})",
                excerpt=pattern,
            )


@check(
    "regex-must-not-match",
    {
        **TEXT_TARGET,
        "patterns": {"type": "array", "items": _REGEX_ITEM, "minItems": 1},
        "decode": {
            "enum": ["none", "percent-once"],
            "description": "percent-once: URL-decode the text once before matching "
            "(ContextForge 1.0.0+ does this, so `%3Cimg` counts as `<img`).",
        },
    },
    required=["patterns"],
)
def regex_must_not_match(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """Each pattern is searched in the text; one hit per pattern whose first match overlaps
    no match already reported there, the excerpt being that match. Used for HTML/JS patterns,
    banned characters, non-ASCII text. Two patterns of one enforcer that both match one
    `<script` (a tag pattern and a script pattern) are one defect to fix, so one hit."""
    decode = params.get("decode", "none") == "percent-once"
    compiled = [(re.compile(p["regex"], _flags(p)), p) for p in params["patterns"]]
    for t in text_targets(catalog, params):
        text = unquote(t.text) if decode else t.text
        spans: list[tuple[int, int]] = []
        for rx, spec in compiled:
            m = rx.search(text)
            if m is None or any(m.start() < end and start < m.end() for start, end in spans):
                continue
            spans.append(m.span())
            label = spec.get("label") or f"/{spec['regex']}/"
            after = " after one percent-decode" if decode and text != t.text else ""
            yield Hit(
                t.item,
                t.pointer,
                f"{t.item.label}: {t.what} matches {label}{after}: "
                f"{quote(around(text, m.start(), m.end()))}",
                excerpt=m.group(0),
            )


@check(
    "regex-must-match",
    {
        **TEXT_TARGET,
        "pattern": {"type": "string", "format": "regex"},
        "ignore_case": {"type": "boolean"},
        "expect": {"type": "string", "description": "The rule in words, for messages."},
    },
    required=["pattern"],
)
def regex_must_match(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """The whole string must match (`re.fullmatch`, so a trailing newline cannot sneak past
    a `$`). Missing values are left to `required-field`."""
    rx = re.compile(params["pattern"], _flags(params))
    expect = params.get("expect") or f"/{params['pattern']}/"
    for t in text_targets(catalog, params):
        if rx.fullmatch(t.text) is None:
            yield Hit(
                t.item,
                t.pointer,
                f"{t.item.label}: {t.what} {quote(t.text)} does not match {expect}",
                excerpt=t.text,
            )


def _length(text: str, unit: str) -> int:
    if unit == "bytes":
        return len(text.encode("utf-8", "surrogatepass"))
    if unit == "utf16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text)


@check(
    "max-length",
    {
        **TEXT_TARGET,
        "max": {"type": "integer", "minimum": 0},
        "unit": {"enum": ["chars", "bytes", "utf16"]},
        "action": {
            "enum": ["reject", "truncate"],
            "description": "What the enforcer does past the limit (wording of the message).",
        },
        "instructions": {
            "type": "boolean",
            "description": "Also check the server's `instructions` (a catalog-level hit).",
        },
    },
    required=["max"],
)
def max_length(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Length over `max` in characters (code points), UTF-8 bytes or UTF-16 units. The
    excerpt is the start of what lies past the limit, i.e. what a truncating client drops."""
    limit, unit = int(params["max"]), params.get("unit", "chars")
    verb = "truncated" if params.get("action") == "truncate" else "over the limit"
    # NOTE: a stripped count differs from another profile's count of the same text: say why
    how = (
        " once surrounding whitespace is stripped, as the enforcer counts"
        if params.get("strip")
        else ""
    )
    for t in text_targets(catalog, params):
        n = _length(t.text, unit)
        if n > limit:
            yield Hit(
                t.item,
                t.pointer,
                f"{t.item.label}: {t.what} is {n} {unit} long{how}, {verb} at {limit}",
                excerpt=t.text[limit : limit + 40],
                offending="",
            )
    if params.get("instructions") and catalog.instructions is not None:
        n = _length(catalog.instructions, unit)
        if n > limit:
            yield Hit(
                None,
                "/capture/instructions",
                f"server instructions are {n} {unit} long, {verb} at {limit}",
                excerpt=catalog.instructions[limit : limit + 40],
                offending="",
            )


#: Tags as an HTML sanitizer sees them: `<name ...>` or `</name>`, name starting with a letter.
TAG = re.compile(r"</?[A-Za-z][^<>]*>")


def _rewrite(kind: str, text: str) -> tuple[str, str]:
    if kind == "html-escape":
        new = html.escape(text, quote=True)
        changed = "".join(dict.fromkeys(c for c in text if c in "&<>\"'"))
        return new, changed
    tags = TAG.findall(text)
    return TAG.sub("", text), " ".join(dict.fromkeys(tags))


@check(
    "prose-rewritten",
    {**TEXT_TARGET, "rewrite": {"enum": ["html-escape", "strip-tags"]}},
    required=["rewrite"],
)
def prose_rewritten(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """The enforcer accepts the text but serves it changed: `html-escape` is Python's
    `html.escape(quote=True)`; `strip-tags` removes HTML-like tags (`<revision>:<path>`
    becomes `:`). The message shows the text clients will see; the excerpt lists what changes."""
    for t in text_targets(catalog, params):
        new, changed = _rewrite(params["rewrite"], t.text)
        if new != t.text:
            at = next(
                (i for i, (a, b) in enumerate(zip(t.text, new, strict=False)) if a != b), len(new)
            )
            shown = quote(around(new, at, at + 12))
            yield Hit(
                t.item,
                t.pointer,
                f"{t.item.label}: {t.what} is served as {shown} ({quote(changed)} rewritten)",
                excerpt=changed,
            )
