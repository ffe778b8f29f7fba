"""`catalogaudit hash` output: sha256sum-style lines (text) or the hash report (JSON)."""

from __future__ import annotations

import re
from typing import Any

from catalogaudit.formatters.base import assert_never
from catalogaudit.formatters.formats import HashFormat
from catalogaudit.model import HASH_KINDS, dump_string, written

#: What makes an identity more than one word of a line: whitespace (`str.isspace`, as `\s` of
#: a `str` pattern) or a quote.
_NOT_ONE_WORD = re.compile(r'[\s"]')


def hash_text(report: dict[str, Any]) -> str:
    """`<hash>  <kind>  <subject>` lines, as sha256sum: catalog, then each listing and item."""
    rows = [(report["catalog"][k], k, "catalog") for k in HASH_KINDS]
    for lname, entry in report["listings"].items():
        if "hashes" not in entry:
            rows.append((entry["status"], "listing", lname))
            continue
        rows.extend((entry["hashes"][k], k, lname) for k in (*HASH_KINDS, "pageFields"))
        for item in entry["items"]:
            ident = item["identity"]
            if ident is None:
                ident = f"#{item['servedPosition']}"
            elif not ident or ident.startswith("#") or _NOT_ONE_WORD.search(ident):
                ident = dump_string(ident)  # so the subject stays one unambiguous word
            rows.extend((item[k], k, f"{lname} {ident}") for k in HASH_KINDS)
    rows.extend(client_rows(report.get("clients") or {}))
    return "".join(f"{value:<71}  {kind:<10}  {subject}\n" for value, kind, subject in rows)


def client_rows(clients: dict[str, Any]) -> list[tuple[str, str, str]]:
    """`hash --client`: per client its prompt hash (kind `prompt@CLIENT`), then each tool's,
    subject the name the model sees and how it is offered; a tool left out says so."""
    rows = []
    for cid, rec in clients.items():
        kind = f"prompt@{cid}"
        rows.append((rec["prompt"], kind, f"tools ({rec['tokens']} tokens, mode {rec['mode']})"))
        for tool in rec["tools"]:
            value = tool["prompt"] or tool["offered"]
            name = tool["name"] or dump_string(tool["identity"])
            rows.append((value, kind, f"tools {name} ({tool['offered']}, {tool['tokens']} tokens)"))
    return rows


def format_hashes(report: dict[str, Any], fmt: HashFormat) -> str:
    """The hash report in `fmt`."""
    if fmt is HashFormat.JSON:
        return written(report)
    if fmt is HashFormat.TEXT:
        return hash_text(report)
    assert_never(fmt)
