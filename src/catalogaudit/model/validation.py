"""JSON Schema validation by jsonschema-rs, reading values as python-jsonschema reads them.

jsonschema-rs answers "valid?" and "where?" in Rust; python-jsonschema stays the reference
(its messages are what users read; tests/model/test_validation_reference.py compares the two
on the meta-schemas, the MCP schemas and the snapshot schema). What would make them differ is
closed here:

- values: jsonschema-rs reads only exact builtin types (a `WireFloat` makes most keywords
  raise, and `is_valid`, `not` and `if` misread it silently, jsonschema-rs 0.61), NaN and
  Infinity as no number, and a value nested about 10,000 deep kills the process. `plain`
  copies a value into builtin types, or answers `NOT_PLAIN` and the caller asks
  python-jsonschema; a value nested `MAX_DEPTH` or deeper, which python-jsonschema cannot
  follow either, is validated in its first `CUT` levels (`cut`);
- regexes: format "regex" is Python's `re.compile`, as python-jsonschema's (ECMA-262 accepts
  `\\p{L}` and refuses `(?P<name>...)`); `pattern` stays ECMA-262 (linear time), the stricter
  on our schemas' patterns (`$` before a final newline, `.` on `\\r`);
- formats: the caller's python-jsonschema checker decides those it checks, jsonschema-rs the
  other meta-schema formats.

So "valid" from jsonschema-rs is final, and an error is confirmed (and worded) by
python-jsonschema.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cache, partial
from typing import Any

#: What `plain` answers for a value jsonschema-rs cannot be trusted to read.
NOT_PLAIN: Any = object()

#: Deepest nesting (objects and arrays) handed to jsonschema-rs; deeper values go to
#: python-jsonschema, which refuses them with a RecursionError instead of a crash.
MAX_DEPTH = 256

#: How many levels of a value nested `MAX_DEPTH` or deeper are validated (`cut`): deeper
#: still, python-jsonschema overflows the recursion limit (it recurses per level, and words an
#: error with the repr of its whole instance), and jsonschema-rs is never asked.
CUT = 100

#: Integers jsonschema-rs reads as machine integers; larger ones go to python-jsonschema
#: (exact big-integer arithmetic, and `str(int)` is bounded by the interpreter).
_INT_BOUND = 2**63

#: The formats the JSON Schema meta-schemas (drafts 4 to 2020-12) use.
META_FORMATS = ("regex", "uri", "uri-reference")


#: A lone surrogate: JSON text may spell one (`"\\ud800"`), UTF-8 cannot hold it, and
#: jsonschema-rs reads strings as UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")


def plain(
    value: Any, depth: int = 0, keys: set[Any] | None = None, stand: dict[int, int] | None = None
) -> Any:
    """`value` as builtin dicts, lists, strings, finite floats, small ints, booleans and None
    (numbers as their value: `1.50E1` becomes 15.0, which every keyword reads alike), or
    `NOT_PLAIN` (non-finite or huge numbers, nesting over `MAX_DEPTH`, lone surrogates, other
    types). `keys`: every object's keys are added to it (complete unless `NOT_PLAIN`), so a
    caller asking whether some object holds a key needs no second walk (`Item.keys`).
    `stand`: each integer of magnitude `STAND_IN_BOUND` or more becomes its stand-in there
    (`stand_ins`), or the value is `NOT_PLAIN`.

    Copy on write: a container whose members are all plain is handed back itself, so a
    catalog without wire numbers (the parser keeps every float's lexeme) costs one walk."""
    kind = type(value)
    bound = _INT_BOUND if stand is None else STAND_IN_BOUND
    if kind is dict or kind is list:
        if depth >= MAX_DEPTH:
            return NOT_PLAIN
        if kind is dict and keys is not None:
            keys.update(value)
        copy: Any = None
        lone = _SURROGATE.search  # NOTE: `isascii` first: O(1)
        finite = math.isfinite
        # NOTE: scalars (most members) are read here, not by a call each: floats were most calls
        for slot, item in value.items() if kind is dict else enumerate(value):
            if kind is dict:
                key = slot if type(slot) is str else str(slot)
                if not (key.isascii() or lone(key) is None):
                    return NOT_PLAIN
            each = type(item)
            if each is str:
                if item.isascii() or lone(item) is None:
                    continue
                return NOT_PLAIN
            if each is bool or item is None or (each is int and -bound < item < bound):
                continue
            if isinstance(item, float):
                if not finite(item):
                    return NOT_PLAIN
                if each is float:
                    continue
                new = float(item)
            elif isinstance(item, int):  # NOTE: a parser's int, or beyond `bound`
                new = int(item) if -bound < item < bound else (stand or {}).get(item, NOT_PLAIN)
                if new is NOT_PLAIN:
                    return NOT_PLAIN
            else:
                new = plain(item, depth + 1, keys, stand)
                if new is NOT_PLAIN:
                    return NOT_PLAIN
                if new is item:
                    continue
            if copy is None:
                copy = kind(value)
            copy[slot] = new
        return value if copy is None else copy
    if isinstance(value, dict):
        return plain(dict(value), depth, keys, stand)
    if kind is not str and not isinstance(value, (int, float)) and value is not None:
        return NOT_PLAIN
    copy = plain([value], depth - 1, keys, stand)  # NOTE: a scalar, read as members are
    return copy if copy is NOT_PLAIN else copy[0]


#: Integers at least this large in magnitude get stand-ins (`stand_ins`), placed between this
#: bound and the largest integer jsonschema-rs reads.
STAND_IN_BOUND = 2**62


def stand_ins(value: Any) -> Any:
    """`plain` of `value` with each integer jsonschema-rs cannot read (a 50-digit default)
    replaced by a stand-in it can, or `NOT_PLAIN` when that cannot be exact (or `plain` is
    `NOT_PLAIN` for another reason).

    Exact for a schema whose numbers (`minimum`, `maximum`, `enum`, `const`...) are all of
    magnitude below `STAND_IN_BOUND` and that has no `multipleOf` (the JSON Schema
    meta-schemas and the MCP result schemas: tests/model/test_validation_reference.py):
    the stand-ins are integers again, in the same order among themselves and against every
    other number of the value (all of magnitude below the bound, else `NOT_PLAIN`, so no
    float equals a replaced integer) and of the schema, so `type`, the bounds, `enum`,
    `const` and `uniqueItems` (python-jsonschema's `uniq` sorts) answer alike at every place,
    and an error sits where it sat. Its wording stays python-jsonschema's, on the original."""
    big: set[int] = set()
    stack: list[tuple[Any, int]] = [([value], -1)]  # NOTE: the root, as a member at level 0
    while stack:
        node, level = stack.pop()
        if level >= MAX_DEPTH:
            return NOT_PLAIN
        for child in _children(node):  # NOTE: scalars (most members) are read here, not pushed
            if isinstance(child, (dict, list)):
                stack.append((child, level + 1))
            elif isinstance(child, (int, float)) and not -STAND_IN_BOUND < child < STAND_IN_BOUND:
                if not isinstance(child, int):  # NOTE: NaN too
                    return NOT_PLAIN
                big.add(child)
    if not big:
        return NOT_PLAIN
    up = sorted(n for n in big if n > 0)
    down = sorted((n for n in big if n < 0), reverse=True)
    step = 2**11  # NOTE: multiples are doubles exactly, were they compared as doubles
    stand = {n: STAND_IN_BOUND + step * (i + 1) for i, n in enumerate(up)}
    stand.update({n: -STAND_IN_BOUND - step * (i + 1) for i, n in enumerate(down)})
    return plain(value, stand=stand)


def depth(value: Any) -> int:
    """How deep containers nest in `value` (0: a scalar; `plain` refuses `MAX_DEPTH` or more),
    without recursion."""
    deepest = 0
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((c, level + 1) for c in _children(node) if isinstance(c, (dict, list)))
    return deepest


def cut(value: Any, levels: int) -> Any:
    """A copy of `value` whose containers at level `levels` (the root's is 1) are empty, without
    recursion: what can be validated of a value too deep for either library."""
    if not isinstance(value, (dict, list)):
        return value
    root: Any = {} if isinstance(value, dict) else []
    stack = [(value, root, 1)]
    while stack:
        source, target, level = stack.pop()
        for key, child in source.items() if isinstance(source, dict) else enumerate(source):
            new = child
            if isinstance(child, (dict, list)):
                new = {} if isinstance(child, dict) else []
                if level + 1 < levels:
                    stack.append((child, new, level + 1))
            if isinstance(target, dict):
                target[key] = new
            else:
                target.append(new)
    return root


def _children(node: dict[str, Any] | list[Any]) -> Any:
    return node.values() if isinstance(node, dict) else node


def validator(schema: dict[str, Any], format_checker: Any = None) -> Any:
    """A jsonschema-rs validator of `schema` (draft from its `$schema`) at least as strict as
    python-jsonschema's validator of it built with `format_checker`, so that "valid" from it is
    python-jsonschema's answer too, and an error from it is one to confirm with
    python-jsonschema. Formats are not asserted without a checker; with one, the `META_FORMATS`
    it checks are asserted by it, and the others by jsonschema-rs (stricter than not at all).

    `schema` must be one of ours: its `$ref`s resolve inside it or to the meta-schemas
    jsonschema-rs bundles (nothing is fetched), and its patterns must match no more under
    ECMA-262 than under Python's `re` (tests/model/test_validation_reference.py)."""
    import jsonschema_rs  # lazy: a 6 MB extension, only for the commands that validate

    formats: dict[str, Callable[..., bool]] | None = None
    if format_checker is not None:
        formats = {
            name: partial(format_checker.conforms, format=name)
            for name in META_FORMATS
            if name in format_checker.checkers
        }
    return jsonschema_rs.validator_for(
        schema,
        formats=formats,
        validate_formats=format_checker is not None,
        pattern_options=jsonschema_rs.RegexOptions(),
        offline=True,
    )


def surely_valid(dialect: str, schema: Any, formats: tuple[str, ...] = ()) -> bool:
    """True when jsonschema-rs finds `schema` valid against the meta-schema of `dialect` (its
    `$schema` URI), with the meta-schema's `formats` of those names asserted: then
    python-jsonschema finds it valid too (`validator`), and its much slower walk is spared.
    False means "ask python-jsonschema" (so for a schema jsonschema-rs cannot read exactly)."""
    copy = plain(schema)
    return copy is not NOT_PLAIN and bool(meta_validator(dialect, formats).is_valid(copy))


@cache
def meta_validator(dialect: str, formats: tuple[str, ...]) -> Any:
    """jsonschema-rs's validator of the meta-schema of `dialect` (`surely_valid`), one per
    process: a caller that wants its first error as well as its verdict asks this one."""
    import jsonschema  # lazy: heavy

    meta = jsonschema.validators.validator_for({"$schema": dialect}).META_SCHEMA
    return validator(meta, regex_guarded(jsonschema.FormatChecker(formats)) if formats else None)


#: How `re.compile` refuses a pattern besides `re.error`: a repeat count beyond its range
#: (`a{99999999999}`), incompatible inline flags (`(?u)(?a)`), nesting deeper than its parser
#: (about 3,000 groups), a pattern too large to hold.
_NOT_COMPILED = (OverflowError, ValueError, RecursionError, MemoryError)


def regex_guarded(checker: Any) -> Any:
    """A copy of python-jsonschema format checker `checker` whose "regex" says "not a regex"
    for every pattern `re.compile` refuses. Its own lets all but `re.error` escape
    (python-jsonschema issues 1526, 1538 and 1558): a server's pattern ended the rule that
    asked (CA403, a profile's `meta-schema-valid`) in a rule error. Every checker that
    validates a server's schema against a meta-schema is built through here."""
    import jsonschema  # lazy: heavy

    guarded = jsonschema.FormatChecker(())
    guarded.checkers = dict(checker.checkers)
    if "regex" in guarded.checkers:
        func, raises = guarded.checkers["regex"]
        raises = raises if isinstance(raises, tuple) else (raises,)
        guarded.checkers["regex"] = (func, (*raises, *_NOT_COMPILED))
    return guarded
