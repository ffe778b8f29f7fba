"""Report formatters: exact output, schema validity, and untrusted server text kept inert."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit import __version__
from catalogaudit.formatters import base, github, markdown
from catalogaudit.formatters.base import visible
from catalogaudit.formatters.formats import OutputFormat
from catalogaudit.formatters.matrix import MATRIX_FORMATS, format_matrix
from catalogaudit.formatters.report import format_report
from catalogaudit.model import inert as inert_text
from catalogaudit.model.findings import (
    Finding,
    Location,
    MatrixBreak,
    MatrixRow,
    Report,
    RuleError,
    RuleMeta,
    Severity,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "catalogaudit"
REPORT_SCHEMA = json.loads((SRC / "formatters" / "schemas" / "audit.schema.json").read_text())

#: Every way server text has been seen to attack a terminal, a markup parser or a log.
HOSTILE = (
    "[bold red]x[/] \x1b[31mRED \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\ \u009b2J \u202eevil"
)

F_DESC = Finding(
    rule_id="CF-DESC-001",
    severity=Severity.ERROR,
    message='tool "read" description contains forbidden ";": "Reads a file; then stops"',
    kind="tools",
    identity="read",
    pointer="/description",
    excerpt=";",
    hint="Remove the semicolon.",
    source="https://example.org/cf#desc",
    profile="context-forge@1.0.0b2",
    location=Location("snaps/a b.json", "/listings/tools/items/0/description", 12, 20),
)
F_NAME = Finding(
    rule_id="CA101",
    severity=Severity.WARNING,
    message='tool name "a b" contains a space',
    kind="tools",
    identity="a b",
    pointer="/name",
    page=0,
    excerpt="a b",
    profile="spec",
    location=Location("snap.json", "/listings/tools/items/1/name"),
)
F_CACHE = Finding(
    rule_id="CA501",
    severity=Severity.INFO,
    message="ttlMs differs between pages",
    kind="catalog",
    page=1,
    profile="spec",
    extra={"pages": [0, 1]},
)
RULES = {
    "CA101": RuleMeta(
        id="CA101",
        name="tools.name-syntax",
        severity=Severity.WARNING,
        summary="Tool names use 1 to 128 of [A-Za-z0-9._-].",
        description="Clients reject or rename tools whose names fall outside the allowed set.",
        hint="Rename the tool.",
        source="https://modelcontextprotocol.io/specification/2025-11-25/server/tools",
    ),
    "CF-DESC-001": RuleMeta(
        id="CF-DESC-001",
        name="context-forge.description-forbidden",
        severity=Severity.ERROR,
        summary="ContextForge rejects tool descriptions containing forbidden substrings.",
        hint="Remove the substring.",
        source="https://example.org/cf#desc",
        origin="context-forge",
        versions=">=0.9.0,<1.0.0rc2",
        confidence="measured",
    ),
}


def full_report() -> Report:
    """A report that sets every field the formatters read."""
    return Report(
        findings=[F_DESC, F_CACHE, F_NAME],  # deliberately not in report order
        rule_errors=[RuleError("CA999", "ValueError: boom")],
        profiles=["spec", "context-forge@1.0.0b2"],
        notes=["context-forge: no version given, used the newest verified (1.0.0b2)"],
        inputs=["snap.json"],
        revision="2025-11-25",
        revision_assumed=True,
        suppressed=2,
        rules=dict(RULES),
        rewritten=True,
    )


def clean_report() -> Report:
    return Report(profiles=["spec"], inputs=["snap.json"], revision="2025-11-25")


def hostile_report() -> Report:
    """Server-controlled text in every field that can carry it."""
    f = Finding(
        rule_id="CA102",
        severity=Severity.ERROR,
        message=f"description: {HOSTILE}\r\n::error::injected\n# heading <script>@admin #1",
        kind="tools",
        identity=HOSTILE,
        pointer="/inputSchema/properties/" + HOSTILE,
        excerpt=HOSTILE,
        hint=HOSTILE,
        source=HOSTILE,
        profile="spec",
        location=Location(HOSTILE, "/x", 3, 4),
    )
    return Report(
        findings=[f],
        rule_errors=[RuleError("CA998", HOSTILE)],
        profiles=["spec"],
        notes=[HOSTILE],
        inputs=[HOSTILE],
        revision="2025-11-25",
    )


# --- the registry -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", list(OutputFormat), ids=lambda f: f.value)
def test_every_format_renders_full_and_clean_reports(fmt: OutputFormat) -> None:
    full = format_report(full_report(), fmt)
    clean = format_report(clean_report(), fmt)
    assert isinstance(full, str) and full.endswith("\n")
    assert full != clean
    # Documents are complete even when clean; only workflow commands have nothing to say.
    assert clean.endswith("\n") or fmt is OutputFormat.GITHUB
    if fmt is OutputFormat.GITHUB:
        assert clean == ""


def test_output_format_values_are_the_cli_choices() -> None:
    assert [f.value for f in OutputFormat] == [
        "text",
        "json",
        "sarif",
        "junit",
        "github",
        "markdown",
        "gitlab",
    ]
    assert OutputFormat("sarif") is OutputFormat.SARIF


def test_assert_never_raises() -> None:
    with pytest.raises(AssertionError):
        base.assert_never("nope")  # type: ignore[arg-type]


def test_only_the_rendering_path_imports_rich_and_no_formatter_does_io() -> None:
    for path in sorted((SRC / "formatters").glob("*.py")):
        source = path.read_text()
        if path.name not in ("console.py", "text.py"):  # the one path, and the audit report
            assert not re.search(r"^\s*(import|from) rich\b", source, re.M), path.name
        assert not re.search(r"\brich\._", source), path.name  # no private rich API
        assert not re.search(r"^\s*(import|from) typer\b", source, re.M), path.name
        assert not re.search(r"(?<![.\w])(open|print|input)\(", source), path.name
        assert "sys.exit" not in source and "SystemExit" not in source, path.name


def test_findings_are_in_report_order_everywhere() -> None:
    order = ["CA101", "CA501", "CF-DESC-001"]  # rule id, then subject and pointer
    doc = json.loads(format_report(full_report(), OutputFormat.JSON))
    assert [f["ruleId"] for f in doc["findings"]] == order
    sarif = json.loads(format_report(full_report(), OutputFormat.SARIF))
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == order
    gh = format_report(full_report(), OutputFormat.GITHUB).splitlines()
    assert [re.search(r"title=([^ :,]+)", line).group(1) for line in gh[:3]] == order  # type: ignore[union-attr]


# --- text ---------------------------------------------------------------------------------------


def test_text_exact() -> None:
    expected = "\n".join(
        [
            "catalog",
            "  info CA501 (page 1) [spec]",
            "    ttlMs differs between pages",
            "",
            'tools "a b"',
            "  warning CA101 at /name (page 0) [spec]",
            '    tool name "a b" contains a space',
            "               ^^^",
            "    file: snap.json",
            "",
            'tools "read"',
            "  error CF-DESC-001 at /description [context-forge@1.0.0b2]",
            '    tool "read" description contains forbidden ";": "Reads a file; then stops"',
            "                                                ^                ^",
            "    file: snaps/a b.json:12:20",
            "    hint: Remove the semicolon.",
            "    source: https://example.org/cf#desc",
            "",
            "rule error CA999: ValueError: boom",
            "note: context-forge: no version given, used the newest verified (1.0.0b2)",
            "inputs: snap.json",
            "1 error, 1 warning, 1 info; profiles: spec, context-forge@1.0.0b2; 2 suppressed; "
            "1 rule error;",
            "  revision 2025-11-25 (assumed); audited as if rewritten",
            "",
        ]
    )
    assert format_report(full_report(), OutputFormat.TEXT, width=100) == expected


def test_text_clean() -> None:
    expected = (
        "No findings.\n\ninputs: snap.json\n"
        "0 errors, 0 warnings, 0 info; profiles: spec; revision 2025-11-25\n"
    )
    assert format_report(clean_report(), OutputFormat.TEXT) == expected


def test_text_color_highlights_the_excerpt_in_its_context() -> None:
    out = format_report(full_report(), OutputFormat.TEXT, color=True)
    # bold reverse (1;7) around each ";" of the message; no caret line when colour shows it
    assert 'forbidden "\x1b[1;7m;\x1b[0m": "Reads a file\x1b[1;7m;\x1b[0m then stops"' in out
    assert "^" not in out
    assert "\x1b[1;31merror\x1b[0m" in out


def test_text_excerpt_not_in_message_gets_its_own_line() -> None:
    f = Finding("CA103", Severity.WARNING, "description is too long", excerpt="aaaa")
    out = format_report(Report(findings=[f]), OutputFormat.TEXT)
    assert "    excerpt: aaaa\n" in out


def test_text_wraps_long_messages_with_indent() -> None:
    f = Finding("CA103", Severity.WARNING, " ".join(["word"] * 30), kind="tools", identity="t")
    out = format_report(Report(findings=[f]), OutputFormat.TEXT, width=40)
    body = [line for line in out.splitlines() if line.startswith("    word")]
    assert len(body) > 2 and all(len(line) <= 40 for line in body)


# --- untrusted text ------------------------------------------------------------------------------

SGR = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("color", [False, True], ids=["plain", "color"])
def test_text_server_text_cannot_inject_markup_or_escapes(color: bool) -> None:
    out = format_report(hostile_report(), OutputFormat.TEXT, color=color, width=200)
    if color:
        assert "\x1b[31mRED" not in out and "\x1b]" not in out
        out = SGR.sub("", out)  # what remains once rich's own styling is removed
    assert "\x1b" not in out
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
    assert "[bold red]x[/]" in out  # shown literally, not interpreted
    assert r"\x1b[31mRED" in out and r"\x1b]8;;http://evil\x1b\link" in out
    assert r"\x9b2J" in out and r"\u202eevil" in out
    assert r"\x0d" in out  # the CR that could have overwritten the line


def test_matrix_text_server_text_cannot_inject() -> None:
    rows = [MatrixRow("spec", HOSTILE, 1, 0, 0, (MatrixBreak("CA101", "tools", HOSTILE, "", "x"),))]
    for color in (False, True):
        out = SGR.sub("", format_matrix(rows, OutputFormat.TEXT, color=color, width=300))
        assert "\x1b" not in out and "\u009b" not in out and "\u202e" not in out
        assert "[bold red]x[/]" in out


def test_visible() -> None:
    assert visible("plain text\twith tab\n") == "plain text\twith tab\n"
    assert visible("a\x1b[0m\x07\x7f\u0085\u009b") == r"a\x1b[0m\x07\x7f\x85\x9b"
    assert visible("\u202e\u2066\u200b\ufeff\u2028") == r"\u202e\u2066\u200b\ufeff\u2028"
    assert visible("tag\U000e0041\ud800\ufffe") == r"tag\U000e0041\ud800\ufffe"
    assert visible("a\nb\tc", keep="") == r"a\x0ab\x09c"
    assert visible("héllo 日本 🙂") == "héllo 日本 🙂"


CONTROL = st.characters(codec="utf-8", categories=["Cc", "Cf", "Zl", "Zp"])
SERVER_TEXT = st.text(st.one_of(CONTROL, st.sampled_from("[]/`|<>&@#:,%*_\\\r\n ab")), max_size=30)


@settings(max_examples=200, deadline=None)
@given(SERVER_TEXT, SERVER_TEXT)
def test_no_format_lets_control_characters_through(message: str, identity: str) -> None:
    f = Finding(
        "CA104", Severity.WARNING, message, kind="tools", identity=identity, excerpt=message
    )
    report = Report(findings=[f], notes=[message])
    text = format_report(report, OutputFormat.TEXT)
    assert not [c for c in text if c != "\n" and inert_text._hidden(c, "\t")]
    gh = format_report(report, OutputFormat.GITHUB)
    assert gh.count("\n") == 1 and not [c for c in gh[:-1] if inert_text._hidden(c, "\t")]
    md = format_report(report, OutputFormat.MARKDOWN)
    assert not [c for c in md if c != "\n" and inert_text._hidden(c, "")]
    ET.fromstring(format_report(report, OutputFormat.JUNIT).encode("utf-8"))
    for fmt in (OutputFormat.JSON, OutputFormat.SARIF):
        out = format_report(report, fmt)
        assert out.isascii() and json.loads(out)


# --- JSON ---------------------------------------------------------------------------------------


def test_report_schema_is_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(REPORT_SCHEMA)


@pytest.mark.parametrize("make", [full_report, clean_report, hostile_report])
def test_json_validates_against_published_schema(make: Any) -> None:
    doc = json.loads(format_report(make(), OutputFormat.JSON))
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(doc)


def test_json_exact() -> None:
    out = format_report(full_report(), OutputFormat.JSON)
    assert out == json.dumps(json.loads(out), indent=2, sort_keys=True) + "\n"  # keys sorted
    rule_cf = RULES["CF-DESC-001"]
    expected = {
        "$schema": "https://github.com/catalogaudit/catalogaudit/schemas/audit.schema.json",
        "formatVersion": 2,
        "kind": "audit",
        "tool": {"name": "catalogaudit", "version": __version__},
        "inputs": ["snap.json"],
        "revision": "2025-11-25",
        "revisionAssumed": True,
        "profiles": ["spec", "context-forge@1.0.0b2"],
        "rewritten": True,
        "notes": ["context-forge: no version given, used the newest verified (1.0.0b2)"],
        "counts": {"error": 1, "warning": 1, "info": 1},
        "suppressed": 2,
        "findings": [
            {
                "ruleId": "CA101",
                "severity": "warning",
                "listing": "tools",
                "identity": "a b",
                "pointer": "/name",
                "page": 0,
                "message": 'tool name "a b" contains a space',
                "excerpt": "a b",
                "profile": "spec",
                "fingerprint": F_NAME.fingerprint,
                "location": {"file": "snap.json", "pointer": "/listings/tools/items/1/name"},
            },
            {
                "ruleId": "CA501",
                "severity": "info",
                "listing": "catalog",
                "page": 1,
                "message": "ttlMs differs between pages",
                "profile": "spec",
                "fingerprint": F_CACHE.fingerprint,
                "extra": {"pages": [0, 1]},
            },
            {
                "ruleId": "CF-DESC-001",
                "severity": "error",
                "listing": "tools",
                "identity": "read",
                "pointer": "/description",
                "message": F_DESC.message,
                "excerpt": ";",
                "hint": "Remove the semicolon.",
                "source": "https://example.org/cf#desc",
                "profile": "context-forge@1.0.0b2",
                "fingerprint": F_DESC.fingerprint,
                "location": {
                    "file": "snaps/a b.json",
                    "pointer": "/listings/tools/items/0/description",
                    "line": 12,
                    "column": 20,
                },
            },
        ],
        "ruleErrors": [{"ruleId": "CA999", "error": "ValueError: boom"}],
        "rules": [
            {
                "id": "CA101",
                "name": "tools.name-syntax",
                "severity": "warning",
                "summary": RULES["CA101"].summary,
                "description": RULES["CA101"].description,
                "hint": "Rename the tool.",
                "source": RULES["CA101"].source,
                "origin": "spec",
                "versions": "",
                "confidence": "",
            },
            {
                "id": "CF-DESC-001",
                "name": "context-forge.description-forbidden",
                "severity": "error",
                "summary": rule_cf.summary,
                "description": "",
                "hint": "Remove the substring.",
                "source": "https://example.org/cf#desc",
                "origin": "context-forge",
                "versions": ">=0.9.0,<1.0.0rc2",
                "confidence": "measured",
            },
        ],
    }
    assert json.loads(out) == expected


def test_json_clean_is_a_full_document() -> None:
    doc = json.loads(format_report(Report(), OutputFormat.JSON))
    assert doc["findings"] == [] and doc["ruleErrors"] == [] and doc["rules"] == []
    assert doc["revision"] is None and doc["counts"] == {"error": 0, "warning": 0, "info": 0}


def test_json_escapes_control_characters() -> None:
    out = format_report(hostile_report(), OutputFormat.JSON)
    assert out.isascii() and "\\u001b[31mRED" in out and "\\u009b" in out
    assert json.loads(out)["findings"][0]["excerpt"] == HOSTILE


# --- JUnit --------------------------------------------------------------------------------------


def test_junit_exact() -> None:
    fp = {f.rule_id: f.fingerprint for f in (F_DESC, F_NAME, F_CACHE)}
    expected = f"""<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="catalogaudit" tests="4" failures="2" errors="1" skipped="1">
  <testsuite name="spec" tests="2" failures="1" errors="0" skipped="1">
    <testcase classname="catalogaudit.tools" name="CA101 tools/a b/name" file="snap.json">
      <failure message="tool name &quot;a b&quot; contains a space" type="warning">\
