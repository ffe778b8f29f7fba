"""Compressed HTTP answers: `Accept-Encoding: gzip, deflate` is sent and both are decoded, JSON
and SSE, the page text is the decoded body, the size cap bounds the decoded bytes (a gzip bomb
stops there, in bounded memory), and a damaged or binary body is a one-line error that quotes
no byte of it."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON
from helpers.rawservers import FAST, counts, http_server, snapshot_fails, snapshot_ok

#: Runs `python -m catalogaudit ARGS` and prints its peak RSS (KiB) as the last stderr line.
PEAK_RSS = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run([sys.executable, '-m', 'catalogaudit', *sys.argv[1:]]).returncode\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def served(doc: dict[str, Any]) -> dict[str, Any]:
    """What must not depend on how the answers were transferred."""
    return {"listings": doc["listings"], "hashes": doc["hashes"], "wire": doc["wire"]}


@pytest.mark.parametrize("answer", ["json", "sse"])
@pytest.mark.parametrize(
    ("flag", "coding"), [("gzip", "gzip"), ("deflate", "deflate"), ("raw-deflate", "deflate")]
)
def test_compressed_answers_are_decoded(
    tmp_path: Path, answer: str, flag: str, coding: str
) -> None:
    with http_server(tmp_path, "--answer", answer, name="plain") as plain:
        expected, _ = snapshot_ok(tmp_path, *FAST, "--url", plain.url, name="plain.json")
    with http_server(tmp_path, "--answer", answer, "--compress", flag) as server:
        doc, _ = snapshot_ok(tmp_path, *FAST, "--url", server.url)
        sent = server.requests()
    assert counts(doc) == (3, 2, 4, 1)
    assert doc["capture"]["contentEncoding"] == [coding]
    assert "contentEncoding" not in expected["capture"]
    # wire-faithful: the page text is the decoded body, byte for byte
    assert served(doc) == served(expected)
    assert {r["headers"].get("accept-encoding") for r in sent} == {"gzip, deflate"}


def test_a_header_cannot_offer_what_we_cannot_decode(tmp_path: Path) -> None:
    with http_server(tmp_path, "--compress", "gzip") as server:
        doc, _ = snapshot_ok(
            tmp_path, *FAST, "--url", server.url, "--header", "accept-encoding: br"
        )
        sent = server.requests()
    assert doc["capture"]["contentEncoding"] == ["gzip"]
    assert {r["headers"].get("accept-encoding") for r in sent} == {"gzip, deflate"}


@pytest.mark.parametrize(
    ("answer", "what"), [("json", "the body"), ("sse", "an SSE event")], ids=["json", "sse"]
)
def test_a_gzip_bomb_stops_at_the_cap_in_bounded_memory(
    tmp_path: Path, answer: str, what: str
) -> None:
    """1 GiB of zeros as ~1 MiB of gzip: stopped at the 64 MiB default cap, never inflated."""
    out = tmp_path / "out.json"
    with http_server(tmp_path, "--gzip-bomb", "--answer", answer) as server:
        proc = subprocess.run(
            [PYTHON, "-c", PEAK_RSS, "snapshot", *FAST, "-o", str(out), "--url", server.url],
            capture_output=True,
            text=True,
            timeout=120,
        )
    *lines, rss = proc.stderr.splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1, proc.stderr
    assert lines[0] == (
        f"error: server at {server.url}, server/discover: {what} exceeded 67108864 bytes "
        "once decoded (gzip) (see --max-message-size)"
    )
    assert not out.exists()
    # the cap (64 MiB) plus the interpreter, far from the 1 GiB the bomb inflates to
    assert int(rss) < 300 * 1024, f"peak RSS {int(rss) // 1024} MiB"


def test_a_corrupt_gzip_body_is_one_line(tmp_path: Path) -> None:
    with http_server(tmp_path, "--corrupt-gzip") as server:
        line, _ = snapshot_fails(tmp_path, *FAST, "--url", server.url)
    assert line.startswith(
        f"server at {server.url}, server/discover: the gzip body is corrupt ("
    ), line


def test_a_binary_body_is_described_not_printed(tmp_path: Path) -> None:
    """gzip bytes without Content-Encoding (a misconfigured proxy) are not JSON-RPC."""
    with http_server(tmp_path, "--binary") as server:
        line, result = snapshot_fails(tmp_path, *FAST, "--url", server.url)
    assert line.startswith(
        f"server at {server.url}, server/discover: the body is not a JSON-RPC response; body: "
    ), line
    assert " bytes of binary data, starting 1f 8b 08 00 " in line, line
    assert all(c.isprintable() for c in result.stderr.rstrip("\n")), repr(result.stderr)
