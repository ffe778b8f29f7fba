"""`catalogaudit profiles [ID[@VERSION]]`: what each profile checks, for which versions, and
on what evidence. Thin: the data comes from `catalogaudit.profiles`, rendering is plain text."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from catalogaudit.errors import UsageError


def register(app: typer.Typer) -> None:
    """Add the verb to the app."""
    app.command("profiles")(profiles)


def profiles(
    profile: Annotated[
        str | None,
        typer.Argument(
            help="A profile id, optionally @VERSION, to show its rules.", show_default=False
        ),
    ] = None,
    output_format: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
) -> None:
    """List the client, gateway and LLM-API profiles, or show one profile's rules with their
    version ranges, sources and confidence."""
    if output_format not in ("text", "json"):
        raise UsageError(f"--format must be text or json, not {output_format!r}")
    from catalogaudit.profiles import resolve as core

    if profile is None:
        rows = core.profile_summaries()
        if output_format == "json":
            typer.echo(json.dumps([r.as_dict() for r in rows], indent=2, sort_keys=True))
        else:
            typer.echo(_table(rows))
        return
    detail = describe(profile)
    if output_format == "json":
        typer.echo(json.dumps(detail, indent=2, sort_keys=True))
    else:
        typer.echo(_detail_text(detail))


def describe(spec: str) -> dict[str, Any]:
    """One profile as plain data; with `@VERSION` only what applies at that version."""
    from catalogaudit.profiles import resolve as core
    from catalogaudit.profiles.load import load_all, load_verified

    pid = spec.partition("@")[0]
    if pid not in load_all():
        core.resolve(spec, {})  # raises the one-line usage error listing valid ids
    p = load_all()[pid]
    out: dict[str, Any] = {
        "id": p.id,
        "enforcer": p.enforcer,
        "summary": p.summary,
        "package": dict(p.package) if p.package else None,
        "versions": [
            {"version": str(v.version), "basis": v.basis, "date": v.date, "note": v.note}
            for v in p.versions
        ],
        "newest": str(p.newest.version) if p.newest else None,
        "driver": p.id in core.driver_ids(),
        "verified": [core.verified_dict(r) for r in load_verified().get(p.id, ())],
        "reads": [{"versions": str(s) or "*", "listings": list(n)} for s, n in p.reads],
        "settings": {
            k: {
                "type": s.type,
                "default": s.default,
                "versions": str(s.versions) or "*",
                "description": s.description,
            }
            for k, s in p.settings.items()
        },
    }
    picked: dict[str, list[int]] | None = None
    if "@" in spec:
        resolved = core.resolve(spec, {})
        out["resolved"] = {
            "label": resolved.label,
            "notes": list(resolved.notes),
            "verified": resolved.verified,
        }
        picked = {}
        for rule, clause, _ in core.applicable(resolved):
            picked.setdefault(rule.id, []).append(
                next(i for i, c in enumerate(rule.checks) if c is clause)
            )
    rules = [(r, None) for r in p.rules] + [(i.rule, i) for i in p.includes]
    out["rules"] = [
        _rule(r, inc, None if picked is None else picked.get(r.id, []))
        for r, inc in rules
        if picked is None or r.id in picked
    ]
    return out


def _rule(rule: Any, inc: Any, only: list[int] | None) -> dict[str, Any]:
    checks = [
        {
            "type": c.type,
            "versions": c.versions_text or "*",
            "severity": c.severity.value,
            "effect": c.effect,
            "params": dict(c.params),
        }
        for i, c in enumerate(rule.checks)
        if (only is None or i in only) and (inc is None or inc.checks is None or i in inc.checks)
    ]
    out = {
        "id": rule.id,
        "name": rule.name,
        "owner": rule.owner,
        "summary": rule.summary,
        "versions": rule.versions or "*",
        "severity": rule.severity.value,
        "confidence": rule.confidence,
        "lastVerified": rule.last_verified,
        "reads": rule.reads,
        "symptom": rule.symptom,
        "workaround": rule.workaround,
        "sources": list(rule.sources),
        "checks": checks,
    }
    if inc is not None:
        out["includedBecause"] = inc.why
        if inc.severity is not None:
            out["severity"] = inc.severity.value
    return out


def _table(rows: list[Any]) -> str:
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


def _detail_text(d: dict[str, Any]) -> str:
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
        f"  verified against {v['enforcer']} {v['version']} on {v['date']} "
        f"({v['scenarios']} scenarios, {v['observations']} observations, all as predicted)"
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
            f"verified {r['lastVerified']}{owner}"
        )
        lines.append(f"  {r['summary']}")
        lines.append(f"  reads: {r['reads']}")
        lines.extend(
            f"  check {c['type']} ({c['versions']}, {c['severity']}): {c['effect']}"
            for c in r["checks"]
        )
        lines.append(f"  symptom: {r['symptom']}")
        lines.append(f"  workaround: {r['workaround']}")
        lines.extend(f"  source: {s}" for s in r["sources"])
    return "\n".join(lines)
