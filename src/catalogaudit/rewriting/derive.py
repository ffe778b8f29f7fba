"""Rewrite a catalog without its server: prose substitutions and profile fixes, as a derived
snapshot whose hashes are recomputed, plus what the rewrite cleared on re-audit.

Pure: a snapshot document in, a new document and the list of changes out. Prose is reached only
through `walker.walk`, the walker the audit uses, so a rewrite can change exactly what the audit
checks and never a name, URI, `pattern`, `enum`/`const`/`default`/`examples` value or payload.
The derived document keeps the input's `wire` section with the rewrite spliced into the page
texts (`rewriting.pages`), so a replay of it shows the rewrite and nothing else; its `derived`
block says from which input, with which substitutions and fixes.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from catalogaudit import walker
from catalogaudit.auditing import AuditOptions, audit, selected
from catalogaudit.canonical import page_fields_hash
from catalogaudit.errors import UsageError
from catalogaudit.model import (
    LISTINGS,
    MODERN_VERSIONS,
    Catalog,
    Finding,
    Item,
    Location,
    Report,
    WireDecodeError,
    compact,
    is_integer_lexeme,
    loads,
    normalize_excerpt,
)
from catalogaudit.model import identity as names_identity
from catalogaudit.rewriting import pages as wire_pages
from catalogaudit.rewriting.substitutions import Substitutions, apply
from catalogaudit.rules import GROWTH_RULE
from catalogaudit.snapshots import catalog_hashes, items_record

#: `--fix` names: profile fixes that make a catalog pass an enforcer that cannot be changed.
FIXES = ("codex-app", "cache-hints")
#: Fixes named after the profile whose findings they clear (the re-audit uses that profile).
PROFILE_FIXES = frozenset({"codex-app"})

#: 2026-07-28 page fields backfilled by `--fix cache-hints` (the most conservative values:
#: nothing cached, nothing shared, and the page is what it says it is).
CACHE_HINTS: tuple[tuple[str, Any], ...] = (
    ("ttlMs", 0),
    ("cacheScope", "private"),
    ("resultType", "complete"),
)

WIRE_LOST = (
    "a derived catalog was not served: there are no served bytes to keep; served hashes are "
    "of the rewritten items in served key order"
)


@dataclass(frozen=True)
class Change:
    """One value the rewrite changed, and why."""

    cause: str  # "substitutions", "codex-app" or "cache-hints"
    kind: str  # listing
    identity: str | None
    #: JSON Pointer inside the item (item changes) or inside the page (page fields).
    pointer: str
    #: JSON Pointer into the snapshot document (the same in the input and the output).
    doc_pointer: str
    before: Any
    after: Any

    def as_dict(self) -> dict[str, Any]:
        """Plain form for JSON reports; a non-string value also comes as its wire text, since
        `1.0` -> `1` is the whole point of the codex-app fix and JSON readers blur it."""
        out: dict[str, Any] = {
            "cause": self.cause,
            "listing": self.kind,
            "identity": self.identity,
            "pointer": self.pointer,
            "documentPointer": self.doc_pointer,
            "before": self.before,
            "after": self.after,
        }
        for key, value in (("beforeText", self.before), ("afterText", self.after)):
            if not isinstance(value, str):
                out[key] = compact(value)
        return out


@dataclass
class Derived:
    """A rewritten catalog: the new document, every change, and strings the bound refused."""

    doc: dict[str, Any]
    changes: list[Change] = field(default_factory=list)
    refused: list[Finding] = field(default_factory=list)
    #: The input's name, for the locations of refusals (their pointers hold in both files).
    source: str = ""


def check_fixes(fixes: Sequence[str]) -> tuple[str, ...]:
    """Validate `--fix` names (order kept, duplicates dropped)."""
    out: list[str] = []
    for fix in fixes:
        if fix not in FIXES:
            raise UsageError(f"--fix must be one of {', '.join(FIXES)}, not {fix!r}")
        if fix not in out:
            out.append(fix)
    return tuple(out)


def derive(catalog: Catalog, subs: Substitutions | None, fixes: Sequence[str] = ()) -> Derived:
    """The catalog as rewritten by `subs` and then the named fixes."""
    fixes = check_fixes(fixes)
    result = Derived({}, source=catalog.source)
    listings: dict[str, Any] = {}
    rewritten: dict[str, tuple[list[Any], list[dict[str, Any]]]] = {}
    modern = catalog.revision in MODERN_VERSIONS
    for name in LISTINGS:
        rec = catalog.listing(name)
        if "items" not in rec:
            listings[name] = rec
            continue
        wire, wire_fields = _wire_items(catalog, name)
        served = [
            fix_item(item, wire[item.served_index] if wire else item.value, subs, fixes, result)
            for item in catalog.items(name)
        ]
        new = dict(rec)
        new.update(items_record(name, served))
        pages = [dict(p) for p in rec.get("pages") or [] if isinstance(p, dict)]
        if wire_fields is not None and len(wire_fields) == len(pages):
            # NOTE: page fields are hashed in served key order, which only the wire keeps.
            for page, fields in zip(pages, wire_fields, strict=True):
                page["fields"] = fields
        if "cache-hints" in fixes and modern:
            for index, page in enumerate(pages):
                page["fields"] = backfill(name, index, page.get("fields") or {}, result)
        new["pages"] = pages
        new["hashes"]["pageFields"] = page_fields_hash([p.get("fields") or {} for p in pages])
        listings[name] = new
        if wire is not None:
            rewritten[name] = (served, [p.get("fields") or {} for p in pages])
    doc = {k: v for k, v in catalog.doc.items() if k != "wire"}
    capture = dict(catalog.capture)
    capture["source"] = "derived"

    def other(name: str, value: Any) -> Any:
        return _other(name, value, subs, fixes)

    kept = wire_pages.rewritten_wire(catalog, rewritten, other)
    if kept is None:
        capture.update({"wire": "omitted", "wireLost": WIRE_LOST})
    else:
        capture["wire"] = "kept"
        capture.pop("wireLost", None)
        doc["wire"] = kept
    doc["capture"] = capture
    doc["listings"] = listings
    doc["hashes"] = catalog_hashes(listings, catalog.instructions)
    doc["findings"] = [*catalog.capture_findings, *(f.as_dict() for f in result.refused)]
    derived: dict[str, Any] = {
        "from": catalog.source,
        "fromHashes": catalog.doc.get("hashes"),
        "fixes": list(fixes),
        "changes": len(result.changes),
        "refused": len(result.refused),
    }
    if subs is not None:
        derived["substitutions"] = {"text": subs.text, "pairs": subs.as_list()}
    doc["derived"] = derived
    result.doc = doc
    return result


def _other(name: str, value: Any, subs: Substitutions | None, fixes: Sequence[str]) -> Any:
    """An item of another session's pages rewritten as the catalog's own (changes and refusals
    are counted once, on the catalog's items)."""
    item = Item(name, names_identity(name, value), value, -1, -1)
    return fix_item(item, value, subs, fixes, Derived({}))


def _wire_items(catalog: Catalog, name: str) -> tuple[list[Any] | None, list[Any] | None]:
    """Items and page fields as served (served key order, exact lexemes) from the `wire`
    section, when kept: the readable copy is in RFC 8785 key order, so served, prompt and
    page-field hashes of the rewritten listing are only right when computed from what was
    served."""
    wire = catalog.doc.get("wire")
    pages = (wire.get("pages") or {}).get(name) if isinstance(wire, dict) else None
    if not isinstance(pages, list) or not all(isinstance(p, str) for p in pages):
        return None, None
    items: list[Any] = []
    fields: list[Any] = []
    for text in pages:
        try:
            result = loads(text)
        except WireDecodeError:
            return None, None
        found = result.get(name) if isinstance(result, dict) else None
        items.extend(found if isinstance(found, list) else [])
        fields.append(
            {k: v for k, v in result.items() if k != name} if isinstance(result, dict) else {}
        )
    if len(items) != len(catalog.listing(name).get("items") or []):
        return None, None
    return items, fields


def fix_item(
    item: Item, value: Any, subs: Substitutions | None, fixes: Sequence[str], out: Derived
) -> Any:
    """One served item rewritten by `subs` and the item fixes (`codex-app`); changes and
    refusals go to `out`. The one home of the item rewrite: `derive` and `proxy` call it."""
    if subs is not None:

        def rewrite(visit: walker.Visit) -> str | None:
            applied = apply(subs, visit.text)
            if applied.crossed is not None:
                refusal = _refusal(item, visit, applied.crossed.label, applied, out.source)
                out.refused.append(refusal)
                return None
            if applied.text != visit.text:
                out.changes.append(
                    _change("substitutions", item, visit.pointer, visit.text, applied.text)
                )
            return applied.text

        value, _ = walker.walk(item.listing, value, rewrite)
    if "codex-app" in fixes and item.listing in ("resources", "resourceTemplates"):
        new = integer_priority(value)
        if new is not value:
            was = (value["annotations"]["priority"], new["annotations"]["priority"])
            out.changes.append(_change("codex-app", item, "/annotations/priority", *was))
            value = new
    return value


def _change(cause: str, item: Item, pointer: str, before: Any, after: Any) -> Change:
    doc_pointer = f"/listings/{item.listing}/items/{item.index}{pointer}"
    return Change(cause, item.listing, item.identity, pointer, doc_pointer, before, after)


def _refusal(item: Item, visit: walker.Visit, label: str, applied: Any, source: str) -> Finding:
    where = f"/listings/{item.listing}/items/{item.index}{visit.pointer}"
    return Finding(
        rule_id=GROWTH_RULE.id,
        severity=GROWTH_RULE.severity,
        message=(
            f"{item.label}: {label} would grow the {visit.key} at {visit.pointer} to "
            f"{applied.would_be} bytes, over its ceiling of {applied.limit}; left as written"
        ),
        kind=item.listing,
        identity=item.identity,
        pointer=visit.pointer,
        excerpt=visit.text[:200],
        hint=GROWTH_RULE.hint,
        profile="rewrite",
        location=Location(source, where),
        extra={"pair": label, "wouldBe": applied.would_be, "ceiling": applied.limit},
    )


def integer_priority(value: Any) -> Any:
    """`value` with `annotations.priority` as an integer lexeme, 0 below 0.5 and 1 from 0.5
    (`value` itself when unchanged): Codex builds bundled with ChatGPT.app fail a non-integer
    lexeme (compat-rules.md, CDX). One home: list items here, call results in `live`."""
    ann = value.get("annotations") if isinstance(value, dict) else None
    if not isinstance(ann, dict) or "priority" not in ann:
        return value
    prio = ann["priority"]
    if isinstance(prio, bool) or not isinstance(prio, (int, float)):
        return value
    if is_integer_lexeme(prio) or prio != prio or prio in (float("inf"), float("-inf")):
        return value  # already an integer, or NaN/Infinity: nothing honest to round to
    return {**value, "annotations": {**ann, "priority": 0 if prio < 0.5 else 1}}


def backfill(name: str, index: int, fields: dict[str, Any], out: Derived) -> dict[str, Any]:
    """2026-07-28 pages must carry the cache fields; some clients drop the listing without
    (`--fix cache-hints`, in `derive` and in `proxy`)."""
    missing = [(key, value) for key, value in CACHE_HINTS if key not in fields]
    if not missing:
        return fields
    new = dict(fields)
    for key, value in missing:
        new[key] = value
        pointer = f"/{key}"
        out.changes.append(
            Change(
                "cache-hints",
                name,
                None,
                pointer,
                f"/listings/{name}/pages/{index}/fields{pointer}",
                None,
                value,
            )
        )
    return new


def as_rewritten(catalog: Catalog, subs: Substitutions) -> tuple[Catalog, Derived]:
    """The catalog to audit "as if rewritten": locations still name the input file, whose
    pointers stay valid (substitutions change string values only, never structure)."""
    derived = derive(catalog, subs)
    doc = dict(derived.doc)
    # NOTE: refusals are reported by the caller for every profile, not only as spec findings.
    doc["findings"] = list(catalog.capture_findings)
    view = Catalog(doc, source=catalog.source, revision_override=catalog.revision_override)
    view.notes.extend(catalog.notes)
    return view, derived


# --- re-audit ------------------------------------------------------------------------------------

FindingKey = tuple[str, str, str, str, str, int, str]


def finding_key(f: Finding) -> FindingKey:
    """What makes "the same finding" before and after a rewrite: rule, place and the offending
    text. A substitution of `;` by `|` clears the `;` finding and introduces a `|` one at the
    same place: both must show, since "introduced" is what an operator vets a list by. Where
    the excerpt is not the offending text (the tail a length limit cuts), `offending` says so.
    """
    offending = f.excerpt if f.offending is None else f.offending
    return (
        f.rule_id,
        f.kind,
        f.identity or "",
        f.pointer,
        f.profile,
        -1 if f.page is None else f.page,
        normalize_excerpt(offending),
    )


@dataclass(frozen=True)
class Outcome:
    """Findings the rewrite cleared, those that remain, and those it introduced."""

    cleared: list[Finding]
    remaining: list[Finding]
    introduced: list[Finding]


def compare(before: Sequence[Finding], after: Sequence[Finding]) -> Outcome:
    """Match findings by `finding_key` as multisets (two hits at one place count twice)."""
    pending: dict[FindingKey, list[Finding]] = {}
    for f in sorted(after, key=Finding.sort_key):
        pending.setdefault(finding_key(f), []).append(f)
    cleared: list[Finding] = []
    remaining: list[Finding] = []
    for f in sorted(before, key=Finding.sort_key):
        bucket = pending.get(finding_key(f))
        if bucket:
            remaining.append(bucket.pop(0))
        else:
            cleared.append(f)
    introduced = [f for bucket in pending.values() for f in bucket]
    return Outcome(cleared, remaining, sorted(introduced, key=Finding.sort_key))


def add_refusals(
    report: Report, refused: Sequence[Finding], options: AuditOptions | None = None
) -> None:
    """Put growth-bound refusals into a report whatever profiles ran (they are about the
    rewrite, not about an enforcer), honouring `--select`, `--ignore` and the baseline."""
    if options is not None:
        metas = {GROWTH_RULE.id: GROWTH_RULE}
        refused = [
            f
            for f in refused
            if selected(f, metas, options.select, options.ignore)
            and f.fingerprint not in options.baseline
        ]
    if refused:
        report.findings.extend(refused)
        report.rules[GROWTH_RULE.id] = GROWTH_RULE


def audit_rewritten(catalog: Catalog, subs: Substitutions, options: AuditOptions) -> Report:
    """`audit --substitutions`: the report of the catalog as if rewritten, and saying so."""
    view, derived = as_rewritten(catalog, subs)
    report = audit(view, options)
    add_refusals(report, derived.refused, options)
    report.rewritten = True
    report.notes.append(
        f"audited as if rewritten with --substitutions {shlex.quote(subs.text)}: "
        f"{len(derived.changes)} string(s) changed, {len(derived.refused)} left as written "
        "by the growth bound"
    )
    return report
