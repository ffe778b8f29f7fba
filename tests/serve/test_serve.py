"""`catalogaudit serve`: replay a snapshot as a live server, captured again by `snapshot`.

Real processes throughout: `serve` runs as `python -m catalogaudit serve` (over stdio spawned
by `snapshot`, or over HTTP on a port it picks), and the round trip must give back the same
served page texts, page boundaries and negotiated version, in both eras and both transports.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import PYTHON, cli, cli_process, fixture, npm_bin, validate_snapshot
from helpers.rawservers import RAW, snapshot_ok

EXAMPLE = str(fixture("servers", "example_server.py"))
LISTINGS = ("tools", "prompts", "resources", "resourceTemplates")
#: Every serve process in these tests ends on its own well before this (--max-seconds).
SERVE_LIMIT = "60"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}

#: name -> (snapshot args for the original capture, --protocol used to capture it again)
CASES: dict[str, tuple[tuple[str, ...], str]] = {
    "example-legacy": (("--protocol", "legacy", "--", PYTHON, EXAMPLE, "stdio"), "legacy"),
    "example-modern": (("--protocol", "auto", "--", PYTHON, EXAMPLE, "stdio"), "auto"),
    "raw-paged-modern": (
        ("--", PYTHON, RAW, "--page-size", "2", "--tools", "5", "--priority-lexemes"),
        "auto",
    ),
    "raw-paged-legacy": (
        (
            "--protocol",
            "legacy",
            "--",
            PYTHON,
            RAW,
            "--page-size",
            "2",
            "--tools",
            "5",
            "--priority-lexemes",
        ),
        "legacy",
    ),
}


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The snapshots the round trips replay, made once from the fixture servers."""
    folder = tmp_path_factory.mktemp("originals")
    out: dict[str, Path] = {}
    for name, (args, _) in CASES.items():
        snapshot_ok(folder, *args, name=f"{name}.json")
        out[name] = folder / f"{name}.json"
    return out


def serve_argv(snapshot: Path, *opts: str) -> list[str]:
    """The `catalogaudit serve` command line (bounded, so nothing can outlive the test)."""
    return [
        PYTHON,
        "-m",
        "catalogaudit",
        "serve",
        str(snapshot),
        "--max-seconds",
        SERVE_LIMIT,
        *opts,
    ]


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def boundaries(doc: dict[str, Any]) -> dict[str, Any]:
    """Per listing: status, and per page its item count and page-level fields."""
    return {
        name: (rec["status"], [(p["items"], p["fields"]) for p in rec.get("pages", [])])
        for name, rec in doc["listings"].items()
    }


def assert_round_trip(original: dict[str, Any], again: dict[str, Any]) -> None:
    """The Done-when of issue 6: same page texts, boundaries and negotiated version."""
    assert again["wire"]["pages"] == original["wire"]["pages"]
    assert boundaries(again) == boundaries(original)
    for key in ("negotiated", "era", "handshake"):
        assert again["capture"]["protocol"][key] == original["capture"]["protocol"][key]
    assert again["wire"]["handshake"] == original["wire"]["handshake"]
    assert again["hashes"] == original["hashes"]


def recapture(tmp_path: Path, snapshot: Path, protocol: str, *serve_opts: str) -> dict[str, Any]:
    """`snapshot` of `serve SNAPSHOT` over stdio; the new snapshot, schema-checked."""
    doc, _ = snapshot_ok(
        tmp_path,
        "--protocol",
        protocol,
        "--",
        *serve_argv(snapshot, *serve_opts),
        name="again.json",
    )
    return doc


