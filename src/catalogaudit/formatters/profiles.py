"""`catalogaudit profiles` output: the profile table or one profile's rules (text, through
`console.Page`), or the same data as JSON.

The table needs about 160 columns; narrower, each profile is a short record instead (its id and
enforcer, then versions, rules and verification), so nothing is cut or folded inside a word.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from catalogaudit.formatters.base import assert_never, plural, visible
from catalogaudit.formatters.console import DIM, Cell, Column, Page
from catalogaudit.formatters.formats import ProfilesFormat
from catalogaudit.model import with_envelope as envelope
from catalogaudit.profiles import ProfileSummary

#: From this width on, the profile list is a table.
WIDE = 160
#: Severity of a profile rule, coloured as in the audit report.
_SEVERITY = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def format_summaries(
    rows: Sequence[ProfileSummary], fmt: ProfilesFormat, *, color: bool = False, width: int = 100
) -> str:
    """Every profile, one row (or record) each."""
    if fmt is ProfilesFormat.JSON:
        doc = envelope("profiles", {"profiles": [r.as_dict() for r in rows]})
        return json.dumps(doc, indent=2, sort_keys=True) + "\n"
    if fmt is ProfilesFormat.TEXT:
        return table(rows, color=color, width=width)
    assert_never(fmt)


def format_detail(
    detail: dict[str, Any], fmt: ProfilesFormat, *, color: bool = False, width: int = 100
) -> str:
    """One profile (`profiles.describe`)."""
    if fmt is ProfilesFormat.JSON:
        return json.dumps(envelope("profile", detail), indent=2, sort_keys=True) + "\n"
    if fmt is ProfilesFormat.TEXT:
        return detail_text(detail, color=color, width=width)
    assert_never(fmt)


def _versions(r: ProfileSummary) -> str:
    """`2.1.84 .. 2.1.328 (3)`: the oldest and the newest version rules are known for."""
    return f"{r.versions[0]} .. {r.versions[-1]} ({len(r.versions)})" if r.versions else "-"


def _confidence(r: ProfileSummary) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(r.confidence.items()))


def table(rows: Sequence[ProfileSummary], *, color: bool = False, width: int = 100) -> str:
    """The profile list: a table from `WIDE` columns on, records below."""
    page = Page(color=color, width=width)
    if width >= WIDE:
        # NOTE: no "newest" column: it is always the last version of the range
        head = ("Profile", "Versions (newest last)", "Rules", "Verified", "Confidence", "Enforcer")
        columns = [Column(h, no_wrap=i < 3) for i, h in enumerate(head)]
        columns[2].justify = "right"
        body: list[list[Cell]] = [
            [
                (r.id, "bold"),
                _versions(r) if r.versions else "unversioned",
                str(r.rules),
                r.verified_text,
                _confidence(r),
                r.enforcer,
            ]
            for r in rows
        ]
        page.table(columns, body)
        return page.text()
    for i, r in enumerate(rows):
        if i:
            page.blank()
        page.line((r.id, "bold"), "  ", (r.enforcer, DIM), hang=2)
        versions = f"versions {_versions(r)}" if r.versions else "unversioned"
        page.line(f"{versions}; {plural(r.rules, 'rule')} ({_confidence(r)})", indent=2, hang=4)
        page.line(f"verified: {r.verified_text}", indent=2, hang=4)
    return page.text()


def detail_text(d: dict[str, Any], *, color: bool = False, width: int = 100) -> str:
    """One profile: what it is, its versions and verification, then each rule."""
    page = Page(color=color, width=width)

    def item(label: str, value: str, indent: int = 2) -> None:
        page.line((f"{label}: ", DIM), visible(value), indent=indent, hang=indent + 2)

    page.line((d["id"], "bold"), f": {d['enforcer']}", hang=2)
    page.line(d["summary"], indent=2, hang=2)
    if d["package"]:
        pkg = d["package"]
        item("package", f"{pkg['registry']} {pkg['name']} ({pkg['url']})")
    if d["versions"]:
        item("rules known for", ", ".join(f"{v['version']} ({v['basis']})" for v in d["versions"]))
        item("newest", d["newest"])
    else:
        page.line("unversioned", indent=2)
    if not d["driver"]:
        item("verified", "unverified (no verify driver exists for this enforcer)")
    elif not d["verified"]:
        item("verified", "unverified (no verify run recorded)")
    for v in d["verified"]:
        item(
            "verified",
            f"at listing time against {v['enforcer']} {v['version']} on {v['date']} "
            f"({v['scenarios']} scenarios, {v['observations']} observations, all as "
            "predicted); it vouches for the listing-time rules a driver measured, not for "
            "call-time rules",
        )
    for r in d["reads"]:
        item("reads", f"{', '.join(r['listings'])} for {r['versions']}")
    for name, s in d["settings"].items():
        item(f"setting {name}", f"({s['type']}, {s['versions']}) {s['description']}")
    if "resolved" in d:
        res = d["resolved"]
        item(f"as {res['label']}", res["verified"])
        for n in res["notes"]:
            item("note", n)
    for r in d["rules"]:
        owner = "" if r["owner"] == d["id"] else f"  [from {r['owner']}]"
        page.blank()
        page.line(
            (r["id"], "bold"),
            "  ",
            (r["severity"], _SEVERITY.get(r["severity"], "")),
            f"  versions {r['versions']}  {r['confidence']}  {r['phase']} time  "
            f"sources checked {r['lastVerified']}",
            (owner, DIM),
            hang=2,
        )
        page.line(r["summary"], indent=2, hang=2)
        at = f" at {d['evidenceAt']}" if d.get("evidenceAt") else ""
        item(f"evidence{at}", r["evidence"])
        item("reads", r["reads"])
        # NOTE: one check type may hold several clauses (one per field): one line each said
        # the same thing; the count says how many.
        checks = Counter(
            (c["type"], c["versions"], c["severity"], c["effect"]) for c in r["checks"]
        )
        for (kind, versions, severity, effect), n in checks.items():
            clauses = f", {n} clauses" if n > 1 else ""
            item(f"check {kind} ({versions}, {severity}{clauses})", effect)
        item("symptom", r["symptom"])
        item("workaround", r["workaround"])
        for source in r["sources"]:
            item("source", source)
    return page.text()
