"""Spec rules about item fields: annotations, icons, `_meta`, fields per revision."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

from catalogaudit.model import Catalog, Item, compact, lexeme, pointer_of
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.spec.common import REVISIONS, at_least, hit, is_number, rev_index

ROLES = ("user", "assistant")
SIZES = re.compile(r"(?:\d+x\d+|any)\Z")
#: P:2025-11-25/basic/index "_meta": prefix labels and the name part.
META_PREFIX = re.compile(
    r"(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\Z"
)
META_NAME = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?\Z")
#: The OpenTelemetry keys are an explicit exception to the prefix rule (2026-07-28).
META_EXCEPTIONS = ("traceparent", "tracestate", "baggage", "progressToken")
KNOWN_RESERVED = {
    "io.modelcontextprotocol/" + k
    for k in (
        "protocolVersion",
        "clientInfo",
        "clientCapabilities",
        "logLevel",
        "subscriptionId",
        "serverInfo",
        "related-task",
    )
}


def _annotations(catalog: Catalog) -> Iterator[tuple[Item, dict[str, Any]]]:
    for listing in ("resources", "resourceTemplates"):
        for item in catalog.items(listing):
            ann = item.value.get("annotations") if isinstance(item.value, dict) else None
            if isinstance(ann, dict):
                yield item, ann


def priority(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA301: `annotations.priority` must be a number within [0, 1]."""
    for item, ann in _annotations(catalog):
        value = ann.get("priority", 0)
        number = is_number(value)
        if not number or not 0 <= value <= 1:  # NOTE: exact: a 400-digit integer has no double
            text = lexeme(value) if number else compact(value)
            why = "outside [0, 1]" if number else "not a number"
            yield hit(item, "/annotations/priority", f"priority {text} is {why}", text)


def audience(catalog: Catalog, ctx: Context, repeated: bool = False) -> Iterator[Hit]:
    """CA302: `annotations.audience` must be an array of "user" / "assistant"; CA304
    (`repeated`): a role listed twice says nothing more."""
    for item, ann in _annotations(catalog):
        value = ann.get("audience", [])
        if not isinstance(value, list):
            if not repeated:
                yield hit(item, "/annotations/audience", "audience is not an array")
            continue
        seen: set[str] = set()
        for i, role in enumerate(value):
            at = f"/annotations/audience/{i}"
            if repeated and role in ROLES and role in seen:
                yield hit(item, at, f"audience value {quote(role)} repeated", role)
            elif not repeated and role not in ROLES:
                why = f'audience value {compact(role)} is not "user" or "assistant"'
                yield hit(item, at, why, compact(role))
            if isinstance(role, str):
                seen.add(role)