@contextmanager
def serving_http(snapshot: Path, *opts: str) -> Iterator[str]:
    """Run `serve --http 0`, read the URL it prints on stderr, stop it with SIGTERM (exit 0)."""
    proc = subprocess.Popen(
        [*serve_argv(snapshot, "--http", "0", *opts)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        line = _read_line(proc, proc.stderr, 30)
        assert line.startswith("listening on http://127.0.0.1:"), line
        yield line.split(" ", 2)[2]
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert out == b"", out
        assert b"stopped by SIGTERM" in err, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)


def _read_line(proc: subprocess.Popen[bytes], stream: Any, timeout: float) -> str:
    fd = stream.fileno()
    buf = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise AssertionError(f"no line within {timeout} s (got {buf!r})")
        chunk = os.read(fd, 65536)
        if not chunk:
            raise AssertionError(f"stream ended (exit {proc.poll()}): {buf!r}")
        buf += chunk
    return buf.split(b"\n", 1)[0].decode("utf-8", "surrogateescape")


class Peer:
    """A `serve` process over stdio that the test talks to line by line."""

    def __init__(self, snapshot: Path, *opts: str) -> None:
        self.proc = subprocess.Popen(
            serve_argv(snapshot, *opts),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send(self, message: Any) -> None:
        raw = message if isinstance(message, str) else json.dumps(message)
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw.encode() + b"\n")
        self.proc.stdin.flush()

    def line(self) -> str:
        return _read_line(self.proc, self.proc.stdout, 15)

    def ask(self, message: Any) -> dict[str, Any]:
        self.send(message)
        answer: dict[str, Any] = json.loads(self.line())
        return answer

    def close(self) -> tuple[int, str]:
        """Close stdin (EOF ends serve) and return the exit code and stderr."""
        try:
            _, err = self.proc.communicate(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.communicate(timeout=10)
        return self.proc.returncode, err.decode()


def request(rid: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


# --- the round trip -------------------------------------------------------------------------


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize("case", list(CASES))
def test_round_trip(tmp_path: Path, originals: dict[str, Path], case: str, transport: str) -> None:
    original = load(originals[case])
    protocol = CASES[case][1]
    if transport == "stdio":
        again = recapture(tmp_path, originals[case], protocol)
    else:
        with serving_http(originals[case]) as url:
            again, _ = snapshot_ok(tmp_path, "--protocol", protocol, "--url", url)
        assert again["capture"]["transport"] == "streamable-http"
    assert_round_trip(original, again)


def test_round_trip_keeps_lexemes_and_pages(originals: dict[str, Path]) -> None:
    original = load(originals["raw-paged-modern"])
    assert [p["items"] for p in original["listings"]["tools"]["pages"]] == [2, 2, 1]
    pages = original["wire"]["pages"]["resources"]
    assert '"priority":1.0}' in pages[0] and '"priority":1E0}' in pages[1]
    assert original["capture"]["protocol"]["negotiated"] == "2026-07-28"
    assert load(originals["example-legacy"])["capture"]["protocol"]["negotiated"] == "2025-11-25"


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_round_trip_server_everything(tmp_path: Path, transport: str) -> None:
    server = npm_bin("mcp-server-everything")
    snapshot_ok(tmp_path, "--", server, name="everything.json")
    path = tmp_path / "everything.json"
    original = load(path)
    if transport == "stdio":
        again = recapture(tmp_path, path, "auto")
    else:
        with serving_http(path) as url:
            again, _ = snapshot_ok(tmp_path, "--url", url, name="again.json")
    assert_round_trip(original, again)


def test_round_trip_sse(tmp_path: Path, originals: dict[str, Path]) -> None:
    with serving_http(originals["raw-paged-modern"], "--sse") as url:
        again, _ = snapshot_ok(tmp_path, "--url", url)
    assert_round_trip(load(originals["raw-paged-modern"]), again)


def test_exact_bytes_on_stdout(originals: dict[str, Path]) -> None:
    path = originals["raw-paged-modern"]
    wire = load(path)["wire"]
    peer = Peer(path)
    try:
        peer.send(request(7, "server/discover", {"_meta": META}))
        assert peer.line() == '{"jsonrpc":"2.0","id":7,"result":' + wire["handshake"] + "}"
        peer.send(request(8, "resources/list", {"_meta": META}))
        first = wire["pages"]["resources"][0]
        assert peer.line() == '{"jsonrpc":"2.0","id":8,"result":' + first + "}"
    finally:
        code, err = peer.close()
    assert code == 0 and "stdin closed" in err


# --- options ----------------------------------------------------------------------------------


def test_page_size_repaginates(tmp_path: Path, originals: dict[str, Path]) -> None:
    original = load(originals["raw-paged-modern"])
    again = recapture(tmp_path, originals["raw-paged-modern"], "auto", "--page-size", "3")
    for name in LISTINGS:
        before, after = original["listings"][name], again["listings"][name]
        assert after["items"] == before["items"]
        for kind in ("served", "prompt", "canonical"):
            assert after["hashes"][kind] == before["hashes"][kind]
    assert [p["items"] for p in again["listings"]["tools"]["pages"]] == [3, 2]
    assert [p["items"] for p in again["listings"]["resources"]["pages"]] == [3, 1]
    cursors = [p["fields"].get("nextCursor") for p in again["listings"]["tools"]["pages"]]
    old = [p["fields"].get("nextCursor") for p in original["listings"]["tools"]["pages"]]
    assert cursors[1] is None and isinstance(cursors[0], str) and cursors[0] not in old
    assert '"priority":1E0}' in again["wire"]["pages"]["resources"][1]


def test_cache_hints_absent_shows_ca611(tmp_path: Path, originals: dict[str, Path]) -> None:
    def ca611(path: Path) -> int:
        result = cli("audit", str(path), "--profile", "spec", "--format", "json", timeout=60)
        assert result.code in (0, 1), str(result)
        return sum(1 for f in result.json()["findings"] if f["ruleId"] == "CA611")

    assert ca611(originals["example-modern"]) == 0
    again = recapture(tmp_path, originals["example-modern"], "auto", "--cache-hints", "absent")
    assert ca611(tmp_path / "again.json") > 0
    assert all("ttlMs" not in p for pages in again["wire"]["pages"].values() for p in pages)
    assert "ttlMs" not in again["wire"]["handshake"]


def test_cache_hints_present_and_discover_only(tmp_path: Path, originals: dict[str, Path]) -> None:
    legacy = originals["example-legacy"]
    again = recapture(
        tmp_path, legacy, "modern", "--protocol", "modern", "--cache-hints", "present"
    )
    assert again["capture"]["protocol"]["era"] == "modern"
    tools = again["wire"]["pages"]["tools"][0]
    original = load(legacy)["wire"]["pages"]["tools"][0]
    # Minimal rebuild: the captured text, then the three hints appended before the final brace.
    assert tools == original[:-1] + ',"resultType":"complete","ttlMs":0,"cacheScope":"private"}'
    again = recapture(
        tmp_path, legacy, "modern", "--protocol", "modern", "--cache-hints", "discover-only"
    )
    assert '"ttlMs":0' in again["wire"]["handshake"]
    assert again["wire"]["pages"]["tools"][0] == original


def test_protocol_modern_refuses_a_legacy_client(
    tmp_path: Path, originals: dict[str, Path]
) -> None:
    out = tmp_path / "out.json"
    result = cli(
        "snapshot",
        "-o",
        str(out),
        "--protocol",
        "legacy",
        "--",
        *serve_argv(originals["example-legacy"], "--protocol", "modern"),
    )
    assert result.code == 2, str(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), str(result)
    assert "-32022" in lines[0] and "Traceback" not in result.stderr
    assert not out.exists()


def test_protocol_dual_answers_both_eras(tmp_path: Path, originals: dict[str, Path]) -> None:
    path = originals["example-legacy"]
    modern = recapture(tmp_path, path, "auto", "--protocol", "dual")
    assert modern["capture"]["protocol"]["era"] == "modern"
    assert modern["wire"]["pages"] == load(path)["wire"]["pages"]
    legacy = recapture(tmp_path, path, "legacy", "--protocol", "dual")
    assert_round_trip(load(path), legacy)


def test_legacy_echoes_an_older_revision_the_server_echoed(
    tmp_path: Path, originals: dict[str, Path]
) -> None:
    """The example server echoed the capture's 2025-11-25, so its replay echoes 2025-06-18 (as
    the real servers measured do); a replay of that 2025-06-18 capture counter-offers
    2025-06-18 to a client asking for the newer 2025-11-25, which the server never named."""
    again = recapture(tmp_path, originals["example-legacy"], "2025-06-18")
    assert again["capture"]["protocol"]["negotiated"] == "2025-06-18"
    assert again["findings"] == []
    older = tmp_path / "older"
    older.mkdir()
    (older / "s.json").write_text(json.dumps(again), encoding="utf-8")
    newer = recapture(older, older / "s.json", "2025-11-25")
    assert newer["capture"]["protocol"]["negotiated"] == "2025-06-18"
    assert [f["ruleId"] for f in newer["findings"]] == ["CA522"]


def test_legacy_counter_offers_what_the_server_counter_offered(
    tmp_path: Path, originals: dict[str, Path]
) -> None:
    """A capture whose server named another version than offered is replayed that way."""
    odd = recapture(
        tmp_path, originals["example-legacy"], "legacy", "--initialize-version", "2025-03-26"
    )
    assert odd["capture"]["protocol"]["negotiated"] == "2025-03-26"
    again_dir = tmp_path / "again"
    again_dir.mkdir()
    (again_dir / "s.json").write_text(json.dumps(odd), encoding="utf-8")
    again = recapture(again_dir, again_dir / "s.json", "2025-06-18")
    assert again["capture"]["protocol"]["negotiated"] == "2025-03-26"
    assert [f["ruleId"] for f in again["findings"]] == ["CA522"]


def test_capabilities_override(tmp_path: Path, originals: dict[str, Path]) -> None:
    caps = '{"resources":{}}'
    again = recapture(tmp_path, originals["example-modern"], "auto", "--capabilities", caps)
    assert again["capture"]["serverCapabilities"] == {"resources": {}}
    assert '"capabilities":{"resources":{}}' in again["wire"]["handshake"]
    # The listings still answer as recorded; the capture says they were not advertised.
    assert again["wire"]["pages"] == load(originals["example-modern"])["wire"]["pages"]
    assert {f["kind"] for f in again["findings"] if f["ruleId"] == "CA536"} == {"tools", "prompts"}


def test_no_wire_snapshot_is_served_from_readable_items(tmp_path: Path) -> None:
    args = ("--no-wire", "--", PYTHON, RAW, "--page-size", "2", "--tools", "5")
    snapshot_ok(tmp_path, *args, name="nowire.json")
    path = tmp_path / "nowire.json"
    original = load(path)
    peer = Peer(path)
    reply = peer.ask(request(1, "ping"))
    code, err = peer.close()
    assert reply["result"] == {} and code == 0
    assert "has no wire section" in err and "may differ" in err
    again = recapture(tmp_path, path, "auto")
    assert boundaries(again) == boundaries(original)
    for name in LISTINGS:
        assert again["listings"][name]["items"] == original["listings"][name]["items"]


# --- the protocol over stdio -------------------------------------------------------------------


def test_stdio_answers(originals: dict[str, Path]) -> None:
    peer = Peer(originals["raw-paged-modern"])
    try:
        assert peer.ask(request(1, "ping"))["result"] == {}
        assert (
            peer.ask(request(2, "completion/complete", {"_meta": META}))["error"]["code"] == -32601
        )
        bad = peer.ask(request(3, "tools/list", {"_meta": META, "cursor": "nope"}))
        assert bad["error"]["code"] == -32602
        init = peer.ask(request(4, "initialize", {"protocolVersion": "2025-11-25"}))
        assert init["error"]["code"] == -32022
        assert init["error"]["data"]["supported"] == ["2026-07-28"]
        assert peer.ask(request(5, "server/discover", {}))["error"]["code"] == -32602
        meta = {**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}
        wrong = peer.ask(request(6, "server/discover", {"_meta": meta}))
        assert wrong["error"]["code"] == -32022
        assert wrong["error"]["data"] == {"supported": ["2026-07-28"], "requested": "2099-01-01"}
        peer.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert peer.ask("{not json")["error"]["code"] == -32700
        assert peer.ask(request(8, "ping"))["id"] == 8  # the notification got no answer
    finally:
        code, _ = peer.close()
    assert code == 0


def test_absent_listing_answers_with_the_recorded_error(tmp_path: Path) -> None:
    snapshot_ok(tmp_path, "--", PYTHON, RAW, "--no-prompts-cap", name="noprompts.json")
    path = tmp_path / "noprompts.json"
    original = load(path)
    assert original["listings"]["prompts"]["status"] == "absent"
    again = recapture(tmp_path, path, "auto")
    assert again["listings"]["prompts"] == original["listings"]["prompts"]
    assert_round_trip(original, again)


def test_legacy_mode_refuses_discover(originals: dict[str, Path]) -> None:
    peer = Peer(originals["example-legacy"])
    try:
        assert peer.ask(request(1, "server/discover", {"_meta": META}))["error"]["code"] == -32601
        init = peer.ask(request(2, "initialize", {"protocolVersion": "2024-11-05"}))
        assert init["result"]["protocolVersion"] == "2024-11-05"  # the server echoed ours
    finally:
        code, _ = peer.close()
    assert code == 0


# --- ending ------------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_max_seconds_ends_it(originals: dict[str, Path], transport: str) -> None:
    argv = [PYTHON, "-m", "catalogaudit", "serve", str(originals["example-modern"])]
    argv += ["--max-seconds", "1"] + (["--http", "0"] if transport == "http" else [])
    started = time.monotonic()
    # stdin stays open (a pipe nobody writes to): only the bound can end the run.
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        code = proc.wait(timeout=30)
        err = proc.stderr.read() if proc.stderr else b""
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=10)
    assert code == 0, err
    assert b"--max-seconds 1 reached" in err
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_sigterm_ends_it(originals: dict[str, Path], transport: str) -> None:
    opts = ["--http", "0"] if transport == "http" else []
    proc = subprocess.Popen(
        serve_argv(originals["example-modern"], *opts),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        if transport == "http":
            _read_line(proc, proc.stderr, 30)
        else:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(request(1, "ping")).encode() + b"\n")
            proc.stdin.flush()
            _read_line(proc, proc.stdout, 30)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert b"stopped by SIGTERM" in err and b"Traceback" not in err


# --- HTTP status codes ------------------------------------------------------------------------


def test_http_modern_statuses(originals: dict[str, Path]) -> None:
    with serving_http(originals["example-modern"]) as url, httpx.Client(timeout=10) as client:
        assert client.get(url).status_code == 405
        assert client.delete(url).status_code == 405
        headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
        body = request(1, "tools/list", {"_meta": META})
        assert client.post(url, json=body, headers=headers).status_code == 200
        for bad in (
            {"Mcp-Method": "tools/list"},
            {"MCP-Protocol-Version": "2026-07-28"},
            {"MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/list"},
            {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "prompts/list"},
        ):
            resp = client.post(url, json=body, headers=bad)
            assert resp.status_code == 400, bad
            assert resp.json()["error"]["code"] == -32020, bad
        nometa = client.post(url, json=request(2, "tools/list", {}), headers=headers)
        assert nometa.status_code == 400 and nometa.json()["error"]["code"] == -32602
        unknown = {**headers, "Mcp-Method": "completion/complete"}
        resp = client.post(
            url, json=request(3, "completion/complete", {"_meta": META}), headers=unknown
        )
        assert resp.status_code == 404 and resp.json()["error"]["code"] == -32601
        init = client.post(url, json=request(4, "initialize", {"protocolVersion": "2025-11-25"}))
        assert init.status_code == 400 and init.json()["error"]["code"] == -32022
        note = {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": META}}
        hdrs = {**headers, "Mcp-Method": "notifications/initialized"}
        assert client.post(url, json=note, headers=hdrs).status_code == 202
        assert client.post(url.replace("/mcp", "/other"), json=body).status_code == 404


def test_server_header_has_no_trailing_space(originals: dict[str, Path]) -> None:
    """httpx strips header whitespace, so the raw response is read from a socket."""
    with serving_http(originals["example-legacy"]) as url:
        host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(f"GET /mcp HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            raw = b""
            while b"\r\n\r\n" not in raw:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                raw += chunk
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    assert b"Server: catalogaudit-serve" in head, head


def test_http_legacy_sessions(originals: dict[str, Path]) -> None:
    with serving_http(originals["example-legacy"]) as url, httpx.Client(timeout=10) as client:
        assert client.get(url).status_code == 405
        assert client.post(url, json=request(1, "tools/list")).status_code == 400
        foreign = {"Origin": "https://attacker.example"}
        assert client.post(url, json=request(1, "ping"), headers=foreign).status_code == 403
        init = client.post(url, json=request(2, "initialize", {"protocolVersion": "2025-11-25"}))
        assert init.status_code == 200
        sid = init.headers["mcp-session-id"]
        session = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert client.post(url, json=note, headers=session).status_code == 202
        listed = client.post(url, json=request(3, "tools/list"), headers=session)
        assert listed.status_code == 200 and len(listed.json()["result"]["tools"]) == 3
        assert client.delete(url, headers=session).status_code == 200
        gone = client.post(url, json=request(4, "tools/list"), headers=session)
        assert gone.status_code == 404


# --- errors -------------------------------------------------------------------------------------


def _one_error_line(result: Any) -> str:
    assert result.code == 2, str(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), str(result)
    assert result.stdout == ""
    return str(lines[0])


def test_errors(tmp_path: Path, originals: dict[str, Path]) -> None:
    assert "no such file" in _one_error_line(cli_process("serve", str(tmp_path / "missing.json")))
    raw = tmp_path / "list.json"
    raw.write_text('{"tools": []}', encoding="utf-8")
    assert "not a catalogaudit snapshot" in _one_error_line(cli_process("serve", str(raw)))
    snap = str(originals["example-modern"])
    line = _one_error_line(cli_process("serve", snap, "--capabilities", "[1]"))
    assert "--capabilities" in line
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = str(busy.getsockname()[1])
        line = _one_error_line(cli_process("serve", snap, "--http", port, "--max-seconds", "5"))
    assert f"cannot listen on 127.0.0.1:{port}" in line


def test_every_written_snapshot_validates(originals: dict[str, Path]) -> None:
    for path in originals.values():
        validate_snapshot(load(path))
