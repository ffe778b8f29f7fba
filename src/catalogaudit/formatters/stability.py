"""Render a stability report (`stability.report`) as text, JSON or Markdown; strings only."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from catalogaudit.formatters.base import visible
from catalogaudit.formatters.console import CLASS_STYLE, DIM, Page
from catalogaudit.formatters.formats import StabilityFormat
from catalogaudit.formatters.md import (
    DEFAULT_MAX_CHARS,
    FULL_REPORT,
    Section,
    code,
    escape_text,
    fit,
    words,
)
from catalogaudit.model import dump_string

_KIND = {
    "tools": "tool",
    "prompts": "prompt",
    "resources": "resource",
    "resourceTemplates": "resource template",
}


_BYTES = ("key order", "number lexeme")


def render(
    report: dict[str, Any],
    fmt: StabilityFormat,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    color: bool = False,
    width: int = 100,
) -> str:
    """The report in one format (`max_chars` bounds the Markdown; `color`, `width` the text)."""
    if fmt is StabilityFormat.TEXT:
        return text(report, color=color, width=width)
    if fmt is StabilityFormat.JSON:
        return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if fmt is StabilityFormat.MARKDOWN:
        return markdown(report, max_chars=max_chars)
    _never(fmt)


def _never(value: NoReturn) -> NoReturn:
    raise AssertionError(f"unhandled format {value!r}")


def summary(report: dict[str, Any]) -> str:
    """One line: the verdict, how many inputs, the prompt-cache cost."""
    n = len(report["inputs"])
    cache = report["promptCache"]
    line = f"{report['verdict'].upper()} across {n} input{'s' if n != 1 else ''}"
    if cache["tokens"]:
        line += (
            f"; ~{cache['tokens']} prompt tokens re-sent uncached (worst: {cache['worstInput']})"
        )
    return line


def _name(listing: str, ident: Any) -> str:
    return f"{_KIND[listing]} {dump_string(ident) if ident is not None else '#?'}"


def _item_line(listing: str, item: dict[str, Any]) -> list[Any]:
    causes = ", ".join(
        c["cause"] + (f" at {c['pointer'] or 'the top level'}" if c["cause"] in _BYTES else "")
        for c in item["causes"]
        if c["cause"] != "content"
    )
    parts: list[str] = []
    if causes:
        parts.append(causes)
    if item["verdict"] == "content":
        paths = item["paths"][:10]
        more = f" (+{len(item['paths']) - 10})" if len(item["paths"]) > 10 else ""
        parts.append("changed " + ", ".join(p or "(whole item)" for p in paths) + more)
    parts.append("prompt bytes changed" if item["promptChanged"] else "prompt bytes equal")
    parts.append("in " + ", ".join(item["inputs"]))
    verdict = item["verdict"]
    name = visible(_name(listing, item["identity"]), keep="")
    return [f"{name}: ", (verdict, CLASS_STYLE.get(verdict, "")), visible("; " + "; ".join(parts))]


def _listing_line(name: str, rec: dict[str, Any]) -> list[Any]:
    line = ""
    if rec["status"] == "absent":
        line += " (absent)"
    if rec["causes"]:
        line += (
            " ("
            + ", ".join(f"{c['cause']} in {', '.join(c['inputs'])}" for c in rec["causes"])
            + ")"
        )
    cache = rec["promptCache"]
    if rec["verdict"] != "stable" and not cache["tokens"]:
        line += "; prompt cache: no cost (the prompt bytes clients forward are equal)"
    if cache["tokens"]:
        start = f" from {_name(name, cache['fromItem'])}" if "fromItem" in cache else ""
        how = "" if cache.get("exact") else ", counted from the first changed item"
        line += (
            f"; prompt cache: ~{cache['tokens']} tokens ({cache['bytes']} bytes{how}) "
            f"re-sent uncached{start}"
        )
    verdict = rec["verdict"]
    return [(name, "bold"), ": ", (verdict, CLASS_STYLE.get(verdict, "")), visible(line)]


def text(report: dict[str, Any], *, color: bool = False, width: int = 100) -> str:
    """Human text: verdict per listing, then each item that is not stable."""
    page = Page(color=color, width=width)
    inputs = visible(", ".join(report["inputs"]), keep="")
    baseline = visible(report["baseline"], keep="")
    page.line(("stability", "bold"), f" of {inputs} (baseline {baseline})", hang=4)
    for name, rec in report["listings"].items():
        page.line(*_listing_line(name, rec), hang=4)
        for i in rec["items"]:
            if i["verdict"] != "stable":
                page.line(*_item_line(name, i), indent=2, hang=6)
        fields = rec["pageFields"]
        if fields["verdict"] != "stable":
            page.line(
                "page fields: ",
                (fields["verdict"], CLASS_STYLE.get(fields["verdict"], "")),
                visible("; changed " + ", ".join(fields["paths"])),
                indent=2,
                hang=6,
            )
    if report["instructions"]["verdict"] != "stable":
        inputs = visible(", ".join(report["instructions"]["inputs"]), keep="")
        page.line(("instructions", "bold"), ": ", ("content", "bold red"), f" (in {inputs})")
    if report["promptCache"]["tokens"]:
        page.line(
            (
                "prompt-cache cost: o200k tokens of the prompt projection from the first "
                "changed token on (promptCache.method in --format json says how)",
                DIM,
            ),
            hang=2,
        )
    page.lines(bill_lines(report["promptCache"]))
    for w in report["warnings"]:
        page.line(("warning:", "bold yellow"), f" {visible(w['message'])}", hang=2)
    for n in report["notes"]:
        page.line(("note:", DIM), f" {visible(n)}", hang=2)
    return page.text()


# --- the bill (text and Markdown; `diff` and `snapshot --runs` show the same) ------------------


def _who(row: dict[str, Any]) -> str:
    if row["client"] is None:
        return "served prompt projection"
    return f"{row['client']} {row.get('version') or ''}".strip() + f", mode {row['mode']}"


def _money(value: float, currency: str) -> str:
    return f"{value:,.4f} {currency}"


def bill_lines(cache: dict[str, Any]) -> list[str]:
    """The bill as text: one line per provider and client (empty without one)."""
    prices = cache.get("prices")
    if not prices:
        return []
    cur = prices["currency"]
    lines = [
        f"prompt-cache bill (prices of {prices['date']}, {prices['source']}; per session and "
        "per 1,000 sessions, re-sent tokens billed as cache writes instead of reads):"
    ]
    for row in cache.get("providers", []):
        line = (
            f"  {row['provider']} {row['family']} ({_who(row)}): {row['resent']:,} of "
            f"{row['tokens']:,} tokens re-sent per session ({row['tokenizer']}); "
            f"{_money(row['cost']['perThousandSessions'], cur)} per 1,000 sessions"
        )
        if not row["rebills"]:
            line += "; the cached prefix is not re-billed"
        if row["belowMinimum"]:
            line += f"; under the {row['minimumPrefix']:,}-token minimum cacheable prefix"
        lines.append(line)
        if row.get("note") and row["client"] is not None:
            lines.append(f"    {row['note']}")
    return lines


def bill_markdown(cache: dict[str, Any]) -> list[str]:
    """The bill as a Markdown table (empty without one)."""
    prices = cache.get("prices")
    if not prices:
        return []
    cur = prices["currency"]
    rows = [
        f"Prompt-cache bill, prices of {prices['date']} ({words(prices['source'])}), "
        f"in {words(cur)}:",
        "",
        "| provider | family | priced on | tokens | re-sent per session | per session "
        "| per 1,000 sessions | minimum prefix |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in cache.get("providers", []):
        below = " (under it)" if row["belowMinimum"] else ""
        rows.append(
            f"| {words(row['provider'])} | {words(row['family'])} | {words(_who(row))} "
            f"| {row['tokens']:,} ({words(row['tokenizer'])}) | {row['resent']:,} "
            f"| {row['cost']['perSession']:.6f} | {row['cost']['perThousandSessions']:.4f} "
            f"| {row['minimumPrefix']:,}{below} |"
        )
    return [*rows, ""]


def markdown(
    report: dict[str, Any], *, max_chars: int = DEFAULT_MAX_CHARS, where: str = FULL_REPORT
) -> str:
    """A pull-request comment: verdict table per listing, then the unstable items (content
    changes kept before bytes-only ones when cut to `max_chars`)."""
    mark = ":white_check_mark:" if report["stable"] else ":x:"
    head = [f"### catalogaudit stability: {mark} {words(summary(report))}", ""]
    for w in report["warnings"]:
        head += ["> [!WARNING]", f"> {escape_text(w['message'])}", ""]
    head += ["| listing | verdict | causes | prompt tokens re-sent |", "|---|---|---|---|"]
    for name, rec in report["listings"].items():
        found = [c["cause"] for c in rec["causes"]]
        found += [c["cause"] for i in rec["items"] for c in i["causes"] if c["cause"] in _BYTES]
        causes = ", ".join(dict.fromkeys(found))
        head.append(
            f"| {words(name)} | {words(rec['verdict'])} | {words(causes)} "
            f"| {rec['promptCache']['tokens']} |"
        )
    head.append("")
    items = Section(header=["| item | verdict | causes | paths |", "|---|---|---|---|"])
    for name, rec in report["listings"].items():
        for item in rec["items"]:
            if item["verdict"] == "stable":
                continue
            causes = ", ".join(c["cause"] for c in item["causes"])
            paths = ", ".join(code(p, in_table=True) for p in item["paths"][:20] if p)
            items.rows.append(
                f"| {code(_name(name, item['identity']), in_table=True)} "
                f"| {words(item['verdict'])} | {words(causes)} "
                f"| {paths or '(whole item)'} |"
            )
            items.ranks.append(0 if item["verdict"] == "bytes-only" else 1)
    items.footer = [""]
    tail = Section(rows=["\n".join(bill_markdown(report["promptCache"]))])
    if report["promptCache"]["tokens"]:
        method = words(report["promptCache"]["method"])
        tail.rows.append(f"_Prompt-cache cost is an estimate: {method}_\n")
    notes = Section(header=["Notes:", ""], rows=[f"- {words(n)}" for n in report["notes"]])
    text = fit(head, [items, tail, notes], max_chars=max_chars, where=where)
    return text.rstrip("\n") + "\n"
