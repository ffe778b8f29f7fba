"""The meta-schema error CA403 names: found by jsonschema-rs, worded by python-jsonschema.

CA403 reports the first error python-jsonschema's `check_schema` finds, first by pointer, then
message (its own order follows string hashing, so a schema with two defects was reported either
way between runs). jsonschema-rs answers whether a schema is valid and where its errors are;
python-jsonschema then words the first one, validating only the one keyword around it whose
value yields the same errors there alone: meta-schema validation is local (the meta-schemas
constrain each keyword's value apart, and at a schema position apply themselves to the value
there alone), so a bad `multipleOf` deep in a 10 kB schema costs python-jsonschema
`{"multipleOf": -0.25}`. Whether a keyword is such a unit is asked of jsonschema-rs (the same
errors at the same meta-schema keywords alone as in place: not so for draft-04's
`exclusiveMinimum`, which needs its `minimum`), and the answer is kept only if
python-jsonschema's first error there is at the same place. Integers too large for
jsonschema-rs are read through stand-ins that keep their order (`validation.stand_ins`). A
valid schema is told first without a Python format callback (`_surely_valid`). Else, and
for a schema jsonschema-rs cannot read exactly (`validation.plain`), python-jsonschema
validates the whole schema, as it always did. Exact because jsonschema-rs is
at least as strict as python-jsonschema at every place (the tests compare them): each of its
errors is confirmed by python-jsonschema, and none of python-jsonschema's is missed.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from catalogaudit.model import (
    CUT,
    MAX_DEPTH,
    META_FORMATS,
    NOT_PLAIN,
    cut_deep,
    plain,
    pointer_of,
    regex_guarded,
    stand_ins,
    validator,
    value_depth,
)
from catalogaudit.walker import schema_nodes

Path = tuple[Any, ...]


@dataclass(frozen=True)
class SchemaError:
    """What CA403 reports of python-jsonschema's first error: where, what it says, about what."""

    absolute_path: Path
    message: str
    instance: Any


def first_schema_error(
    name: str,
    schema: dict[str, Any],
    copy: Any = None,
    keys: Collection[str] | None = None,
    at: str = "",
) -> SchemaError | None:
    """The first error of `schema` against the meta-schema of dialect `name` (a python-jsonschema
    validator class name, `Draft202012Validator`), or None when it is valid. `copy`: `plain`
    of `schema`, when the caller has it; `keys`: which `pattern` keywords the item holding it
    has, when known (`Item.keys`); `at`: its pointer in the item, so that the descent of its
    subschemas is the one the schema rules keep (`walker.schema_nodes`)."""
    if copy is None:
        copy = plain(schema)
    if copy is NOT_PLAIN:
        if value_depth(schema) >= MAX_DEPTH:
            return _shallow_first(name, schema)
        copy = stand_ins(schema)  # NOTE: the meta-schemas compare numbers with 0 only
        if copy is NOT_PLAIN:
            return python_first(name, schema)
    if _surely_valid(name, schema, copy, keys, at):
        return None
    checker = _rs(name)
    if checker.is_valid(copy):
        return None
    errors = [(tuple(e.instance_path), _keyword(e)) for e in checker.iter_errors(copy)]
    path = min((at for at, _ in errors), key=pointer_of)
    there = sorted(k for at, k in errors if at == path)
    originals, copies = [schema], [copy]
    for step in path[:-1]:
        originals.append(originals[-1][step])
        copies.append(copies[-1][step])
    for depth in range(len(path) - 1, -1, -1):
        if not isinstance(copies[depth], dict):
            continue
        key, rest = path[depth], path[depth:]
        alone = checker.iter_errors({key: copies[depth][key]})
        if sorted(_keyword(e) for e in alone if tuple(e.instance_path) == rest) != there:
            continue  # not a schema: the meta-schema does not apply itself here alone
        found = _alone(name, key, originals[depth][key])
        if found is not None and found.absolute_path == rest:
            return SchemaError(path[:depth] + rest, found.message, found.instance)
        break
    return python_first(name, schema)


def _surely_valid(
    name: str, schema: dict[str, Any], copy: Any, keys: Collection[str] | None, at: str
) -> bool:
    """Whether `schema` is valid, asked of jsonschema-rs with its own formats; False: ask the
    validator with python-jsonschema's formats (`_rs`).

    NOTE: its meta-schema validator asserts python-jsonschema's "regex" format by a Python
    callback, and having one makes jsonschema-rs slower on every keyword (bench/README.md,
    branch audit-shapes). Without it, jsonschema-rs asserts "regex" as ECMA-262 reads it, and
    its other formats as before. The meta-schemas assert "regex" only on `pattern` and on
    `patternProperties` names at schema positions, which `schema_nodes` all enters (every
    applicator keyword of every draft; the descent CA404 and the prose walk reuse). So "valid"
    here, with each such pattern valid for python-jsonschema's checker, is the callback
    validator's "valid". `keys`: the tool's (`Item.keys`): without either keyword, no pattern
    is looked for."""
    native, python = _native(name)
    if native is None or not native.is_valid(copy):
        return False
    if keys is not None and "pattern" not in keys and "patternProperties" not in keys:
        return True
    for sub, _, _ in schema_nodes(schema, at):
        # NOTE: a pattern may be no string where the dialect reads none (`prefixItems` in
        # draft 7, which `schema_nodes` enters): the slow way, not an unhashable cache key
        pattern = sub.get("pattern", "")
        if "pattern" in sub and not (isinstance(pattern, str) and _regex(python, pattern)):
            return False
        if "patternProperties" in sub:
            names = sub["patternProperties"]
            if not isinstance(names, dict) or not all(_regex(python, k) for k in names):
                return False
    return True


