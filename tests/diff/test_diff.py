"""`catalogaudit diff`: rule cases with expected reports, thresholds, formats, inputs, eras."""

from __future__ import annotations

import json
import os
import re
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import FIXTURES, PYTHON, ROOT, cli, fixture

from catalogaudit.diffing.rules import RULES

CASES = FIXTURES / "diff"
EXAMPLE = str(fixture("servers", "example_server.py"))

#: The exact set of rule ids each case must report (oasdiff style: no more, no less).
CASE_RULES: dict[str, set[str]] = {
    "annotations": {"CA850", "CA851", "CA852", "CA870", "CA873"},
    "bytes-only": {"CA861", "CA862", "CA871"},
    "composition": {"CA840", "CA841", "CA842"},
    "input-schema": {
        "CA810",
        "CA811",
        "CA812",
        "CA813",
        "CA814",
        "CA815",
        "CA816",
        "CA817",
        "CA818",
        "CA819",
        "CA820",
        "CA821",
        "CA860",
        "CA864",
    },
    "instructions": {"CA863"},
    "no-change": set(),
    "output-schema": {"CA830", "CA831", "CA832", "CA833", "CA834", "CA870"},
    "page-fields": {"CA872"},
    "prompts": {"CA845", "CA846", "CA847", "CA848", "CA860", "CA862"},
    "resources": {"CA802", "CA804", "CA860", "CA865", "CA870", "CA871"},
    "templates": {"CA801", "CA802", "CA803"},
    "tools-existence": {"CA801", "CA802", "CA804", "CA860"},
}


@cache
def schema(name: str) -> dict[str, Any]:
    path = ROOT / "src" / "catalogaudit" / "formatters" / "schemas" / name
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


def validate(doc: Any, name: str = "diff.schema.json") -> None:
    jsonschema.Draft202012Validator(schema(name)).validate(doc)


def test_every_case_directory_is_listed() -> None:
    assert sorted(p.name for p in CASES.iterdir() if p.is_dir()) == sorted(CASE_RULES)


