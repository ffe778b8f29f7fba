"""Shared machinery of the profile check vocabulary: the registry, targets, quoting, schemas.

A check is a pure function `(catalog, params, ctx) -> Iterable[Hit]`. Profile data names it by
type and supplies its params; the params are validated against the JSON Schema the check
registers here, so a typo in a profile file fails at load, not silently at audit time.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from catalogaudit.model import LISTINGS, Catalog, Item, pointer_of, pointer_tokens
from catalogaudit.rules.base import Context, Hit
from catalogaudit.walker import visits

CheckFn = Callable[[Catalog, Mapping[str, Any], Context], Iterable[Hit]]


@dataclass(frozen=True)
class CheckSpec:
    """One vocabulary entry: the function, the JSON Schema of its params, its documentation."""

    name: str
    fn: CheckFn
    params: dict[str, Any]
    doc: str


#: Every check, by type name (filled by the `checks_*` modules as they are imported).
REGISTRY: dict[str, CheckSpec] = {}

# --- param schema fragments shared by several checks -------------------------------------------

LISTINGS_PARAM: dict[str, Any] = {
    "type": "array",
    "items": {"enum": list(LISTINGS)},
    "minItems": 1,
    "uniqueItems": True,
    "description": "Listings to check (default: all four, or the check's own default).",
}
PROSE_PARAM: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "description": "Which walker visits: `where` (item, argument, annotations, schema) and "
    "`keys` (description, title). Default: every visit.",
    "properties": {
        "where": {
            "type": "array",
            "items": {"enum": ["item", "argument", "annotations", "schema"]},
            "minItems": 1,
        },
        "keys": {"type": "array", "items": {"enum": ["description", "title"]}, "minItems": 1},
    },
}
FIELD_PARAM: dict[str, Any] = {
    "type": "string",
    "pattern": "^(/[^/]*)+$",
    "description": "JSON Pointer inside the item; a `*` token matches every array element "
    "or object member.",
}
TEXT_TARGET: dict[str, Any] = {
    "listings": LISTINGS_PARAM,
    "prose": PROSE_PARAM,
    "field": FIELD_PARAM,
    "strip": {
        "type": "boolean",
        "description": "Strip leading and trailing whitespace first (Pydantic "
        "`str_strip_whitespace`, as ContextForge does).",
    },
}


def check(
    name: str, params: Mapping[str, Any], required: Iterable[str] = ()
) -> Callable[[CheckFn], CheckFn]:
    """Register a check under `name` with the JSON Schema of its params (closed objects)."""

    def register(fn: CheckFn) -> CheckFn:
        if name in REGISTRY:
            raise ValueError(f"check type {name!r} registered twice")
        schema = {
            "type": "object",
            "additionalProperties": False,
            "properties": dict(params),
            "required": list(required),
        }
        REGISTRY[name] = CheckSpec(name, fn, schema, (fn.__doc__ or "").strip())
        return fn

    return register


# --- targets -----------------------------------------------------------------------------------


def listings(params: Mapping[str, Any], default: Iterable[str] = LISTINGS) -> tuple[str, ...]:
    """The listings a check runs over."""
    chosen = params.get("listings")
    return tuple(chosen) if chosen else tuple(default)


def items(
    catalog: Catalog, params: Mapping[str, Any], default: Iterable[str] = LISTINGS
) -> Iterator[Item]:
    """Every item of the chosen listings, listings in protocol order, items in served order."""
    for name in listings(params, default):
        yield from catalog.items(name)


def select_tokens(value: Any, tokens: list[str], at: str = "") -> list[tuple[str, Any]]:
    """Values at a JSON Pointer's tokens (`pointer_tokens`; a `*` token matches every array
    element or object member) inside `value`, with their pointers."""
    return [(pointer_of(path, at), node) for path, node in paths(value, tokens)]


Path = Sequence[str | int]


def paths(value: Any, tokens: list[str]) -> list[tuple[Path, Any]]:
    """The values `select_tokens` finds, each with its path of keys and indexes: a check
    writes the pointer (`model.pointer_of`) of a value it reports only. Without a frame per level,
    and a field's path is its tokens (most fields are absent from most items, or plain)."""
    node = value
    for token in tokens:
        if token == "*":
            return _wildcard(value, tokens)
        if isinstance(node, dict):
            if token not in node:
                return []
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            return _wildcard(value, tokens)  # NOTE: its path holds the index as an int
        else:
            return []
    return [(tokens, node)]


def _wildcard(value: Any, tokens: list[str]) -> list[tuple[Path, Any]]:
    """`paths` one level of the pointer at a time: every match sits at the same depth, so
    each level's nodes stay in document order."""
    found: list[tuple[Path, Any]] = [((), value)]
    for token in tokens:
        deeper: list[tuple[Path, Any]] = []
        for path, node in found:
            if token == "*":
                if isinstance(node, dict):
                    deeper.extend(((*path, key), sub) for key, sub in node.items())
                elif isinstance(node, list):
                    deeper.extend(((*path, i), sub) for i, sub in enumerate(node))
            elif isinstance(node, dict):
                if token in node:
                    deeper.append(((*path, token), node[token]))
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                deeper.append(((*path, int(token)), node[int(token)]))
        if not deeper:
            return []
        found = deeper
    return found