tool name "a b" contains a space
subject: tools/a b
pointer: /name
page: 0
file: snap.json
excerpt: a b
profile: spec
fingerprint: {fp["CA101"]}</failure>
    </testcase>
    <testcase classname="catalogaudit.catalog" name="CA501 catalog">
      <skipped message="info below --fail-on warning: ttlMs differs between pages">\
ttlMs differs between pages
subject: catalog
page: 1
profile: spec
fingerprint: {fp["CA501"]}</skipped>
    </testcase>
  </testsuite>
  <testsuite name="context-forge@1.0.0b2" tests="1" failures="1" errors="0" skipped="0">
    <testcase classname="catalogaudit.tools" name="CF-DESC-001 tools/read/description" \
file="snaps/a b.json" line="12">
      <failure message="tool &quot;read&quot; description contains forbidden \
&quot;;&quot;: &quot;Reads a file; then stops&quot;" type="error">\
tool "read" description contains forbidden ";": "Reads a file; then stops"
subject: tools/read
pointer: /description
file: snaps/a b.json:12:20
excerpt: ;
hint: Remove the semicolon.
source: https://example.org/cf#desc
profile: context-forge@1.0.0b2
fingerprint: {fp["CF-DESC-001"]}</failure>
    </testcase>
  </testsuite>
  <testsuite name="catalogaudit" tests="1" failures="0" errors="1" skipped="0">
    <testcase classname="catalogaudit.rules" name="CA999">
      <error message="ValueError: boom" type="rule-error">\