@pytest.mark.parametrize("case", sorted(CASE_RULES))
def test_case_matches_expected_report(case: str, request: pytest.FixtureRequest) -> None:
    folder = CASES / case
    result = cli("diff", "old.json", "new.json", "--format", "json", cwd=folder)
    assert result.code in (0, 1), str(result)
    doc = result.json()
    validate(doc)
    assert {c["ruleId"] for c in doc["changes"]} == CASE_RULES[case]
    failing = any(c["level"] == "breaking" for c in doc["changes"])
    assert result.code == doc["exitCode"] == int(failing)
    # the prompt-cache bill depends on the clients' profiles and the price data, not on the
    # classification these cases pin: tests/diff/test_bill.py holds it
    bill = doc.pop("promptCache", None)
    assert bill is None or {r["provider"] for r in bill["providers"]} >= {"anthropic", "openai"}
    expected = folder / "expected.json"
    if request.config.getoption("--update-expected"):
        assert not os.environ.get("CI"), "--update-expected is never run in CI"
        expected.write_text(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    assert expected.exists(), f"{expected} missing: run pytest --update-expected"
    assert json.loads(expected.read_text()) == doc


#: Rules only an option brings out, covered by their own tests (tests/diff/test_diff_modes.py).
OPTION_RULES = {"CA805"}


def test_the_cases_cover_every_rule() -> None:
    covered = set().union(*CASE_RULES.values())
    assert covered | OPTION_RULES == set(RULES)


def test_rule_table_is_documented() -> None:
    doc = (ROOT / "docs" / "diff-rules.md").read_text()
    rows = re.findall(r"^\| (CA8\d\d) \| ([a-z-]+) \| `([a-z0-9-]+)` \|", doc, re.M)
    assert {rid: (cls, name) for rid, cls, name in rows} == {
        rid: (cls, name) for rid, (cls, name, _) in RULES.items()
    }


@pytest.mark.parametrize(
    ("case", "fail_on", "unknown", "code"),
    [
        ("bytes-only", "breaking", "fail", 0),
        ("bytes-only", "model-visible", "fail", 1),
        ("bytes-only", "cosmetic", "fail", 1),
        ("bytes-only", "never", "fail", 0),
        ("page-fields", "model-visible", "fail", 0),
        ("page-fields", "cosmetic", "fail", 1),
        ("composition", "breaking", "fail", 1),
        ("composition", "breaking", "ignore", 0),
        ("composition", "model-visible", "ignore", 1),
        ("annotations", "never", "fail", 0),
        ("no-change", "cosmetic", "fail", 0),
    ],
)
def test_fail_on_threshold(case: str, fail_on: str, unknown: str, code: int) -> None:
    result = cli(
        "diff",
        "old.json",
        "new.json",
        "--fail-on",
        fail_on,
        "--unknown",
        unknown,
        cwd=CASES / case,
    )
    assert result.code == code, str(result)
    assert f"--fail-on {fail_on}" in result.stderr or case == "no-change"


def test_text_output_names_rule_class_item_and_pointer() -> None:
    result = cli("diff", "old.json", "new.json", cwd=CASES / "input-schema")
    assert result.code == 1
    # a change that does not fit the width goes on under itself, indented deeper
    joined = re.sub(r"\n {4,}", " ", result.stdout)
    line = next(ln for ln in joined.splitlines() if "CA819" in ln and "limit" in ln)
    assert line.split()[:4] == ["breaking", "CA819", "tool", '"search"']
    assert "/inputSchema/properties/limit/maximum" in line and "100 -> 50" in line
    assert "8 breaking" in result.stderr


def test_markdown_for_pull_requests() -> None:
    result = cli("diff", "old.json", "new.json", "--format", "markdown", cwd=CASES / "templates")
    assert result.code == 1
    md = result.stdout
    assert md.startswith("### catalogaudit diff: `old.json` → `new.json`")
    assert '| **breaking** | CA803 | `resource template "notes://by-title/{name}"` |' in md
    assert ":x:" in md


def test_sarif_is_valid_2_1_0_with_fingerprints() -> None:
    result = cli("diff", "old.json", "new.json", "--format", "sarif", cwd=CASES / "input-schema")
    assert result.code == 1
    log = result.json()
    sarif_schema = json.loads((ROOT / "tests" / "vectors" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft7Validator(sarif_schema).validate(log)
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules == sorted(CASE_RULES["input-schema"])
    for res in run["results"]:
        assert rules[res["ruleIndex"]] == res["ruleId"]
        assert re.fullmatch(r"[0-9a-f]{64}", res["partialFingerprints"]["catalogauditChange/v1"])
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels["CA810"] == "error" and levels["CA860"] == "warning" and levels["CA814"] == "note"
    fingerprints = [r["partialFingerprints"]["catalogauditChange/v1"] for r in run["results"]]
    assert len(set(fingerprints)) == len(fingerprints)


def test_fingerprints_survive_item_reordering(tmp_path: Path) -> None:
    old = json.loads((CASES / "input-schema" / "new.json").read_text())
    old["tools"].reverse()
    (tmp_path / "new.json").write_text(json.dumps(old))
    (tmp_path / "old.json").write_text((CASES / "input-schema" / "old.json").read_text())
    a = cli("diff", "old.json", "new.json", "--format", "json", cwd=CASES / "input-schema").json()
    b = cli("diff", "old.json", "new.json", "--format", "json", cwd=tmp_path).json()
    fp = {c["fingerprint"] for c in a["changes"]}
    assert fp <= {c["fingerprint"] for c in b["changes"]}
    assert {c["ruleId"] for c in b["changes"]} - {c["ruleId"] for c in a["changes"]} == {"CA862"}


def test_output_file_and_stdin_and_git_inputs(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    old = (CASES / "tools-existence" / "old.json").read_text()
    (tmp_path / "catalog.json").write_text(old)
    git = ["git", "-C", str(tmp_path), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "add", "catalog.json"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "baseline"], check=True)
    new = (CASES / "tools-existence" / "new.json").read_text()
    (tmp_path / "catalog.json").write_text(new)
    out = tmp_path / "report.json"
    result = cli(
        "diff",
        "git:HEAD:catalog.json",
        "-",
        "--format",
        "json",
        "-o",
        str(out),
        cwd=tmp_path,
        stdin=new,
    )
    assert result.code == 1, str(result)
    assert result.stdout == ""
    doc = json.loads(out.read_text())
    assert (doc["old"], doc["new"]) == ("git:HEAD:catalog.json", "<stdin>")
    assert {c["ruleId"] for c in doc["changes"]} == CASE_RULES["tools-existence"]
    assert "3 breaking" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing.json", "new.json"), "error: missing.json: no such file"),
        (("old.json", "new.json", "--fail-on", "sometimes"), "error: Invalid value"),
        (("-", "-"), "error: - (stdin) can be given once"),
    ],
)
def test_errors_are_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = cli("diff", *args, cwd=CASES / "no-change", stdin="")
    assert result.code == 2, str(result)
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_hash_first_deep_diffs_only_changed_items(monkeypatch: pytest.MonkeyPatch) -> None:
    from catalogaudit.diffing import items as diff
    from catalogaudit.diffing import sides as compare
    from catalogaudit.snapshots import build as snapshot

    tools = [
        {"name": f"t{i}", "description": f"Tool {i}", "inputSchema": {"type": "object"}}
        for i in range(300)
    ]
    changed = json.loads(json.dumps(tools))
    for i in (7, 150, 299):
        changed[i]["description"] += " (changed)"

    def side(label: str, items: list[Any]) -> compare.Side:
        listings = {"tools": {"status": "ok", **snapshot.items_record("tools", items)}}
        return compare.Side(label, {}, listings)

    calls: list[Any] = []
    real = diff.changed_paths
    monkeypatch.setattr(diff, "changed_paths", lambda a, b: calls.append(a) or real(a, b))
    result = diff.diff(side("old", tools), side("new", changed))
    assert [c.identity for c in result.changes] == ["t150", "t299", "t7"]
    assert sorted(c["name"] for c in calls) == ["t150", "t299", "t7"]


def snapshot_era(tmp_path: Path, protocol: str) -> Path:
    out = tmp_path / f"{protocol}.json"
    result = cli("snapshot", "--protocol", protocol, "-o", str(out), "--", PYTHON, EXAMPLE, "stdio")
    assert result.code == 0, str(result)
    return out


def test_eras_same_meaning_different_bytes(tmp_path: Path) -> None:
    """Python mcp 2.3.0 orders inputSchema keys per era: equal canonical hashes, different
    served hashes. The prompt projection keeps served key order, so the prompt hash differs
    too: the change is model-visible (a prompt-cache miss) but not breaking."""
    legacy, modern = snapshot_era(tmp_path, "legacy"), snapshot_era(tmp_path, "auto")
    a, b = (json.loads(p.read_text())["listings"]["tools"] for p in (legacy, modern))
    assert [i["name"] for i in a["items"]] == [i["name"] for i in b["items"]]
    for ha, hb in zip(a["itemHashes"], b["itemHashes"], strict=True):
        assert ha["canonical"] == hb["canonical"]
        assert ha["served"] != hb["served"]
        assert ha["prompt"] != hb["prompt"]
    assert cli("diff", str(legacy), str(modern), "--fail-on", "breaking").code == 0
    result = cli("diff", str(legacy), str(modern), "--fail-on", "model-visible", "--format", "json")
    assert result.code == 1, str(result)
    doc = result.json()
    validate(doc)
    tool_changes = [c for c in doc["changes"] if c["listing"] == "tools" and c["identity"]]
    assert {c["ruleId"] for c in tool_changes} == {"CA861"}
    assert all(
        c["promptVisible"] and "key order at /inputSchema" in c["message"] for c in tool_changes
    )
    assert {i["verdict"] for i in doc["items"]} == {"bytes-only"}
    assert all(
        i["hashesEqual"] == {"served": False, "prompt": False, "canonical": True}
        for i in doc["items"]
    )
    warning = doc["warnings"][0]
    assert warning["kind"] == "capture-differs" and "/protocol/negotiated" in warning["message"]


def test_sarif_regions_point_at_the_changed_line_of_a_written_snapshot(tmp_path: Path) -> None:
    for side in ("old", "new"):
        made = cli(
            "snapshot",
            "--from",
            str(CASES / "input-schema" / f"{side}.json"),
            "-o",
            str(tmp_path / f"{side}.snapshot.json"),
        )
        assert made.code == 0, str(made)
    result = cli(
        "diff", "old.snapshot.json", "new.snapshot.json", "--format", "sarif", cwd=tmp_path
    )
    assert result.code == 1, str(result)
    lines = (tmp_path / "new.snapshot.json").read_text().splitlines()
    by_rule = {}
    for res in result.json()["runs"][0]["results"]:
        name = res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
        by_rule[name] = lines[res["locations"][0]["physicalLocation"]["region"]["startLine"] - 1]
    assert by_rule["tools/search/inputSchema/properties/limit/maximum"].strip() == '"maximum": 50,'
    assert by_rule["tools/search/inputSchema/properties/scope"].strip() == '"scope": {'
    # a removed property points at its nearest parent that still exists
    assert by_rule["tools/closed/inputSchema/properties/b"].strip() == '"properties": {'


def test_every_format_renders() -> None:
    from catalogaudit.diffing import items as diff
    from catalogaudit.diffing import sides as compare
    from catalogaudit.diffing import stability
    from catalogaudit.formatters import diff as fd
    from catalogaudit.formatters import formats
    from catalogaudit.formatters import stability as fs
    from catalogaudit.snapshots import build as snapshot

    def side(label: str, case: str) -> compare.Side:
        doc = json.loads((CASES / "bytes-only" / f"{case}.json").read_text())
        listings = {"tools": {"status": "ok", **snapshot.items_record("tools", doc["tools"])}}
        return compare.Side(label, {}, listings)

    result = diff.diff(side("old", "old"), side("new", "new"))
    for fmt in formats.DiffFormat:
        assert fd.render(result, fmt, "breaking", "fail").strip()
    report = stability.report([side("a", "old"), side("b", "new")])
    for sfmt in formats.StabilityFormat:
        assert fs.render(report, sfmt).strip()
    jsonschema.Draft202012Validator(schema("stability.schema.json")).validate(report)


@pytest.mark.parametrize("bad", [None, 0, 1.5, {"": {}}])
def test_a_type_that_names_no_type_is_a_change_not_a_crash(tmp_path: Path, bad: Any) -> None:
    """`type: null` (or a number, an object) reached `subsume.typeset`, which iterated it: an
    internal error. It names no type, as `type: []` does: every value is now refused."""
    schema: dict[str, Any] = {"type": "object", "properties": {"q": {"type": "string"}}}
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": schema}]}))
    schema["properties"]["q"]["type"] = bad
    new.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": schema}]}))
    for a, b, rule in ((old, new, "CA815"), (new, old, "CA816")):
        result = cli("diff", a, b, "--format", "json")
        assert "error" not in result.stderr, str(result)
        assert rule in {c["ruleId"] for c in result.json()["changes"]}, str(result)


@pytest.mark.parametrize("digits", [400, 5000])
def test_an_integer_beyond_the_double_range_is_a_change_not_a_crash(
    tmp_path: Path, digits: int
) -> None:
    """deepdiff spells the numbers it compares as floats: an integer of 400 digits or more
    (valid JSON, read exactly) raised OverflowError there, an internal error of `diff` and
    `stability`. It is compared by value, at its place."""
    huge = "9" * digits
    page = '{"tools": [{"name": "t", "inputSchema": {"properties": {"q": {"default": NUMBER}}}}]}'
    texts = {"small": "1", "huge": huge, "huger": "1" + huge}
    texts = {name: page.replace("NUMBER", number) for name, number in texts.items()}
    for name, text in texts.items():
        (tmp_path / f"{name}.json").write_text(text)
    for a, b in (("small", "huge"), ("huge", "huger"), ("huger", "small")):
        paths = [str(tmp_path / f"{n}.json") for n in (a, b)]
        result = cli("diff", *paths, "--format", "json")
        assert result.code in (0, 1) and "error" not in result.stderr, str(result)
        pointers = {c["pointer"] for c in result.json()["changes"]}
        assert "/inputSchema/properties/q/default" in pointers, str(result)
        assert cli("stability", *paths).code in (0, 1)


@pytest.mark.parametrize("keyword", ["minimum", "maximum", "exclusiveMinimum", "multipleOf"])
def test_a_bound_beyond_the_double_range_is_compared_not_a_crash(
    tmp_path: Path, keyword: str
) -> None:
    """A bound is compared as clients reading doubles compare it; an integer of 400 digits
    has no double (OverflowError, an internal error): it is compared exactly."""
    page = '{"tools": [{"name": "t", "inputSchema": {"properties": {"q": {"KEY": NUMBER}}}}]}'
    for name, number in (("small", "2"), ("huge", "9" * 400)):
        text = page.replace("KEY", keyword).replace("NUMBER", number)
        (tmp_path / f"{name}.json").write_text(text)
    for a, b in (("small", "huge"), ("huge", "small")):
        result = cli("diff", str(tmp_path / f"{a}.json"), str(tmp_path / f"{b}.json"))
        assert result.code in (0, 1) and "error" not in result.stderr, str(result)
        assert f"/inputSchema/properties/q/{keyword}" in result.stdout, str(result)
