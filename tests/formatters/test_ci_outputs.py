"""Issue 18: CI outputs that are safe and bounded, through the real CLI.

Markdown from a real hostile server's capture (fixtures/servers/hostile_text_server.py
--mode markdown) is rendered by a real Markdown renderer (markdown-it-py, HTML enabled, as
GitHub renders tags before sanitising) and must stay inert; big catalogs (bench/generate.py)
must fit `--max-chars`; GitHub annotations are capped per level; JUnit agrees with the exit
code; JUnit and the XML are read by an XML parser.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import PYTHON, ROOT, SERVERS, cli, fixture
from markdown_it import MarkdownIt

HOSTILE = str(SERVERS / "hostile_text_server.py")
OTHER = str(fixture("captures", "example-server.snapshot.json"))
CLOSING = re.compile(r"^_(\d+) of (\d+) items left out to fit (\d+) characters; .+\._$")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("hostile-md") / "hostile.json"
    got = cli("snapshot", "-o", str(out), "--", PYTHON, HOSTILE, "--mode", "markdown")
    assert got.code == 0, got
    assert "<script>" in out.read_text()  # the capture holds the raw server text
    return str(out)


def _html(markdown: str) -> str:
    return MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)


def assert_inert(markdown: str) -> None:
    html = _html(markdown)
    # no raw tag from server text: every server `<` arrives as `&lt;`
    for tag in ("<img", "<script", "<b>", "<i>", 'href="https://evil'):
        assert tag not in html, (tag, html[:2000])
    assert "<pre" not in html, "a server fence broke out of its line"
    assert "<h1" not in html and "<h2>catalogaudit diff" not in html
    # GitHub does not turn mentions inside code spans into pings; outside them, none is left
    prose = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    for mention in ("@everyone", "@octocat", "#1 "):
        assert mention not in prose, (mention, prose[:2000])
    assert "\u202e" not in html
    # every table row keeps its cell count: a server pipe did not split a cell
    for table in re.findall(r"<table>.*?</table>", html, flags=re.S):
        widths = {
            len(re.findall(r"<t[hd][ >]", row))
            for row in re.findall(r"<tr>.*?</tr>", table, flags=re.S)
        }
        assert len(widths) == 1, table[:2000]


@pytest.mark.parametrize(
    "args",
    [
        ["audit", "{h}", "--format", "markdown"],
        ["diff", OTHER, "{h}", "--format", "markdown"],
        ["diff", "{h}", OTHER, "--format", "markdown"],
        ["stability", OTHER, "{h}", "--format", "markdown"],
        ["audit", "{h}", "--matrix", "--format", "markdown"],
        ["audit", "{h}", "--format", "markdown", "--max-chars", "3000"],
        ["diff", OTHER, "{h}", "--format", "markdown", "--max-chars", "2000"],
    ],
    ids=lambda a: " ".join(a[:1] + a[3:]),
)
def test_hostile_markdown_renders_inert(hostile: str, args: list[str]) -> None:
    got = cli(*(hostile if a == "{h}" else a for a in args))
    assert got.code in (0, 1), got
    assert got.stdout.strip(), got
    assert_inert(got.stdout)
    if "--max-chars" in args:
        budget = int(args[args.index("--max-chars") + 1])
        assert len(got.stdout) <= budget
        assert CLOSING.match(got.stdout.rstrip("\n").splitlines()[-1]), got.stdout[-300:]


def test_hostile_annotations_and_junit_are_inert(hostile: str) -> None:
    for args in (["audit", hostile], ["diff", OTHER, hostile]):
        gh = cli(*args, "--format", "github")
        assert gh.code in (0, 1), gh
        assert all(line.startswith("::") for line in gh.stdout.splitlines())
        assert "\u202e" not in gh.stdout
        junit = cli(*args, "--format", "junit")
        root = ET.fromstring(junit.stdout)
        assert root.tag == "testsuites" and int(root.get("tests", "0")) > 0
        assert "\u202e" not in junit.stdout


def _generate(path: Path, tools: int, seed: int) -> str:
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "generate.py"),
            "--tools",
            str(tools),
            "--seed",
            str(seed),
            "-o",
            str(path),
        ],
        check=True,
    )
    return str(path)


def test_a_1500_tool_change_fits_the_comment_limit(tmp_path: Path) -> None:
    old = _generate(tmp_path / "old.json", 1500, 4)
    new = _generate(tmp_path / "new.json", 1500, 5)
    got = cli("diff", old, new, "--format", "markdown", timeout=600)
    assert got.code in (0, 1), got
    assert len(got.stdout) <= 60_000
    last = got.stdout.rstrip("\n").splitlines()[-1]
    m = CLOSING.match(last)
    assert m, last
    left, total = int(m.group(1)), int(m.group(2))
    assert 0 < left < total and int(m.group(3)) == 60_000
    assert "rerun with `--format json`" in last
    assert got.stdout.startswith("### catalogaudit diff:")
    # the most severe rows are the ones kept
    rows = [line for line in got.stdout.splitlines() if line.startswith("| ")][2:]
    classes = [row.split("|")[1].strip() for row in rows]
    assert classes and classes[0] == "**breaking**", classes[:5]
    assert_inert(got.stdout)
    audit = cli("audit", new, "--format", "markdown", "--max-chars", "20000", timeout=600)
    assert len(audit.stdout) <= 20_000 and CLOSING.match(audit.stdout.splitlines()[-1])
    assert audit.stdout.startswith("## catalogaudit:")  # the summary is kept


def _no_schema(path: Path, tools: int) -> str:
    listing = {"tools": [{"name": f"t{i}", "description": "d"} for i in range(tools)]}
    path.write_text(json.dumps(listing), encoding="utf-8")
    return str(path)


def test_github_annotations_are_capped_per_level(tmp_path: Path) -> None:
    catalog = _no_schema(tmp_path / "tools.json", 1500)
    got = cli("audit", catalog, "--format", "github")
    assert got.code == 1, got
    lines = got.stdout.splitlines()
    errors = [line for line in lines if line.startswith("::error ")]
    notices = [line for line in lines if line.startswith("::notice ")]
    assert len(errors) == 10 and len(lines) == 10 + len(notices)
    counting = [n for n in notices if "left out" in n]
    assert len(counting) == 1 and len(notices) <= 10
    assert "1490 errors" in counting[0] and "--format json" in counting[0]
    # the title says what broke: the rule, the subject and the message
    assert 'title=CA401 tools/t0%3A tool "t0"%3A inputSchema is missing' in errors[0]


def test_junit_below_fail_on_has_no_failure(tmp_path: Path) -> None:
    listing = {
        "tools": [
            {"name": f"t {i}", "description": "d", "inputSchema": {"type": "object"}}
            for i in range(3)
        ]
    }
    catalog = tmp_path / "warn.json"
    catalog.write_text(json.dumps(listing), encoding="utf-8")
    got = cli("audit", str(catalog), "--format", "junit")
    assert got.code == 0, got  # warnings only, --fail-on error
    root = ET.fromstring(got.stdout)
    assert root.find(".//failure") is None and root.get("failures") == "0"
    skipped = root.findall(".//skipped")
    assert len(skipped) == 4 and all(
        "below --fail-on error" in s.get("message", "") for s in skipped
    )
    assert all(c.get("file") == str(catalog) for c in root.iter("testcase"))
    strict = ET.fromstring(
        cli("audit", str(catalog), "--format", "junit", "--fail-on", "warning").stdout
    )
    assert len(strict.findall(".//failure")) == 3
    try:
        import junitparser
    except ImportError:
        return
    xml = junitparser.JUnitXml.fromstring(got.stdout)
    assert sum(s.failures for s in xml) == 0


def test_diff_github_and_junit(tmp_path: Path) -> None:
    old = _no_schema(tmp_path / "old.json", 30)
    listing = json.loads(Path(old).read_text())
    del listing["tools"][:20]  # 20 removals: breaking
    (tmp_path / "new.json").write_text(json.dumps(listing), encoding="utf-8")
    new = str(tmp_path / "new.json")
    gh = cli("diff", old, new, "--format", "github")
    assert gh.code == 1, gh
    lines = gh.stdout.splitlines()
    assert sum(1 for line in lines if line.startswith("::error ")) == 10
    assert sum(1 for line in lines if "left out" in line) == 1
    assert re.search(r"title=CA8\d\d tools/t\d+%3A", lines[0]), lines[0]
    junit = cli("diff", old, new, "--format", "junit")
    root = ET.fromstring(junit.stdout)
    assert len(root.findall(".//failure")) == 20
    below = cli("diff", old, new, "--format", "junit", "--fail-on", "never")
    assert ET.fromstring(below.stdout).find(".//failure") is None and below.code == 0


def test_fit_cuts_whole_rows_by_rank_and_keeps_their_order() -> None:
    from catalogaudit.formatters.md import Section, escape_text, fit

    rows = [f"- {escape_text(f'row {i} <b>@everyone</b> | ```')}" for i in range(200)]
    ranks = [2 if i % 10 == 0 else 0 for i in range(200)]
    head = ["## summary", ""]
    whole = fit(head, [Section(header=["### rows", ""], rows=rows, ranks=ranks)])
    assert whole == "\n".join([*head, "### rows", "", *rows]) + "\n"  # fits: unchanged
    for budget in (300, 1000, 2500, 5000):
        out = fit(
            head, [Section(header=["### rows", ""], rows=rows, ranks=ranks)], max_chars=budget
        )
        assert len(out) <= budget
        lines = out.rstrip("\n").splitlines()
        assert lines[:2] == head and CLOSING.match(lines[-1]), lines[-1]
        kept = [line for line in lines if line.startswith("- ")]
        assert all(line in rows for line in kept)  # whole rows: no cut inside an escape
        assert kept == sorted(kept, key=rows.index)  # in their order
        ranked = [rows.index(line) % 10 == 0 for line in kept]
        if not all(ranked):  # a rank-0 row is kept only once every rank-2 row is
            assert sum(ranked) == 20
        left = int(CLOSING.match(lines[-1]).group(1))  # type: ignore[union-attr]
        assert left == 200 - len(kept)
        assert_inert(out)
