"""`catalogaudit profiles` output: the profile table or one profile's rules (text), or the
same data as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from catalogaudit.formatters.base import assert_never
from catalogaudit.formatters.formats import ProfilesFormat
from catalogaudit.model import with_envelope as envelope
from catalogaudit.profiles import ProfileSummary


def format_summaries(rows: Sequence[ProfileSummary], fmt: ProfilesFormat) -> str:
    """Every profile, one row each."""
    if fmt is ProfilesFormat.JSON:
        doc = envelope("profiles", {"profiles": [r.as_dict() for r in rows]})
        return json.dumps(doc, indent=2, sort_keys=True) + "\n"
    if fmt is ProfilesFormat.TEXT:
        return table(rows) + "\n"
    assert_never(fmt)


def format_detail(detail: dict[str, Any], fmt: ProfilesFormat) -> str:
    """One profile (`profiles.describe`)."""
    if fmt is ProfilesFormat.JSON:
        return json.dumps(envelope("profile", detail), indent=2, sort_keys=True) + "\n"
    if fmt is ProfilesFormat.TEXT:
        return detail_text(detail) + "\n"
    assert_never(fmt)


def table(rows: Sequence[ProfileSummary]) -> str:
    head = ("PROFILE", "NEWEST", "VERSIONS", "RULES", "VERIFIED", "CONFIDENCE", "ENFORCER")
    body = [
        (
            r.id,
            r.newest or "unversioned",
            f"{r.versions[0]} .. {r.versions[-1]} ({len(r.versions)})" if r.versions else "-",
            str(r.rules),
            r.verified_text,
            ", ".join(f"{k} {v}" for k, v in sorted(r.confidence.items())),
            r.enforcer,
        )
        for r in rows
    ]
    widths = [max(len(x[i]) for x in (head, *body)) for i in range(len(head) - 1)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(line[:-1], widths, strict=True))
        + "  "
        + line[-1]
        for line in (head, *body)
    ]
    return "\n".join(lines)


def detail_text(d: dict[str, Any]) -> str:
    lines = [f"{d['id']}: {d['enforcer']}", f"  {d['summary']}"]
    if d["package"]:
        pkg = d["package"]
        lines.append(f"  package: {pkg['registry']} {pkg['name']} ({pkg['url']})")
    if d["versions"]:
        seen = ", ".join(f"{v['version']} ({v['basis']})" for v in d["versions"])
        lines.append(f"  rules known for: {seen}")
        lines.append(f"  newest: {d['newest']}")
    else:
        lines.append("  unversioned")
    if not d["driver"]:
        lines.append("  verified: unverified (no verify driver exists for this enforcer)")
    elif not d["verified"]:
        lines.append("  verified: unverified (no verify run recorded)")
    lines.extend(
        f"  verified at listing time against {v['enforcer']} {v['version']} on {v['date']} "
        f"({v['scenarios']} scenarios, {v['observations']} observations, all as predicted); "
        "it vouches for the listing-time rules a driver measured, not for call-time rules"
        for v in d["verified"]
    )
    lines.extend(f"  reads {', '.join(r['listings'])} for {r['versions']}" for r in d["reads"])
    lines.extend(
        f"  setting {name} ({s['type']}, {s['versions']}): {s['description']}"
        for name, s in d["settings"].items()
    )
    if "resolved" in d:
        res = d["resolved"]
        lines.append(f"  as {res['label']}: {res['verified']}")
        lines.extend(f"  note: {n}" for n in res["notes"])
    for r in d["rules"]:
        owner = "" if r["owner"] == d["id"] else f"  [from {r['owner']}]"
        lines.append("")
        lines.append(
            f"{r['id']}  {r['severity']}  versions {r['versions']}  {r['confidence']}  "
            f"{r['phase']} time  sources checked {r['lastVerified']}{owner}"
        )
        lines.append(f"  {r['summary']}")
        at = f" at {d['evidenceAt']}" if d.get("evidenceAt") else ""
        lines.append(f"  evidence{at}: {r['evidence']}")
        lines.append(f"  reads: {r['reads']}")
        lines.extend(
            f"  check {c['type']} ({c['versions']}, {c['severity']}): {c['effect']}"
            for c in r["checks"]
        )
        lines.append(f"  symptom: {r['symptom']}")
        lines.append(f"  workaround: {r['workaround']}")
        lines.extend(f"  source: {s}" for s in r["sources"])
    return "\n".join(lines)
