"""JSON Schema comparison for `diff`: is a changed schema narrower, wider, or undecidable?

`inputSchema` is the request side: a schema that accepts less breaks callers that validated
against the old one. `outputSchema` is the response side: a schema that allows more breaks
readers. Spellings of one schema (`additionalProperties: true` and `{}`) are no change, and a
composed node is compared by proof where `subsume.implies` finds one; otherwise composition
makes inclusion undecidable without a solver, so it is reported as `unknown` instead of
guessed (oasdiff says WARN there; JOONS says UNKNOWN).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from catalogaudit.diffing.subsume import (
    ABSENT,
    ANNOTATION_KEYWORDS,
    APPLIES_TO,
    COMPOSITION,
    DEFINITIONS,
    EMPTY_BY_DEFAULT,
    LOWER,
    OPEN_BY_DEFAULT,
    PROSE,
    UPPER,
    covers,
    moot,
    same_or_absent,
    sub,
    subsumption,
    typeset,
)
from catalogaudit.model import canonical, compact, pointer_join


@dataclass
class Ctx:
    """Collects (rule, pointer, message, in-prompt) for one item."""

    listing: str
    identity: str | None
    old_identity: str | None = None
    found: list[tuple[str, str, str, bool]] = field(default_factory=list)
    #: Differences in spelling only (`additionalProperties: true -> {}`): no change, but named
    #: when nothing else changed in the item, since its served bytes did.
    equivalent: list[str] = field(default_factory=list)

    def add(self, rule: str, pointer: str, message: str, prompt: bool) -> None:
        """Record one change."""
        self.found.append((rule, pointer, message, prompt))


def ex(value: Any, limit: int = 60) -> str:
    """A short JSON excerpt for messages."""
    if value is ABSENT:
        return "(absent)"
    text = compact(value)
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
    return [k for k in keys if not same_or_absent(old.get(k, ABSENT), new.get(k, ABSENT))]


def schema(ctx: Ctx, old: Any, new: Any, at: str, direction: str) -> None:
    """Classify schema differences; `direction` in (request: narrowing breaks) or out."""
    if same_or_absent(old, new):
        return
    prompt = direction == "in"
    if not isinstance(old, dict) or not isinstance(new, dict):
        ctx.add("CA842", at, f"schema changed: {pair(old, new)}", prompt)
        return
    composed = bool((set(old) | set(new)) & COMPOSITION)
    proved = subsumption(old, new) if composed else None
    if proved is not None:
        _proved(ctx, old, new, at, direction, proved)
    #: Keys of a composed schema whose change cannot be judged: one CA840 for the node.
    undecidable: list[str] = []
    skip = moot(old, new)
    for key in differing(old, new):
        kat = pointer_join(at, key)
        o, n = old.get(key, ABSENT), new.get(key, ABSENT)
        before, spelled = len(ctx.found), len(ctx.equivalent)
        if key in PROSE or key in ANNOTATION_KEYWORDS or key.startswith("x-"):
            rule = ("CA860" if key in PROSE else "CA864") if prompt else "CA870"
            ctx.add(rule, kat, f"{key} changed: {pair(o, n)}", prompt)
        elif proved is not None or APPLIES_TO.get(key) in skip:
            continue  # reported with the node (proved) or with `type` (moot)
        elif key in EMPTY_BY_DEFAULT and same_or_absent(
            EMPTY_BY_DEFAULT[key] if o is ABSENT else o, EMPTY_BY_DEFAULT[key] if n is ABSENT else n
        ):
            ctx.equivalent.append(f"{key} {ex(o)} -> {ex(n)} at {kat} (the same)")
        elif (
            key in OPEN_BY_DEFAULT
            and isinstance(sub(o, key), dict)
            and isinstance(sub(n, key), dict)
        ):
            if same_or_absent(sub(o, key), sub(n, key)):
                ctx.equivalent.append(f"{key} {ex(o)} -> {ex(n)} at {kat} (the same schema)")
            else:
                schema(ctx, sub(o, key), sub(n, key), kat, direction)
        elif key in DEFINITIONS:
            od, nd = (v if isinstance(v, dict) else {} for v in (o, n))
            for name in differing(od, nd):
                ctx.add(
                    "CA841",
                    pointer_join(kat, name),
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
        if (
            len(ctx.found) == before
            and len(ctx.equivalent) == spelled
            and not (key == "required" and _req(old) != _req(new))
        ):
            # NOTE: a `required` whose set changed is reported with the property it names
            # (CA810, CA812, CA813); only a reordering has no contract effect.
            ctx.add(
                "CA864" if prompt else "CA870",
                kat,
                f"{key} changed ({pair(o, n)}); no contract effect",
                prompt,
            )
    _composition(ctx, old, new, at, undecidable, prompt)


def _proved(
    ctx: Ctx, old: dict[str, Any], new: dict[str, Any], at: str, direction: str, how: str
) -> None:
    """One change for a composed node whose direction was proved (`implies`)."""
    keys = [k for k in differing(old, new) if k not in PROSE and k not in ANNOTATION_KEYWORDS]
    text = ", ".join(
        f"{k} {ex(old.get(k, ABSENT), 40)} -> {ex(new.get(k, ABSENT), 40)}" for k in keys
    )
    if how == "same":
        ctx.equivalent.append(f"{text} at {at or 'the top level'} (the same schema)")
        return
    prompt = direction == "in"
    if how == "wider":
        rule, what = ("CA816", "widened") if prompt else ("CA831", "widened")
        why = "every value accepted before is still accepted"
    else:
        rule, what = ("CA815", "narrowed") if prompt else ("CA833", "narrowed")
        why = "every value accepted now was accepted before; others may now be rejected"
    if not prompt and how == "wider":
        why = "the output may hold values clients did not expect"
    ctx.add(rule, at, f"{text} ({what}: {why})", prompt)


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
            pointer_join(at, key),
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
        try:
            was, now = float(old), float(new)  # NOTE: as clients reading doubles compare them
        except OverflowError:  # NOTE: an integer beyond the double range: exactly
            was, now = old, new
        if now == was:
            return "same"
        return "tighter" if (now > was) == (key in LOWER) else "looser"
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
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return "unknown"
    if key == "additionalProperties":
        o_open, n_open = old in (ABSENT, True), new in (ABSENT, True)
        if o_open and n_open:
            return "same"
        if new is False or (o_open and isinstance(new, dict)):
            return "tighter" if new is False else "unknown"
        return "looser" if old is False or n_open else "unknown"
    return "unknown"


def _types(ctx: Ctx, old: dict[str, Any], new: dict[str, Any], at: str, direction: str) -> None:
    o, n = typeset(old), typeset(new)
    text = f"type {ex(old.get('type', ABSENT))} -> {ex(new.get('type', ABSENT))}"
    if direction == "in":
        if not covers(n, o):
            ctx.add("CA815", at, f"{text}: values accepted before are now rejected", True)
        elif not covers(o, n):
            ctx.add("CA816", at, f"{text} (widened)", True)
    elif not covers(o, n):
        ctx.add("CA831", at, f"{text}: the output may hold values clients did not expect", False)
    elif not covers(n, o):
        ctx.add("CA833", at, f"{text} (narrowed)", False)


def _valueset(s: dict[str, Any]) -> set[str] | None:
    if "const" in s:
        return {canonical(s["const"])}
    if isinstance(s.get("enum"), list):
        return {canonical(v) for v in s["enum"]}
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
        pat = pointer_join(at, name)
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
            pat = pointer_join(at, name)
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