def field_targets(
    catalog: Catalog, params: Mapping[str, Any], default: Iterable[str] = LISTINGS
) -> Iterator[tuple[Item, str, Any]]:
    """(item, pointer, value) for every value at `params["field"]` in the chosen listings."""
    tokens = pointer_tokens(params["field"])
    for item in items(catalog, params, default):
        for at, value in select_tokens(item.value, tokens):
            yield item, at, value


@dataclass(frozen=True)
class Text:
    """One string a text check reads: where it is and how messages name it."""

    item: Item
    pointer: str
    text: str
    #: `description`, `title`, `name`... or `description at /inputSchema/...` when nested.
    what: str


def text_targets(
    catalog: Catalog, params: Mapping[str, Any], default: Iterable[str] = LISTINGS
) -> Iterator[Text]:
    """Strings at `field`, or (without `field`) the prose the one walker visits.

    NOTE: prose always comes from `walker.visits`, so what a profile audits is exactly what
    `rewrite` can change.
    """
    strip = bool(params.get("strip"))
    if "field" in params:
        for item, at, value in field_targets(catalog, params, default):
            if isinstance(value, str):
                yield Text(item, at, value.strip() if strip else value, at.lstrip("/"))
        return
    prose = params.get("prose") or {}
    where = set(prose.get("where") or ("item", "argument", "annotations", "schema"))
    keys = set(prose.get("keys") or ("description", "title"))
    for item in items(catalog, params, default):
        for visit in visits(item.listing, item.value):
            if visit.where not in where or visit.key not in keys:
                continue
            what = visit.key if visit.top_level else f"{visit.key} at {visit.pointer}"
            text = visit.text.strip() if strip else visit.text
            yield Text(item, visit.pointer, text, what)


# --- messages ----------------------------------------------------------------------------------


def around(text: str, start: int, end: int, width: int = 24) -> str:
    """The match with a little context, for excerpts of long strings."""
    lo, hi = max(0, start - width), min(len(text), end + width)
    return ("\u2026" if lo else "") + text[lo:hi] + ("\u2026" if hi < len(text) else "")


#: The JSON type name of each exact type the parsers give (subclasses: `json_type`'s tests).
_JSON_TYPES: dict[type, str] = {
    str: "string",
    dict: "object",
    list: "array",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}


def exact_types(names: Iterable[str]) -> frozenset[type]:
    """The exact Python types whose values `json_type` names one of `names` (no subclass)."""
    return frozenset(kind for kind, name in _JSON_TYPES.items() if name in names)


def json_type(value: Any) -> str:
    """The JSON type name of a parsed value."""
    known = _JSON_TYPES.get(type(value))
    if known is not None:
        return known
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def is_type(value: Any, wanted: str) -> bool:
    """JSON Schema type test (integers are numbers; booleans are not)."""
    actual = json_type(value)
    return actual == wanted or (wanted == "number" and actual == "integer")


#: RFC 3339 date-time with seconds and a `Z` or numeric offset (what zod's
#: `z.iso.datetime({offset: true})` accepts); the day is checked against the month separately.
DATE_TIME = re.compile(
    r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]"
    r":[0-5][0-9](\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
)


def is_date_time(value: Any) -> bool:
    """Whether a string is an RFC 3339 date-time as zod's offset-aware `iso.datetime` reads it
    (uppercase `T` and `Z`, seconds required, the day valid for its month and year)."""
    found = DATE_TIME.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        return False
    year, month, day = (int(found.group(n)) for n in (1, 2, 3))
    return day <= (29 if month == 2 and calendar.isleap(year) else MONTH_DAYS[month - 1])


MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

#: The strings pydantic's lax mode reads as a boolean (case and surrounding space ignored).
LAX_BOOLEANS = frozenset({"0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes"})


def lax_is_type(value: Any, wanted: str) -> bool:
    """`is_type` as pydantic's lax mode reads a JSON value (the Python SDK's models): a
    boolean, a whole float or a numeric string is an integer, any of them a number; 0, 1 and
    the words of `LAX_BOOLEANS` are booleans. Strings, arrays and objects are never coerced."""
    if is_type(value, wanted):
        return True
    actual = json_type(value)
    if wanted in ("integer", "number"):
        if actual == "boolean":
            return True
        if actual == "number":
            return wanted == "number" or float(value).is_integer()
        if actual == "string":
            try:
                (int if wanted == "integer" else float)(value.strip())
            except ValueError:
                return False
            return True
    if wanted == "boolean":
        if actual in ("integer", "number"):
            return bool(value in (0, 1))
        return actual == "string" and value.strip().lower() in LAX_BOOLEANS
    return False


# --- JSON Schema traversal ---------------------------------------------------------------------
