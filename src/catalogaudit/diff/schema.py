"""JSON Schema comparison for `diff`: is a changed schema narrower, wider, or undecidable?

`inputSchema` is the request side: a schema that accepts less breaks callers that validated
against the old one. `outputSchema` is the response side: a schema that allows more breaks
readers. Composition makes inclusion undecidable without a solver, so it is reported as
`unknown` instead of guessed (oasdiff says WARN there; JOONS says UNKNOWN).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from catalogaudit.diff.sides import same
from catalogaudit.model import jsonwire

COMPOSITION = frozenset(
    {
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "dependencies",
    }
)
DEFINITIONS = frozenset({"$defs", "definitions"})
PROSE = frozenset({"description", "title"})
ANNOTATION_KEYWORDS = frozenset(
    {
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "$schema",
        "$id",
        "$anchor",
        "contentMediaType",
        "contentEncoding",
    }
)
LOWER = frozenset(
    {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
)
UPPER = frozenset(
    {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
)
ABSENT: Any = object()


@dataclass
class Ctx:
    """Collects (rule, pointer, message, in-prompt) for one item."""

    listing: str
    identity: str | None
    old_identity: str | None = None
    found: list[tuple[str, str, str, bool]] = field(default_factory=list)

    def add(self, rule: str, pointer: str, message: str, prompt: bool) -> None:
        """Record one change."""
        self.found.append((rule, pointer, message, prompt))


def _same(a: Any, b: Any) -> bool:
    if a is ABSENT or b is ABSENT:
        return a is b
    return same(a, b)


def ex(value: Any, limit: int = 60) -> str:
    """A short JSON excerpt for messages."""
    if value is ABSENT:
        return "(absent)"
    text = jsonwire.compact(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def pair(old: Any, new: Any, limit: int = 60) -> str:
    """`old -> new`, cut around the first difference so long prose shows what changed."""
    a, b = (ex(v, 10**9) for v in (old, new))
    if len(a) <= limit and len(b) <= limit:
        return f"{a} -> {b}"
    pre = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    suf = 0
    while suf < min(len(a), len(b)) - pre and a[-1 - suf] == b[-1 - suf]:
        suf += 1
    start = max(0, pre - 20)

    def cut(t: str) -> str:
        end = min(len(t), max(len(t) - suf + 20, start + 1))
        mid = t[start:end]
        mid = mid if len(mid) <= limit else mid[:limit]
        return ("..." if start else "") + mid + ("..." if start + len(mid) < len(t) else "")

    return f"{cut(a)} -> {cut(b)}"


def differing(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = list(old) + [k for k in new if k not in old]
    return [k for k in keys if not _same(old.get(k, ABSENT), new.get(k, ABSENT))]


def schema(ctx: Ctx, old: Any, new: Any, at: str, direction: str) -> None:
    """Classify schema differences; `direction` in (request: narrowing breaks) or out."""
    if _same(old, new):
        return
    prompt = direction == "in"
    if not isinstance(old, dict) or not isinstance(new, dict):
        ctx.add("CA842", at, f"schema changed: {pair(old, new)}", prompt)
        return
    composed = bool((set(old) | set(new)) & COMPOSITION)
    #: Keys of a composed schema whose change cannot be judged: one CA840 for the node.
    undecidable: list[str] = []
    for key in differing(old, new):
        kat = jsonwire.pointer_join(at, key)
        o, n = old.get(key, ABSENT), new.get(key, ABSENT)
        before = len(ctx.found)
        if key in PROSE or key in ANNOTATION_KEYWORDS or key.startswith("x-"):
            rule = ("CA860" if key in PROSE else "CA864") if prompt else "CA870"
            ctx.add(rule, kat, f"{key} changed: {pair(o, n)}", prompt)
        elif key in DEFINITIONS:
            od, nd = (v if isinstance(v, dict) else {} for v in (o, n))
            for name in differing(od, nd):
                ctx.add(
                    "CA841",
                    jsonwire.pointer_join(kat, name),
                    f"definition {ex(name)} changed; its users are reached through $ref",
                    prompt,
                )
        elif composed:
            undecidable.append(key)
            continue
        elif key == "type":
            _types(ctx, old, new, kat, direction)
        elif key in ("enum", "const"):
            if key == "const" and "enum" in differing(old, new):
                continue  # reported with enum
            _values(ctx, old, new, kat, direction)
        elif key == "properties":
            _properties(ctx, old, new, kat, direction)
        elif key == "required":
            _required(ctx, old, new, kat, direction)
        elif (
            key in ("items", "additionalProperties") and isinstance(o, dict) and isinstance(n, dict)
        ):
            schema(ctx, o, n, kat, direction)
        else:
            how = _tighter(key, o, n)
            if how == "unknown":
                ctx.add("CA842", kat, f"{key} changed ({pair(o, n)}); cannot compare", prompt)
            elif how != "same":
                bad = (how == "tighter") == prompt  # tighter input or looser output breaks
                rule = {
                    (True, True): "CA819",
                    (True, False): "CA820",
                    (False, True): "CA831",
                    (False, False): "CA833",
                }[(prompt, bad)]
                word = "tightened" if how == "tighter" else "loosened"
                ctx.add(rule, kat, f"{key} {word}: {pair(o, n)}", prompt)
        if len(ctx.found) == before and not (key == "required" and _req(old) != _req(new)):
            # NOTE: a `required` whose set changed is reported with the property it names
            # (CA810, CA812, CA813); only a reordering has no contract effect.
            ctx.add(
                "CA864" if prompt else "CA870",
                kat,
                f"{key} changed ({pair(o, n)}); no contract effect",
                prompt,
            )
    _composition(ctx, old, new, at, undecidable, prompt)


def _composition(
    ctx: Ctx, old: dict[str, Any], new: dict[str, Any], at: str, keys: list[str], prompt: bool
) -> None:
    """One CA840 per composed schema node, however many of its keywords changed: one
    restructuring (`type`/`properties` moved into an `anyOf`) is one undecidable change."""
    if not keys:
        return
    if len(keys) == 1:
        key = keys[0]
        o, n = old.get(key, ABSENT), new.get(key, ABSENT)
        ctx.add(
            "CA840",
            jsonwire.pointer_join(at, key),
            f"{key} changed in a composed schema ({pair(o, n)}); "
            "whether this breaks clients is undecidable",
            prompt,
        )
        return
    ctx.add(
        "CA840",
        at,
        f"{', '.join(keys)} changed in a composed schema; whether this breaks clients is "
        "undecidable",
        prompt,
    )


def _tighter(key: str, old: Any, new: Any) -> str:
    """tighter, looser, same (no effect) or unknown, for one constraint keyword."""
    if key in LOWER or key in UPPER:
        if isinstance(old, bool) or isinstance(new, bool):  # draft-04 exclusive bounds
            o, n = old is True, new is True
            return "same" if o == n else ("tighter" if n else "looser")
        if old is ABSENT or new is ABSENT:
            return "tighter" if old is ABSENT else "looser"
        if not all(isinstance(v, (int, float)) for v in (old, new)):
            return "unknown"
        if float(new) == float(old):
            return "same"
        return "tighter" if (float(new) > float(old)) == (key in LOWER) else "looser"
    if key == "pattern":
        if old is not ABSENT and new is not ABSENT:
            return "unknown"  # regular languages cannot be compared here
        return "tighter" if old is ABSENT else "looser"
    if key in ("format", "uniqueItems"):
        o, n = old not in (ABSENT, False), new not in (ABSENT, False)
        return "looser" if o and not n else ("tighter" if n else "same")
    if key == "multipleOf":
        if old is ABSENT or new is ABSENT:
            return "tighter" if old is ABSENT else "looser"
        try:
            return "tighter" if float(old) % float(new) != 0 else "looser"
        except (TypeError, ValueError, ZeroDivisionError):
            return "unknown"
    if key == "additionalProperties":
        o_open, n_open = old in (ABSENT, True), new in (ABSENT, True)
        if o_open and n_open:
            return "same"
        if new is False or (o_open and isinstance(new, dict)):
            return "tighter" if new is False else "unknown"
        return "looser" if old is False or n_open else "unknown"
    return "unknown"


def _typeset(s: dict[str, Any]) -> set[str] | None:
    t = s.get("type", ABSENT)
    if t is ABSENT:
        return None
    return {t} if isinstance(t, str) else {x for x in t if isinstance(x, str)}


def _covers(wide: set[str] | None, narrow: set[str] | None) -> bool:
    if wide is None:
        return True
    if narrow is None:
        return False
    return all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


def _types(ctx: Ctx, old: dict[str, Any], new: dict[str, Any], at: str, direction: str) -> None:
    o, n = _typeset(old), _typeset(new)
    text = f"type {ex(old.get('type', ABSENT))} -> {ex(new.get('type', ABSENT))}"
    if direction == "in":
        if not _covers(n, o):
            ctx.add("CA815", at, f"{text}: values accepted before are now rejected", True)
        elif not _covers(o, n):
            ctx.add("CA816", at, f"{text} (widened)", True)
    elif not _covers(o, n):
        ctx.add("CA831", at, f"{text}: the output may hold values clients did not expect", False)
    elif not _covers(n, o):
        ctx.add("CA833", at, f"{text} (narrowed)", False)


def _valueset(s: dict[str, Any]) -> set[str] | None:
    if "const" in s:
        return {jsonwire.canonical(s["const"])}
    if isinstance(s.get("enum"), list):
        return {jsonwire.canonical(v) for v in s["enum"]}
    return None


def _values(ctx: Ctx, old: dict[str, Any], new: dict[str, Any], at: str, direction: str) -> None:
    o, n = _valueset(old), _valueset(new)
    lost = (o or set()) - n if n is not None and o is not None else set()
    gained = n - o if n is not None and o is not None else set()
    narrowed = bool(lost) or (o is None and n is not None)
    widened = bool(gained) or (n is None and o is not None)
    detail = f" (removed {', '.join(sorted(lost))})" if lost else ""
    detail += f" (added {', '.join(sorted(gained))})" if gained else ""
    if direction == "in":
        if narrowed:
            ctx.add("CA817", at, f"allowed values narrowed{detail}", True)
        elif widened:
            ctx.add("CA818", at, f"allowed values widened{detail}", True)
    elif widened:
        ctx.add("CA831", at, f"output values widened{detail}", False)
    elif narrowed:
        ctx.add("CA833", at, f"output values narrowed{detail}", False)


def _props(s: dict[str, Any]) -> dict[str, Any]:
    p = s.get("properties")
    return p if isinstance(p, dict) else {}


def _req(s: dict[str, Any]) -> set[str]:
    r = s.get("required")
    return {x for x in r if isinstance(x, str)} if isinstance(r, list) else set()


def _properties(ctx: Ctx, old: dict[str, Any], new: dict[str, Any], at: str, d: str) -> None:
    op, np_ = _props(old), _props(new)
    prompt = d == "in"
    for name in op:
        pat = jsonwire.pointer_join(at, name)
        if name not in np_:
            if not prompt:
                ctx.add("CA830", pat, f"output property {ex(name)} removed", False)
            elif new.get("additionalProperties") is False:
                ctx.add(
                    "CA812",
                    pat,
                    f"input {ex(name)} removed and extra properties are "
                    "rejected: calls that pass it now fail",
                    True,
                )
            else:
                ctx.add("CA813", pat, f"input {ex(name)} removed", True)
        else:
            schema(ctx, op[name], np_[name], pat, d)
    for name in np_:
        if name not in op:
            pat = jsonwire.pointer_join(at, name)
            if not prompt:
                ctx.add("CA832", pat, f"output property {ex(name)} added", False)
            elif name in _req(new):
                ctx.add("CA810", pat, f"new required input {ex(name)}", True)
            else:
                ctx.add("CA814", pat, f"new optional input {ex(name)}", True)


def _required(ctx: Ctx, old: dict[str, Any], new: dict[str, Any], at: str, d: str) -> None:
    op, np_ = _props(old), _props(new)
    for name in sorted(_req(new) - _req(old)):
        if name in np_ and name not in op:
            continue  # a new required property: reported by _properties
        if d == "in":
            ctx.add("CA811", at, f"input {ex(name)} became required", True)
        else:
            ctx.add("CA833", at, f"output {ex(name)} is now always present", False)
    for name in sorted(_req(old) - _req(new)):
        if name in op and name not in np_:
            continue  # removed: reported by _properties
        if d == "in":
            ctx.add("CA821", at, f"input {ex(name)} is no longer required", True)
        else:
            ctx.add("CA834", at, f"output {ex(name)} is no longer always present", False)
