"""Contract assertions (`--expect-tool`, `--forbid-tool`, `--min-tools` and the same for
prompts, resources and templates): what a catalog must and must not list, as findings.

A server can boot, answer every list call and register nothing (mcpconform's `--min-tools`
case), or lose the tools an allowlist relies on in an upgrade; neither breaks the spec, so
only the user can say it is wrong. A failed assertion is an error finding with a rule id of
its own (CA910-CA912), so it is selected, baselined, formatted and gated like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from catalogaudit.model import LISTINGS, Finding, dump_string
from catalogaudit.rules import CONTRACT_RULES

if TYPE_CHECKING:  # NOTE: a live snapshot resolves its contract before the server starts
    from catalogaudit.model import Catalog

#: The word each listing has in option and config names (`--expect-tool`, `min-templates`).
WORDS: Mapping[str, str] = {
    "tools": "tool",
    "prompts": "prompt",
    "resources": "resource",
    "resourceTemplates": "template",
}


@dataclass(frozen=True)
class Contract:
    """Per listing: names that must be listed, globs that must not match, a minimum count.

    `origin` says where the assertions came from (`--` for the command line, `config ` for the
    configuration file), so a finding names the assertion the way the user wrote it.
    """

    expect: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    forbid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    minimum: Mapping[str, int] = field(default_factory=dict)
    origin: Mapping[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return any(self.expect.values()) or any(self.forbid.values()) or bool(self.minimum)

    def spelled(self, key: str, value: object) -> str:
        """`--min-tools 1` or `config min-tools = 1`: the assertion as the user wrote it."""
        where = self.origin.get(key, "--")
        if where == "--":
            return f"--{key} {value}"
        return f"config {key} = {dump_string(str(value))}"


def check(catalog: Catalog, contract: Contract) -> list[Finding]:
    """The findings of every assertion that fails on `catalog` (none when all hold)."""
    out: list[Finding] = []
    for listing in LISTINGS:
        word = WORDS[listing]
        items = catalog.items(listing)
        names = [i.identity for i in items if i.identity is not None]
        status = str(catalog.listing(listing).get("status", "absent"))
        state = "" if status in ("complete", "ok") else f" (the listing is {status})"
        for name in contract.expect.get(listing, ()):
            if name in names:
                continue
            said = contract.spelled(f"expect-{word}", name)
            out.append(
                _finding(
                    "CA910",
                    catalog,
                    listing,
                    name,
                    f"{said}: no {word} {dump_string(name)} is listed{state}",
                    said,
                )
            )
        for pattern in contract.forbid.get(listing, ()):
            said = contract.spelled(f"forbid-{word}", pattern)
            for item in items:
                if item.identity is None or not fnmatchcase(item.identity, pattern):
                    continue
                message = f"{said}: {item.label} is listed"
                f = _finding("CA911", catalog, listing, item.identity, message, said)
                out.append(replace(f, location=catalog.location(item)))
        least = contract.minimum.get(listing)
        if least is not None and len(items) < least:
            key = f"min-{word}s"
            said = contract.spelled(key, least)
            out.append(
                _finding(
                    "CA912",
                    catalog,
                    listing,
                    None,
                    f"{said}: {len(items)} {word}{'' if len(items) == 1 else 's'} listed, "
                    f"fewer than {least}{state}",
                    said,
                )
            )
    return out


def _finding(
    rule_id: str,
    catalog: Catalog,
    listing: str,
    identity: str | None,
    message: str,
    excerpt: str,
) -> Finding:
    meta = CONTRACT_RULES[rule_id]
    return Finding(
        rule_id=rule_id,
        severity=meta.severity,
        message=message,
        kind=listing,
        identity=identity,
        excerpt=excerpt,
        hint=meta.hint,
        source=meta.source,
        profile="contract",
        location=catalog.location(None, f"/listings/{listing}"),
    )
