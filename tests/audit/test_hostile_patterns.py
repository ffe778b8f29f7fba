"""Server patterns Python's `re` or the validators refuse, at every place a schema holds one,
never end a rule or a verb in an error: each verb that reads schemas answers (exit 0 or 1, no
rule error, no traceback), and a pattern `re.compile` refuses is a finding, not a crash.

The catalog is built systematically: every hostile pattern (each way `re.compile` refuses one,
besides `re.error`: OverflowError, ValueError, RecursionError; patterns only ECMA-262 reads;
huge repeat counts; a lone surrogate; values that are no string) at every pattern position
(`pattern`, a `patternProperties` name, `propertyNames.pattern`, and a `format: regex` value)
under `properties`, `items`, `$defs` and `anyOf`, each alone and all four nested, in both
schemas of a tool, and in prompts' and resource templates' fields. python-jsonschema's own
"regex" checker lets the first three escape (its issues 1526, 1538 and 1558)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import cli

from catalogaudit.profiles import load_all
from catalogaudit.serve.calls import tool_result
from catalogaudit.serve.instances import generate

#: One of each kind of pattern a validator or `re.compile` may refuse, by name.
HOSTILE: dict[str, Any] = {
    "overflow": "a{99999999999}",  # OverflowError in re
    "flags": "(?u)(?a)x",  # ValueError in re
    "nesting": "(" * 3000 + ")" * 3000,  # RecursionError in re
    "ecma-property": "\\p{L}+",  # ECMA-262 only
    "ecma-named": "(?<year>\\d{4})",  # ECMA-262 only
    "lookbehind": "(?<=a+)b",  # variable-width lookbehind: ECMA-262 only
    "max-repeat": "a{4294967295}",  # re's MAXREPEAT: re.error
    "big-repeat": "(a{1000}){1000}",  # re compiles it, jsonschema-rs refuses its size
    "surrogate": "\ud800x",  # no UTF-8 for jsonschema-rs
    "unclosed": "([",  # refused by both
    "number": 42,
    "null": None,
    "array": ["a"],
}

#: Where a schema holds a pattern (the keyword's schema, given the pattern).
POSITIONS = {
    "pattern": lambda p: {"type": "string", "pattern": p},
    "patternProperties": lambda p: {
        "type": "object",
        "patternProperties": {p: {"type": "string"}} if isinstance(p, str) else p,
    },
    "propertyNames": lambda p: {"type": "object", "propertyNames": {"pattern": p}},
    "format": lambda p: {"type": "string", "format": "regex", "default": p, "examples": [p]},
}

#: How a subschema is placed one level down.
WRAPS = {
    "properties": lambda s: {"type": "object", "properties": {"x": s}},
    "items": lambda s: {"type": "array", "items": s},
    "$defs": lambda s: {"$defs": {"d": s}, "$ref": "#/$defs/d"},
    "anyOf": lambda s: {"anyOf": [s, {"type": "null"}]},
}

#: Chains of wrappers from an object root: none, each wrapper one level below a property,
#: and all four at once.
CHAINS: list[tuple[str, ...]] = [
    (),
    *(("properties", wrap) for wrap in WRAPS),
    ("properties", "anyOf", "$defs", "items", "properties"),
]


def _schema(position: str, pattern: Any, chain: tuple[str, ...]) -> dict[str, Any]:
    schema = POSITIONS[position](pattern)
    for wrap in reversed(chain):
        schema = WRAPS[wrap](schema)
    return schema if chain else {"type": "object", "properties": {"x": schema}}


def _cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(hostile pattern's name, position, tool) for every pattern, position and chain."""
    cases = []
    for (kind, pattern), position, chain in itertools.product(HOSTILE.items(), POSITIONS, CHAINS):
        schema = _schema(position, pattern, chain)
        name = f"{kind}.{position}.{'.'.join(chain) or 'top'}".replace("$", "")
        cases.append(
            (kind, position, {"name": name, "inputSchema": schema, "outputSchema": schema})
        )
    return cases


def _tools() -> list[dict[str, Any]]:
    return [tool for _, _, tool in _cases()]


def _texts() -> list[str]:
    return [p for p in HOSTILE.values() if isinstance(p, str)]


def _refused(pattern: Any) -> bool:
    """Whether Python's `re` refuses `pattern` (the reference "regex" format), in any way."""
    try:
        re.compile(pattern)
    except (re.error, OverflowError, ValueError, RecursionError, TypeError):
        return True
    return False