rule CA999 raised: ValueError: boom</error>
    </testcase>
  </testsuite>
</testsuites>
"""
    assert format_report(full_report(), OutputFormat.JUNIT, fail_on="warning") == expected


def test_junit_clean_has_a_passing_case_per_profile() -> None:
    expected = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="catalogaudit" tests="1" failures="0" errors="0" skipped="0">
  <testsuite name="spec" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="catalogaudit.spec" name="no findings" />
  </testsuite>
</testsuites>
"""
    assert format_report(clean_report(), OutputFormat.JUNIT) == expected
    empty = ET.fromstring(format_report(Report(), OutputFormat.JUNIT))
    assert [s.get("name") for s in empty] == ["catalogaudit"] and empty.get("tests") == "1"


def test_junit_hostile_text_is_well_formed_xml() -> None:
    root = ET.fromstring(format_report(hostile_report(), OutputFormat.JUNIT))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and failure.text is not None
    assert r"\x1b[31mRED" in failure.text and "\x1b" not in failure.text


# --- GitHub -------------------------------------------------------------------------------------


def test_github_exact() -> None:
    expected = (
        '::warning file=snap.json,title=CA101 tools/a b%3A tool name "a b" contains a space::'
        'tool name "a b" contains a space [tools/a b/name]'
        "%0AProfile: spec%0AIn snap.json at /listings/tools/items/1/name\n"
        "::notice title=CA501 catalog%3A ttlMs differs between pages::ttlMs differs between pages"
        " [catalog]%0AProfile: spec\n"
        "::error file=snaps/a b.json,line=12,col=20,title=CF-DESC-001 tools/read%3A tool "
        '"read" description contains forbidden ";"%3A "Reads a file; then stops"::tool "read" '
        'description contains forbidden ";": "Reads a file; then stops" [tools/read/description]'
        "%0AFix: Remove the semicolon.%0AProfile: context-forge@1.0.0b2"
        "%0ASource: https://example.org/cf#desc\n"
        "::error title=CA999 rule error::rule CA999 raised: ValueError: boom\n"
    )
    assert format_report(full_report(), OutputFormat.GITHUB) == expected


