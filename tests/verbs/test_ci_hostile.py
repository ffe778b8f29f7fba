"""`catalogaudit ci` against a hostile GitHub API and hostile inputs (issue 34, items 5-8).

Every case runs the real gate in a temporary repository whose pull request commits a breaking
release of a real `mcp` server's snapshot (fixtures/servers/release_server.py 1 -> 2), so the
verdict is known: exit 1, `has-breaking=true`. Whatever the loopback stand-in of the REST API
answers, the gate must keep that verdict, write its outputs and summary, print at most one
`warning:` line about the comment, never print the token, and never edit the comment another
user wrote with the gate's marker in it.
"""

from __future__ import annotations

import json
import subprocess
import time
import zlib
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, SERVERS, cli
from helpers.github_api import BOT, GitHubStandIn, read_outputs

TOKEN = "ghs_hostileStandIn0123456789abcdefABCDEF"
SERVER = str(SERVERS / "release_server.py")
MARKER = "<!-- catalogaudit:ci catalog.snapshot.json -->"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo, capture_output=True, text=True, check=True,
    )  # fmt: skip


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("releases")
    snaps = {}
    for release in ("1", "2"):
        path = out / f"{release}.json"
        got = cli("snapshot", "-o", str(path), "--", PYTHON, SERVER, release)
        assert got.code == 0, got
        snaps[release] = path.read_bytes()
    return snaps


