"""What Codex, opencode and Gemini CLI do to a tool's input schema before the model sees it,
from a profile's `model_view` `schema_rewrite` data (Claude Code's root-combinator flattening
is `verify.flatten`). Measured with `verify --model` on the lattice's schema shapes, the probe
and root-combinator catalogs and server-filesystem (2026-12-06):

- `set` / `defaults`: root members always written / written when absent (opencode 1.18.33:
  `type: "object"`, `additionalProperties: false`, `properties: {}` when absent).
- `add_properties`: properties added to the root's (Gemini CLI 0.61.0: `wait_for_previous`).
- `nullable`: a `type` of one type and `"null"` becomes that type and `nullable: true`
  (Gemini CLI), in every subschema.
- `keep` (Codex 0.169.0): every subschema keeps only these keywords, after `const` became
  `enum: [const]`, a boolean subschema `{"type": "string"}`, a `type` lost its unknown names,
  a missing type was inferred (`infer`: keyword -> type, first match), an object got
  `properties: {}` and an array `items: {"type": "string"}` when absent; `$defs` and
  `definitions` are kept only when a `#/$defs/...` or `#/definitions/...` reference names
  them (from outside the definitions, directly or through another); the root gets
  `type: "object"` when it has no type left. `refuse` lists what leaves
  the tool out of the request: `null-root` (a root typed `"null"`), `tuple-items` (an array
  `items`), `bad-additional` (`additionalProperties` neither boolean nor object),
  `bad-combinator` (an `anyOf`/`oneOf`/`allOf` that is not an array), `bad-properties`
  (`properties` neither null nor an object), `bad-required` (`required` neither null nor an
  array).
- `order` / `sorted` (Codex 0.169.0, which parses the schema into a struct and writes it back):
  every subschema's keys in this order whatever the served one, and the members of the maps
  named in `sorted` (`properties`, `$defs`, `definitions`) by name.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any

_TYPES = ("string", "number", "boolean", "integer", "object", "array", "null")
_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf")
#: The keys that hold `_project`'s subschemas.
_NESTED = frozenset((*_SUBSCHEMA_MAPS, *_SUBSCHEMA_LISTS, "items", "additionalProperties"))
#: What `_project` adds to an object or array subschema that has none.
_ADDED = ("properties", "items")


def rewrite(schema: Any, spec: Mapping[str, Any]) -> tuple[Any, str]:
    """(the schema as sent, "") or (None, why the tool is left out). Only the root is
    copied: each step below builds the subschemas it changes anew, and leaves the served
    ones unchanged."""
    out = dict(schema) if isinstance(schema, dict) else {}
    if "keep" in spec:
        why = _refused(out, spec.get("refuse", []), root=True)
        if why:
            return None, why
        out = _project(out, _Plan(spec), root=True)
        defined = [k for k in ("$defs", "definitions") if isinstance(out.get(k), dict)]
        refs = _reachable(out) if defined else set()
        for key in defined:
            kept = {k: v for k, v in out[key].items() if (key, k) in refs}
            if kept:
                out[key] = kept
            else:
                del out[key]
    if spec.get("nullable"):
        out = _nullable(out)
    for key, value in spec.get("defaults", {}).items():
        if key not in out:
            out[key] = copy.deepcopy(value)
    out.update(copy.deepcopy(dict(spec.get("set", {}))))
    added = spec.get("add_properties")
    if added:
        props = out.get("properties")
        mine = dict(props) if isinstance(props, dict) else {}
        out["properties"] = {**mine, **copy.deepcopy(dict(added))}
    return out, ""


def _refused(schema: Any, refuse: list[str], root: bool) -> str:
    """Why a client that projects schemas leaves this one out ("" when it does not): the
    first subschema that refuses, each before its children (`_children`), in their order."""
    null_root, tuple_items = "null-root" in refuse, "tuple-items" in refuse
    bad_additional, bad_combinator = "bad-additional" in refuse, "bad-combinator" in refuse
    shapes = {
        key: kind
        for key, kind, name in (
            ("properties", dict, "bad-properties"),
            ("required", list, "bad-required"),
        )
        if name in refuse
    }
    todo: list[tuple[Any, bool]] = [(schema, root)]
    while todo:
        node, top = todo.pop()
        if not isinstance(node, dict):
            continue
        if top and null_root and node.get("type") == "null":
            return "a root of type null"
        if tuple_items and isinstance(node.get("items"), list):
            return "items is an array"
        if bad_additional and "additionalProperties" in node:
            if not isinstance(node["additionalProperties"], (bool, dict)):
                return "additionalProperties is neither a boolean nor a schema"
        for key in _SUBSCHEMA_LISTS if bad_combinator else ():
            if key in node and not isinstance(node[key], list):
                return f"{key} is not an array"
        for key, kind in shapes.items():
            if node.get(key) is not None and not isinstance(node[key], kind):
                return f"{key} is not {'an object' if kind is dict else 'an array'}"
        todo.extend((child, False) for child in reversed(_children(node)))
    return ""


def _children(schema: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for key in _SUBSCHEMA_MAPS:
        if isinstance(schema.get(key), dict):
            out += list(schema[key].values())
    for key in _SUBSCHEMA_LISTS:
        if isinstance(schema.get(key), list):
            out += schema[key]
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            out.append(schema[key])
    return out


class _Plan:
    """A `keep` spec read once per schema, not once per subschema."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.keep = frozenset(spec["keep"]) - {"type"}
        self.infer: list[tuple[str, str]] = list(spec.get("infer", {}).items())
        self.bool_schema = spec.get("bool_schema", {})
        order = {k: n for n, k in enumerate(spec.get("order", ()))}
        # NOTE: every key `_project` writes: kept ones, `type`, and `properties`/`items` it adds
        self.rank = {k: order.get(k, len(order)) for k in (*self.keep, "type", *_ADDED)}
        self.sorted = tuple(spec.get("sorted", ()))


