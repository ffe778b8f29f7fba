"""Refresh the record of which profiles the real enforcers confirm (issue 6).

Runs the differential suite (`pytest -m oracle`) with `CATALOGAUDIT_VERIFICATION_LOG` set, so
every `catalogaudit verify` run of the suite appends its JSON report to a log; then:

- `src/catalogaudit/profiles/data/verified/verified.json` gets, per profile, one
  `{enforcer, version, date, scenarios, observations}` entry for every enforcer version whose
  every observation equalled the profile's prediction (versions not run this time keep their
  entry), and this run's mismatches;
- `docs/verification.md` is rendered from that file and the ledger of mismatches found
  earlier and fixed in the profile data (`fixtures/oracle/ledger.json`).

`catalogaudit profiles` and `audit --matrix` read verified.json. Exit 0 when the suite passed
and nothing mismatched; 1 otherwise (the files are still written: the mismatches are the news).

    python scripts/refresh_verification.py              # run the suite, then record
    python scripts/refresh_verification.py --log FILE   # record from an existing log
    python scripts/refresh_verification.py --check      # docs/verification.md up to date?
    python scripts/refresh_verification.py --render     # re-render it (after a ledger edit)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VERIFIED = ROOT / "src" / "catalogaudit" / "profiles" / "data" / "verified" / "verified.json"
LEDGER = ROOT / "fixtures" / "oracle" / "ledger.json"
DOC = ROOT / "docs" / "verification.md"
LATTICE = ROOT / "fixtures" / "lattice" / "ledger.json"
ABOUT = (
    "Written by scripts/refresh_verification.py from a `pytest -m oracle` run. One entry per "
    "verify run (profile, enforcer version) in which every observation equalled the profile's "
    "prediction. Do not edit by hand."
)


def scenario(label: str) -> str:
    """The scenario a catalog stands for: the oracle tests name snapshots `<scenario>.json`."""
    return Path(label).stem


def _vkey(version: str) -> tuple[Any, ...]:
    from packaging.version import InvalidVersion, Version

    try:
        return (0, Version(version))
    except InvalidVersion:
        return (1, version)


def aggregate(reports: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """(client id, version) -> its runs summed: date, scenarios, observations, mismatches.

    The profile id is the client id (a driver checks the profile of the same name).
    """
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for rep in reports:
        key = (str(rep["client"]["id"]), str(rep["client"]["version"]))
        if not rep["observations"] and "modelViews" in rep:
            continue  # a `verify --model` run: aggregate_models
        acc = out.setdefault(key, {"date": rep["date"], "scenarios": set(), "rows": 0, "bad": []})
        acc["date"] = max(acc["date"], rep["date"])
        for row in rep["observations"]:
            acc["scenarios"].add(scenario(row["catalog"]))
            acc["rows"] += 1
            if not row["matches"]:
                where = row["listing"] + ("" if row["index"] is None else f"[{row['index']}]")
                if row.get("identity") is not None:
                    where += f" {json.dumps(row['identity'], ensure_ascii=False)}"
                acc["bad"].append(
                    {
                        "scenario": scenario(row["catalog"]),
                        "profile": f"{key[0]}@{key[1]}",
                        "subject": where,
                        "predicted": row["predicted"],
                        "predictedBecause": row["predictedBecause"],
                        "observed": row["verdict"],
                        "message": row["message"],
                    }
                )
    return out


def aggregate_models(
    reports: Iterable[Mapping[str, Any]],
) -> dict[tuple[str, str], dict[str, Any]]:
    """(client id, version) -> its `verify --model` runs summed: catalogs, tool views,
    calls reached and refused, starts compared for the prompt bytes, mismatches."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for rep in reports:
        if "modelViews" not in rep:
            continue
        key = (str(rep["client"]["id"]), str(rep["client"]["version"]))
        acc = out.setdefault(
            key,
            {
                "date": rep["date"],
                "catalogs": set(),
                "views": 0,
                "reached": 0,
                "refused": 0,
                "bytes": 0,
                "bad": [],
            },
        )
        acc["date"] = max(acc["date"], rep["date"])
        acc["bytes"] += 1 if rep.get("promptBytes") else 0
        for row in rep["modelViews"]:
            acc["catalogs"].add(row["catalog"])
            acc["views"] += 1
            acc["reached"] += row["call"] == "reached"
            acc["refused"] += row["call"] == "refused"
            if not row["matches"]:
                p = row["predicted"]
                acc["bad"].append(
                    {
                        "scenario": scenario(row["catalog"]),
                        "profile": f"{key[0]}@{key[1]}",
                        "subject": f"model view tools[{row['index']}] "
                        f"{json.dumps(row['identity'], ensure_ascii=False)} ({row['mode']})",
                        "predicted": f"{p['offered']}, call {p['call']}",
                        "predictedBecause": row["predictedBecause"],
                        "observed": f"{row['offered']}, call {row['call']}",
                        "message": row["message"],
                    }
                )
    return out