def test_github_escaping() -> None:
    assert github.escape_data("50% a\r\nb") == "50%25 a%0D%0Ab"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    line = github.command("error", {"file": "x,y:z.json", "title": "T"}, "m::n")
    assert line == "::error file=x%2Cy%3Az.json,title=T::m::n"


def test_github_server_text_cannot_start_a_command() -> None:
    out = format_report(hostile_report(), OutputFormat.GITHUB)
    lines = out.splitlines()
    assert len(lines) == 2  # the finding and the rule error, nothing injected
    assert all(line.startswith("::error ") for line in lines)
    assert "\x1b" not in out and "\u009b" not in out
    assert r"\x0d%0A::error::injected" in out  # CR shown, LF escaped: one line per command
    props = lines[0].split("::")[1]
    assert props.count(",") == 3  # file, line, col, title: server commas are %2C


# --- Markdown -----------------------------------------------------------------------------------


def test_markdown_exact() -> None:
    expected = "\n".join(
        [
            "## catalogaudit: 1 error, 1 warning, 1 info",
            "",
            "| Errors | Warnings | Info | Suppressed | Rule errors |",
            "| ---: | ---: | ---: | ---: | ---: |",
            "| 1 | 1 | 1 | 2 | 1 |",
            "",
            "Profiles: `spec`, `context-forge@1.0.0b2` · Revision: `2025-11-25` (assumed) · "
            "Inputs: `snap.json`",
            "",
            "> Audited as if rewritten: findings are about the catalog after rewriting.",
            "",
            "### Rule errors",
            "",
            "- `CA999`: ValueError: boom",
            "",
            "### Notes",
            "",
            "- context-forge: no version given, used the newest verified (1.0.0b2)",
            "",
            "### catalog",
            "",
            "- **info** `CA501` (page 1): ttlMs differs between pages",
            "  - Profile: `spec`",
            "",
            "### tools `a b`",
            "",
            '- **warning** `CA101` at `/name` (page 0): tool name "a b" contains a space',
            "  - Excerpt: `a b` · File: `snap.json` · Profile: `spec`",
            "",
            "### tools `read`",
            "",
            '- **error** `CF-DESC-001` at `/description`: tool "read" description contains '
            'forbidden ";": "Reads a file; then stops"',
            "  - Excerpt: `;` · File: `snaps/a b.json:12:20` · Profile: `context-forge@1.0.0b2`",
            "  - Fix: Remove the semicolon.",
            "  - Source: <https://example.org/cf#desc>",
            "",
        ]
    )
    assert format_report(full_report(), OutputFormat.MARKDOWN) == expected