@cache
def _native(name: str) -> tuple[Any, Any]:
    """A dialect's meta-schema validator with jsonschema-rs's own formats, and the format
    checker python-jsonschema's `check_schema` uses; (None, None) when that checker asserts a
    meta-schema format other than "regex" (`uri` with rfc3987 installed): `_surely_valid`
    checks only patterns."""
    import jsonschema  # lazy: heavy

    checker = _format_checker(name)
    if set(META_FORMATS) & set(checker.checkers) - {"regex"}:
        return None, None
    return validator(_meta(name)[0], jsonschema.FormatChecker(())), checker


@lru_cache(maxsize=4096)
def _regex(checker: Any, pattern: str) -> bool:
    """python-jsonschema's "regex" verdict on a pattern (kept: a catalog repeats its few)."""
    return bool(checker.conforms(pattern, "regex"))


def _shallow_first(name: str, schema: dict[str, Any]) -> SchemaError | None:
    """The first error of a schema too deep for either library, found in its first `CUT`
    levels (each container at level `CUT` emptied): exact for an error above the cut that
    does not compare whole values (`uniqueItems`: emptied arrays may become equal); what only
    the levels below the cut hold goes unreported (issue 33: arrays 970 deep in `items`)."""
    cut = cut_deep(schema, CUT)
    try:
        found = first_schema_error(name, cut)
    except RecursionError:  # NOTE: not expected at CUT levels; never the whole rule's error
        return None
    if found is None or len(found.absolute_path) >= CUT - 1:
        return None
    if found.message.endswith("has non-unique elements"):  # python-jsonschema's uniqueItems
        return None
    return found


def _alone(name: str, key: str, value: Any) -> SchemaError | None:
    """`python_first` of the schema `{key: value}`, kept: the same defect recurs (a generator's
    negative `multipleOf` in every float property), and python-jsonschema resolves the 2020-12
    meta-schema's dynamic references even for one keyword."""
    kept = (name, key, _key(value))
    if kept not in _ALONE:
        if len(_ALONE) >= 4096:
            _ALONE.clear()
        _ALONE[kept] = python_first(name, {key: value})
    return _ALONE[kept]


#: `_alone`'s answers by dialect, keyword and `_key` of the value (bounded).
_ALONE: dict[tuple[str, str, Any], SchemaError | None] = {}


def _key(value: Any) -> Any:
    """A key equal only for values python-jsonschema cannot tell apart: the same types and
    reprs (1, 1.0, True and -0.0, 0.0 differ; so do 1.5 and a wire `1.50`), in the same order."""
    if isinstance(value, dict):
        return (type(value), tuple((k, _key(v)) for k, v in value.items()))
    if isinstance(value, list):
        return (type(value), tuple(_key(v) for v in value))
    return (type(value), repr(value))


def python_first(name: str, schema: Any) -> SchemaError | None:
    """python-jsonschema's first error of `schema` (by pointer, then message): the reference."""
    first = min(
        _python(name).iter_errors(schema),
        key=lambda e: (pointer_of(e.absolute_path), e.message),
        default=None,
    )
    if first is None:
        return None
    return SchemaError(tuple(first.absolute_path), first.message, first.instance)


def _keyword(error: Any) -> tuple[str, str]:
    """Which meta-schema keyword failed: its absolute location (the meta-schemas all have an
    `$id`), and the kind of failure."""
    return (str(error.absolute_keyword_location), type(error.kind).__name__)


@cache
def _rs(name: str) -> Any:
    """The jsonschema-rs meta-schema validator of a dialect, shared by every schema audited."""
    schema, _ = _meta(name)
    return validator(schema, _format_checker(name))


@cache
def _python(name: str) -> Any:
    """The python-jsonschema meta-schema validator of a dialect."""
    schema, meta = _meta(name)
    return meta(schema, format_checker=_format_checker(name))


@cache
def _format_checker(name: str) -> Any:
    """The format checker `check_schema` uses for a dialect, its "regex" saying "not a regex"
    for every pattern `re.compile` refuses (`validation.regex_guarded`)."""
    return regex_guarded(_meta(name)[1].FORMAT_CHECKER)


def _meta(name: str) -> tuple[dict[str, Any], Any]:
    """The meta-schema of a dialect and the validator class `check_schema` checks it with."""
    import jsonschema  # lazy: heavy

    schema = getattr(jsonschema, name).META_SCHEMA
    return schema, jsonschema.validators.validator_for(schema)