def merge(
    previous: Mapping[str, Any],
    runs: Mapping[tuple[str, str], dict[str, Any]],
    models: Mapping[tuple[str, str], dict[str, Any]] | None = None,
) -> dict:
    """The new verified.json: this run's clean versions replace or add entries, a version
    that mismatched loses its entry, versions not run keep theirs; the same for the
    `verify --model` runs under `modelViews`."""
    profiles: dict[str, list[dict[str, Any]]] = {
        pid: [dict(e) for e in entries] for pid, entries in previous.get("profiles", {}).items()
    }
    for (cid, version), acc in runs.items():
        kept = [e for e in profiles.get(cid, []) if e["version"] != version]
        if not acc["bad"]:
            kept.append(
                {
                    "enforcer": cid,
                    "version": version,
                    "date": acc["date"],
                    "scenarios": len(acc["scenarios"]),
                    "observations": acc["rows"],
                }
            )
        profiles[cid] = sorted(kept, key=lambda e: _vkey(e["version"]))
    views: dict[str, list[dict[str, Any]]] = {
        pid: [dict(e) for e in entries] for pid, entries in previous.get("modelViews", {}).items()
    }
    for (cid, version), acc in (models or {}).items():
        kept = [e for e in views.get(cid, []) if e["version"] != version]
        if not acc["bad"]:
            kept.append(
                {
                    "enforcer": cid,
                    "version": version,
                    "date": acc["date"],
                    "catalogs": len(acc["catalogs"]),
                    "views": acc["views"],
                    "reached": acc["reached"],
                    "refused": acc["refused"],
                    "promptRuns": acc["bytes"],
                }
            )
        views[cid] = sorted(kept, key=lambda e: _vkey(e["version"]))
    mismatches = [m for _, acc in sorted(runs.items()) for m in acc["bad"]]
    mismatches += [m for _, acc in sorted((models or {}).items()) for m in acc["bad"]]
    out = {
        "about": ABOUT,
        "profiles": {pid: entries for pid, entries in sorted(profiles.items()) if entries},
        "mismatches": mismatches,
    }
    if any(views.values()):
        out["modelViews"] = {pid: e for pid, e in sorted(views.items()) if e}
    return out


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(verified: Mapping[str, Any], ledger: list[Mapping[str, Any]], drivers: list[str]) -> str:
    """docs/verification.md: verified runs, profiles without a driver, this run's mismatches,
    and the ledger of mismatches found earlier with the data change that fixed each."""
    lines = [
        "# Verification against the real enforcers",
        "",
        "Generated by `python scripts/refresh_verification.py` from a run of the differential",
        "suite (`pytest -m oracle`): every profile that has a `catalogaudit verify` driver is run",
        "against the real program over the scenario matrix of `fixtures/oracle/` and seeded",
        "random catalogs, and the profile's predicted verdict for every list and item is compared",
        "with what the program did. Do not edit by hand; `catalogaudit profiles` and",
        "`audit --matrix` show the same record.",
        "",
        "## Verified",
        "",
        "| profile | enforcer | version | date | scenarios | observations |",
        "| --- | --- | --- | --- | ---: | ---: |",
    ]
    profiles = verified.get("profiles", {})
    for pid, entries in sorted(profiles.items()):
        lines.extend(
            f"| `{pid}` | {e['enforcer']} | {e['version']} | {e['date']} | {e['scenarios']} "
            f"| {e['observations']} |"
            for e in entries
        )
    missing = [d for d in drivers if d not in profiles]
    if missing:
        lines += ["", "Drivers with no clean run recorded: " + ", ".join(missing) + "."]
    lines += model_section(verified)
    lines += [
        "",
        "Every other profile is **unverified**: no driver can run its enforcer on this machine",
        "without a key or a paid account (the Codex builds bundled with ChatGPT.app, the LLM",
        "provider APIs, Claude Desktop, Cursor, VS Code, Copilot CLI, Gemini, Docker MCP",
        "Gateway, opencode v2). Their rules carry the sources and confidence shown by",
        "`catalogaudit profiles ID`.",
        "",
        "## Mismatches in the latest run",
        "",
    ]
    fixes = {(e["scenario"], e["profile"]): e["change"] for e in ledger}
    bad = verified.get("mismatches", [])
    if not bad:
        lines.append("None: every observation equalled the profile's prediction.")
    else:
        lines += [
            "| scenario | profile | list / item | predicted | observed | client said "
            "| data change |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for m in bad:
            change = fixes.get((m["scenario"], m["profile"]), "none yet: fix the profile data")
            lines.append(
                f"| {_cell(m['scenario'])} | `{m['profile']}` | {_cell(m['subject'])} "
                f"| {m['predicted']} | {m['observed']} | {_cell(m['message'][:160])} "
                f"| {_cell(change)} |"
            )
    lines += evidence_section(verified)
    lines += freshness_section() + CONTEXT_FORGE + GEMINI_CLI + CLAUDE_CODE
    lines += [
        "",
        "## Mismatches found and fixed",
        "",
        "What verify runs found wrong in the profile data, and the change that fixed it",
        "(`fixtures/oracle/ledger.json`).",
        "",
        "| date | scenario | profile | predicted | observed | data change |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines.extend(
        f"| {e['date']} | {_cell(e['scenario'])} | `{e['profile']}` | {_cell(e['predicted'])} "
        f"| {_cell(e['observed'])} | {_cell(e['change'])} |"
        for e in ledger
    )
    return "\n".join(lines) + "\n"


def model_section(verified: Mapping[str, Any]) -> list[str]:
    """`verify --model` runs: what the client sends the model and what calls come to, per
    client version, with the profile's model_view data they were compared with."""
    _src()
    from catalogaudit.profiles.load import raw_files

    lines = [
        "",
        "## What the model is sent (`verify --model`)",
        "",
        "`verify --client C --model` runs the client against `catalogaudit serve` (or a real",
        "server) and a loopback stand-in of its model API (Anthropic Messages for claude-code,",
        "OpenAI Responses for codex, Chat Completions for opencode, Gemini for gemini-cli), and",
        "compares per tool the object sent to the model, how it was offered and what a call",
        "came to with the profile's `model_view` data and its rules' `call` entries.",
        "Clean runs:",
        "",
        "| profile | version | date | catalogs | tool views | calls reached | calls refused "
        "| prompt-bytes runs |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for pid, entries in sorted(verified.get("modelViews", {}).items()):
        lines.extend(
            f"| `{pid}` | {e['version']} | {e['date']} | {e['catalogs']} | {e['views']} "
            f"| {e['reached']} | {e['refused']} | {e['promptRuns']} |"
            for e in entries
        )
    if not verified.get("modelViews"):
        lines.append("| - | - | - | - | - | - | - | - |")
    lattice = json.loads(LATTICE.read_text(encoding="utf-8")) if LATTICE.is_file() else {}
    for r in lattice.get("model_runs", []):
        lines += [
            "",
            f"Over the lattice (`scripts/observatory.py run --client {r['client']} --model`):"
            f" {r['client']} {r['version']}, {r['date']}, the {len(r['observations'])} tool"
            " shapes it observes, in each of its modes, every tool called; replayed by the"
            " oracle suite, tabulated in [compatibility.md](compatibility.md).",
        ]
    lines += ["", "The model-view data compared, per profile and version range:", ""]
    for doc in sorted(raw_files().values(), key=lambda d: d["id"]):
        for e in doc.get("model_view", []):
            fields = ", ".join(e["fields"])
            name = f"{e['namespace']}/{e['name']}" if "namespace" in e else e["name"]
            schema = "; schema rewritten" if "schema_rewrite" in e else ""
            deferral = ", ".join(f"{m}: {how}" for m, how in e["deferral"].items())
            lines.append(
                f"- `{doc['id']}` {e['versions'] or 'every version'} ({e['basis']}, {e['date']}):"
                f" name `{name}` ({e.get('transform', 'none')}); fields {fields}{schema}; order"
                f" {e.get('order', 'served')}; {deferral}{_model_extras(e)}."
            )
        for rule in doc["rules"]:
            for c in rule.get("call", []):
                lines.append(
                    f"- `{rule['id']}` call at {c['versions'] or 'every version'}: "
                    f"{c['outcome']} ({c['basis']}). {c.get('note', '')}".rstrip()
                )
    return lines


def _runs(verified: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    """verified.json's entries as the loader's VerifiedRun records."""
    _src()
    from packaging.version import Version

    from catalogaudit.profiles.load import VerifiedRun

    return {
        pid: tuple(
            VerifiedRun(
                e["enforcer"], Version(e["version"]), e["date"], e["scenarios"], e["observations"]
            )
            for e in entries
        )
        for pid, entries in verified.get("profiles", {}).items()
    }


def evidence_section(verified: Mapping[str, Any]) -> list[str]:
    """Per profile version, which rules a clean run verified at listing time and which are
    from sources: one row per verified version, and the newest version of every other
    profile (its rules are all from sources)."""
    _src()
    from catalogaudit.profiles.load import load_all
    from catalogaudit.profiles.resolve import resolve, rule_evidence

    runs = _runs(verified)
    lines = [
        "",
        "## Evidence per rule",
        "",
        "A verify driver observes the client's list calls (tools/list and the others), never a",
        "tool call or a model request. A clean run therefore verifies only the rules the client",
        "acts on at listing time that a driver measured; the others say what their sources say",
        "(`catalogaudit profiles ID@VERSION` prints each rule's sources). Rules by the profile",
        "version they apply at:",
        "",
        "| profile | verified at listing time | measured, no verify run | from sources, "
        "listing time | from sources, call time |",
        "| --- | --- | --- | --- | --- |",
    ]
    for pid, profile in load_all().items():
        versions = [str(r.version) for r in runs.get(pid, ())]
        if not versions:
            versions = [str(profile.newest.version)] if profile.newest is not None else [""]
        for version in versions:
            spec = f"{pid}@{version}" if version else pid
            said = rule_evidence(resolve(spec, {}), runs)
            cells = [
                [e.rule_id for e in said if e.verified],
                [e.rule_id for e in said if not e.verified and e.text.startswith("measured")],
                [e.rule_id for e in said if e.phase == "listing" and "from sources" in e.text],
                [e.rule_id for e in said if e.phase == "call" and "from sources" in e.text],
            ]
            shown = " | ".join(", ".join(sorted(c)) or "-" for c in cells)
            lines.append(f"| `{spec}` | {shown} |")
    return [*lines, *REAL_SERVERS]


#: Where the profiles' verdicts on real servers are pinned (not a verification: an audit).
REAL_SERVERS = [
    "",
    "## Verdicts on real servers",
    "",
    "`fixtures/real-servers/` holds captures of published MCP servers (the reference servers,",
    "mcp-server-fetch, @antv/mcp-server-chart, the Notion, Context7 and Playwright servers;",
    "its README names each package@version and the command that made the capture) and, per",
    "capture, the findings every profile gives on it. `tests/profiles/test_real_servers.py`",
    "asserts them, so a profile change that moves a verdict on a real server shows in review;",
    "`python scripts/refresh_real_servers.py --write` regenerates them on purpose. Those",
    "findings are the profiles' predictions, verified or from sources as the table above",
    "says; no client was run on these captures.",
]


def _model_extras(e: dict[str, Any]) -> str:
    """The optional model_view data, in words (`verify.predict_model`)."""
    out = []
    cut = e.get("description")
    if isinstance(cut, dict):
        where = " when " + "/".join(cut["offered"]) if "offered" in cut else ""
        out.append(f"description cut to {cut['max']} characters{where}")
    if "name_max" in e:
        out.append(f"a qualified name over {e['name_max']} characters left out")
    if e.get("duplicates") in ("first", "last"):
        out.append(f"of tools with one sent name the {e['duplicates']} is sent")
    if e.get("duplicates") == "first-of-name":
        out.append("of tools with one name the first is sent")
    if "name_hash" in e:
        out.append(
            f"a name over {e['name_hash']} bytes, or one that meets another once renamed, cut "
            "and suffixed with a SHA-1"
        )
    for era, how in e.get("empty_cursor", {}).items():
        what = "ends the listing" if how == "stop" else "is followed"
        out.append(f'{era}: a nextCursor of "" {what}')
    return "".join(f"; {x}" for x in out)


def freshness_section() -> list[str]:
    """What `scripts/freshness.py` found last: the newest releases' runs in the lattice ledger
    (a run with `compared_with` is a newest release driven beside its pin)."""
    runs = json.loads(LATTICE.read_text(encoding="utf-8"))["runs"] if LATTICE.is_file() else []
    lines = [
        "",
        "## Freshness: the newest releases beside the pinned ones",
        "",
        "`python scripts/freshness.py --client claude-code --client codex` (any of claude-code,",
        "codex, opencode, inspector, ts-sdk, ts-sdk-v2, python-sdk) asks the registry for each",
        "client's newest release, installs it into `~/.cache/catalogaudit/freshness/` (never into",
        "tests/node_modules), drives it over every lattice shape its pinned version has in",
        "`fixtures/lattice/ledger.json` (`--sample N`: N shapes per recorded verdict) and records",
        "its run there, with the pinned version it was compared with and the verdicts that",
        "changed; the oracle suite then replays the newest release too. What it found last:",
        "",
    ]
    fresh = [r for r in runs if "compared_with" in r]
    if not fresh:
        return [*lines, "Not run yet."]
    lines += [
        "| client | newest | pinned | date | shapes | verdicts changed |",
        "| --- | --- | --- | --- | ---: | --- |",
    ]
    for r in fresh:
        changed = r.get("changed") or []
        what = (
            "none"
            if not changed
            else "; ".join(
                f"`{c['shape']}` {c[r['compared_with']]} -> {c[r['version']]}" for c in changed
            )
        )
        lines.append(
            f"| {r['client']} | {r['version']} | {r['compared_with']} | {r['date']} "
            f"| {len(r['observations'])} | {_cell(what)} |"
        )
    return lines


#: Which ContextForge releases the installer reaches and runs (issue 32), as found on 2026-12-06.
CONTEXT_FORGE = [
    "",
    "## ContextForge releases",
    "",
    "PyPI serves 28 releases of `mcp-contextforge-gateway`, 0.1.0 to 1.1.0 (2026-10-20); every",
    "one is reachable here and installs with `python -m",
    "catalogaudit.verify.drivers.context_forge_install VERSION` (its upload date pinned in",
    "`UPLOADED`). 1.0.8 and later require Python 3.12 or 3.13, so `pip index versions` under",
    "the project's Python 3.11 lists only up to 1.0.7.post20260921 (`pip download` says",
    "'Ignored the following versions that require a different python version'): that, not the",
    "index, is why the profile once called 1.0.8 to 1.0.11 unreachable. The installer puts",
    "them on Python 3.12. 1.0.11 and 1.1.0 require `mcp>=2` (2.2.0 and 2.3.0 resolved at their",
    "upload dates; 1.0.8 to 1.0.10 pin `mcp<2`), whose models name templates' fields in snake",
    "case (the driver reads both), and refuse a default user password under 12 characters (the",
    "driver sets `DEFAULT_USER_PASSWORD`).",
    "",
    "Driven over the lattice (`python scripts/observatory.py run --client context-forge",
    "--client-path ~/.cache/catalogaudit/context-forge/VERSION --batch 150`, recorded in",
    "`fixtures/lattice/ledger.json`), 2026-12-06: every release, 0.1.0 to 1.0.11 with 570",
    "shapes each and 1.1.0 with 1,231 (it negotiates 2026-07-28, so the modern shapes apply",
    "too), each with 0 mismatches. 1.0.1 and 1.0.2 (mcp 1.27.1), 1.0.3 (mcp 1.27.2), 1.0.4",
    "(mcp 1.28.0), 1.0.5 and 1.0.6 (mcp 1.28.1), 1.0.8, 1.0.9 and 1.0.10 gave 1.0.7's verdict",
    "on every shape; 0.1.1 (mcp 1.9.4) gave 0.1.0's, 0.2.0 (mcp 1.9.4, the first registered",
    "over Streamable HTTP) 0.1.1's and 0.5.0 (mcp 1.12.3) 0.4.0's.",
    "What changed:",
    "",
    "- 0.1.0 (mcp 1.9.3) and 0.1.1 speak only the 2024-11-05 HTTP+SSE transport (their",
    "  `GatewayCreate` has no `transport` field): the driver serves their catalogs with `serve",
    "  --transport sse` and registers them without a transport. Before 0.6.0 ContextForge",
    "  reads tools only (the profile's `reads`), so a failed registration is a failed tool",
    "  list, and that is what the profile predicts for these releases. Their SDK refuses the",
    "  same tool and page field types as 0.6.0's except a tool's `title`, `outputSchema` and",
    "  `_meta`, which mcp 1.9.x does not model (kept whatever their type; CF-SDK-002 now covers",
    "  every release below 1.0.11, those three checks from 0.3.0); two tools of one name fail",
    "  the registration through the tool service's own check ('Tool already exists with",
    "  name'; CF-NAME-005 now from 0.1.0).",
    "- 0.3.0 (mcp 1.10.1) models a tool's `title`, `outputSchema` and `_meta`, and fails the",
    "  registration on a wrong type there as 0.6.0 does (CF-SDK-002's checks from 0.3.0); it",
    "  keeps a tool name of any characters (an empty name, `a.b` and `a b` were kept: the",
    "  profile's CF-NAME-001 has no check at 0.3.0).",
    "- 0.3.1 (mcp 1.11.0) checks tool names again (CF-NAME-001) but not the gateway-qualified",
    "  length: its database listener checks the characters only, so a 255-character name is",
    "  kept (CF-NAME-004 now from 0.4.0, whose listener refuses it). A server without tools is",
    "  registered over Streamable HTTP, which the lattice uses from 0.2.0; over SSE, these",
    "  releases' default transport, 0.3.1 to 0.5.0 fail it (their SSE discovery logs",
    "  `tools[0]`: an IndexError; measured on 0.3.1 and 0.5.0 with the shape served over SSE),",
    "  so CF-TOOLS-001 is now a warning that names the transport.",
    "- 0.4.0 (mcp 1.12.1) refuses a gateway-qualified tool name over 255 characters",
    "  (CF-NAME-004) and keeps `a.b` (its name rule allows a dot, as CF-NAME-001 says).",
    "- 0.6.0 (mcp 1.13.1) refuses the same item field types as 1.0.7 (CF-SDK-002) except",
    "  icons, which its SDK has no model for (kept whatever their type; 0.8.0",
    "  and 0.9.0 refuse them: mcp 1.18.0 in 0.8.0 is the first with one); it",
    "  fails the registration on two tools of one name (CF-NAME-005, the tools table's unique",
    "  constraint, from 0.5.0) and on a `pattern` that is not a regex (CF-SCHEMA-002: every",
    "  release's `check_schema` asserts format regex). 0.9.0, the first to read templates,",
    "  drops an empty `uriTemplate` as 1.0.7 does (CF-URI-001).",
    "- 1.0.7.post20260921 (mcp 1.30.0) gives 1.0.7's verdicts except on an empty `nextCursor`",
    "  on the last page: its new pagination loop (`get_list_paginated`, which follows",
    "  `nextCursor` while it is not None) sends the empty string back, the server refuses it",
    "  ('Invalid cursor') and the list fails, the tool list the whole registration (new rule",
    "  CF-PAGE-002; 1.0.8 to 1.0.10, on the same mcp 1.30.0, read one page and keep it).",
    "- 1.0.11 validates list results with the mcp 2.x models, which are the Python SDK's",
    "  (new rule CF-SDK-003, the python-sdk profile's checks): an icon `theme` other than",
    "  light|dark, an `inputSchema` or `outputSchema` of `{}`, a prompt argument's non-string",
    "  `title` and a non-string `annotations.lastModified` now fail the list (the tool list: the",
    "  whole registration); an empty `nextCursor` is sent back and refused as in",
    "  1.0.7.post20260921 (CF-PAGE-002).",
    "  A resource URI is no longer normalised by the SDK, so ContextForge's own character check",
    "  drops `file:///a b` and an empty URI (CF-URI-001), and a relative URI is kept.",
    "- 1.1.0 sends `server/discover` (CF-ERA-001 from 1.1.0 is the Python SDK's handshake):",
    "  `base@modern`, a 2026-07-28-only server, is kept; 1.0.11 still fails it with -32022.",
    "",
    "The oracle suite replays every recorded verdict against the profile",
    "(`tests/oracle/test_lattice_oracle.py`) without driving these releases, and drives a",
    "sample of shapes live on 0.1.0 only (`context_forge_install.LATTICE_LIVE`: the HTTP+SSE",
    "path), so CI installs no other release for it; the differential scenarios of",
    "`tests/oracle/test_context_forge_oracle.py` still drive the releases in",
    "`context_forge_install.ORACLE`. A lattice run of one release",
    "took 60 to 70 minutes on the shared two-core machine until the driver shared one TLS",
    "context among the release's HTTP clients and started the next servers ahead (now 6 to 15",
    "minutes; `bench/README.md`).",
]


#: Whether Gemini CLI can be driven here (issue 32), as found on 2026-12-06.
GEMINI_CLI = [
    "",
    "## Gemini CLI",
    "",
    "npm `@google/gemini-cli` 0.61.0 (2026-12-06) can be driven here for listing verdicts, but",
    "not by `gemini mcp list`: that command only connects (`✓ c0: ... (stdio) - Connected`)",
    "and lists nothing, and in a folder it does not trust it starts no server at all",
    "('MCP servers are configured but disabled because this folder is untrusted';",
    "`GEMINI_CLI_TRUST_WORKSPACE=true` trusts it). A headless start does list: with servers",
    'in `$HOME/.gemini/settings.json` (`"trust": true` each, or non-interactive mode leaves',
    "their tools out), `security.auth.selectedType` `gemini-api-key`, a dummy `GEMINI_API_KEY`",
    "and `GOOGLE_GEMINI_BASE_URL` pointing at a loopback stand-in of the Gemini API,",
    "`gemini -m gemini-2.5-flash -p hi --output-format json` discovers every server and sends",
    "one `streamGenerateContent` request whose `functionDeclarations` hold the MCP tools it",
    "kept (`mcp_<server>_<tool>`); `--debug` prints each failure on stderr (`[MCP error] Error",
    "discovering tools from c1: [zod issues]`, `Error during discovery for MCP server 'c1'`).",
    "`-m` is needed: without it the model router's classifier request (to",
    "`gemini-3.5-flash-lite`) comes first and wants an answer of its own. First observations:",
    "a tool without `name` fails the tool list with the TS SDK's zod issue; a resource with",
    "`mimeType: 3` fails its resources/list, and that failure takes the server's tools with it",
    "(no `mcp_c2_*` declaration was sent). `verify --client gemini-cli` drives it this way",
    "(`catalogaudit.verify.drivers.gemini_cli`). It observes the tool list and, since",
    "2026-12-06, the resource list: the API stand-in answers the first model request with a",
    "call of Gemini CLI's built-in `list_mcp_resources` tool, whose result (`- cN:URI | name`",
    "per registered resource) comes back in the next request. It cannot observe prompts:",
    "Gemini CLI reads them (discovery lists prompts, then tools, then resources, and a",
    "failure of any of them registers nothing of the server), but which it kept reaches no",
    "model request and no built-in tool, and `gemini -p '/mcp desc'` lists nothing (measured:",
    "it sends one model request and prints only the answer; the command's output is an",
    "`mcp_status` item, which the non-interactive UI does not print); it never requests",
    "`resources/templates/list`, so template defects cannot reach it. The lattice run",
    "recorded in `fixtures/lattice/ledger.json` (2026-12-06, 404 shapes: the legacy tool and",
    "resource shapes and `base@modern`) found a failed tool or resource list costs the whole",
    "server (its tools and its resources), an empty resource URI is silently left out, and a",
    "resource's `annotations` and `size` are not checked at all (its bundled SDK's schema",
    "has neither). `base@modern` fails with `MCP error -32022: Unsupported protocol version`:",
    "it sends no `server/discover`.",
    "The `gemini-cli` profile predicts every recorded verdict",
    "(GCLI-TYPE-001, GCLI-SCHEMA-001, GCLI-URI-001, GCLI-PAGE-001, GCLI-PAGE-002,",
    "GCLI-NAME-002), and the era scenarios G, H, K and R of `tests/oracle/test_era_oracle.py`",
    "(GCLI-ERA-001: the TS SDK bundled in 0.61.0 asks for 2025-06-18 and accepts 2025-06-18,",
    "2025-03-26, 2024-11-05 and 2024-10-07 only). G's and R's servers echoed the probe's",
    "2025-11-25, so the profile takes them to echo Gemini CLI's 2025-06-18 too. That is what",
    "real servers do: asked with `initialize` for 2025-06-18, 2025-03-26 and 2024-11-05 on",
    "2026-12-06, server-everything, -filesystem and -memory 2026.8.31 (TS SDK 1.32.2) and",
    "mcp-server-time and -git 2026.10.19 (Python mcp 2.3.0) each echoed the revision asked",
    "(the TS SDK servers echo 2024-10-07 too; the Python ones counter-offer 2025-11-25 to it).",
    "So `serve` echoes a published revision older than the one a captured server echoed",
    "(`docs/serve.md`), and G and R are kept, as predicted (they were strict xfails while",
    "`serve` counter-offered 2025-11-25).",
]


#: How Claude Code's prompt and resource lists can be observed (issue 32), found on 2026-12-06.
CLAUDE_CODE = [
    "",
    "## Claude Code prompts and resources",
    "",
    "The `claude-code` driver reads the tool list from `claude mcp get NAME` (whether",
    "tools/list succeeded) and, since 2026-12-06, prompts and resources from one headless",
    "session over the catalogs that list them: `claude -p hi --output-format stream-json",
    "--verbose --mcp-config FILE` against the Messages API stand-in (`verify/messages_api.py`,",
    "`ENABLE_TOOL_SEARCH=false`):",
    "",
    "- prompts: the first stream-json line (`type: system`, `subtype: init`) lists",
    "  `slash_commands`, and each prompt kept is one `mcp__<server>__<prompt>` command;",
    "- resources: with `--allowedTools ListMcpResourcesTool` and the stand-in answering the",
    "  first request with a call of Claude Code's built-in `ListMcpResourcesTool` (no",
    "  arguments), the next request carries its result, a JSON array of the resources kept",
    "  (`name`, `uri`, ..., `server`). Templates appear on neither route.",
    "",
    "A server can be `pending` in the init line: by default Claude Code does not wait for its",
    "servers (`MCP_CONNECTION_NONBLOCKING`), and a server whose list call never resolves",
    "(`prompts.page._meta/null`: Claude Code waits `MCP_TIMEOUT` for it) is pending even",
    "alone. The driver sets `MCP_CONNECTION_NONBLOCKING=false`, so the init line waits for",
    "every server; a server still pending gives no verdict and is run again (the run fails",
    "after three sessions rather than record one). Over the lattice's prompt and resource",
    "shapes of both eras (recorded in `fixtures/lattice/ledger.json`), Claude Code 2.1.328",
    "does what the TS SDK it bundles does (a prompt or resource field of a type its zod",
    "schema refuses loses that whole list), except that it keeps an empty `nextCursor`:",
    "the `claude-code` profile's CC-TYPE-001 and CC-PAGE-001 cover prompts and resources",
    "too, and it includes TSSDK-TYPE-001's checks on prompt-argument and resource fields.",
    "2.1.332 gives the same verdict on every one of these shapes (`scripts/freshness.py`).",
    "Beyond the lattice, `tests/oracle/test_cli_clients_oracle.py` drives the same routes",
    "over scenarios C, E and F, the prompt and resource shapes S3, S4, S5 and S7",
    "(`fixtures/oracle-npm/`) and their defects one per catalog: two prompts with the same",
    "name give one command (CC-NAME-002), two resources with the same uri are both listed.",
]


def _write(path: Path, text: str) -> None:
    """Atomic, as every file catalogaudit writes: a reader never sees half a file."""
    _src()
    from catalogaudit.verbs.output import write_atomic

    write_atomic(str(path), text)


def _src() -> None:
    """Import catalogaudit from this checkout even when it is not installed."""
    if str(ROOT / "src") not in sys.path:
        sys.path.insert(0, str(ROOT / "src"))


def _drivers() -> list[str]:
    _src()
    from catalogaudit.verify import DRIVERS

    return sorted(DRIVERS)


def expected_doc() -> str:
    """What docs/verification.md must say for the committed verified.json and ledger."""
    verified = json.loads(VERIFIED.read_text(encoding="utf-8"))
    ledger = json.loads(LEDGER.read_text(encoding="utf-8"))
    return render(verified, ledger, _drivers())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", help="record from this verification log instead of running")
    ap.add_argument("--random", type=int, help="random catalogs per client (default: the suite's)")
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/verification.md is stale")
    ap.add_argument("--render", action="store_true", help="only re-render docs/verification.md")
    args = ap.parse_args(argv)
    if args.render:
        _write(DOC, expected_doc())
        return 0
    if args.check:
        stale = DOC.read_text(encoding="utf-8") != expected_doc()
        print("docs/verification.md is stale" if stale else "docs/verification.md is up to date")
        return int(stale)
    suite_rc = 0
    with tempfile.TemporaryDirectory(prefix="catalogaudit-refresh-") as tmp:
        log = Path(args.log) if args.log else Path(tmp) / "verification.jsonl"
        if not args.log:
            env = {**os.environ, "CATALOGAUDIT_VERIFICATION_LOG": str(log)}
            if args.random is not None:
                env["CATALOGAUDIT_ORACLE_RANDOM"] = str(args.random)
            cmd = [sys.executable, "-m", "pytest", "-q", "-m", "oracle", "-p", "no:cacheprovider"]
            suite_rc = subprocess.call(cmd, cwd=ROOT, env=env)
        if not log.is_file():
            print(f"error: no verify run was logged ({log})", file=sys.stderr)
            return 2
        reports = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line]
    previous = json.loads(VERIFIED.read_text(encoding="utf-8"))
    verified = merge(previous, aggregate(reports), aggregate_models(reports))
    _write(VERIFIED, json.dumps(verified, indent=2, ensure_ascii=False) + "\n")
    ledger = json.loads(LEDGER.read_text(encoding="utf-8"))
    _write(DOC, render(verified, ledger, _drivers()))
    runs = sum(len(v) for v in verified["profiles"].values())
    print(
        f"{len(reports)} verify runs; {runs} verified profile versions; "
        f"{len(verified['mismatches'])} mismatches; wrote {VERIFIED.relative_to(ROOT)} "
        f"and {DOC.relative_to(ROOT)}"
    )
    return 0 if suite_rc == 0 and not verified["mismatches"] else 1


if __name__ == "__main__":
    sys.exit(main())
