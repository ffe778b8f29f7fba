"""A small, deterministic JSON-Schema instance generator.

Two places need a value that a schema accepts without a model to invent one: the Messages API
stand-in (`verify.messages_api`) writes tool arguments from a tool's `inputSchema`, and
`serve` answers `tools/call` with `structuredContent` from the tool's `outputSchema`. The same
schema always gives the same value, so recorded runs compare byte for byte.

It covers what tool schemas use: `const`, `enum`, `type` (or a list of them), `required` and
`properties`, `items`/`prefixItems`, `minItems`, `minLength`/`maxLength`, simple `pattern`s and
`format`s, numeric bounds, local `$ref`s into `$defs`/`definitions`, and `anyOf`/`oneOf`/`allOf`
(first branch; `allOf` merged). Anything else falls back to the simplest value of the type; the
caller validates the result with jsonschema when it must be sure.

Sizes are bounded, because the schema is untrusted text and `minItems: 100000000` (or arrays of
arrays of long strings) would otherwise grow to gigabytes: a string or array is generated with
at most `MAX_LENGTH` characters or `MAX_ITEMS` items, and a whole value with at most
`MAX_VALUES` values and `MAX_CHARS` characters. `generate` says which bound cut a value (it may
then not satisfy the schema).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from catalogaudit.model import validator

#: Sample strings for `format`s a server might check.
_FORMATS = {
    "date-time": "2026-01-01T00:00:00Z",
    "date": "2026-01-01",
    "time": "00:00:00Z",
    "email": "user@example.com",
    "uri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "url": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
    "hostname": "example.com",
}
_DEPTH = 12
#: Longest string generated (characters) and longest array (items).
MAX_LENGTH = 4096
MAX_ITEMS = 1000
#: Most values (each string, number, array, object...) and characters in one generated value.
MAX_VALUES = 10_000
MAX_CHARS = 1_000_000


@dataclass
class _Budget:
    """What is left of the bounds for one generated value, and which bound cut it."""

    values: int = MAX_VALUES
    chars: int = MAX_CHARS
    cut: str = ""

    def short(self, why: str) -> None:
        self.cut = self.cut or why


def generate(schema: Any) -> tuple[Any, str]:
    """A value `schema` accepts (best effort, deterministic), and "" or which size bound cut
    it short (the value then may not satisfy `schema`)."""
    budget = _Budget()
    value = _value(schema, schema, 0, budget)
    return value, budget.cut


def instance(schema: Any) -> Any:
    """A value `schema` accepts (best effort, deterministic, bounded: `generate`)."""
    return generate(schema)[0]


def _value(schema: Any, root: Any, depth: int, budget: _Budget) -> Any:
    budget.values -= 1
    if budget.values < 0:
        budget.short(f"more than {MAX_VALUES} values")
        return None
    if not isinstance(schema, dict) or depth > _DEPTH:
        return None if schema is False else {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target = _resolve(root, ref)
        if target is not None:
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return _value({**target, **rest}, root, depth + 1, budget)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    if isinstance(schema.get("allOf"), list):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            if isinstance(part, dict):
                merged = _merge(merged, part)
        return _value(merged, root, depth + 1, budget)
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            rest = {k: v for k, v in schema.items() if k != key}
            chosen = next((b for b in branches if _type_of(b) != "null"), branches[0])
            part = _merge(rest, chosen) if isinstance(chosen, dict) else rest
            return _value(part, root, depth, budget)
    kind = _type_of(schema)
    if kind == "object":
        return _object(schema, root, depth, budget)
    if kind == "array":
        return _array(schema, root, depth, budget)
    if kind == "string":
        return _string(schema, budget)
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return {}


def _type_of(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if isinstance(k, str)]
        kind = next((k for k in kinds if k != "null"), kinds[0] if kinds else None)
    if isinstance(kind, str):
        return kind
    if "properties" in schema or "required" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    return None


def _resolve(root: Any, ref: str) -> Any:
    node = root
    for part in ref.lstrip("#").split("/"):
        if not part:
            continue
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = {**a, **b}
    if isinstance(a.get("properties"), dict) and isinstance(b.get("properties"), dict):
        out["properties"] = {**a["properties"], **b["properties"]}
    if isinstance(a.get("required"), list) and isinstance(b.get("required"), list):
        out["required"] = [*a["required"], *(r for r in b["required"] if r not in a["required"])]
    return out


def _object(schema: dict[str, Any], root: Any, depth: int, budget: _Budget) -> dict[str, Any]:
    given = schema.get("properties")
    props: dict[str, Any] = given if isinstance(given, dict) else {}
    required = [r for r in schema.get("required", []) or [] if isinstance(r, str)]
    out: dict[str, Any] = {}
    for name in required:
        out[name] = _value(props.get(name, {}), root, depth + 1, budget)
    minimum = _count(schema.get("minProperties"))
    if minimum is not None:
        for name in props:
            if len(out) >= minimum or budget.cut:
                break
            out.setdefault(name, _value(props[name], root, depth + 1, budget))
    return out


def _array(schema: dict[str, Any], root: Any, depth: int, budget: _Budget) -> list[Any]:
    prefix = schema.get("prefixItems")
    items = schema.get("items")
    out: list[Any] = []
    if isinstance(prefix, list):
        out = [_value(p, root, depth + 1, budget) for p in prefix[:MAX_ITEMS]]
    elif isinstance(items, list):  # draft-07 tuple form
        out = [_value(p, root, depth + 1, budget) for p in items[:MAX_ITEMS]]
    count = _count(schema.get("minItems")) or 0
    if count > MAX_ITEMS:
        budget.short(f"minItems {count} over {MAX_ITEMS}")
        count = MAX_ITEMS
    single = items if isinstance(items, dict) else {}
    while len(out) < count and not budget.cut:
        value = _value(single, root, depth + 1, budget)
        if schema.get("uniqueItems") is True and value in out:
            value = _distinct(value, len(out))
        out.append(value)
    return out


def _count(value: Any) -> int | None:
    """A size keyword's value as a count: a non-negative integer, `3e8` included (JSON
    Schema reads integer-valued numbers as integers); None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value)


