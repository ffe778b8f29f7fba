"""`catalogaudit rule ID`: one rule explained (text, JSON under the `rule` envelope, Markdown).

Examples are fixture text (hostile names included), so the text form passes them through
`visible` and the Markdown form fences them with a fence longer than any backtick run inside.
"""

from __future__ import annotations

import json
import re
from typing import Any

from catalogaudit.formatters.base import assert_never, visible
from catalogaudit.formatters.console import CLASS_STYLE, DIM, Page
from catalogaudit.formatters.formats import RuleFormat
from catalogaudit.formatters.md import escape_text, link
from catalogaudit.model import with_envelope as envelope

_SEVERITY = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}
#: Example lines shown in text and Markdown (JSON carries the whole example).
EXAMPLE_LINES = 40


def format_rule(
    rule: dict[str, Any], fmt: RuleFormat, *, color: bool = False, width: int = 100
) -> str:
    """The explanation in `fmt` (`color`, `width`: text only)."""
    if fmt is RuleFormat.JSON:
        return json.dumps(envelope("rule", {"rule": rule}), indent=2, sort_keys=True) + "\n"
    if fmt is RuleFormat.TEXT:
        return _text(rule, color, width)
    if fmt is RuleFormat.MARKDOWN:
        return _markdown(rule)
    assert_never(fmt)


def _where(example: dict[str, Any]) -> str:
    bits = [example["file"]]
    if example.get("profile"):
        bits.append(f"--profile {example['profile']}")
    if example.get("revision"):
        bits.append(f"revision {example['revision']}")
    for key, value in sorted((example.get("settings") or {}).items()):
        bits.append(f"--profile-setting {key}={value}")
    for key, option in (("serverName", "--server-name"), ("gatewayName", "--gateway-name")):
        if example.get(key):
            bits.append(f"{option} {example[key]}")
    return ", ".join(bits)


def _lines(text: str) -> tuple[list[str], int]:
    lines = text.rstrip("\n").split("\n")
    return lines[:EXAMPLE_LINES], max(0, len(lines) - EXAMPLE_LINES)


def _text(rule: dict[str, Any], color: bool, width: int) -> str:
    page = Page(color=color, width=width)

    def para(title: str, body: str) -> None:
        page.line((f"{title}:", "bold"))
        page.line(visible(body) or "-", indent=2, hang=2)

    style = _SEVERITY.get(rule["severity"]) or CLASS_STYLE.get(rule["severity"], "")
    page.line((rule["id"], "bold"), f" {rule['name']} (", (rule["severity"], style), ")", hang=2)
    page.line(visible(rule["summary"]), hang=2)
    page.blank()
    para("What it checks", rule["checks"])
    if rule["why"] != rule["checks"]:
        para("Why", rule["why"])
    para("Severity", f"{rule['severity']}; evidence: {rule['evidence']}")
    applies = ", ".join(rule["profiles"])
    if rule["versions"]:
        applies += f" (versions {rule['versions']})"
    para("Applies in", applies)
    if rule["fix"]:
        para("Fix", rule["fix"])
    page.line(("Sources:", "bold"))
    for url in rule["sources"] or ["-"]:
        page.line(visible(url), indent=2, hang=4)
    for side, title in (("failing", "Failing example"), ("passing", "Passing example")):
        example = rule[side]
        if example is None:
            continue
        shown, more = _lines(example["text"])
        page.line((title, "bold"), f" ({visible(_where(example))}):", hang=2)
        # NOTE: an example is code: each line as written, wrapped (never joined) when long
        for line in shown:
            page.line((visible(line), DIM if color else ""), indent=2, hang=4)
        if more:
            page.line(f"... {more} more line(s): rule {rule['id']} --format json has all", indent=2)
    if "noExample" in rule:
        para("Examples", f"none: {rule['noExample']}")
    return page.text()


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _markdown(rule: dict[str, Any]) -> str:
    out = [
        f"## {rule['id']} {escape_text(rule['name'])}",
        "",
        f"**{rule['severity']}**: {escape_text(rule['summary'])}",
        "",
        f"**What it checks.** {escape_text(rule['checks'])}",
        "",
    ]
    if rule["why"] != rule["checks"]:
        out += [f"**Why.** {escape_text(rule['why'])}", ""]
    out += [f"**Evidence.** {escape_text(rule['evidence'])}", ""]
    applies = ", ".join(rule["profiles"]) + (
        f" (versions {rule['versions']})" if rule["versions"] else ""
    )
    out += [f"**Applies in.** {escape_text(applies)}", ""]
    if rule["fix"]:
        out += [f"**Fix.** {escape_text(rule['fix'])}", ""]
    out += ["**Sources.**", ""]
    out += [f"- {link(url)}" for url in rule["sources"]] or ["- none"]
    out.append("")
    for side, title in (("failing", "Failing example"), ("passing", "Passing example")):
        example = rule[side]
        if example is None:
            continue
        shown, more = _lines(example["text"])
        body = "\n".join(shown)
        fence = _fence(body)
        lang = "json" if example["format"] == "json" else ""
        out += [f"**{title}** ({escape_text(_where(example))}):", "", f"{fence}{lang}", body, fence]
        if more:
            out.append(f"{more} more line(s): `rule {rule['id']} --format json` has all.")
        out.append("")
    if "noExample" in rule:
        out += [f"**Examples.** none: {escape_text(rule['noExample'])}", ""]
    return visible("\n".join(out).rstrip("\n") + "\n")
