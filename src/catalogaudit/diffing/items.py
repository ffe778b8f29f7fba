"""`catalogaudit diff`: what changed between two catalogs, classified so CI can gate on it.

In the spirit of oasdiff: every change gets a stable rule id (`CA8xx`, listed in `RULES` and
`docs/diff-rules.md`) and a class. `inputSchema` is the request side (narrowing breaks callers),
`outputSchema` the response side (widening breaks readers). Composition (`$ref`, `anyOf`,
`oneOf`, `allOf`, `not`, `if`/`then`/`else`) makes a verdict undecidable: we say `unknown`
rather than guess. Hashes are compared first; only items whose hashes differ are examined.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from catalogaudit.diffing import modes
from catalogaudit.diffing.paths import changed_paths, same
from catalogaudit.diffing.renames import pair_renames, spelled_alike
from catalogaudit.diffing.rules import RULES, compare_item
from catalogaudit.diffing.schema import Ctx
from catalogaudit.diffing.sides import ItemDelta, Side, item_causes, match
from catalogaudit.diffing.stability import capture_warning
from catalogaudit.model import IDENTITY, LISTINGS, canonical, dump_string, jcs_key

#: Thresholds of `--fail-on`, low to high; `never` fails on nothing.
LEVELS: dict[str, int] = {"cosmetic": 1, "model-visible": 2, "breaking": 3}
FAIL_ON: tuple[str, ...] = ("never", "cosmetic", "model-visible", "breaking")
#: Display order of classes, most severe first.
CLASSES: tuple[str, ...] = (
    "breaking",
    "unknown",
    "model-visible",
    "additive",
    "compatible",
    "cosmetic",
)
_LABEL = {
    "tools": "tool",
    "prompts": "prompt",
    "resources": "resource",
    "resourceTemplates": "resource template",
    "catalog": "catalog",
}


@dataclass(frozen=True)
class Change:
    """One classified change: rule id, where (listing, identity, pointer inside the item), what."""

    rule_id: str
    listing: str
    identity: str | None
    pointer: str
    message: str
    #: True when the change lies in what clients forward to the model (prompt projection).
    prompt: bool = False
    old_identity: str | None = None
    #: Served position of the item in the new catalog (None: removed, or not about one item).
    position: int | None = None
    #: CA873: the spec-default hint changes folded into this one (`diff --expand` lists them).
    folded: tuple[modes.Folded, ...] = ()
    #: The reason of the accepted-changes entry that names this change (`diff.accept`): it is
    #: reported, and fails nothing.
    accepted: str | None = None

    @property
    def cls(self) -> str:
        """breaking, unknown, model-visible, additive, compatible or cosmetic."""
        return RULES[self.rule_id][0]

    def level(self, unknown: str = "fail") -> int:
        """Threshold level: breaking 3; model-visible 2; cosmetic 1 (see `LEVELS`)."""
        cls = self.cls
        if cls == "breaking" or (cls == "unknown" and unknown == "fail"):
            return 3
        if cls in ("unknown", "model-visible"):
            return 2
        if cls in ("additive", "compatible") and self.prompt:
            return 2
        return 1

    @property
    def subject(self) -> str:
        """How reports name the item: `tool "search"`."""
        kind = _LABEL[self.listing]
        if self.listing == "catalog":
            return kind
        if self.identity is None and self.rule_id in ("CA862", "CA872", "CA873"):
            return f"{self.listing} listing"
        return f"{kind} {dump_string(self.identity) if self.identity else '#?'}"

    @property
    def fingerprint(self) -> str:
        """SHA-256 of (rule id, listing, identity, pointer, message): stable across reorders."""
        parts = [self.rule_id, self.listing, self.identity or "", self.pointer, self.message]
        data = "\x1f".join(parts).encode("utf-8", "surrogatepass")
        return hashlib.sha256(data).hexdigest()

    def sort_key(self) -> tuple[int, str, bytes, str, str]:
        """Report order: class, listing, identity, pointer, rule."""
        ident = jcs_key(self.identity or "")
        return (CLASSES.index(self.cls), self.listing, ident, self.pointer, self.rule_id)


@dataclass
class DiffReport:
    """Everything `diff` found, ready for a formatter; the exit code is computed here (the
    API's `catalogaudit.DiffReport`; `DiffResult` is the same class under its older name)."""

    old: str
    new: str
    changes: list[Change] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: `--schema-only` (schema), `--prose-only` (prose) or all.
    mode: str = "all"
    #: Failed contract assertions on the new catalog (audit findings, CA910-CA912).
    assertions: list[Any] = field(default_factory=list)
    #: What the change costs prompt caches (`stability.prompt_bill`), when the verb priced it.
    prompt_cache: dict[str, Any] | None = None

    def counts(self) -> dict[str, int]:
        """Changes per class."""
        out = dict.fromkeys(CLASSES, 0)
        for c in self.changes:
            out[c.cls] += 1
        return out

    def failing(self, fail_on: str = "breaking", unknown: str = "fail") -> list[Change]:
        """Changes at or above the `--fail-on` threshold."""
        if fail_on == "never":
            return []
        level = LEVELS[fail_on]
        return [c for c in self.changes if c.accepted is None and c.level(unknown) >= level]

    def exit_code(self, fail_on: str = "breaking", unknown: str = "fail") -> int:
        """0 nothing at or above the threshold, 1 otherwise (a failed assertion is an error,
        at or above every threshold but `never`)."""
        if self.assertions and fail_on != "never":
            return 1
        return 1 if self.failing(fail_on, unknown) else 0


#: The name the code base has used for `DiffReport` (one class, so `repr` says DiffReport).
DiffResult = DiffReport


def diff(
    old: Side, new: Side, mode: str = "all", allowlist: Sequence[modes.Allowed] = ()
) -> DiffResult:
    """Compare two catalogs (each one `Side`, e.g. from `compare.sides_of`); `mode` `schema`
    leaves prose out, `prose` looks at nothing else (`diffing.modes`); a removed or renamed item
    an `allowlist` entry relies on is CA805, in every mode."""
    result = DiffResult(old.label, new.label, mode=mode)
    warning = capture_warning(old, new)
    if warning:
        result.warnings.append(warning)
    for name in LISTINGS:
        _listing(result, old, new, name, mode)
    if old.instructions != new.instructions and mode != "schema":
        result.changes.append(
            Change("CA863", "catalog", None, "/instructions", "server instructions changed", True)
        )
    out: list[Change] = []
    for c in modes.fold_defaults(result.changes, Change):
        relied = modes.allowlisted(c, allowlist, Change)
        # --prose-only: wording, and what an allowlist relies on, nothing else
        if relied is not None or mode != "prose" or c.rule_id in ("CA860", "CA863"):
            out.append(relied or c)
    result.changes = sorted(out, key=Change.sort_key)
    if mode == "prose":
        named = {(c.listing, c.identity) for c in out}
        result.items = [i for i in result.items if (i["listing"], i["identity"]) in named]
    return result


def _listing(result: DiffResult, old: Side, new: Side, name: str, mode: str = "all") -> None:
    status = (old.record(name).get("status"), new.record(name).get("status"))
    if "partial" in status:
        result.warnings.append(
            {
                "kind": "partial-listing",
                "message": f"{name} is partial in one input: removals and additions may be false",
            }
        )
    listing_hashes = old.record(name).get("hashes")
    if (
        listing_hashes
        and listing_hashes == new.record(name).get("hashes")
        and len(set(status)) == 1
    ):
        return  # hash first: nothing in this listing changed, not even its page fields
    deltas, order_changed = match(old, new, name)
    removed = [d for d in deltas if d.verdict == "removed"]
    added = [d for d in deltas if d.verdict == "added"]
    renames = pair_renames(name, removed, added)
    paired = {id(d) for pair in renames for d in pair[:2]}
    for d in deltas:
        if id(d) in paired or d.verdict == "stable":
            continue
        ident = d.key[0]
        if d.verdict in ("removed", "added"):
            rule, word = ("CA801", "removed") if d.verdict == "removed" else ("CA804", "added")
            result.changes.append(Change(rule, name, ident, "", word, True, None, d.new_pos))
            _record(result, name, d, ident, None, [])
            continue
        ctx = Ctx(name, ident)
        if mode == "prose" and d.verdict == "bytes-only":
            continue
        if mode != "all" and d.verdict == "content":
            if _by_mode(result, ctx, d, mode, name, None):
                continue
        if d.verdict == "bytes-only":
            causes = item_causes(old, new, name, d)
            rule = "CA861" if d.prompt_changed else "CA871"
            text = ", ".join(f"{c['cause']} at {c['pointer'] or 'the top level'}" for c in causes)
            result.changes.append(
                Change(
                    rule,
                    name,
                    ident,
                    causes[0]["pointer"] if causes else "",
                    f"served bytes changed, meaning did not: {text}",
                    d.prompt_changed,
                    None,
                    d.new_pos,
                )
            )
            _record(result, name, d, ident, None, [c["pointer"] for c in causes])
            continue
        compare_item(ctx, d.old, d.new)
        paths = changed_paths(d.old, d.new)
        _never_silent(ctx, paths, d.prompt_changed)
        result.changes.extend(_changes(ctx, d.new_pos))
        _record(result, name, d, ident, None, paths)
    for old_d, new_d, rule in renames:
        old_id, new_id = old_d.key[0], new_d.key[0]
        what = "template variables changed" if rule == "CA803" else "renamed"
        alike = (
            " (the same name but for case and separators)" if spelled_alike(old_id, new_id) else ""
        )
        result.changes.append(
            Change(
                rule,
                name,
                new_id,
                "",
                f"{what}: was {_q(old_id)}{alike}",
                True,
                old_id,
                new_d.new_pos,
            )
        )
        ctx = Ctx(name, new_id, old_id)
        a, b = _without_identity(name, old_d.old), _without_identity(name, new_d.new)
        if mode == "prose":
            modes.compare_prose(ctx, a, b)
        else:
            fn = modes.without_prose if mode == "schema" else (lambda _, item: item)
            compare_item(ctx, fn(name, a), fn(name, b))
        result.changes.extend(_changes(ctx, new_d.new_pos))
        merged = ItemDelta(
            new_d.key,
            old_d.old_pos,
            new_d.new_pos,
            old_d.old,
            new_d.new,
            old_d.old_hash,
            new_d.new_hash,
        )
        _record(result, name, merged, new_id, old_id, changed_paths(old_d.old, new_d.new))
    if order_changed:
        result.changes.append(
            Change("CA862", name, None, "", "served order of items changed", True)
        )
    old_pages = [p.get("fields") for p in old.record(name).get("pages") or []]
    new_pages = [p.get("fields") for p in new.record(name).get("pages") or []]
    if canonical(old_pages) != canonical(new_pages):
        where = ", ".join(f"/pages{p}" for p in changed_paths(old_pages, new_pages))
        result.changes.append(
            Change("CA872", name, None, "", f"page-level fields changed: {where}")
        )


def _by_mode(
    result: DiffResult, ctx: Ctx, d: ItemDelta, mode: str, name: str, old_ident: str | None
) -> bool:
    """`--schema-only` / `--prose-only` for one changed item; True when it was handled."""
    if mode == "prose":
        modes.compare_prose(ctx, d.old, d.new)
    else:
        old, new = modes.without_prose(name, d.old), modes.without_prose(name, d.new)
        if same(old, new):
            return True  # only prose differed
        compare_item(ctx, old, new)
        _never_silent(ctx, changed_paths(old, new), d.prompt_changed)
    result.changes.extend(_changes(ctx, d.new_pos))
    if ctx.found:
        _record(result, name, d, ctx.identity, old_ident, [c[1] for c in ctx.found])
    return True


def _never_silent(ctx: Ctx, paths: list[str], prompt: bool) -> None:
    """Canonical hashes differ, yet no rule found a change: say what differs, either only in
    spelling (`additionalProperties: true -> {}`) or somewhere no rule looks."""
    if ctx.found:
        return
    if ctx.equivalent:
        text = "served bytes changed, meaning did not: " + "; ".join(ctx.equivalent)
        ctx.add("CA861" if prompt else "CA871", paths[0] if paths else "", text, prompt)
        return
    ctx.add("CA870", "", "item changed at " + ", ".join(paths or ["?"]), prompt)


def _changes(ctx: Ctx, position: int | None) -> list[Change]:
    return [
        Change(rule, ctx.listing, ctx.identity, ptr, msg, prompt, ctx.old_identity, position)
        for rule, ptr, msg, prompt in ctx.found
    ]


def _record(
    result: DiffResult,
    name: str,
    d: ItemDelta,
    ident: str | None,
    old_ident: str | None,
    paths: list[str],
) -> None:
    entry: dict[str, Any] = {
        "listing": name,
        "identity": ident,
        "verdict": "renamed" if old_ident is not None else d.verdict,
        "hashesEqual": {
            k: d.old_hash.get(k) == d.new_hash.get(k) for k in ("served", "prompt", "canonical")
        }
        if d.old_hash and d.new_hash
        else None,
        "paths": paths,
    }
    if old_ident is not None:
        entry["oldIdentity"] = old_ident
    result.items.append(entry)


def _q(value: str | None) -> str:
    return dump_string(value) if value is not None else "(no identity)"


def _without_identity(name: str, item: Any) -> Any:
    key = IDENTITY[name]
    return {k: v for k, v in item.items() if k != key} if isinstance(item, dict) else item
