"""Issue 15 item 4: server text is inert in every output of every verb and format.

A real hostile server (fixtures/servers/hostile_text_server.py, real stdio and loopback HTTP)
puts OSC, clear-screen, SGR, C1 CSI, NEL and bidi characters in every text field, its banner,
its stderr, its JSON-RPC errors, its capability keys and its protocolVersion.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from helpers import PYTHON, SERVERS, cli, fixture, free_port, wait_port

HOSTILE = str(SERVERS / "hostile_text_server.py")
#: Raw C0 (but newline and tab), DEL, C1, bidi embeddings/overrides/isolates and marks.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
OTHER = str(fixture("captures", "example-server.snapshot.json"))


def assert_inert(*streams: str) -> None:
    for text in streams:
        found = sorted(set(RAW.findall(text)))
        assert not found, f"raw {found!r} in {text[:400]!r}"
        assert "Traceback" not in text and "internal error" not in text, text[:400]


@pytest.fixture(scope="module")
def hostile_snapshot(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("hostile") / "hostile.json"
    got = cli("snapshot", "-o", str(out), "--", PYTHON, HOSTILE, "--mode", "text")
    assert got.code == 0, got
    assert_inert(got.stdout, got.stderr)
    assert "\x1b" in json.loads(out.read_text())["listings"]["tools"]["items"][0]["name"]
    return str(out)


def _verb_cases(snap: str) -> list[list[str]]:
    cases = [["audit", snap, "--format", f] for f in ("text", "json", "sarif", "junit")]
    cases += [["audit", snap, "--format", f] for f in ("github", "markdown")]
    cases += [["audit", snap, "--suggest"], ["audit", snap, "--matrix"]]
    cases += [["hash", snap, "--format", f] for f in ("text", "json")]
    for fmt in ("text", "json", "markdown", "sarif"):
        cases += [["diff", OTHER, snap, "--format", fmt], ["diff", snap, OTHER, "--format", fmt]]
    cases += [["stability", OTHER, snap, "--format", f] for f in ("text", "json", "markdown")]
    cases += [["rewrite", snap, "--substitutions", "evil=good", "--format", f] for f in ("text",)]
    cases += [["rewrite", snap, "--substitutions", "evil=good", "--format", "json"]]
    return cases


def test_every_verb_and_format_prints_server_text_inert(
    hostile_snapshot: str, tmp_path: Path
) -> None:
    for args in _verb_cases(hostile_snapshot):
        if args[0] == "rewrite":
            args = [*args, "-o", str(tmp_path / "rewritten.json")]
        got = cli(*args)
        assert got.code in (0, 1), (args, str(got))
        try:
            assert_inert(got.stdout, got.stderr)
        except AssertionError as exc:
            raise AssertionError(f"{' '.join(args[:1] + args[2:])}: {exc}") from None


def test_canonicalize_check_prints_server_text_inert(hostile_snapshot: str, tmp_path: Path) -> None:
    doc = json.loads(Path(hostile_snapshot).read_text())
    loose = tmp_path / "loose.json"
    loose.write_text(json.dumps(doc, ensure_ascii=False))  # not the written form
    got = cli("canonicalize", "--check", str(loose))
    assert got.code == 1, got
    assert_inert(got.stdout, got.stderr)


@pytest.mark.parametrize("mode", ["stderr-exit", "rpc-error", "bad-version"])
def test_live_errors_and_summaries_are_inert(mode: str, tmp_path: Path) -> None:
    got = cli("snapshot", "-o", str(tmp_path / "s.json"), "--", PYTHON, HOSTILE, "--mode", mode)
    assert got.code in (0, 2), got
    assert_inert(got.stdout, got.stderr)
    got = cli("audit", "--live", "--", PYTHON, HOSTILE, "--mode", mode)
    assert got.code in (0, 1, 2), got
    assert_inert(got.stdout, got.stderr)


@pytest.mark.parametrize("mode", ["bad-version", "text"])
def test_http_server_text_is_inert_and_one_line(mode: str, tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen([PYTHON, HOSTILE, "--http", str(port), "--mode", mode])
    try:
        wait_port(port, proc)
        got = cli("snapshot", "--url", f"http://127.0.0.1:{port}/mcp", "-o", str(tmp_path / "s"))
    finally:
        proc.kill()
        proc.wait()
    assert_inert(got.stdout, got.stderr)
    if mode == "bad-version":
        # A protocolVersion that cannot go back in the MCP-Protocol-Version header.
        assert got.code == 2, got
        assert got.stderr.startswith("error: ") and got.stderr.count("\n") == 1, got
    else:
        assert got.code == 0, got


SGR = re.compile("\x1b\\[[0-9;]*m")


@pytest.mark.parametrize(
    "args",
    [
        ["audit", "{h}"],
        ["audit", "{h}", "--matrix"],
        ["diff", OTHER, "{h}"],
        ["diff", "{h}", OTHER, "--summary"],
        ["stability", OTHER, "{h}"],
    ],
    ids=lambda a: " ".join(x for x in a if x != OTHER),
)
def test_coloured_text_holds_no_server_escape(hostile_snapshot: str, args: list[str]) -> None:
    """Coloured output keeps its SGR sequences (`verbs.output`): the only ones must be ours.
    Taken out, the coloured text is the plain text, where the server's show as `\\x1b` (but
    the audit report, which marks an excerpt by colour instead of a caret line)."""
    args = [hostile_snapshot if a == "{h}" else a for a in args]
    plain = cli(*args, "--color", "never")
    coloured = cli(*args, "--color", "always")
    assert coloured.code == plain.code, coloured
    assert "\x1b[" in coloured.stdout and "\x1b" not in plain.stdout
    assert "\\x1b" in plain.stdout  # the hostile text is there, escaped
    assert "\x1b[31mred" not in coloured.stdout and "\\x1b[31mred" in coloured.stdout
    assert_inert(SGR.sub("", coloured.stdout))
    if args[:2] != ["audit", hostile_snapshot] or "--matrix" in args:
        unstyled = [line.rstrip() for line in SGR.sub("", coloured.stdout).splitlines()]
        assert unstyled == [line.rstrip() for line in plain.stdout.splitlines()]