def _project(schema: Any, plan: _Plan, root: bool = False) -> Any:
    """One subschema as Codex keeps it."""
    if isinstance(schema, bool):
        return copy.deepcopy(plan.bool_schema)
    if not isinstance(schema, dict):
        return schema
    src = schema
    if "const" in src:
        src = dict(schema)
        src["enum"] = [src.pop("const")]
    types = _valid_types(src.get("type"))
    if not types and not root:
        types = next(([t] for k, t in plan.infer if k in src), [])
    if not types and root:
        types = ["object"]
    keep = plan.keep
    out: dict[str, Any] = {k: v for k, v in src.items() if k in keep}
    if types:
        out["type"] = types[0] if len(types) == 1 else types
    if out.keys() & _NESTED:  # NOTE: most subschemas are leaves
        for key in _SUBSCHEMA_MAPS:
            if isinstance(out.get(key), dict):
                out[key] = {k: _project(v, plan) for k, v in out[key].items()}
        for key in _SUBSCHEMA_LISTS:
            if isinstance(out.get(key), list):
                out[key] = [_project(v, plan) for v in out[key]]
        if "items" in out:
            out["items"] = _project(out["items"], plan)
        if isinstance(out.get("additionalProperties"), dict):
            out["additionalProperties"] = _project(out["additionalProperties"], plan)
    if "object" in types and "properties" not in out:
        out["properties"] = {}
    if "array" in types and "items" not in out:
        out["items"] = copy.deepcopy(plan.bool_schema)
    return _ordered(out, plan)


def _ordered(schema: dict[str, Any], plan: _Plan) -> dict[str, Any]:
    """`schema` with its keys in the spec's `order` (others after, as they were) and the maps
    it names in `sorted` sorted by member name: the bytes a client that rebuilds the schema
    writes. `schema` is the caller's own new dict, so it is handed back when in order."""
    keys = sorted(schema, key=plan.rank.__getitem__)
    out = schema if keys == list(schema) else {k: schema[k] for k in keys}
    for key in plan.sorted:
        if isinstance(out.get(key), dict):
            out[key] = dict(sorted(out[key].items()))
    return out


def _valid_types(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value in _TYPES else []
    if isinstance(value, list):
        return [t for t in value if isinstance(t, str) and t in _TYPES]
    return []


def _refs(schema: Any) -> set[tuple[str, str]]:
    """The (`$defs` or `definitions`, name) pairs a local `$ref` in `schema` names."""
    found = re.findall(r'"\$ref": "#/(\$defs|definitions)/([^/"]+)', json.dumps(schema))
    return {(a, b) for a, b in found}


def _reachable(schema: dict[str, Any]) -> set[tuple[str, str]]:
    """The root's definitions reachable from outside them, directly or through another."""
    defs = {
        (key, name): value
        for key in ("$defs", "definitions")
        if isinstance(schema.get(key), dict)
        for name, value in schema[key].items()
    }
    todo = _refs({k: v for k, v in schema.items() if k not in ("$defs", "definitions")})
    seen: set[tuple[str, str]] = set()
    while todo:
        ref = todo.pop()
        if ref in seen or ref not in defs:
            continue
        seen.add(ref)
        todo |= _refs(defs[ref])
    return seen


def _nullable(schema: Any) -> Any:
    """`type: [X, "null"]` as `type: X, nullable: true`, in every subschema; a value with
    nothing to change is handed back itself (as `rewrite` leaves served subschemas), and a
    container is copied only from its first changed member on."""
    if isinstance(schema, list):
        items: list[Any] | None = None
        for n, value in enumerate(schema):
            new = _nullable(value) if isinstance(value, (dict, list)) else value
            if new is not value and items is None:
                items = schema[:n]
            if items is not None:
                items.append(new)
        return schema if items is None else items
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] | None = None
    for key, value in schema.items():
        if isinstance(value, (dict, list)):
            new = _nullable(value)
            if new is not value:
                if out is None:
                    out = dict(schema)
                out[key] = new
    kind = (schema if out is None else out).get("type")
    if isinstance(kind, list) and len(kind) == 2 and "null" in kind:
        (other,) = [t for t in kind if t != "null"] or ["null"]
        out = dict(schema) if out is None else out
        out["type"] = other
        out["nullable"] = True
    return schema if out is None else out