def test_markdown_nests_one_level_down_when_asked() -> None:
    """`ci` puts the audit under its page title: `###` for the audit, `####` for its parts."""
    out = markdown.format_markdown(full_report(), level=3)
    headings = [line.split(" ")[0] for line in out.splitlines() if line.startswith("#")]
    assert headings[0] == "###" and set(headings[1:]) == {"####"}


def test_markdown_clean() -> None:
    out = format_report(clean_report(), OutputFormat.MARKDOWN)
    assert out.startswith("## catalogaudit: 0 errors, 0 warnings, 0 info\n\n| Errors |")
    assert out.endswith("\n\nNo findings.\n")


def test_markdown_escaping() -> None:
    # only what would change the rendering: the raw Markdown stays readable
    assert markdown.escape_text("a|b <b>*x*</b> [l](u) @team #12") == (
        r"a\|b \<b>\*x\*\</b> \[l\](u) \@&#8203;team \#&#8203;12"
    )
    assert markdown.escape_text('v1.0 (a; b), "q" 10:30 - x') == 'v1.0 (a; b), "q" 10:30 - x'
    assert markdown.escape_text("- 1. > x") == r"\- 1. > x"  # a list marker only at the start
    assert markdown.escape_text("1. x") == r"1\. x"
    assert markdown.escape_text("$5 ~x~ :tada: see https://a.example www.b.example") == (
        r"\$5 \~x\~ \:tada: see https\://a.example www\.b.example"
    )
    assert markdown.escape_text("line\nbreak") == "line break"
    assert markdown.code("a`b") == "``a`b``"
    assert markdown.code("`x`") == "`` `x` ``"
    assert markdown.code("a|b", in_table=True) == r"`a\|b`"
    assert markdown.code("") == '""'
    assert markdown.link("https://ok.example/x") == "<https://ok.example/x>"
    assert markdown.link("javascript:alert(1)") == "javascript:alert(1)"  # no link: text