@pytest.fixture
def repo(tmp_path: Path, releases: dict[str, bytes]) -> Path:
    """main commits release 1's snapshot; the PR branch commits release 2's (breaking)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "catalog.snapshot.json").write_bytes(releases["1"])
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "release 1")
    _git(repo, "checkout", "-q", "-b", "pr")
    (repo / "catalog.snapshot.json").write_bytes(releases["2"])
    _git(repo, "commit", "-q", "-am", "release 2")
    return repo


def _env(tmp: Path, api: str, event: Any = None) -> dict[str, str]:
    path = tmp / "event.json"
    doc = event if event is not None else {"pull_request": {"number": 7}}
    path.write_text(json.dumps(doc))
    for name in ("summary.md", "output.txt"):
        (tmp / name).write_text("")
    return {
        "GITHUB_EVENT_PATH": str(path),
        "GITHUB_STEP_SUMMARY": str(tmp / "summary.md"),
        "GITHUB_OUTPUT": str(tmp / "output.txt"),
        "GITHUB_API_URL": api,
        "GITHUB_REPOSITORY": "octo/server",
        "GITHUB_TOKEN": TOKEN,
        "RUNNER_TEMP": str(tmp / "runner"),
    }


def _gate(repo: Path, env: dict[str, str], *args: str, code: int = 1) -> Any:
    """Run the gate (baseline main) and check what every hostile case must keep."""
    got = cli("ci", "--baseline", "main", "--api-timeout", "3", *args, cwd=repo, env=env)
    tmp = Path(env["GITHUB_OUTPUT"]).parent
    assert got.code == code, got
    outputs = read_outputs(tmp / "output.txt")
    assert outputs["exit-code"] == str(code), outputs
    if code == 1:
        assert outputs["has-breaking"] == "true", outputs
        assert "catalogaudit: `catalog.snapshot.json` failed" in (tmp / "summary.md").read_text()
    assert "Traceback" not in got.stderr
    written = [got.stdout, got.stderr, (tmp / "summary.md").read_text()]
    written += [p.read_text() for p in (tmp / "runner").rglob("*") if p.is_file()]
    written.append((tmp / "output.txt").read_text())
    assert not [w for w in written if TOKEN in w], "the token was printed or written"
    return got


def _one_warning(got: Any, *words: str) -> str:
    warnings = [line for line in got.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, got.stderr
    assert all(w in warnings[0] for w in words), warnings[0]
    assert "the verdict stands" in warnings[0]
    return warnings[0]


def _raw(handler: BaseHTTPRequestHandler, body: bytes, status: int = 200, **headers: str) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    for name, value in {"Content-Length": str(len(body)), **headers}.items():
        if value:
            handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def _listing(body: bytes, **headers: str) -> Any:
    """A `hostile` hook answering the comment listing with `body`."""

    def hook(h: BaseHTTPRequestHandler) -> bool:
        if h.command == "GET" and h.path.startswith("/repos/octo/server/issues/7/comments"):
            _raw(h, body, **headers)
            return True
        return False

    return hook


OWN = '{"id": %s, "body": "' + MARKER + '", "user": {"login": "' + BOT + '"}}'


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (("[" + OWN % "1e999" + "]").encode(), ("no valid id",)),
        (("[" + OWN % '"12"' + "]").encode(), ("no valid id",)),
        (("[" + OWN % "true" + "]").encode(), ("no valid id",)),
        (('[{"body": "' + MARKER + '", "user": {"login": "' + BOT + '"}}]').encode(), ("id",)),
        (b'{"message": "an object, not a list"}', ("not a list",)),
        (b"[NaN]", ("not JSON",)),
        (b"[" * 100000, ("not JSON",)),
    ],
    ids=["1e999", "string-id", "bool-id", "no-id", "object", "nan", "deep"],
)
def test_malformed_listings_cost_only_the_comment(
    repo: Path, tmp_path: Path, body: bytes, words: tuple[str, ...]
) -> None:
    with GitHubStandIn(TOKEN) as api:
        api.hostile = _listing(body)
        got = _gate(repo, _env(tmp_path, api.url))
    _one_warning(got, "comment not posted", *words)
    assert [r.method for r in api.requests if r.method != "GET"] == []


def test_a_list_where_an_object_was_expected(repo: Path, tmp_path: Path) -> None:
    """GET /user and the POST both answer a list: no login, then no html_url."""

    def hook(h: BaseHTTPRequestHandler) -> bool:
        if h.path == "/user":
            _raw(h, b"[1, 2]")
            return True
        return False

    with GitHubStandIn(TOKEN, login="someone") as api:
        api.hostile = hook
        got = _gate(repo, _env(tmp_path, api.url))
    _one_warning(got, "no login")


def test_a_trickle_is_cut_at_the_total_deadline(repo: Path, tmp_path: Path) -> None:
    """The listing's headers come at once, then one body byte every 0.4 s (each read is quick:
    a per-read timeout would wait for ever): the whole API conversation stops at 3 s."""

    def hook(h: BaseHTTPRequestHandler) -> bool:
        if h.command != "GET" or "/comments" not in h.path:
            return False
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", "100000")
        h.end_headers()
        try:
            for _ in range(300):
                h.wfile.write(b" ")
                h.wfile.flush()
                time.sleep(0.4)
        except OSError:
            pass
        return True

    with GitHubStandIn(TOKEN) as api:
        api.hostile = hook
        start = time.monotonic()
        got = _gate(repo, _env(tmp_path, api.url))
        elapsed = time.monotonic() - start
    _one_warning(got, "no answer within 3 s")
    # Generous (a shared machine): the API's 3 s start after the gate's own work; the trickle
    # lasts 120 s.
    assert elapsed < 20, elapsed


@pytest.mark.parametrize("pause", [0.4, 60.0], ids=["trickle", "stall"])
def test_slow_headers_are_cut_too(repo: Path, tmp_path: Path, pause: float) -> None:
    """Status line and headers a byte at a time, or a first byte and then nothing for 60 s
    (one read that waits: only a read bounded by what is left of the deadline ends it)."""

    def hook(h: BaseHTTPRequestHandler) -> bool:
        try:
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 300:
                h.wfile.write(bytes([byte]))
                h.wfile.flush()
                time.sleep(pause)
        except OSError:
            pass
        return True

    with GitHubStandIn(TOKEN) as api:
        api.hostile = hook
        start = time.monotonic()
        got = _gate(repo, _env(tmp_path, api.url))
        elapsed = time.monotonic() - start
    _one_warning(got, "no answer within 3 s")
    assert elapsed < 20, elapsed


def test_a_huge_listing_and_a_gzip_bomb_are_bounded(repo: Path, tmp_path: Path) -> None:
    """20 MB of listing, and 1 GiB of spaces gzipped to about a megabyte: both stop at the
    16 MiB bound on the decoded answer."""
    huge = b"[" + b" " * (20 * 1024 * 1024) + b"]"
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b" " * (1024 * 1024)
    bomb = b"".join([z.compress(b"[")] + [z.compress(block) for _ in range(1024)] + [z.flush()])
    assert len(bomb) < 2 * 1024 * 1024
    for body, headers in ((huge, {}), (bomb, {"Content-Encoding": "gzip"})):
        with GitHubStandIn(TOKEN) as api:
            api.hostile = _listing(body, **headers)
            got = _gate(repo, _env(tmp_path, api.url))
        _one_warning(got, "exceeded 16777216 bytes")


def test_another_users_marked_comment_is_never_edited(repo: Path, tmp_path: Path) -> None:
    """Someone pastes the gate's marker into their own comment: the gate posts its own, and the
    next run updates its own, never theirs. Both identities: an installation token (GET /user
    refused: github-actions[bot]) and a user's token (GET /user answers the login)."""
    for login in (None, "release-bot"):
        with GitHubStandIn(TOKEN, login=login) as api:
            theirs = api.add(7, f"{MARKER}\nI took over", login="mallory")
            env = _env(tmp_path, api.url)
            _gate(repo, env)
            _gate(repo, _env(tmp_path, api.url))
            patched = [r.path for r in api.requests if r.method == "PATCH"]
            ours = [c for c in api.comments[7] if c["user"]["login"] == (login or BOT)]
        assert theirs["body"] == f"{MARKER}\nI took over"
        assert len(ours) == 1 and MARKER in ours[0]["body"], api.comments
        assert patched == [f"/repos/octo/server/issues/comments/{ours[0]['id']}"]


