"""`server.json` lint: the MCP registry's published schema (vendored in `spec/registry/` with
its licence and source) and the official registry's own requirements on top of it.

CA940 is the schema. CA941 is what the official registry refuses at publish time though the
schema allows it (version ranges, package registries other than the trusted public ones,
publisher metadata over 4 KiB); CA942 what it silently drops or what the schema asks for
without requiring it (`_meta` keys other than the publisher-provided one, `runtimeArguments`
without a `runtimeHint`). Sources: the schema's own descriptions, and
docs/reference/server-json/official-registry-requirements.md of the registry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from catalogaudit.model import RuleMeta, Severity, plain, pointer_of, validator

#: The vendored schema's date (its `$id` is .../schemas/DATE/server.schema.json).
SCHEMA_DATE = "2025-09-29"
_REQUIREMENTS = (
    "https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/server-json/"
    "official-registry-requirements.md"
)
#: `_meta` key the official registry keeps (the others are dropped), and its size cap.
PUBLISHER = "io.modelcontextprotocol.registry/publisher-provided"
PUBLISHER_MAX = 4096
#: registryType -> the registry base URLs the official registry accepts.
BASE_URLS = {
    "npm": ("https://registry.npmjs.org",),
    "pypi": ("https://pypi.org",),
    "nuget": ("https://api.nuget.org/v3/index.json", "https://api.nuget.org"),
}
_OCI_HOSTS = re.compile(
    r"^(docker\.io|ghcr\.io|mcr\.microsoft\.com|[a-z0-9-]+\.pkg\.dev|[a-z0-9-]+\.azurecr\.io)$"
)
#: Version ranges the registry refuses: ^1.2.3, ~1.2.3, >=1.2.3, 1.x, 1.*, 1 - 2, a || b.
_RANGE = re.compile(r"^\s*[\^~<>=]|(^|\.)[xX*](\.|$)|\s-\s|\|\|")

SERVER_JSON_RULES: dict[str, RuleMeta] = {
    meta.id: meta
    for meta in (
        RuleMeta(
            "CA940",
            "server-json.schema",
            Severity.ERROR,
            "server.json validates against the MCP registry's published schema",
            "The registry refuses a server.json its schema does not accept, and clients that "
            "install from the registry (VS Code's gallery, MCP Inspector, registry "
            "aggregators) read the same fields: a missing version, a package without its "
            "transport, a name that is not reverse-DNS.",
            "Fix the field the message names (`$schema` should name the schema you follow).",
            f"https://static.modelcontextprotocol.io/schemas/{SCHEMA_DATE}/server.schema.json",
        ),
        RuleMeta(
            "CA941",
            "server-json.registry-refuses",
            Severity.ERROR,
            "Nothing the official registry refuses though the schema allows it",
            "registry.modelcontextprotocol.io refuses version ranges (^1.2.3, ~1.2.3, "
            ">=1.2.3, 1.x, 1.*) for the server and its packages, packages from registries "
            "other than npmjs.org, pypi.org, nuget.org, the trusted OCI registries (docker.io, "
            "ghcr.io, *.pkg.dev, *.azurecr.io, mcr.microsoft.com) and GitHub or GitLab "
            "releases for MCPB, and publisher-provided metadata over 4 KiB of JSON.",
            "Pin exact versions, publish the package to a trusted public registry, and keep "
            "publisher metadata small.",
            _REQUIREMENTS,
        ),
        RuleMeta(
            "CA942",
            "server-json.conventions",
            Severity.WARNING,
            "No metadata the registry drops, and a runtimeHint beside runtimeArguments",
            "The official registry keeps only `_meta` under "
            f"`{PUBLISHER}` (other keys are silently dropped), and the schema asks for a "
            "`runtimeHint` wherever `runtimeArguments` are given, since clients cannot tell "
            "which runtime the arguments are for otherwise.",
            "Move custom metadata under the publisher-provided key; add the runtimeHint.",
            _REQUIREMENTS,
        ),
    )
}


@dataclass(frozen=True)
class Lint:
    """One problem of a server.json: its rule, where (a JSON Pointer) and what."""

    rule_id: str
    pointer: str
    message: str
    excerpt: str = ""


@cache
def schema() -> dict[str, Any]:
    """The vendored registry schema."""
    path = resources.files("catalogaudit.rules.spec").joinpath(
        f"registry/{SCHEMA_DATE}.server.schema.json"
    )
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def lint(doc: Any) -> list[Lint]:
    """Every problem of one server.json document (a parsed JSON value), by pointer."""
    out = list(_schema(doc))
    if isinstance(doc, dict):
        out.extend(_registry(doc))
    return sorted(out, key=lambda x: (x.pointer, x.rule_id, x.message))


def _schema(doc: Any) -> Iterator[Lint]:
    value = plain(doc)
    if validator(schema()).is_valid(value):
        return
    import jsonschema  # lazy: heavy; it words the errors jsonschema-rs found

    checker = jsonschema.Draft7Validator(schema())
    for err in checker.iter_errors(value):
        best = jsonschema.exceptions.best_match(err.context) if err.context else err
        if best is None:
            best = err
        where = pointer_of(list(best.absolute_path))
        yield Lint(
            "CA940", where, f"{best.message} (registry schema {SCHEMA_DATE}, at {where or '/'})"
        )


def _registry(doc: dict[str, Any]) -> Iterator[Lint]:
    version = doc.get("version")
    if isinstance(version, str) and _RANGE.search(version):
        yield Lint("CA941", "/version", f"version {version!r} is a range: pin one version", version)
    meta = doc.get("_meta")
    if isinstance(meta, dict):
        for key in meta:
            if key != PUBLISHER:
                where = pointer_of(["_meta", key])
                yield Lint("CA942", where, f"_meta key {key!r} is dropped by the registry", key)
        provided = meta.get(PUBLISHER)
        if provided is not None:
            size = len(json.dumps(provided, separators=(",", ":")).encode())
            if size > PUBLISHER_MAX:
                yield Lint(
                    "CA941",
                    pointer_of(["_meta", PUBLISHER]),
                    f"publisher-provided metadata is {size} bytes of JSON, over {PUBLISHER_MAX}",
                )
    for i, pkg in enumerate(doc.get("packages") or []):
        if isinstance(pkg, dict):
            yield from _package(pkg, f"/packages/{i}")


def _package(pkg: dict[str, Any], at: str) -> Iterator[Lint]:
    kind, ident = pkg.get("registryType"), pkg.get("identifier")
    version = pkg.get("version")
    if isinstance(version, str) and _RANGE.search(version):
        yield Lint("CA941", f"{at}/version", f"package version {version!r} is a range", version)
    base = pkg.get("registryBaseUrl")
    if kind in BASE_URLS and isinstance(base, str) and base.rstrip("/") not in BASE_URLS[kind]:
        yield Lint(
            "CA941",
            f"{at}/registryBaseUrl",
            f"{kind} packages come from {BASE_URLS[kind][0]} only, not {base!r}",
            base,
        )
    if kind == "oci" and isinstance(ident, str):
        first = ident.split("/", 1)[0] if "/" in ident else ""
        host = first if ("." in first or ":" in first or first == "localhost") else "docker.io"
        if not _OCI_HOSTS.match(host):
            yield Lint(
                "CA941",
                f"{at}/identifier",
                f"image registry {host!r} is not one the registry trusts",
                ident,
            )
    if kind == "mcpb" and isinstance(ident, str):
        if not ident.startswith(("https://github.com/", "https://gitlab.com/")):
            yield Lint(
                "CA941",
                f"{at}/identifier",
                "MCPB packages are GitHub or GitLab release assets only",
                ident,
            )
    if pkg.get("runtimeArguments") and not pkg.get("runtimeHint"):
        yield Lint(
            "CA942",
            f"{at}/runtimeArguments",
            "runtimeArguments without a runtimeHint: which runtime are they for?",
        )


__all__ = ["SCHEMA_DATE", "SERVER_JSON_RULES", "Lint", "lint", "schema"]