def test_markdown_server_text_stays_inert() -> None:
    out = format_report(hostile_report(), OutputFormat.MARKDOWN)
    assert not re.search(r"(?<!\\)<script>", out) and "\\<script>" in out
    assert "@admin" not in out and "#1" not in out.replace("#&#8203;", "")
    assert "\x1b" not in out and "\u009b" not in out and "\u202e" not in out
    finding = next(line for line in out.splitlines() if line.startswith("- **error**"))
    assert "::error::injected" not in finding and "\\#&#8203; heading" in finding


def test_markdown_hostile_text_renders_as_text() -> None:
    """Render with a real CommonMark parser (markdown-it-py, which rich depends on)."""
    from markdown_it import MarkdownIt

    source = format_report(hostile_report(), OutputFormat.MARKDOWN)
    html = MarkdownIt("commonmark").enable("table").render(source)
    tags = set(re.findall(r"<([a-z][a-z0-9]*)", html))
    allowed = {"h2", "h3", "table", "thead", "tbody", "tr", "th", "td", "p", "code", "ul", "li"}
    assert tags <= allowed | {"strong"}  # no links, images, emphasis or raw HTML from the server
    assert html.count("<strong>") == 1  # our severity label only
    assert "&lt;script&gt;" in html and "[bold red]x[/]" in html and "::error::injected" in html


