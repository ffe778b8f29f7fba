"""GitHub Actions' side of `catalogaudit ci`: the event payload, the merge base, the step's
output and summary files, and the one pull-request comment kept up to date through the REST API.

The comment is found by a hidden marker (an HTML comment, invisible when rendered), so a second
run edits the comment the first run posted instead of adding another. The token only ever goes
into the `Authorization` header: it is never printed, written to an output or put in a message.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogaudit._version import __version__
from catalogaudit.errors import UsageError

#: GitHub's limit on an issue comment's body (characters); longer bodies get HTTP 422.
COMMENT_LIMIT = 65536
#: Comments listed per page (the API's maximum) and pages read before giving up.
PER_PAGE = 100
MAX_PAGES = 50


class CommentError(Exception):
    """The comment could not be read, posted or updated (the message names no secret)."""


def event(environ: dict[str, str]) -> dict[str, Any]:
    """The event payload GitHub wrote to GITHUB_EVENT_PATH ({} when there is none)."""
    path = environ.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"GITHUB_EVENT_PATH {path}: cannot read it ({exc})") from None
    return data if isinstance(data, dict) else {}


def pull_number(payload: dict[str, Any]) -> int | None:
    """The pull request's number (`pull_request` and `pull_request_target` events)."""
    number = (payload.get("pull_request") or {}).get("number")
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def _git(*args: str) -> str | None:
    try:
        proc = subprocess.run(["git", *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


def merge_base(payload: dict[str, Any], environ: dict[str, str]) -> tuple[str, str]:
    """The default baseline: the pull request's merge base with HEAD (from the payload's base
    sha, else `origin/GITHUB_BASE_REF`); outside a pull request, HEAD itself (the committed
    snapshot is then compared with the server as it runs now). Returns (ref, how it was found).
    """
    base = (payload.get("pull_request") or {}).get("base") or {}
    candidates: list[tuple[str, str]] = []
    sha = base.get("sha")
    if isinstance(sha, str) and _SHA.match(sha):
        candidates.append((sha, "the pull request's base commit"))
    ref = environ.get("GITHUB_BASE_REF", "")
    if ref and not ref.startswith("-"):
        candidates.append((f"origin/{ref}", f"origin/{ref}"))
    if not candidates:
        return "HEAD", "HEAD (not a pull request)"
    for name, how in candidates:
        found = _git("merge-base", "--end-of-options", name, "HEAD")
        if found:
            return found, f"the merge base of HEAD and {how}"
    raise UsageError(
        f"cannot find the merge base of HEAD and {candidates[0][1]}: check out the history "
        "(actions/checkout with fetch-depth: 0) or give --baseline REF"
    )


def exists(ref: str, path: str) -> bool:
    """Whether `path` exists at `ref` (a snapshot added by the pull request has no baseline)."""
    return _git("cat-file", "-e", "--end-of-options", f"{ref}:{path}") is not None


def repo_path(path: str) -> str:
    """`path` (relative to the current directory) from the repository's root."""
    prefix = _git("rev-parse", "--show-prefix") or ""
    return f"{prefix}{path.removeprefix('./')}"


def set_outputs(environ: dict[str, str], values: dict[str, str]) -> None:
    """Append `name=value` lines to GITHUB_OUTPUT (values here are one line, no secrets)."""
    path = environ.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as fh:
        fh.writelines(f"{k}={v}\n" for k, v in values.items())


def add_summary(environ: dict[str, str], text: str) -> None:
    """Append Markdown to GITHUB_STEP_SUMMARY (the job summary page)."""
    path = environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text if text.endswith("\n") else text + "\n")


@dataclass(frozen=True)
class Api:
    """Where and as whom to call the REST API (GITHUB_API_URL, GITHUB_REPOSITORY, the token)."""

    url: str
    repository: str
    token: str

    @classmethod
    def from_environ(cls, environ: dict[str, str]) -> Api | None:
        """None when the token or the repository is missing (then no comment is attempted)."""
        token = environ.get("GITHUB_TOKEN", "")
        repo = environ.get("GITHUB_REPOSITORY", "")
        if not token or not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo):
            return None
        url = environ.get("GITHUB_API_URL") or "https://api.github.com"
        return cls(url.rstrip("/"), repo, token)


def upsert_comment(api: Api, number: int, marker: str, body: str) -> tuple[str, str]:
    """Edit the comment of `number` that holds `marker`, or post one; ("updated" or "created",
    its html_url). Network and HTTP errors become `CommentError`."""
    import httpx  # lazy: only a run that comments needs it

    headers = {
        "Authorization": f"Bearer {api.token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": f"catalogaudit/{__version__}",
    }
    base = f"{api.url}/repos/{api.repository}/issues"
    try:
        with httpx.Client(headers=headers, timeout=30.0, follow_redirects=False) as client:
            found = _find(client, f"{base}/{number}/comments", marker)
            if found is not None:
                r = client.patch(f"{base}/comments/{found}", json={"body": body})
                action = "updated"
            else:
                r = client.post(f"{base}/{number}/comments", json={"body": body})
                action = "created"
            _check(r, f"{action.removesuffix('d')} the comment")
            return action, str(r.json().get("html_url", ""))
    except httpx.HTTPError as exc:
        raise CommentError(f"{type(exc).__name__} talking to {api.url}") from None
    except ValueError:
        raise CommentError(f"{api.url} answered something that is not JSON") from None


def _find(client: Any, url: str, marker: str) -> int | None:
    for page in range(1, MAX_PAGES + 1):
        r = client.get(url, params={"per_page": PER_PAGE, "page": page})
        _check(r, "list the comments")
        comments = r.json()
        if not isinstance(comments, list):
            raise CommentError("listing the comments did not return a list")
        for c in comments:
            if isinstance(c, dict) and marker in str(c.get("body", "")):
                return int(c["id"])
        if len(comments) < PER_PAGE:
            return None
    return None


def _check(response: Any, what: str) -> None:
    if response.status_code >= 400:
        # NOTE: the body is GitHub's message, never our request: it cannot hold the token.
        try:
            message = str(response.json().get("message", ""))[:200]
        except ValueError:
            message = ""
        detail = f": {message}" if message else ""
        raise CommentError(f"could not {what} (HTTP {response.status_code}{detail})")


def token_from(environ: dict[str, str]) -> dict[str, str]:
    """The environment with the token also taken from INPUT_GITHUB-TOKEN (how a composite
    action's input may arrive), so the verb reads one name."""
    env = dict(environ)
    if not env.get("GITHUB_TOKEN") and env.get("INPUT_GITHUB-TOKEN"):
        env["GITHUB_TOKEN"] = env["INPUT_GITHUB-TOKEN"]
    return env


def environ() -> dict[str, str]:
    """A copy of the process environment (the verb reads it once)."""
    return token_from(dict(os.environ))
