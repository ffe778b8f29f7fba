"""The one pull-request comment of `catalogaudit ci`, kept through GitHub's REST API, and nothing
that API answers can cost the gate its verdict.

Every exchange shares one deadline that bounds each socket read and write (so a server sending a
byte every few seconds is cut when the deadline passes, not when one read stalls), every answer
is bounded in bytes after decoding (a gzip bomb never inflates past the bound), every field used
is type-checked, and every failure is a `CommentError` whose message never holds the token.

The comment is found by its hidden marker and by its author, the identity the token belongs to:
`GET /user` for a user's token; an installation token (the Actions `GITHUB_TOKEN`) is refused
there with 403 "Resource not accessible by integration", and its comments are written by
`github-actions[bot]`. A comment anyone else wrote is never edited, marker or not.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpcore

from catalogaudit._version import __version__
from catalogaudit.errors import ServerError
from catalogaudit.model import visible
from catalogaudit.wire import ACCEPT_ENCODING, Clock, DeadlineBackend, codings, decoded

#: Comments listed per page and pages read before giving up (the bot's comment comes early).
PER_PAGE = 100
MAX_PAGES = 20
#: The most one answer may hold once decoded: a full page of 100 comments at GitHub's limit.
MAX_ANSWER = 16 * 1024 * 1024
#: Who writes the comments of an installation token (the Actions GITHUB_TOKEN).
ACTIONS_BOT = "github-actions[bot]"
#: Largest id we accept (GitHub's ids are 64-bit integers).
MAX_ID = 2**63 - 1


class CommentError(Exception):
    """The comment could not be read, posted or updated (the message names no secret)."""


@dataclass(frozen=True)
class Api:
    """Where and as whom to call the REST API (GITHUB_API_URL, GITHUB_REPOSITORY, the token)."""

    url: str
    repository: str
    token: str
    #: Seconds for the whole conversation with the API (every request of one run together).
    seconds: float = 60.0

    @classmethod
    def from_environ(cls, environ: dict[str, str], seconds: float = 60.0) -> Api | None:
        """None when the token or the repository is missing (then no comment is attempted)."""
        token = environ.get("GITHUB_TOKEN", "")
        repo = environ.get("GITHUB_REPOSITORY", "")
        if not token or not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo):
            return None
        url = environ.get("GITHUB_API_URL") or "https://api.github.com"
        return cls(url.rstrip("/"), repo, token, seconds)


def mask(text: str, token: str) -> str:
    """`text` with the token (and any `Bearer`/`token` credential) written as `***`."""
    if token:
        text = text.replace(token, "***")
    return re.sub(r"(?i)\b(bearer|token)\s+[A-Za-z0-9_.~+/=-]{8,}", r"\1 ***", text)


def proxy_for(url: str) -> str | None:
    """The proxy the environment names for `url` (`HTTPS_PROXY`/`HTTP_PROXY` unless `NO_PROXY`
    covers the host), as httpx and curl read them: self-hosted runners often reach GitHub only
    through one."""
    proxies = urllib.request.getproxies_environment()
    parts = urllib.parse.urlsplit(url)
    if urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    return proxies.get(parts.scheme) or None


class _Session:
    """One run's conversation with the API: one deadline, one connection pool."""

    def __init__(self, api: Api) -> None:
        self.api = api
        clock = Clock()
        clock.until = time.monotonic() + api.seconds
        backend = DeadlineBackend(clock)
        proxy = proxy_for(api.url)
        self.pool: httpcore.ConnectionPool = (
            httpcore.HTTPProxy(proxy, network_backend=backend)
            if proxy
            else httpcore.ConnectionPool(network_backend=backend)
        )
        self.headers = {
            "Authorization": f"Bearer {api.token}",
            "Accept": "application/vnd.github+json",
            "Accept-Encoding": ACCEPT_ENCODING,
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": f"catalogaudit/{__version__}",
        }

    def call(
        self, method: str, path: str, what: str, body: Any = None, allow: int = 0
    ) -> tuple[int, Any]:
        """(status, the decoded JSON answer); an error status other than `allow` is a
        `CommentError` quoting the API's message (inert, cut at 200 characters)."""
        headers = dict(self.headers)
        content = None
        if body is not None:
            content = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            with self.pool.stream(
                method, f"{self.api.url}{path}", headers=list(headers.items()), content=content
            ) as r:
                raw = _bounded(r, what)
                status = r.status
        except httpcore.TimeoutException:
            raise CommentError(
                f"could not {what}: no answer within {self.api.seconds:g} s"
            ) from None
        except (
            httpcore.NetworkError,
            httpcore.ProtocolError,
            httpcore.UnsupportedProtocol,
            ServerError,
            OSError,
        ) as exc:
            raise CommentError(f"could not {what}: {type(exc).__name__}: {exc}") from None
        doc = _json(raw, what) if raw.strip() else None
        if status >= 400 and status != allow:
            message = doc.get("message") if isinstance(doc, dict) else None
            said = f": {message[:200]}" if isinstance(message, str) and message else ""
            raise CommentError(f"could not {what} (HTTP {status}{said})")
        return status, doc

    def close(self) -> None:
        self.pool.close()