# --- matrix -------------------------------------------------------------------------------------

ROWS = [
    MatrixRow("spec", "MCP schema 2025-11-25", 0, 1, 0),
    MatrixRow(
        "context-forge@1.0.0b2",
        "verified against ContextForge 1.0.0b2 on 2026-11-20",
        2,
        0,
        3,
        (
            MatrixBreak("CF-DESC-001", "tools", "read", "/description", "a ;", ", from sources"),
            MatrixBreak("CF-NAME-002", "tools", "a|b", "/name", "a |", ""),
        ),
    ),
]


def test_matrix_markdown_exact() -> None:
    expected = (
        "| Profile | Verdict | Errors | Warnings | Info | Verified | What breaks |\n"
        "| --- | --- | ---: | ---: | ---: | --- | --- |\n"
        "| `spec` | pass | 0 | 1 | 0 | MCP schema 2025-11-25 | - |\n"
        "| `context-forge@1.0.0b2` | **FAIL** | 2 | 0 | 3 | verified against ContextForge "
        "1.0.0b2 on 2026-11-20 | tools read (CF-DESC-001, from sources)<br>"
        "tools a\\|b (CF-NAME-002) |\n"
    )
    assert format_matrix(ROWS, OutputFormat.MARKDOWN) == expected


def test_matrix_json() -> None:
    doc = json.loads(format_matrix(ROWS, OutputFormat.JSON))
    assert doc == {
        "$schema": "https://github.com/catalogaudit/catalogaudit/schemas/matrix.schema.json",
        "formatVersion": 2,
        "kind": "matrix",
        "matrix": [
            {
                "profile": "spec",
                "verdict": "pass",
                "errors": 0,
                "warnings": 1,
                "infos": 0,
                "verified": "MCP schema 2025-11-25",
                "breaks": [],
                "rules": [],
            },
            {
                "profile": "context-forge@1.0.0b2",
                "verdict": "fail",
                "errors": 2,
                "warnings": 0,
                "infos": 3,
                "verified": "verified against ContextForge 1.0.0b2 on 2026-11-20",
                "breaks": [
                    {
                        "ruleId": "CF-DESC-001",
                        "listing": "tools",
                        "identity": "read",
                        "pointer": "/description",
                        "message": "a ;",
                        "evidence": "from sources",
                    },
                    {
                        "ruleId": "CF-NAME-002",
                        "listing": "tools",
                        "identity": "a|b",
                        "pointer": "/name",
                        "message": "a |",
                        "evidence": None,
                    },
                ],
                "rules": [],
            },
        ],
    }


def test_matrix_json_lists_every_break_the_tables_show_five() -> None:
    many = tuple(
        MatrixBreak("CF-NAME-002", "tools", f"t{i}", "/name", "bad name") for i in range(12)
    )
    rows = [MatrixRow("context-forge@1.0.0b2", "from sources", 12, 0, 0, many)]
    doc = json.loads(format_matrix(rows, OutputFormat.JSON))
    assert [b["identity"] for b in doc["matrix"][0]["breaks"]] == [f"t{i}" for i in range(12)]
    md = format_matrix(rows, OutputFormat.MARKDOWN)
    assert "t4" in md and "t5" not in md and "and 7 more" in md
    assert "and 7 more" in format_matrix(rows, OutputFormat.TEXT, width=100)


