"""The meta-schema error CA403 names, found without validating every valid subschema.

jsonschema's 2020-12 meta-schema validation costs about 20 ms for a 10 kB tool schema
(dynamic references), and a schema with one bad `multipleOf` deep inside paid it for every
valid property around it. Meta-schema validation is local: at a schema position the meta-schema
applies itself again (`$dynamicRef: "#meta"`, draft-07 `$ref: "#"`) to the value there alone,
so the errors of a schema are its own keywords' errors plus each child position's errors under
that position's path. `first_schema_error` therefore drops each child that
`schema_fast.certainly_valid` proves valid (it becomes `true`, so names and indexes stay),
validates what is left, and takes the same minimum. Only an error at a dropped position or
above one can see the change (a dropped value in its message or instance, a keyword that
counts its siblings, a position the meta-schema does not treat as a schema: draft-07 `items`
is an `anyOf`): then it validates the original schema, the exact path
(`tests/rules/test_schema_errors.py` compares both on generated schemas). Where a position
holds the meta-schema alone, a schema whose own keywords are proven valid is not validated at
all: each child not proven valid is, alone (`_units`), and only its keywords not proven valid
(`_unit_error`), whose answer is kept for the next schema with the same defect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catalogaudit.model import jsonwire
from catalogaudit.rules.spec.schema_fast import certainly_valid

#: Per dialect: keywords whose value maps names to schema positions, keywords whose value is
#: one, keywords whose value is an array of them; only where the meta-schema applies itself.
_POSITIONS: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "Draft202012Validator": (
        frozenset({"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}),
        frozenset(
            {
                "items",
                "contains",
                "additionalProperties",
                "propertyNames",
                "if",
                "then",
                "else",
                "not",
                "unevaluatedItems",
                "unevaluatedProperties",
                "contentSchema",
            }
        ),
        frozenset({"prefixItems", "allOf", "anyOf", "oneOf"}),
    ),
    "Draft7Validator": (
        frozenset({"properties", "patternProperties", "definitions"}),
        frozenset(
            {
                "additionalItems",
                "additionalProperties",
                "contains",
                "propertyNames",
                "if",
                "then",
                "else",
                "not",
                "items",
            }
        ),
        frozenset({"allOf", "anyOf", "oneOf"}),
    ),
}

#: One meta-schema validator per dialect, shared by every schema of every file audited.
_META_CHECKERS: dict[Any, Any] = {}

Path = tuple[Any, ...]


@dataclass(frozen=True)
class SchemaError:
    """What CA403 reports of jsonschema's first error: where, what it says, what it is about."""

    absolute_path: tuple[str | int, ...]
    message: str
    instance: Any


def first_schema_error(cls: Any, schema: dict[str, Any]) -> SchemaError | None:
    """The meta-schema error `cls.check_schema` raises, chosen the same way on every run.

    NOTE: `check_schema` raises the first error jsonschema meets, and for the 2020-12 dialect
    that order follows string hashing: a schema with two defects named either at random, so
    one catalog's report changed between runs. The first by pointer, then message, is stable.
    """
    positions = _POSITIONS.get(cls.__name__)
    if positions is None:
        return _kept(_first(_checker(cls).iter_errors(schema)))
    units: list[tuple[Path, dict[str, Any]]] = []
    _units(schema, (), _DIRECT[cls.__name__], units)
    found = []
    for at, node in units:
        error = _unit_error(cls, node, positions)
        if error is not None:
            found.append(SchemaError(at + error.absolute_path, error.message, error.instance))
    first: SchemaError | None = _first(found)
    return first


def _unit_error(
    cls: Any,
    schema: dict[str, Any],
    positions: tuple[frozenset[str], frozenset[str], frozenset[str]],
) -> SchemaError | None:
    """The first error of one schema validated alone: only its keywords `certainly_valid`
    cannot prove, each proven-valid child of those dropped.

    NOTE: the meta-schemas constrain each keyword's value apart (no keyword's rule reads a
    sibling), so a schema's errors are those of its keywords not proven valid; and the same
    few defects recur (a generator's negative `multipleOf` in every float property), so the
    answer for those keywords is kept: jsonschema costs 0.13 ms per call even on `{}`."""
    reduced = {k: v for k, v in schema.items() if not certainly_valid({k: v})}
    key = (cls.__name__, _key(reduced))
    if key in _ERRORS:
        return _ERRORS[key]
    replaced: list[Path] = []
    pruned = _prune(reduced, (), positions, replaced)
    errors = list(_checker(cls).iter_errors(pruned)) if replaced else None
    if errors is not None:
        covered = {path[:n] for path in replaced for n in range(len(path) + 1)}
        if any(tuple(e.absolute_path) in covered for e in errors):
            errors = None  # an error that may see a dropped child: validate them too
    if errors is None:
        errors = list(_checker(cls).iter_errors(reduced))
    found = _kept(_first(errors))
    if len(_ERRORS) >= 4096:
        _ERRORS.clear()
    _ERRORS[key] = found
    return found


#: The first error of each reduced schema validated so far, by `_key` (bounded).
_ERRORS: dict[tuple[str, Any], SchemaError | None] = {}


def _kept(error: Any) -> SchemaError | None:
    if error is None:
        return None
    return SchemaError(tuple(error.absolute_path), error.message, error.instance)


def _key(value: Any) -> Any:
    """A key equal only for values jsonschema cannot tell apart: the same types and reprs (so
    1, 1.0, True and -0.0, 0.0 differ), in the same order."""
    if isinstance(value, dict):
        return (type(value), tuple((k, _key(v)) for k, v in value.items()))
    if isinstance(value, list):
        return (type(value), tuple(_key(v) for v in value))
    return (type(value), repr(value))