def test_the_api_is_reached_through_the_environments_proxy(repo: Path, tmp_path: Path) -> None:
    """A self-hosted runner reaches GitHub through HTTP(S)_PROXY: the stand-in is the proxy
    here (it reads absolute-form requests), and the API's own host does not resolve."""
    with GitHubStandIn(TOKEN) as api:
        env = {**_env(tmp_path, "http://api.github.invalid"), "HTTP_PROXY": api.url}
        got = _gate(repo, {**env, "NO_PROXY": ""})
        assert not [line for line in got.stderr.splitlines() if line.startswith("warning:")]
        assert [c["user"]["login"] for c in api.comments[7]] == [BOT]
        seen = len(api.requests)
        got = _gate(repo, {**env, "NO_PROXY": "api.github.invalid"})
        assert len(api.requests) == seen  # bypassed: the API itself was asked, and is not there
    _one_warning(got, "comment not posted")


@pytest.mark.parametrize(
    "echo",
    [
        f"bad header: Authorization: Bearer {TOKEN}",
        f"token {TOKEN} is not allowed",
    ],
)
def test_an_api_that_echoes_the_token_is_masked(repo: Path, tmp_path: Path, echo: str) -> None:
    with GitHubStandIn(TOKEN) as api:
        api.hostile = lambda h: _raw(h, json.dumps({"message": echo}).encode(), 500) or True
        got = _gate(repo, _env(tmp_path, api.url))
    warning = _one_warning(got, "HTTP 500")
    assert "***" in warning, warning


def test_a_newline_in_the_snapshot_path_adds_no_output(repo: Path, tmp_path: Path) -> None:
    env = _env(tmp_path, "http://127.0.0.1:9")
    got = cli(
        "ci", "--snapshot", "catalog.snapshot.json\nexit-code=0", "--no-comment",
        cwd=repo, env=env,
    )  # fmt: skip
    assert got.code == 2 and got.stderr.strip().startswith("error: --snapshot"), got
    text = (tmp_path / "output.txt").read_text()
    assert read_outputs(tmp_path / "output.txt") == {"exit-code": "2"}, text
    assert "\nexit-code=0" not in text


@pytest.mark.parametrize(
    "event",
    [{"pull_request": [7]}, {"pull_request": "7"}, {"pull_request": {"base": "main"}}, [1]],
    ids=["list", "string", "base-string", "not-object"],
)
def test_a_malformed_event_payload_is_one_error(repo: Path, tmp_path: Path, event: Any) -> None:
    env = _env(tmp_path, "http://127.0.0.1:9", event)
    got = cli("ci", "--no-comment", cwd=repo, env=env)
    assert got.code == 2 and got.stderr.count("error:") == 1, got
    assert "GITHUB_EVENT_PATH" in got.stderr and "Traceback" not in got.stderr
    assert read_outputs(tmp_path / "output.txt") == {"exit-code": "2"}
    assert "errored" in (tmp_path / "summary.md").read_text()


def test_dev_zero_as_the_event_file_is_bounded(repo: Path, tmp_path: Path) -> None:
    env = {**_env(tmp_path, "http://127.0.0.1:9"), "GITHUB_EVENT_PATH": "/dev/zero"}
    got = cli("ci", "--no-comment", cwd=repo, env=env)
    assert got.code == 2 and "larger than" in got.stderr, got
    assert read_outputs(tmp_path / "output.txt") == {"exit-code": "2"}
