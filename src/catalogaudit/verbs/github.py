"""GitHub Actions' side of `catalogaudit ci`: the event payload, the merge base, the step's
output and summary files. (The pull-request comment is `verbs/restapi.py`.)

The event payload and the outputs are untrusted in both directions: the payload is read with a
size bound and its fields type-checked; an output value is written between a random heredoc
delimiter and refused when it holds a line break, so no value can add an output of its own.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
from typing import Any

from catalogaudit.errors import UsageError

#: The most an event payload may hold (GitHub caps webhook payloads at 25 MB).
MAX_EVENT = 25 * 1024 * 1024


def event(environ: dict[str, str]) -> dict[str, Any]:
    """The event payload GitHub wrote to GITHUB_EVENT_PATH ({} when there is none); its
    `pull_request`, when present, is an object (else the payload is refused: the baseline and
    the comment both come from it)."""
    path = environ.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    where = f"GITHUB_EVENT_PATH {path}"
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_EVENT + 1)
    except OSError as exc:
        raise UsageError(f"{where}: cannot read it ({exc.strerror})") from None
    if len(raw) > MAX_EVENT:
        raise UsageError(f"{where}: larger than {MAX_EVENT} bytes, not an event payload")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise UsageError(f"{where}: not a JSON event payload") from None
    if not isinstance(data, dict):
        raise UsageError(f"{where}: the event payload is not a JSON object")
    pr = data.get("pull_request")
    if pr is not None and not isinstance(pr, dict):
        raise UsageError(f"{where}: pull_request is a {type(pr).__name__}, not an object")
    base = pr.get("base") if pr else None
    if base is not None and not isinstance(base, dict):
        raise UsageError(f"{where}: pull_request.base is a {type(base).__name__}, not an object")
    return data


def pull_number(payload: dict[str, Any]) -> int | None:
    """The pull request's number (`pull_request` and `pull_request_target` events)."""
    number = (payload.get("pull_request") or {}).get("number")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 < number < 2**53:
        return None
    return number


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


def set_outputs(environ: dict[str, str], values: dict[str, str]) -> list[str]:
    """Append the outputs to GITHUB_OUTPUT, each as `name<<DELIMITER` lines with a random
    delimiter (GitHub's multiline form); a value holding a line break is not written. Returns
    the names refused."""
    path = environ.get("GITHUB_OUTPUT")
    refused = [k for k, v in values.items() if re.search(r"[\r\n\x00]", k + v)]
    if not path:
        return refused
    delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
    with open(path, "a", encoding="utf-8") as fh:
        for key, value in values.items():
            if key not in refused:
                fh.write(f"{key}<<{delimiter}\n{value}\n{delimiter}\n")
    return refused


def add_summary(environ: dict[str, str], text: str) -> None:
    """Append Markdown to GITHUB_STEP_SUMMARY (the job summary page)."""
    path = environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text if text.endswith("\n") else text + "\n")


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
