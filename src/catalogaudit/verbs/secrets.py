"""Secrets a live capture knows (`--env`, `--header`, URL credentials, `--secret`, secret-looking
argv words) and their masking wherever server text is written: the snapshot's findings (CA510
banners), `capture.server.command`, error lines (stderr tails, reflected 401 bodies).

Why: catalogaudit never writes a secret on its own, but a server that echoes one (`Using API key
...`) would have it printed, stored and shown in every report format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: What a masked secret is written as.
MASK = "***"
#: Shorter values are too common in ordinary text to mask (`--env DEBUG=1`); mark a short
#: secret with `--secret` anyway and it is masked whatever its length.
MIN_LENGTH = 4
#: Environment variable naming more variables (comma-separated) whose values are secrets.
SECRET_VARS_ENV = "CATALOGAUDIT_SECRET_VARS"

_SECRET_WORD = re.compile(
    r"(token|secret|passw(or)?d|pwd|api[-_]?key|apikey|auth|credential|bearer|private[-_]?key"
    r"|access[-_]?key|session[-_]?key|client[-_]?key|^key$|^-k$)",
    re.IGNORECASE,
)
# Shapes of well-known credentials (OpenAI/Anthropic, GitHub, GitLab, Slack, AWS, Google, JWT).
_SECRET_SHAPE = re.compile(
    r"^(sk-|sk_|rk_|pk_live_|ghp_|gho_|ghs_|ghu_|github_pat_|glpat-|xox[abpors]-|AKIA[0-9A-Z]{16}"
    r"|AIza[0-9A-Za-z_-]{20}|eyJ[0-9A-Za-z_-]{8,}\.)"
)
# A long run of token characters with letters and digits mixed: how random keys look.
_RANDOM = re.compile(r"^[A-Za-z0-9_\-+/=.]{32,}$")


def looks_secret(value: str) -> bool:
    """Does a bare argv word look like a credential (a known prefix, or long and random)?"""
    if _SECRET_SHAPE.match(value):
        return True
    if _RANDOM.match(value) and not value.startswith(("/", ".", "-")):
        return bool(re.search(r"[0-9]", value)) and bool(re.search(r"[A-Za-z]", value))
    return False


def argv_secrets(argv: Sequence[str]) -> list[str]:
    """Values in a server command line that are secrets: after `--token`, in `--api-key=X` or
    `API_KEY=X`, or shaped like a credential."""
    out: list[str] = []
    for i, word in enumerate(argv):
        name, sep, value = word.partition("=")
        if sep and _SECRET_WORD.search(name.lstrip("-")):
            out.append(value)
        elif word.startswith("-") and _SECRET_WORD.search(word.lstrip("-")) and i + 1 < len(argv):
            out.append(argv[i + 1])
        if looks_secret(word) or (sep and looks_secret(value)):
            out.append(value if sep and looks_secret(value) else word)
    return out


def url_secrets(url: str | None) -> list[str]:
    """User name, password and query values of `--url` (public_url drops them from records)."""
    if not url:
        return []
    import base64  # NOTE: lazy, as below: a stdio snapshot needs neither before its server starts
    from urllib.parse import parse_qsl, unquote, urlsplit

    try:
        parts = urlsplit(url)
        user, password = parts.username or "", parts.password or ""
    except ValueError:
        return []
    found = [user, password]
    if user or password:  # the HTTP client sends them as Basic credentials
        found.append(base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode())
    found.extend(v for _, v in parse_qsl(parts.query))
    return found


def header_secrets(headers: Mapping[str, str]) -> list[str]:
    """Every header value, and its credential without the scheme (`Bearer X` gives X too)."""
    out: list[str] = []
    for value in headers.values():
        out.append(value)
        scheme, _, credential = value.partition(" ")
        if credential and scheme.isalpha():
            out.append(credential.strip())
    return out


def env_secrets(environ: Mapping[str, str]) -> list[str]:
    """Values of the variables `CATALOGAUDIT_SECRET_VARS` names (marked: masked at any length)."""
    names = [n.strip() for n in environ.get(SECRET_VARS_ENV, "").split(",")]
    return [environ[n] for n in names if n and n in environ]


class Masker:
    """Replaces every known secret in text with `***` (longest first, so no half is left)."""

    def __init__(self, secrets: Iterable[str], marked: Iterable[str] = ()) -> None:
        kept = {s for s in secrets if len(s) >= MIN_LENGTH}
        kept.update(s for s in marked if s)
        self._secrets = sorted(kept, key=lambda s: (-len(s), s))
        self._pattern = (
            re.compile("|".join(re.escape(s) for s in self._secrets)) if self._secrets else None
        )

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, value: str) -> str:
        """`value` with every secret masked."""
        return value if self._pattern is None else self._pattern.sub(MASK, value)

    def data(self, value: Any) -> Any:
        """A JSON value with every string (keys too) masked."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.data(v) for v in value]
        if isinstance(value, dict):
            return {self.data(k): self.data(v) for k, v in value.items()}
        return value

    def document(self, doc: dict[str, Any]) -> dict[str, Any]:
        """A snapshot document with its findings and recorded server command masked (the
        listings and wire pages stay as served: they are the catalog, and they are hashed)."""
        if self._pattern is None:
            return doc
        doc["findings"] = self.data(doc.get("findings", []))
        server = doc.get("capture", {}).get("server")
        if isinstance(server, dict) and "command" in server:
            server["command"] = self.data(server["command"])
        return doc


def masker_for(
    argv: Sequence[str],
    env: Mapping[str, str],
    headers: Mapping[str, str],
    url: str | None,
    marked: Sequence[str] = (),
) -> Masker:
    """The masker of one live capture."""
    found = [
        *env.values(),
        *header_secrets(headers),
        *url_secrets(url),
        *argv_secrets(argv),
    ]
    return Masker(found, [*marked, *env_secrets(os.environ)])


__all__ = ["MASK", "SECRET_VARS_ENV", "Masker", "argv_secrets", "looks_secret", "masker_for"]
