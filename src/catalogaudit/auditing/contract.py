"""Contract assertions (`--expect-tool`, `--forbid-tool`, `--min-tools` and the same for
prompts, resources and templates): what a catalog must and must not list, as findings.

A server can boot, answer every list call and register nothing (mcpconform's `--min-tools`
case), or lose the tools an allowlist relies on in an upgrade; neither breaks the spec, so
only the user can say it is wrong. A failed assertion is an error finding with a rule id of
its own (CA910-CA912), so it is selected, baselined, formatted and gated like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from catalogaudit.model import LISTINGS, Finding, Location, RuleMeta, dump_string
from catalogaudit.rules import CONTRACT_RULES

if TYPE_CHECKING:  # NOTE: a live snapshot resolves its contract before the server starts
    from catalogaudit.model import Catalog, Item

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


def ruled(meta: RuleMeta, location: Location, **fields: Any) -> Finding:
    """A finding of the rule `meta` describes: its id, hint, source and (unless `fields` say
    otherwise) severity."""
    fields.setdefault("severity", meta.severity)
    return Finding(meta.id, hint=meta.hint, source=meta.source, location=location, **fields)


def check(catalog: Catalog, contract: Contract) -> list[Finding]:
    """The findings of every assertion that fails on `catalog` (none when all hold)."""
    out: list[Finding] = []
    for listing in LISTINGS:
        word, items = WORDS[listing], catalog.items(listing)
        names = {i.identity for i in items}
        status = str(catalog.listing(listing).get("status", "absent"))
        state = "" if status in ("complete", "ok") else f" (the listing is {status})"
        #: (rule id, the assertion as the user wrote it, what fails, the item that does)
        failed: list[tuple[str, str, str, str | None, Item | None]] = []
        for name in contract.expect.get(listing, ()):
            if name not in names:
                said = contract.spelled(f"expect-{word}", name)
                what = f"no {word} {dump_string(name)} is listed{state}"
                failed.append(("CA910", said, what, name, None))
        for pattern in contract.forbid.get(listing, ()):
            said = contract.spelled(f"forbid-{word}", pattern)
            failed.extend(
                ("CA911", said, f"{item.label} is listed", item.identity, item)
                for item in items
                if item.identity is not None and fnmatchcase(item.identity, pattern)
            )
        least, n = contract.minimum.get(listing), len(items)
        if least is not None and n < least:
            said = contract.spelled(f"min-{word}s", least)
            what = f"{n} {word}{'' if n == 1 else 's'} listed, fewer than {least}{state}"
            failed.append(("CA912", said, what, None, None))
        whole = f"/listings/{listing}"
        out.extend(
            ruled(
                CONTRACT_RULES[rule_id],
                catalog.location(item) if item is not None else catalog.location(None, whole),
                message=f"{said}: {what}",
                kind=listing,
                identity=identity,
                excerpt=said,
                profile="contract",
            )
            for rule_id, said, what, identity, item in failed
        )
    return out
