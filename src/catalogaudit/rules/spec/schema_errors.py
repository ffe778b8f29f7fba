"""The meta-schema error CA403 names, found without validating every valid subschema.

jsonschema's 2020-12 meta-schema validation costs about 20 ms for a 10 kB tool schema
(dynamic references), and a schema with one bad `multipleOf` deep inside paid it for every
valid property around it. Meta-schema validation is local: at a schema position the meta-schema
applies itself again (`$dynamicRef: "#meta"`, draft-07 `$ref: "#"`) to the value there alone,
so the errors of a schema are its own keywords' errors plus each child position's errors under
that position's path. `first_schema_error` therefore drops each child that
`schema_fast.certainly_valid` proves valid (an array element becomes `true`, so indexes stay),
validates what is left, and takes the same minimum. Only an error at a dropped position or
above one can see the change (a dropped value in its message or instance, a keyword that
counts its siblings, a position the meta-schema does not treat as a schema: draft-07 `items`
is an `anyOf`): then it validates the original schema, the exact path
(`tests/rules/test_schema_errors.py` compares both on generated schemas).
"""

from __future__ import annotations

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


def first_schema_error(cls: Any, schema: dict[str, Any]) -> Any:
    """The meta-schema error `cls.check_schema` raises, chosen the same way on every run.

    NOTE: `check_schema` raises the first error jsonschema meets, and for the 2020-12 dialect
    that order follows string hashing: a schema with two defects named either at random, so
    one catalog's report changed between runs. The first by pointer, then message, is stable.
    """
    positions = _POSITIONS.get(cls.__name__)
    if positions is not None:
        replaced: list[Path] = []
        pruned = _prune(schema, (), positions, replaced)
        if replaced:
            errors = list(_checker(cls).iter_errors(pruned))
            covered = {path[:n] for path in replaced for n in range(len(path) + 1)}
            if not any(tuple(e.absolute_path) in covered for e in errors):
                return _first(errors)
    return _first(_checker(cls).iter_errors(schema))


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
            if new is not _DROPPED:
                out[slot] = new
            elif isinstance(out, dict):
                del out[slot]
            else:
                out[slot] = True
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


#: What `_child` answers for a child proven valid: drop it from the copy.
_DROPPED: dict[str, Any] = {}