def _bounded(response: httpcore.Response, what: str) -> bytes:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in response.headers}
    data = bytearray()
    pieces: Iterator[bytes] = decoded(
        response.iter_stream(), codings(headers.get("content-encoding"))
    )
    for piece in pieces:
        data += piece
        if len(data) > MAX_ANSWER:
            raise CommentError(f"could not {what}: the answer exceeded {MAX_ANSWER} bytes")
    return bytes(data)


def _json(raw: bytes, what: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(raw, parse_constant=refuse)
    except (ValueError, RecursionError):
        raise CommentError(f"could not {what}: the answer is not JSON") from None


def _comment_id(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        return None
    return value


def _login(value: Any) -> str | None:
    user = value.get("user") if isinstance(value, dict) else None
    login = user.get("login") if isinstance(user, dict) else None
    return login if isinstance(login, str) else None


def whoami(session: _Session) -> str:
    """The login the token acts as (`GET /user`; an installation token: github-actions[bot])."""
    status, doc = session.call("GET", "/user", "find the token's user", allow=403)
    if status == 403:
        return ACTIONS_BOT
    login = doc.get("login") if isinstance(doc, dict) else None
    if not isinstance(login, str) or not login:
        raise CommentError("could not find the token's user: the answer has no login")
    return login


def find(session: _Session, number: int, marker: str, author: str) -> int | None:
    """The id of `author`'s comment on `number` that holds `marker`, if there is one."""
    path = f"/repos/{session.api.repository}/issues/{number}/comments"
    for page in range(1, MAX_PAGES + 1):
        _, comments = session.call(
            "GET", f"{path}?per_page={PER_PAGE}&page={page}", "list the comments"
        )
        if not isinstance(comments, list):
            raise CommentError("could not list the comments: the answer is not a list")
        for c in comments:
            body = c.get("body") if isinstance(c, dict) else None
            if not isinstance(body, str) or marker not in body or _login(c) != author:
                continue
            found = _comment_id(c.get("id"))
            if found is None:
                raise CommentError("could not list the comments: our comment has no valid id")
            return found
        if len(comments) < PER_PAGE:
            return None
    return None


def upsert_comment(api: Api, number: int, marker: str, body: str) -> tuple[str, str]:
    """Edit the token's own comment on `number` that holds `marker`, or post one; ("updated"
    or "created", its html_url). Every failure is a `CommentError` with the token masked."""
    session = _Session(api)
    try:
        author = whoami(session)
        found = find(session, number, marker, author)
        base = f"/repos/{api.repository}/issues"
        if found is not None:
            _, doc = session.call(
                "PATCH", f"{base}/comments/{found}", "update the comment", {"body": body}
            )
            action = "updated"
        else:
            _, doc = session.call(
                "POST", f"{base}/{number}/comments", "create the comment", {"body": body}
            )
            action = "created"
        url = doc.get("html_url") if isinstance(doc, dict) else None
        shown = visible(url, keep="") if isinstance(url, str) and len(url) < 2048 else ""
        return action, shown
    except CommentError as exc:
        raise CommentError(visible(mask(str(exc), api.token), keep="")) from None
    except Exception as exc:  # noqa: BLE001 - the comment is a report; it never costs the verdict
        said = f"unexpected {type(exc).__name__} talking to {api.url}"
        raise CommentError(visible(mask(said, api.token), keep="")) from None
    finally:
        session.close()
