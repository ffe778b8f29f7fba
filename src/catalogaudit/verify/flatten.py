"""What a client does to a tool's input schema before the model sees it, from a profile's
`model_view` data: `schema_normalize` (a root `anyOf`/`oneOf`/`allOf` merged into one flat
object schema, with a note put before the description) and `schema_skip` (a schema the
client's own 2020-12 check refuses: the tool is left out of the request).

The rules are Claude Code 2.1.328's, measured with `verify --client claude-code --model` and
read in its binary (fixtures/model/root-combinators.observed.json): the Anthropic API refuses
a combinator at the schema root, so Claude Code merges the branches' `properties` (the root's
first, then each branch's in `combinators` order, first one wins; a `#/$defs/X` or
`#/definitions/X` branch is followed; keys outside `property_key` and non-object property
schemas are left out), and writes `{"type": "object", properties, required}` plus the root's
`keep` members. `required` keeps the root's names, the `allOf` branches' names and, with an
`anyOf`/`oneOf`, the names every such branch requires, as long as the merged properties have
them. With an `anyOf`/`oneOf` a property the branches define differently becomes an `anyOf`
of its variants (`"type": "string"` ones first); if that schema fails the client's check, or
holds a `required`/`type` array that is not all strings, the merge is redone first-wins and
without the every-branch names. What is lost (which branch, a branch's own `required`, the
root's other keywords) is what CC-SCHEMA-003 reports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from catalogaudit.model import NOT_PLAIN, meta_validator, plain

_REF = re.compile(r"^#/(\$defs|definitions)/([^/]+)$")
_DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"
#: How deep `_odd` looks before it gives up (and calls the schema odd).
_DEPTH = 64


@dataclass(frozen=True)
class Sent:
    """A tool's input schema and description as sent, or why the tool is left out."""

    schema: Any
    description: Any
    skipped: str = ""


def as_sent(tool: Mapping[str, Any], entry: Mapping[str, Any]) -> Sent:
    """The schema and description the client sends for `tool` under `entry`."""
    schema, description = tool.get("inputSchema"), tool.get("description")
    spec = entry.get("schema_normalize")
    skip = entry.get("schema_skip")
    if not isinstance(spec, Mapping):
        return Sent(schema, description, _refused(schema, skip))
    anyish = isinstance(schema, dict) and ("anyOf" in schema or "oneOf" in schema)
    got = _attempt(schema, spec, skip, every=anyish)
    if anyish and (got.skipped or _odd(got.schema)):
        got = _attempt(schema, spec, skip, every=False)
    if got.skipped or got.description is None:
        return Sent(got.schema, description, got.skipped)
    note = str(got.description)
    joined = f"{note}{spec.get('note_join', '')}{description}" if description else note
    return Sent(got.schema, joined)


def _attempt(schema: Any, spec: Mapping[str, Any], skip: Any, every: bool) -> Sent:
    """One pass: the flattened schema (description: the note, None when unchanged)."""
    flat = normalize(schema, spec, every)
    if isinstance(flat, str):
        return Sent(schema, None, flat)
    out, note = flat if flat is not None else (schema, None)
    return Sent(out, note, _refused(out, skip))


def normalize(
    schema: Any, spec: Mapping[str, Any], every: bool
) -> tuple[dict[str, Any], str] | str | None:
    """(flattened schema, note), a reason the tool is skipped, or None: no root combinator."""
    if not isinstance(schema, dict):
        return None
    present = [c for c in spec["combinators"] if c in schema]
    if not present:
        return None
    key = re.compile(str(spec["property_key"]))
    merged: dict[str, Any] = {}
    variants: dict[str, list[Any]] = {}

    def take(props: Any, track: bool) -> None:
        if not isinstance(props, dict):
            return
        for name, sub in props.items():
            if not key.fullmatch(name) or not isinstance(sub, dict):
                continue
            if name not in merged:
                merged[name] = sub
                if track:
                    variants[name] = [sub]
            elif track and name in variants:
                variants[name].append(sub)

    take(schema.get("properties"), False)
    for c in present:
        if not isinstance(schema[c], list):
            return f"input schema has top-level {c} that is not an array"
        for branch in _branches(schema[c], schema):
            if isinstance(branch, dict):
                take(branch.get("properties"), every and c != "allOf")
    for name, seen in variants.items():
        distinct = _distinct(seen)
        if len(distinct) > 1:
            first = [v for v in distinct if v.get("type") == "string"]
            merged[name] = {"anyOf": first + [v for v in distinct if v.get("type") != "string"]}
    required: dict[str, None] = {}

    def need(names: Any) -> None:
        for n in names if isinstance(names, list) else ():
            if isinstance(n, str) and n in merged:
                required[n] = None

    need(schema.get("required"))
    if isinstance(schema.get("allOf"), list):
        for branch in _branches(schema["allOf"], schema):
            if isinstance(branch, dict):
                need(branch.get("required"))
    for c in ("anyOf", "oneOf") if every else ():
        need(_in_every(_branches(schema[c] if isinstance(schema.get(c), list) else [], schema)))
    out: dict[str, Any] = {"type": "object", "properties": merged, "required": list(required)}
    out.update((k, schema[k]) for k in spec["keep"] if k in schema)
    if "additionalProperties" not in schema:
        out["additionalProperties"] = spec["additional_properties"]
    return out, _note(schema, present, spec["notes"])


def _branches(branches: list[Any], root: dict[str, Any]) -> list[Any]:
    """The branches with local `$defs`/`definitions` references followed, each once."""
    out: list[Any] = []
    for b in branches:
        found = (
            _REF.match(b["$ref"])
            if isinstance(b, dict) and isinstance(b.get("$ref"), str)
            else None
        )
        if found is not None:
            group = root.get(found.group(1))
            target = group.get(found.group(2)) if isinstance(group, dict) else None
            b = target if isinstance(target, dict) else b
        if not any(b is o for o in out):
            out.append(b)
    return out