#: Per dialect, the schema positions where the meta-schema applies itself and nothing else
#: (`additionalProperties: {"$dynamicRef": "#meta"}`, draft-07 `{"$ref": "#"}`), among the
#: keywords `certainly_valid` models: maps, single schemas, arrays of schemas. Draft-07
#: `items` is not one (an `anyOf`), nor `$defs` (not a draft-07 keyword).
_DIRECT: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "Draft202012Validator": (
        frozenset({"properties", "$defs", "definitions"}),
        frozenset({"additionalProperties", "not", "items"}),
        frozenset({"allOf", "anyOf", "oneOf"}),
    ),
    "Draft7Validator": (
        frozenset({"properties", "definitions"}),
        frozenset({"additionalProperties", "not"}),
        frozenset({"allOf", "anyOf", "oneOf"}),
    ),
}


def _units(
    node: dict[str, Any],
    at: Path,
    direct: tuple[frozenset[str], frozenset[str], frozenset[str]],
    out: list[tuple[Path, dict[str, Any]]],
) -> None:
    """The schemas under `node` (not proven valid) to validate alone, with their paths.

    NOTE: validating a 2020-12 schema costs jsonschema about 0.3 ms per level of nesting
    (dynamic references), so a bad `multipleOf` three levels down cost 1.2 ms with its
    ancestors and 0.2 ms alone. Where the meta-schema applies only itself at a position, the
    errors of a schema are those of the schema with each child there replaced by `true`, plus
    each child's own under its path: when `certainly_valid` proves the first set empty, the
    children not proven valid are validated alone instead (the same errors, the same first).
    """
    maps, ones, lists = direct
    own: dict[str, Any] | None = None
    children: list[tuple[Path, dict[str, Any]]] = []
    for key, value in node.items():
        if key in maps and isinstance(value, dict):
            kept = {k: v for k, v in value.items() if not isinstance(v, dict)}
            if len(kept) == len(value):
                continue
            children.extend(((key, k), v) for k, v in value.items() if isinstance(v, dict))
            new: Any = {k: kept.get(k, True) for k in value}
        elif key in lists and isinstance(value, list):
            if not any(isinstance(v, dict) for v in value):
                continue
            children.extend(((key, i), v) for i, v in enumerate(value) if isinstance(v, dict))
            new = [True if isinstance(v, dict) else v for v in value]
        elif key in ones and isinstance(value, dict):
            children.append(((key,), value))
            new = True
        else:
            continue
        if own is None:
            own = dict(node)
        own[key] = new
    if own is None or not certainly_valid(own):
        out.append((at, node))
        return
    for slot, child in children:
        if not certainly_valid(child):
            _units(child, at + slot, direct, out)


def exact_schema_error(cls: Any, schema: dict[str, Any]) -> Any:
    """`first_schema_error` without the shortcut: every error of the whole schema."""
    return _first(_checker(cls).iter_errors(schema))


def _first(errors: Any) -> Any:
    return min(
        errors, key=lambda e: (jsonwire.pointer_of(e.absolute_path), e.message), default=None
    )


def _checker(cls: Any) -> Any:
    checker = _META_CHECKERS.get(cls)
    if checker is None:
        import jsonschema  # lazy: heavy

        meta = jsonschema.validators.validator_for(cls.META_SCHEMA, default=cls)
        checker = _META_CHECKERS[cls] = meta(cls.META_SCHEMA, format_checker=meta.FORMAT_CHECKER)
    return checker


def _prune(
    node: dict[str, Any],
    at: Path,
    positions: tuple[frozenset[str], frozenset[str], frozenset[str]],
    replaced: list[Path],
) -> dict[str, Any]:
    """`node` without each proven-valid schema child (a copy, only where some child was
    dropped), descending into the children not proven valid; `replaced` gets their paths."""
    maps, ones, lists = positions
    out = node
    for key, value in node.items():
        if key in maps and isinstance(value, dict):
            new: Any = _children(value, at + (key,), positions, replaced, value.items())
        elif key in lists and isinstance(value, list):
            new = _children(value, at + (key,), positions, replaced, enumerate(value))
        elif key in ones and isinstance(value, dict):
            new = _child(value, at + (key,), positions, replaced)
        else:
            continue
        if new is not value:
            if out is node:
                out = dict(node)
            if new is _DROPPED:
                del out[key]
            else:
                out[key] = new
    return out


def _children(
    container: Any,
    at: Path,
    positions: tuple[frozenset[str], frozenset[str], frozenset[str]],
    replaced: list[Path],
    entries: Any,
) -> Any:
    """A map or array of schema positions with its children pruned (copied where changed)."""
    out = container
    for slot, sub in list(entries):
        if not isinstance(sub, dict):
            continue
        new = _child(sub, at + (slot,), positions, replaced)
        if new is not sub:
            if out is container:
                out = dict(container) if isinstance(container, dict) else list(container)
            # NOTE: a dropped child becomes `true` (valid at every schema position), in a map
            # too: deleting its name lost the meta-schema's errors about the names themselves
            # (a `patternProperties` name must be a regex: "[" was not reported).
            out[slot] = True if new is _DROPPED else new
    return out


def _child(
    sub: dict[str, Any],
    at: Path,
    positions: tuple[frozenset[str], frozenset[str], frozenset[str]],
    replaced: list[Path],
) -> dict[str, Any]:
    if sub and certainly_valid(sub):
        replaced.append(at)
        return _DROPPED
    return _prune(sub, at, positions, replaced)


#: What `_child` answers for a child proven valid: `true` in its map or array, dropped where
#: it is a keyword's one schema.
_DROPPED: dict[str, Any] = {}