#: Tools whose schemas hold a pattern Python's `re` refuses (a `format: regex` value is no
#: pattern of the schema's own: nothing asserts it).
REFUSED = {
    tool["name"]
    for kind, position, tool in _cases()
    if position != "format" and _refused(HOSTILE[kind])
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The hostile catalog as a snapshot (`snapshot --from` its three listings), and a benign
    one with the same tool names to diff against."""
    at = tmp_path_factory.mktemp("hostile")
    listings = {
        "tools": _tools(),
        "prompts": [
            {"name": f"p{i}", "description": p, "arguments": [{"name": p, "description": p}]}
            for i, p in enumerate(_texts())
        ],
        "resourceTemplates": [
            {"name": f"r{i}", "uriTemplate": "file:///{x}/" + p, "description": p}
            for i, p in enumerate(_texts())
        ],
    }
    froms: list[str] = []
    for name, items in listings.items():
        (at / f"{name}.json").write_text(json.dumps({name: items}))
        froms += ["--from", str(at / f"{name}.json")]
    snap = at / "hostile.snapshot.json"
    _answered("snapshot", *froms, "--output", snap)
    benign = [{"name": t["name"], "inputSchema": _schema("pattern", "^a$", ())} for t in _tools()]
    (at / "benign.json").write_text(json.dumps({"tools": benign}))
    return {"snapshot": snap, "tools": at / "tools.json", "benign": at / "benign.json"}


def _answered(*args: str | Path) -> Any:
    """Run a verb; it must answer (exit 0 or 1) without a traceback or a rule error. Its JSON
    report, if it wrote one."""
    done = cli(*args)
    assert done.code in (0, 1), done
    assert "Traceback" not in done.stderr, done
    assert "crashed" not in done.stderr, done
    if not done.stdout.startswith("{"):
        return None
    report = done.json()
    assert report.get("ruleErrors", []) == [], report["ruleErrors"]
    return report


def _flagged(report: dict[str, Any], rule: str, field: str = "inputSchema") -> set[str]:
    """The tools `rule` flags in their `field`."""
    return {
        f["identity"]
        for f in report["findings"]
        if f["ruleId"] == rule and f["pointer"].startswith(f"/{field}/")
    }


def test_ca403_reports_each_refused_pattern_at_every_place(files: dict[str, Path]) -> None:
    for source in (files["snapshot"], files["tools"]):
        report = _answered("audit", "--format", "json", source)
        assert _flagged(report, "CA403") >= REFUSED
        assert _flagged(report, "CA403", "outputSchema") >= REFUSED


def test_each_profile_is_the_verdict_of_its_own_run_in_the_matrix(files: dict[str, Path]) -> None:
    """Every profile answers at its newest version, every rule of it (a rule error would be
    a matrix row missing that rule's findings, silently), and the matrix says the same."""
    rows = _answered("audit", "--format", "json", "--matrix", files["snapshot"])["matrix"]
    for row in rows:
        if row["profile"] == "spec":
            continue
        report = _answered(
            "audit", "--format", "json", "--profile", row["profile"], files["snapshot"]
        )
        mine = [f for f in report["findings"] if not f["ruleId"].startswith("CA")]
        counts = {s: sum(f["severity"] == s for f in mine) for s in ("error", "warning", "info")}
        assert counts == {"error": row["errors"], "warning": row["warnings"], "info": row["infos"]}
    assert len(rows) == len(load_all()) + 1


@pytest.mark.parametrize(
    "spec",
    [f"{pid}@{p.versions[0].version}" for pid, p in sorted(load_all().items()) if p.versions],
)
def test_each_profile_answers_at_its_oldest_version(files: dict[str, Path], spec: str) -> None:
    _answered("audit", "--format", "json", "--profile", spec, files["snapshot"])


def test_context_forge_refuses_each_pattern_python_refuses(files: dict[str, Path]) -> None:
    """ContextForge checks a tool's inputSchema with python-jsonschema and its "regex"
    format (CF-SCHEMA-002): each refused pattern is its finding, not its crash."""
    report = _answered("audit", "--format", "json", "--profile", "context-forge", files["snapshot"])
    assert _flagged(report, "CF-SCHEMA-002") == REFUSED


@pytest.mark.parametrize(
    "verb",
    [
        ("diff", "{benign}", "{snapshot}"),
        ("diff", "{snapshot}", "{benign}"),
        ("diff", "{snapshot}", "{snapshot}"),
        ("stability", "{snapshot}", "{snapshot}"),
        ("canonicalize", "{snapshot}"),
        ("audit", "--suggest", "--profile", "context-forge", "--profile", "codex", "{snapshot}"),
        ("hash", "--client", "all", "{snapshot}"),
        ("rewrite", "--fix", "codex-app", "--fix", "cache-hints", "{snapshot}"),
    ],
    ids=lambda v: " ".join(v).replace("{", "").replace("}", ""),
)
def test_the_verbs_that_read_schemas_answer(files: dict[str, Path], verb: tuple[str, ...]) -> None:
    _answered(*(a.format(**files) for a in verb))


def test_serve_answers_every_call_of_every_hostile_tool() -> None:
    """`serve`'s argument check (jsonschema-rs) and its outputSchema instances, in-process."""
    for tool in _tools():
        for arguments in ({}, {"x": "a"}, {"x": ["a"]}, {"x": {"a": "b"}}):
            result, why = tool_result(tool, arguments)
            assert isinstance(result["content"], list) and why
        generate(tool["inputSchema"])