def _distinct(value: Any, n: int) -> Any:
    if isinstance(value, str):
        return f"{value}{n}"
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + n
    return value


def _string(schema: dict[str, Any], budget: _Budget) -> str:
    fmt = schema.get("format")
    text = _FORMATS.get(fmt, "a") if isinstance(fmt, str) else "a"
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        text = _from_pattern(pattern, text)
    low = _count(schema.get("minLength"))
    high = _count(schema.get("maxLength"))
    if low is not None and len(text) < low:
        if low > MAX_LENGTH:
            budget.short(f"minLength {low} over {MAX_LENGTH}")
        elif low > budget.chars:
            budget.short(f"more than {MAX_CHARS} characters")
        want = max(min(low, MAX_LENGTH, budget.chars), 0)
        text = text + text[-1:] * (want - len(text)) if text else "a" * want
    if high is not None and len(text) > high:
        text = text[:high]
    budget.chars -= len(text)
    return text


#: A pattern made of literal characters, classes and quantifiers we can spell out.
_ATOM = re.compile(r"\\d|\\w|\\s|\[[^\]]*\]|\.|\\.|[^\\\[\]().*+?{}|^$]")


def _from_pattern(pattern: str, fallback: str) -> str:
    """A string matching a simple pattern (anchors, literals, \\d \\w [a-z] . with ? * + {n,m});
    the fallback when the pattern is not simple or the result does not match."""
    body = pattern.removeprefix("^").removesuffix("$")
    out: list[str] = []
    pos = size = 0
    while pos < len(body):
        atom = _ATOM.match(body, pos)
        if atom is None:
            return fallback
        pos = atom.end()
        count = 1
        quant = re.compile(r"\{(\d{1,9})(?:,(\d*))?\}|[?*+]").match(body, pos)
        if quant is not None:
            pos = quant.end()
            q = quant.group(0)
            count = 0 if q in "?*" else 1 if q == "+" else int(quant.group(1))
        size += count
        if size > MAX_LENGTH:
            return fallback
        out.append(_sample(atom.group(0)) * count)
    text = "".join(out)
    try:  # NOTE: ECMA-262 semantics in linear time (`model.validation`), as a validator reads it
        return text if _pattern(pattern).is_valid(text) else fallback
    except ValueError:  # not an ECMA-262 regex
        return fallback


@lru_cache(maxsize=256)
def _pattern(pattern: str) -> Any:
    return validator({"pattern": pattern})


def _sample(atom: str) -> str:
    if atom == "\\d":
        return "0"
    if atom in ("\\w", "."):
        return "a"
    if atom == "\\s":
        return " "
    if atom.startswith("["):
        inner = atom[1:-1]
        if inner.startswith("^"):
            return "a" if "a" not in inner else "0"
        inner = inner.replace("\\", "")
        return inner[0] if inner else "a"
    if atom.startswith("\\"):
        return atom[1]
    return atom


def _number(schema: dict[str, Any], integer: bool) -> int | float:
    low = schema.get("minimum")
    ex_low = schema.get("exclusiveMinimum")
    high = schema.get("maximum")
    ex_high = schema.get("exclusiveMaximum")
    value: float = 0
    if isinstance(low, (int, float)) and not isinstance(low, bool):
        value = low
    if isinstance(ex_low, (int, float)) and not isinstance(ex_low, bool):
        value = max(value, ex_low + 1)
    elif ex_low is True and isinstance(low, (int, float)):
        value = low + 1  # draft-04 boolean form
    if isinstance(high, (int, float)) and not isinstance(high, bool) and value > high:
        value = high
    if isinstance(ex_high, (int, float)) and not isinstance(ex_high, bool) and value >= ex_high:
        value = ex_high - 1
    step = schema.get("multipleOf")
    if isinstance(step, (int, float)) and not isinstance(step, bool) and step > 0 and value:
        value = (value // step + (1 if value % step else 0)) * step
    if integer:
        whole = int(value)
        return whole if whole >= value else whole + 1
    return value