def _distinct(values: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    keys: set[str] = set()
    for v in values:
        k = json.dumps(v, sort_keys=True)
        if k not in keys:
            keys.add(k)
            out.append(v)
    return out


def _in_every(branches: list[Any]) -> list[str]:
    """Names that every branch requires."""
    runs: dict[str, int] = {}
    for n, branch in enumerate(branches):
        names = branch.get("required") if isinstance(branch, dict) else None
        for name in names if isinstance(names, list) else ():
            if isinstance(name, str) and runs.get(name, 0) == n:
                runs[name] = n + 1
    return [name for name, count in runs.items() if count == len(branches)]


def _group(branch: Any) -> str | None:
    """A branch as the note names it: its required names, else its property names."""
    if not isinstance(branch, dict):
        return None
    names = branch.get("required")
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        return ", ".join(names)
    props = branch.get("properties")
    return ", ".join(props) if isinstance(props, dict) and props else None


def _note(schema: dict[str, Any], present: list[str], notes: Mapping[str, str]) -> str:
    if "anyOf" not in present and "oneOf" not in present:
        return notes["allOf"]
    which = "oneOf" if "oneOf" in present else "anyOf"
    groups = list(
        dict.fromkeys(g for g in map(_group, _branches(schema[which], schema)) if g is not None)
    )
    if not groups:
        return notes["no_groups"].format(want=notes[which], combinator=which)
    return notes["groups"].format(want=notes[which], groups=" or ".join(f"({g})" for g in groups))


def _odd(schema: Any) -> bool:
    """A `required` or `type` array (or a `dependencies`/`dependentRequired` one) of two or
    more members not all strings, anywhere within `_DEPTH` levels, or a deeper schema."""

    def bad(v: Any) -> bool:
        return isinstance(v, list) and len(v) >= 2 and not all(isinstance(x, str) for x in v)

    todo: list[tuple[Any, int]] = [(schema, 1)] if schema else []
    while todo:
        node, depth = todo.pop()
        if depth > _DEPTH:
            return True
        kids = node if isinstance(node, list) else list(node.values())
        if isinstance(node, dict):
            for k, v in node.items():
                if (k in ("required", "type") and bad(v)) or (
                    k in ("dependencies", "dependentRequired")
                    and isinstance(v, dict)
                    and any(bad(x) for x in v.values())
                ):
                    return True
        todo.extend((k, depth + 1) for k in kids if isinstance(k, (dict, list)))
    return False


def _refused(schema: Any, skip: Any) -> str:
    """Why the client's own check refuses `schema` (`schema_skip`), or ""."""
    if not isinstance(skip, Mapping) or not isinstance(schema, dict):
        return ""
    props = schema.get("properties")
    key = re.compile(str(skip["property_key"]))
    for name in props if isinstance(props, dict) else ():
        if not key.fullmatch(name):
            return f"property key {name!r} does not match {key.pattern}"
    dialect = schema.get("$schema")
    if dialect is not None and dialect not in (_DRAFT_2020, f"{_DRAFT_2020}#"):
        return ""
    bare = {k: v for k, v in schema.items() if v is not None}
    return "" if _valid(bare) else "not valid under the 2020-12 meta-schema"


def _valid(schema: dict[str, Any]) -> bool:
    """python-jsonschema's verdict, asked of jsonschema-rs first (`model.meta_validator`: its
    "valid" is python-jsonschema's too), so a catalog of many valid tools stays fast. An
    error jsonschema-rs finds is confirmed by python-jsonschema on the subschema it is in
    (`_part`), and only when that finds it valid, on the whole schema: its walk of a large
    schema to the error took it milliseconds a tool."""
    copy = plain(schema)
    if copy is not NOT_PLAIN:
        checker = meta_validator(_DRAFT_2020, ())
        if checker.is_valid(copy):
            return True
        error = next(checker.iter_errors(copy), None)
        part = _part(schema, error.instance_path) if error is not None else None
        if part is not None and not _meta().is_valid(part):
            return False
    return bool(_meta().is_valid(schema))


#: Where the 2020-12 meta-schema validates a member of a schema against itself (`$dynamicRef`
#: to `#meta`, which resolves to the meta-schema validating the root) whatever else the
#: schema holds: under these keywords' names (a map of schemas, an array of schemas, one
#: schema). `dependencies` is not one: its values may be string arrays instead (`anyOf`).
_SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
)
_SCHEMA_ARRAYS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA = frozenset(
    {"items", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else"}
    | {"unevaluatedItems", "unevaluatedProperties", "contentSchema"}
)


def _part(schema: dict[str, Any], path: Any) -> Any:
    """The deepest subschema on `path` (a JSON location in `schema`) that the meta-schema
    validates as a schema of its own (`_SCHEMA*`), or None: if python-jsonschema finds that
    invalid, it finds `schema` invalid too."""
    node: Any = schema
    found: Any = None
    steps = list(path)
    while steps and isinstance(node, dict):
        key = steps.pop(0)
        value = node.get(key) if isinstance(key, str) else None
        if key in _SCHEMA and key in node:
            node = value
        elif steps and key in _SCHEMA_MAPS and isinstance(value, dict) and steps[0] in value:
            node = value[steps.pop(0)]
        elif steps and key in _SCHEMA_ARRAYS and isinstance(value, list):
            at = steps.pop(0)
            if not isinstance(at, int) or not 0 <= at < len(value):
                return found
            node = value[at]
        else:
            return found
        found = node
    return found


@cache
def _meta() -> Draft202012Validator:
    return Draft202012Validator(Draft202012Validator.META_SCHEMA)