def last_modified(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA303: `annotations.lastModified` should be an ISO 8601 timestamp."""
    for item, ann in _annotations(catalog):
        value = ann.get("lastModified")
        if value is not None and not (isinstance(value, str) and _iso8601(value)):
            text = value if isinstance(value, str) else compact(value)
            why = f"lastModified {quote(text)} is not an RFC 3339 timestamp"
            yield hit(item, "/annotations/lastModified", why, text)


#: RFC 3339 section 5.6 `date-time` (`T`, `t` or a space between date and time; any number of
#: fraction digits; `Z` or a numeric offset), or a `full-date` alone.
_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2})))?"
)


def _iso8601(text: str) -> bool:
    """An RFC 3339 timestamp (the ISO 8601 profile the spec's example uses), checked the same
    way on every Python: `datetime.fromisoformat` accepts `.1` fractions only from 3.11 on."""
    match = _RFC3339.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second, off_h, off_m = (
        int(g) if g is not None else 0 for g in match.groups()
    )
    try:
        date(year, month, day)
    except ValueError:
        return False
    # NOTE: second 60 is a leap second, which RFC 3339 allows.
    return hour <= 23 and minute <= 59 and second <= 60 and off_h <= 23 and off_m <= 59


def _member(catalog: Catalog, key: str) -> Iterator[tuple[Item, Any]]:
    """Each item's member `key`, where it has one."""
    for item in catalog.all_items():
        if isinstance(item.value, dict) and key in item.value:
            yield item, item.value[key]


def icons(catalog: Catalog, ctx: Context, advice: bool = False) -> Iterator[Hit]:
    """CA601: icons: a safe `src` scheme, `sizes` as WxH or any, a light or dark `theme`; CA604
    (`advice`): icons should be served over https (not http) with an image `mimeType`."""
    for item, value in _member(catalog, "icons"):
        if not advice and value is not None and not isinstance(value, list):
            yield hit(item, "/icons", "icons is not an array")
        for i, icon in enumerate(value if isinstance(value, list) else ()):
            yield from (_advice if advice else _icon)(item, f"/icons/{i}", icon)


def _icon(item: Item, at: str, icon: Any) -> Iterator[Hit]:
    if not isinstance(icon, dict) or not isinstance(icon.get("src"), str):
        yield hit(item, at, "icon without a string src")
        return
    src: str = icon["src"]
    scheme = _scheme(src)
    if scheme not in ("https", "data", "http"):
        why = f"icon src scheme {quote(scheme or src)} is unsafe; consumers must reject it"
        yield hit(item, at + "/src", why, src[:120])
    sizes = icon.get("sizes")
    if isinstance(sizes, list):
        sizes = [s for s in sizes if not (isinstance(s, str) and SIZES.match(s))]
    if sizes:
        why = f'icon sizes {compact(sizes)} are not WxH or "any"'
        yield hit(item, at + "/sizes", why, compact(sizes))
    theme = icon.get("theme")
    if theme is not None and theme not in ("light", "dark"):
        why = f"icon theme {compact(theme)} is not light or dark"
        yield hit(item, at + "/theme", why, compact(theme))


def _scheme(src: str) -> str:
    return src.split(":", 1)[0].lower() if ":" in src else ""


def _advice(item: Item, at: str, icon: Any) -> Iterator[Hit]:
    src, mime = (icon.get("src"), icon.get("mimeType")) if isinstance(icon, dict) else (None, None)
    if isinstance(src, str) and _scheme(src) == "http":
        yield hit(item, at + "/src", "icon src uses http; use https or data", src[:120])
    if mime is not None and not (isinstance(mime, str) and mime.startswith("image/")):
        why = f"icon mimeType {compact(mime)} is not an image type"
        yield hit(item, at + "/mimeType", why, compact(mime))


def _meta_keys(catalog: Catalog) -> Iterator[tuple[Item, str, str, bool]]:
    """Each `_meta` key but the OpenTelemetry exceptions: the item, the key, its prefix, and
    whether it is valid (a prefix of labels and a name; CA602 reports the others)."""
    for item, meta in _member(catalog, "_meta"):
        for key in meta if isinstance(meta, dict) else ():
            if key not in META_EXCEPTIONS:
                prefix, sep, name = key.rpartition("/")
                valid = (
                    bool(key) and META_NAME.match(name) and (not sep or META_PREFIX.match(prefix))
                )
                yield item, key, prefix, bool(valid)


def meta_keys(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA602: `_meta` key syntax (keys under reserved prefixes are CA605)."""
    for item, key, _, valid in _meta_keys(catalog):
        if not valid:
            yield hit(
                item, pointer_of(("_meta", key)), f"_meta key {quote(key)} is not a valid key", key
            )


def meta_reserved(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA605: `_meta` keys under a prefix the spec reserves that the spec does not define."""
    for item, key, prefix, valid in _meta_keys(catalog):
        if valid and prefix and key not in KNOWN_RESERVED and _reserved(prefix, catalog.revision):
            why = f"_meta key {quote(key)} uses a reserved prefix"
            yield hit(item, pointer_of(("_meta", key)), why, key)


def _reserved(prefix: str, revision: str) -> bool:
    labels = prefix.lower().split(".")
    if at_least(revision, "2025-11-25"):
        # Reverse DNS: reserved when the second label is modelcontextprotocol or mcp.
        return len(labels) >= 2 and labels[1] in ("modelcontextprotocol", "mcp")
    # 2025-06-18: any label modelcontextprotocol or mcp followed by another label.
    return any(lab in ("modelcontextprotocol", "mcp") for lab in labels[:-1])


_SINCE_ITEM = {"title": "2025-06-18", "_meta": "2025-06-18", "icons": "2025-11-25"}
#: Fields per kind and the revision that introduced them (notes/mcp-spec-notes.md section 1.2).
SINCE: dict[str, dict[str, str]] = {
    "tools": {
        **_SINCE_ITEM,
        "annotations": "2025-03-26",
        "outputSchema": "2025-06-18",
        "execution": "2025-11-25",
    },
    **dict.fromkeys(("prompts", "resources", "resourceTemplates"), _SINCE_ITEM),
}
#: Fields removed in a revision (the field, the kind, the revision that dropped it).
REMOVED = {("tools", "execution"): "2026-07-28"}


def revision_fields(catalog: Catalog, ctx: Context, removed: bool = False) -> Iterator[Hit]:
    """CA603: fields newer than the negotiated revision; CA606 (`removed`): fields the
    negotiated revision removed (clients of it ignore them)."""
    rev = catalog.revision
    for item in catalog.all_items() if rev in REVISIONS else ():
        if not isinstance(item.value, dict):
            continue
        for key in item.value:
            gone = REMOVED.get((item.listing, key))
            gone = gone if gone and rev_index(rev) >= rev_index(gone) else None  # by `rev`
            since = SINCE[item.listing].get(key)
            if removed and gone:
                yield hit(item, "/" + key, f"{key} was removed in {gone}", key)
            elif not removed and not gone and since and rev_index(rev) < rev_index(since):
                why = f"{key} arrived in {since}, after the negotiated {rev}"
                yield hit(item, "/" + key, why, key)
        if removed or rev_index(rev) >= rev_index("2025-06-18"):
            continue
        late = f"arrived in 2025-06-18, after the negotiated {rev}"
        ann = item.value.get("annotations")
        if isinstance(ann, dict) and "lastModified" in ann:
            yield hit(item, "/annotations/lastModified", f"lastModified {late}", "lastModified")
        for i, arg in enumerate(
            item.value.get("arguments") or [] if item.listing == "prompts" else []
        ):
            if isinstance(arg, dict) and "title" in arg:
                yield hit(item, f"/arguments/{i}/title", f"argument title {late}", "title")