def test_matrix_text() -> None:
    out = format_matrix(ROWS, OutputFormat.TEXT, width=100)
    lines = out.splitlines()
    assert lines[0].split() == ["Profile", "Verdict", "Findings", "Verified", "rules"]
    assert set(lines[1]) == {"─"}
    assert re.match(r"^spec +pass +1 warning +MCP schema 2025-11-25$", lines[2])
    assert re.match(r"^context-forge@1\.0\.0b2 +FAIL +2 errors, 3 info +verified against", lines[3])
    # what breaks goes below the table, one break a line under its profile
    at = lines.index("context-forge@1.0.0b2: 2 errors")
    assert lines[at + 1 : at + 3] == [
        "  tools read (CF-DESC-001, from sources)",
        "  tools a|b (CF-NAME-002)",
    ]
    assert all(len(line) <= 100 for line in lines)
    wide = format_matrix(ROWS, OutputFormat.TEXT, width=200).splitlines()
    assert wide[0].split() == ["Profile", "Verdict", "Findings", "Verified"]
    assert wide[3].endswith("verified against ContextForge 1.0.0b2 on 2026-11-20")


@pytest.mark.parametrize("fmt", list(OutputFormat), ids=lambda f: f.value)
def test_matrix_every_format(fmt: OutputFormat) -> None:
    if fmt in MATRIX_FORMATS:
        assert format_matrix(ROWS, fmt).endswith("\n")
        assert format_matrix([], fmt).endswith("\n")
    else:
        with pytest.raises(ValueError, match="--matrix"):
            format_matrix(ROWS, fmt)


# --- edges --------------------------------------------------------------------------------------


def test_unknown_format_fails_loudly() -> None:
    with pytest.raises(AssertionError, match="bogus"):
        format_report(Report(), "bogus")  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="bogus"):
        format_matrix(ROWS, "bogus")  # type: ignore[arg-type]


def test_partial_locations_and_odd_extras() -> None:
    """A line without a column, an empty file name, findings without a profile next to rule
    errors, and `extra` values JSON cannot hold."""
    no_col = Finding(
        "CA105", Severity.ERROR, "m", location=Location("s.json", "/a", 7), extra={"s": {"b", "a"}}
    )
    no_file = Finding("CA106", Severity.WARNING, "n", location=Location("", "/b", 1, 1))
    report = Report(findings=[no_col, no_file], rule_errors=[RuleError("CA999", "boom")])
    gh = format_report(report, OutputFormat.GITHUB).splitlines()
    assert gh[0] == "::error file=s.json,line=7,title=CA105 capture%3A m::m [capture]"
    assert gh[1] == "::warning title=CA106 capture%3A n::n [capture]"
    results = json.loads(format_report(report, OutputFormat.SARIF))["runs"][0]["results"]
    assert results[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 7}
    assert "physicalLocation" not in results[1]["locations"][0]
    doc = json.loads(format_report(report, OutputFormat.JSON))
    assert doc["findings"][0]["extra"] == {"s": ["a", "b"]}
    assert "file:" not in format_report(report, OutputFormat.TEXT).split("CA106")[1]
    root = ET.fromstring(format_report(report, OutputFormat.JUNIT))
    assert [s.get("name") for s in root] == ["catalogaudit"]  # findings and the rule error
    # CA106 is a warning, below the default --fail-on error: skipped, with the reason
    assert root.get("tests") == "3" and root.get("errors") == "1" and root.get("failures") == "1"
    assert root.get("skipped") == "1"
    odd = Finding("CA107", Severity.INFO, "o", extra={"x": ValueError("why")})
    doc = json.loads(format_report(Report(findings=[odd]), OutputFormat.JSON))
    assert doc["findings"][0]["extra"] == {"x": "why"}


def test_summary_without_revision_or_profiles() -> None:
    out = format_report(Report(), OutputFormat.TEXT)
    assert out == "No findings.\n\n0 errors, 0 warnings, 0 info; profiles: none\n"
    assert "Revision" not in format_report(Report(), OutputFormat.MARKDOWN)


def test_matrix_text_passing_row_without_counts() -> None:
    out = format_matrix([MatrixRow("codex@0.169.0", "unverified", 0, 0, 0)], OutputFormat.TEXT)
    assert out.splitlines()[2].split() == ["codex@0.169.0", "pass", "-", "unverified"]
    assert "What breaks" not in out
