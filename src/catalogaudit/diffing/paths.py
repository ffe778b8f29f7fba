"""Which values of two matched items differ in meaning (`changed_paths`), and whether two values
do (`same`): what `diff` and `stability` report of an item whose canonical hash changed."""

from __future__ import annotations

from typing import Any

from catalogaudit.canonical import jcs_bytes
from catalogaudit.model import escape_pointer


def same(a: Any, b: Any) -> bool:
    """Equal in meaning (same RFC 8785 bytes); Python's `==` first, since it is C-fast and
    only errs toward equal (`True == 1`), which the JCS bytes then settle."""
    if a is b:
        return True
    if a != b:
        return False
    if isinstance(a, (dict, list)):
        return jcs_bytes(a) == jcs_bytes(b)
    return isinstance(a, bool) is isinstance(b, bool)


def _prune(a: Any, b: Any) -> tuple[Any, Any]:
    # Drop what is equal from both sides, keeping keys and list indexes, so deepdiff walks only
    # the parts that differ: it is thorough but slow.
    if isinstance(a, dict) and isinstance(b, dict):
        pa: dict[str, Any] = {}
        pb: dict[str, Any] = {}
        for k in [*a, *(k for k in b if k not in a)]:
            if k in a and k in b:
                if not same(a[k], b[k]):
                    pa[k], pb[k] = _prune(a[k], b[k])
            elif k in a:
                pa[k] = a[k]
            else:
                pb[k] = b[k]
        return pa, pb
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = [(None, None) if same(x, y) else _prune(x, y) for x, y in zip(a, b, strict=True)]
        return [x for x, _ in pairs], [y for _, y in pairs]
    return a, b


_DEEPDIFF: dict[str, Any] = {
    "view": "tree",
    "ignore_numeric_type_changes": True,
    "threshold_to_diff_deeper": 0,
}


def _huge_as_text(value: Any) -> Any:
    """`value` with each integer beyond the double range as its digits (a string): compared
    by value still, and at the same place."""
    if isinstance(value, dict):
        return {k: _huge_as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_huge_as_text(v) for v in value]
    huge = isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**1024
    return str(int(value)) if huge else value


def changed_paths(old: Any, new: Any) -> list[str]:
    """JSON Pointers of every value that differs in meaning (deepdiff; numbers by value)."""
    from deepdiff import DeepDiff  # lazy: only items whose hashes differ get here

    pruned = _prune(old, new)
    found: set[str] = set()
    for a, b in (pruned, (old, new)):  # the whole items only if pruning hid the difference
        try:
            tree = DeepDiff(a, b, **_DEEPDIFF)
        except OverflowError:  # NOTE: deepdiff spells numbers as floats: not 1e400's integer
            tree = DeepDiff(_huge_as_text(a), _huge_as_text(b), **_DEEPDIFF)
        for levels in tree.values():
            for level in levels:
                parts = level.path(output_format="list")
                found.add("".join("/" + escape_pointer(str(p)) for p in parts))
        if found or same(old, new):
            break
    return sorted(found)
