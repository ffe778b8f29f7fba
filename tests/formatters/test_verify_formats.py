"""`verify` report formats: pure rendering of observed-versus-predicted rows, with hostile
client and server text kept inert, plus the CLI's format and output options."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from helpers import FIXTURES, cli

from catalogaudit.formatters.verify import format_verify
from catalogaudit.model.verify import Observation, Row, VerifyRun

HOSTILE = "bad\x1b[31m red\n::error::forged | cell"


def _run() -> VerifyRun:
    cat = "c.json"
    rows = [
        Row(
            Observation(cat, "tools", None, None, "failed", HOSTILE),
            Observation(cat, "tools", None, None, "failed", "CC-SCHEMA-001"),
        ),
        Row(
            Observation(cat, "tools", 0, "a|b", "dropped", HOSTILE),
            Observation(cat, "tools", 0, "a|b", "dropped", ""),
        ),
        Row(
            Observation(cat, "resources", None, None, "kept"),
            Observation(cat, "resources", None, None, "failed", "CC-URI-001: no uri"),
        ),
    ]
    return VerifyRun("claude-code", "2.1.328", rows)


def test_json_keeps_the_shape_the_refresh_script_reads() -> None:
    doc = json.loads(format_verify(_run(), "json"))
    assert doc["client"] == {"id": "claude-code", "version": "2.1.328"}
    assert doc["matches"] is False and doc["profile"] == "claude-code@2.1.328"
    assert [o["matches"] for o in doc["observations"]] == [True, True, False]
    assert doc["observations"][2]["predictedBecause"] == "CC-URI-001: no uri"


def test_junit_counts_the_mismatch_and_parses() -> None:
    root = ET.fromstring(format_verify(_run(), "junit").split("?>", 1)[1])
    assert (root.get("tests"), root.get("failures")) == ("3", "1")
    (failure,) = root.iter("failure")
    assert failure.get("message") == "observed kept, predicted failed"
    assert "\x1b" not in ET.tostring(root, encoding="unicode")


def test_github_annotations_cannot_be_forged() -> None:
    lines = format_verify(_run(), "github").splitlines()
    # the failed list (a matched loss: warning), the mismatch (error), the summary; the item
    # lost with its list is said once, on the list's line
    assert [line.split(" ", 1)[0].split("::")[1] for line in lines] == [
        "warning",
        "error",
        "notice",
    ]
    assert all("\x1b" not in line for line in lines)
    # the newline is shown, not obeyed: the forged command stays inside the warning's line
    assert "\\x0a::error::forged" in lines[0]


def test_markdown_and_text_are_inert() -> None:
    md = format_verify(_run(), "markdown")
    assert "**failed (mismatch)**" in md and "with the list" in md
    assert "\x1b" not in md and "\nforged" not in md and "::error::forged \\|" not in md
    text = format_verify(_run(), "text")
    assert "\x1b" not in text and "\n::error" not in text
    assert text.rstrip().endswith("3 observations, 1 mismatch with the profile")


def test_cli_rejects_unknown_formats_and_writes_reports_atomically(tmp_path: Path) -> None:
    snap = tmp_path / "B.json"
    raw = FIXTURES / "oracle" / "B-array-input-schema" / "tools.json"
    assert cli("snapshot", "--from", str(raw), "-o", str(snap)).code == 0
    bad = cli("verify", "--client", "python-sdk", "--format", "sarif", str(snap))
    assert bad.code == 2 and bad.stderr.count("\n") == 1 and "error:" in bad.stderr
    out = tmp_path / "report.xml"
    done = cli("verify", "--client", "python-sdk", "--format", "junit", "-o", str(out), str(snap))
    assert done.code == 0 and done.stdout == "", str(done)
    assert ET.parse(out).getroot().get("failures") == "0"
