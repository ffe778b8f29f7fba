"""ContextForge verdicts measured on seven PyPI releases (2026-11-30 and, for 1.0.7.post20260921
and cf-pagination, 2026-12-01, `catalogaudit verify`).

Shared by the oracle test (the real releases must still do this) and the plain tests (the
context-forge profile must predict this without any release installed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

from catalogaudit.intake import read_merged
from catalogaudit.model.catalog import Catalog
from catalogaudit.verify.base import Target
from catalogaudit.verify.drivers.context_forge_install import ORACLE
from helpers import FIXTURES

SCENARIOS_DIR = FIXTURES / "oracle-cf"
SCENARIOS = sorted(p.name for p in SCENARIOS_DIR.iterdir() if p.is_dir())
RELEASES = ORACLE  # 0.6.0 0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921
ALL = " ".join(RELEASES)
#: A listing's measured verdict: "failed", or the identities the release dropped (list kept).
Verdict = Union[str, tuple[str, ...]]  # noqa: UP007 - the test suite also runs on 3.10
#: scenario -> space-separated releases -> listing -> verdict, as measured on 2026-11-30.
MEASURED: dict[str, dict[str, dict[str, Verdict]]] = {
    "cf-all-tools-fail": {
        "0.6.0": {"tools": ()},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": "failed"},
    },
    "cf-array-schema": {ALL: {"tools": ()}},
    "cf-depth": {
        "0.6.0": {"tools": "failed"},
        "0.9.0": {"tools": ("depth11", "depth31")},
        "1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": ("depth31",)},
    },
    "cf-depth-boundary": {
        "0.6.0": {"tools": "failed"},
        "0.9.0": {"tools": ("depth29",)},
        "1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": ()},
    },
    "cf-desc-forbidden": {
        "0.6.0": {"tools": ()},
        "0.9.0 1.0.0b2": {
            "tools": ("semicolon", "backtick", "pipe", "and", "or", "dollar", "gt", "lt")
        },
        "1.0.0rc1": {"tools": ("semicolon", "pipe", "and", "or", "dollar", "gt", "lt")},
        "1.0.0": {"tools": ("and", "or", "dollar", "gt", "lt")},
        "1.0.7 1.0.7.post20260921": {"tools": ("and", "or", "dollar")},
    },
    "cf-desc-length-prompt": {
        "0.6.0": {"tools": (), "prompts": ("p_long", "p3")},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": (), "prompts": ()},
    },
    "cf-desc-length-tool": {
        # 4096 rejects (and fails the gateway); from 0.7.0 8192 truncates, which keeps the tool.
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": ()},
    },
    "cf-empty-capabilities": {ALL: {"tools": (), "resources": "failed", "prompts": "failed"}},
    "cf-html-resource": {ALL: {"tools": (), "resources": ("file:///b", "file:///c")}},
    "cf-html-tool": {
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": ("script",)},
    },
    "cf-mime": {
        "0.6.0": {"tools": (), "resources": ()},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {
            "tools": (),
            "resources": ("file:///b.csv", "file:///c.txt"),
        },
    },
    "cf-name-dot": {ALL: {"tools": ()}},
    "cf-name-length": {
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0": {"tools": ("u" * 256,)},
        "1.0.7 1.0.7.post20260921": {"tools": ("t" * 200, "u" * 256)},
    },
    "cf-name-qualified-128": {
        "0.6.0 0.9.0 1.0.0b2 1.0.0rc1 1.0.0": {"tools": ()},
        "1.0.7 1.0.7.post20260921": {"tools": "failed"},
    },
    "cf-name-qualified-255": {
        "0.6.0 0.9.0 1.0.0b2 1.0.0rc1 1.0.0": {"tools": "failed"},
        "1.0.7 1.0.7.post20260921": {"tools": ("q" * 254,)},
    },
    "cf-name-rules": {
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2": {"tools": ("1tool", "_tool", "a/b", "a:b")},
        "1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": ("a:b",)},
    },
    # Up to 1.0.7 discovery calls each list method once; 1.0.7.post20260921 follows nextCursor.
    "cf-pagination": {
        "0.6.0 0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {
            "tools": ("third",),
            "prompts": ("p2", "p3"),
            "resources": ("file:///b",),
        },
        "1.0.7.post20260921": {"tools": (), "prompts": (), "resources": ()},
    },
    "cf-prompt-colon": {ALL: {"tools": (), "prompts": ("git:commit", "p3")}},
    "cf-schema-meta": {
        "0.6.0 0.9.0 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {"tools": "failed"},
        "1.0.0b2": {"tools": ()},
    },
    # Measured 2026-12-07: 1.0.0b2, which only logs a meta-schema error, fails too (the dialect
    # lookup raises on a $schema that is not a string).
    "cf-schema-not-string": {ALL: {"tools": "failed"}},
    # The MCP SDK each release bundles (mcp 1.13.1 to 1.29.0) validates the whole list result.
    "cf-sdk-no-input-schema": {ALL: {"tools": "failed"}},
    "cf-sdk-priority": {ALL: {"tools": (), "resources": "failed"}},
    "cf-sdk-priority-lexemes": {ALL: {"tools": (), "resources": ()}},
    "cf-sdk-resource-no-uri": {ALL: {"tools": (), "resources": "failed"}},
    "cf-template-plus": {
        # 0.6.0 never asks for resources/templates/list: the listing is not observed there.
        "0.6.0": {"tools": (), "resources": ()},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7 1.0.7.post20260921": {
            "tools": (),
            "resources": (),
            "resourceTemplates": ("file:///{+path}", "file:///docs/{id}"),
        },
    },
    "cf-title-length": {
        "0.6.0 0.9.0 1.0.0b2 1.0.0rc1": {"tools": (), "prompts": (), "resources": ()},
        # A resource is retried as a minimal object without its title, so it is kept.
        "1.0.0 1.0.7 1.0.7.post20260921": {
            "tools": ("titled",),
            "prompts": ("p_title", "p3"),
            "resources": (),
        },
    },
    "cf-uri-dotdot": {ALL: {"tools": (), "resources": ("note:a/../b", "file:///c")}},
    "cf-zero-tools": {ALL: {"tools": (), "resources": ()}},
}
#: What a failed list's message must quote (ContextForge's own words).
QUOTES: dict[tuple[str, str], str] = {
    ("cf-all-tools-fail", "1.0.7"): "All 2 tools failed validation",
    ("cf-depth", "0.6.0"): "JSON structure exceeds maximum depth of 10",
    ("cf-desc-length-tool", "0.6.0"): "Description exceeds maximum length of 4096",
    ("cf-name-qualified-128", "1.0.7"): "Tool name exceeds MCP spec limit of 128 characters",
    ("cf-name-qualified-255", "1.0.0"): "Tool name exceeds maximum length of 255",
    ("cf-name-rules", "0.6.0"): "Tool name must start with a letter",
    ("cf-schema-meta", "1.0.7"): "Invalid tool input schema",
    ("cf-schema-not-string", "1.0.0b2"): "'bool' object has no attribute 'decode'",
    ("cf-sdk-no-input-schema", "0.6.0"): "ListToolsResult / tools.1.inputSchema / Field required",
    ("cf-sdk-priority", "1.0.7"): "resources.1.annotations.priority",
    ("cf-sdk-resource-no-uri", "0.9.0"): "resources.1.uri / Field required",
}


#: What a dropped item's message must quote: the release's own reason for that item.
ITEM_QUOTES: dict[tuple[str, str, str], str] = {
    ("cf-desc-forbidden", "0.9.0", "semicolon"): "Description contains unsafe characters: ';'",
    ("cf-desc-forbidden", "1.0.7", "dollar"): "Description contains unsafe characters: '$('",
    ("cf-mime", "1.0.7", "file:///b.csv"): "MIME type 'text/csv' is not in the allowed list",
    ("cf-prompt-colon", "1.0.0", "git:commit"): "Prompt name can only contain letters",
    ("cf-uri-dotdot", "0.6.0", "note:a/../b"): "cannot contain directory traversal",
}


def measured(scenario: str, release: str) -> dict[str, Verdict]:
    """The measured verdict of every listing of a scenario on a release."""
    for releases, verdicts in MEASURED[scenario].items():
        if release in releases.split():
            return verdicts
    raise AssertionError(f"MEASURED[{scenario!r}] has no entry for {release}")


def inputs(name: str, base: Path) -> list[Path]:
    """A scenario's raw list results; ContextForge always lists tools, so a scenario without
    tools.json also serves an empty tool list."""
    found = sorted((SCENARIOS_DIR / name).glob("*.json"))
    if not any(p.name == "tools.json" for p in found):
        filler = base / "empty-tools.txt"
        filler.write_text('{"tools": []}\n', encoding="utf-8")
        found.append(filler)
    return found


def target(name: str, base: Path) -> Target:
    """A scenario as a verify target, built in-process the way `snapshot --from` builds it."""
    paths = inputs(name, base)
    doc = read_merged([str(p) for p in paths]).doc
    return Target(name, base / f"{name}.json", Catalog(doc, source=name))
