"""Issue 15 items 7 and 8: hostile inputs, options, files and signals end in one clear line
(exit 0/1/2), never `internal error` or a traceback; files keep their mode and links."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
from helpers import PYTHON, SERVERS, cli, fixture

HOSTILE = str(SERVERS / "hostile_text_server.py")
SNAP = str(fixture("captures", "example-server.snapshot.json"))
FILE_VERBS = (
    ["audit"],
    ["audit", "--suggest"],
    ["hash"],
    ["canonicalize"],
    ["diff", SNAP],
    ["diff", "--format", "json", SNAP],
    ["stability", SNAP],
    ["stability", "--format", "json", SNAP],
)


def one_clear_line(got: object, code: int | None = None) -> None:
    text = f"{got}"
    assert "internal error" not in text and "Traceback" not in text, text
    if code is not None:
        assert got.code == code, text  # type: ignore[attr-defined]
    if got.code == 2 and "rule error" not in got.stdout:  # type: ignore[attr-defined]
        # (a rule that crashed is reported in the report itself, exit 2, house-style 12)
        errors = [ln for ln in got.stderr.splitlines() if ln.startswith("error: ")]  # type: ignore[attr-defined]
        assert len(errors) == 1, text


def _tools(tmp_path: Path, name: str, schema_text: str) -> str:
    path = tmp_path / name
    path.write_text('{"tools":[{"name":"a","inputSchema":' + schema_text + "}]}")
    return str(path)


def test_long_integers_are_kept_exactly_live_and_in_every_file_verb(tmp_path: Path) -> None:
    out = tmp_path / "big.json"
    got = cli("snapshot", "-o", str(out), "--", PYTHON, HOSTILE, "--mode", "bigint")
    one_clear_line(got, 0)
    assert '"maxProperties": ' + "9" * 5000 in out.read_text()
    for verb in FILE_VERBS:
        got = cli(*verb[:1], str(out), *verb[1:])
        one_clear_line(got)
        assert got.code in (0, 1), (verb, str(got))
    got = cli("canonicalize", str(out))
    assert "9" * 5000 in got.stdout


def test_integers_over_the_bound_are_one_clear_line(tmp_path: Path) -> None:
    path = _tools(tmp_path, "huge.json", '{"type":"object","maxProperties":' + "9" * 60_000 + "}")
    for verb in FILE_VERBS:
        got = cli(*verb[:1], path, *verb[1:])
        one_clear_line(got, 2)
        assert "an integer of 60000 digits" in got.stderr, got


@pytest.mark.parametrize("depth", [700, 960, 975, 990, 5000])
def test_deep_nesting_in_files_is_handled_or_one_clear_line(depth: int, tmp_path: Path) -> None:
    inner = '{"items":' * depth + '{"type":"string"}' + "}" * depth
    path = _tools(tmp_path, "deep.json", '{"type":"object","properties":{"x":' + inner + "}}")
    for verb in [*FILE_VERBS, ["rewrite", "--substitutions", "a=b", "-o", str(tmp_path / "r")]]:
        one_clear_line(cli(*verb[:1], path, *verb[1:]))


@pytest.mark.parametrize("depth", ["700", "990"])
def test_deep_nesting_live_is_captured_or_one_clear_line(depth: str, tmp_path: Path) -> None:
    server = [PYTHON, HOSTILE, "--mode", "deep"]
    out = str(tmp_path / "s.json")
    got = cli("snapshot", "--env", f"HOSTILE_DEPTH={depth}", "-o", out, "--", *server, timeout=60)
    one_clear_line(got, 0 if depth == "700" else 2)
    if depth == "990":
        assert "cannot be read: nesting too deep" in got.stderr, got


def test_lone_surrogates_in_every_output(tmp_path: Path) -> None:
    path = tmp_path / "surrogate.json"
    path.write_text(
        '{"tools":[{"name":"a\\ud800b","description":"x\\udc00y","inputSchema":{"type":"object"}}]}'
    )
    for verb in [*FILE_VERBS, ["diff", "--format", "sarif", SNAP], ["hash", "--format", "json"]]:
        got = cli(*verb[:1], str(path), *verb[1:])
        one_clear_line(got)
        assert got.code in (0, 1), (verb, str(got))


def test_option_values_are_one_clear_line(tmp_path: Path) -> None:
    url = ["snapshot", "--url"]
    one_clear_line(cli(*url, "http://h:${PORT}/mcp"), 2)
    one_clear_line(cli(*url, "http://127.0.0.1:1/mcp", "--header", "X-Key: caf\u00e9"), 2)
    one_clear_line(cli("serve", SNAP, "--max-seconds", "nan"), 2)
    one_clear_line(cli("canonicalize", SNAP, "-o", str(tmp_path)), 2)
    one_clear_line(cli("canonicalize", SNAP, "-o", ""), 2)


def test_huge_timeouts_and_urls_are_one_clear_line() -> None:
    """Issue 33's hostile run: each of these was an internal error (OverflowError in a wait,
    the resolver's IDNA step, httpx's URL length)."""
    server = ["--", PYTHON, "-c", "pass"]
    huge = ("--timeout", "1e10", "--startup-timeout", "1e10", "--request-timeout", "1e10")
    got = cli("snapshot", *huge, *server)
    one_clear_line(got, 2)
    assert "--timeout must be at most" in got.stderr
    got = cli("serve", SNAP, "--max-seconds", "1e10")
    one_clear_line(got, 2)
    assert "--max-seconds must be at most" in got.stderr
    got = cli("snapshot", "--url", f"http://{'a' * 90}.example.com/mcp")
    one_clear_line(got, 2)
    assert "labels of 1 to 63 characters" in got.stderr
    got = cli("snapshot", "--url", f"http://127.0.0.1:1/{'a' * 70_000}")
    one_clear_line(got, 2)
    assert "70,019 characters long" in got.stderr
    assert len(got.stderr) < 200


def test_full_disk_and_closed_stdout_are_one_clear_line(tmp_path: Path) -> None:
    device = os.stat("/dev/full")
    got = cli("audit", SNAP, "--format", "json", "-o", "/dev/full")
    one_clear_line(got, 2)
    assert "No space left on device" in got.stderr, got
    after = os.stat("/dev/full")  # never replaced by a regular file
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == device.st_rdev
    small = tmp_path / "out.json"
    limit = "import resource,runpy,sys; resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096));"
    run = f"{limit} sys.argv=['catalogaudit', 'canonicalize', {SNAP!r}, '-o', {str(small)!r}];"
    proc = subprocess.run(
        [PYTHON, "-c", run + "runpy.run_module('catalogaudit', run_name='__main__')"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and proc.stderr.startswith("error: cannot write"), proc
    assert not small.exists() and not list(tmp_path.iterdir())  # no partial or temp file
    closed = subprocess.run(
        f"{PYTHON} -m catalogaudit hash {SNAP} >&-", shell=True, capture_output=True, text=True
    )
    assert closed.returncode == 2 and closed.stderr.startswith("error: "), closed


def test_in_place_keeps_mode_and_writes_through_symlinks(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text(json.dumps(json.loads(Path(SNAP).read_text())))  # not the written form
    real.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(real.name)
    got = cli("canonicalize", "--in-place", str(link))
    assert got.code == 1 and "rewritten" in got.stderr, got
    assert link.is_symlink() and os.readlink(link) == real.name
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert real.read_bytes() == Path(SNAP).read_bytes()


@pytest.mark.parametrize("verb", ["snapshot", "serve"])
def test_sigint_is_error_interrupted_exit_2(verb: str) -> None:
    if verb == "snapshot":
        args = ["snapshot", "--", PYTHON, str(SERVERS / "raw_server.py"), "--hang"]
    else:
        args = ["serve", SNAP]
    proc = subprocess.Popen(
        [PYTHON, "-m", "catalogaudit", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and err == "error: interrupted\n", (proc.returncode, err)


def test_snapshot_refuses_to_write_what_no_command_can_read() -> None:
    from catalogaudit.errors import CatalogauditError
    from catalogaudit.intake.loader import MAX_INPUT
    from catalogaudit.verbs.snapshot import check_readable_size

    check_readable_size(MAX_INPUT)
    with pytest.raises(CatalogauditError, match="nothing written"):
        check_readable_size(MAX_INPUT + 1)


def test_schema_invalid_snapshots_are_one_clear_line(tmp_path: Path) -> None:
    doc = json.loads(Path(SNAP).read_text())
    doc["capture"]["protocol"] = []
    doc["listings"]["tools"]["items"][0]["name"] = 5
    path = tmp_path / "invalid.json"
    path.write_text(json.dumps(doc))
    for verb in FILE_VERBS:
        one_clear_line(cli(*verb[:1], str(path), *verb[1:]))
