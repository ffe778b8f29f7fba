"""Profiles as data: every profile rule against its pass and fail fixtures (exact finding sets),
the registry, version resolution, settings, and the `profiles` verb."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import cli

from catalogaudit.errors import UsageError
from catalogaudit.intake import read_catalog
from catalogaudit.model import jsonwrite
from catalogaudit.model.catalog import Catalog
from catalogaudit.model.findings import Finding, Severity
from catalogaudit.profiles import resolve as profiles
from catalogaudit.profiles import summary
from catalogaudit.profiles.load import load_all, raw_files
from catalogaudit.profiles.schema import schema_problems, surely_valid, worded_problems
from catalogaudit.rules.base import Context
from catalogaudit.rules.checks import CHECKS, DOCS, PARAMS

RULES_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "rules"
PROFILE_RULES = {r.id: r for p in load_all().values() for r in p.rules}
ID_FORM = re.compile(r"[A-Z][A-Z0-9]*(-[A-Z]+)+-[0-9]{3}")


def case_files(rule_dir: Path, kind: str) -> list[Path]:
    """The case inputs of one kind (not the expectations, not the config)."""
    return sorted(
        p
        for p in (rule_dir / kind).glob("*.json*")
        if not p.name.startswith("_") and not p.name.endswith(".expected.json")
    )


def config_for(path: Path) -> dict[str, Any]:
    conf = json.loads((path.parent / "_config.json").read_text())
    entry: dict[str, Any] = conf["cases"][path.stem]
    return entry


def load_case(path: Path, revision: str = "auto") -> Catalog:
    """Build the catalog the way `audit` does for a static input."""
    return Catalog(read_catalog(str(path), protocol=revision).doc, source=str(path))


def run_case(path: Path) -> tuple[list[Finding], profiles.ResolvedProfile]:
    conf = config_for(path)
    catalog = load_case(path, conf.get("revision", "auto"))
    resolved = profiles.resolve(conf["profile"], conf.get("settings", {}))
    ctx = Context(server_name=conf.get("server_name"), gateway_name=conf.get("gateway_name"))
    found, errors = profiles.run_profile(catalog, resolved, ctx)
    assert not errors, errors
    return found, resolved


def rows(found: list[Finding]) -> list[list[Any]]:
    got = [[f.rule_id, f.kind, f.identity, f.pointer, f.severity.value] for f in found]
    return sorted(got, key=lambda r: [str(x) for x in r])


def cases() -> list[Any]:
    return [
        pytest.param(rule_id, path, id=f"{rule_id}-{kind}-{path.stem}")
        for rule_id in sorted(PROFILE_RULES)
        for kind in ("pass", "fail")
        for path in case_files(RULES_DIR / rule_id, kind)
    ]


@pytest.mark.parametrize(("rule_id", "path"), cases())
def test_rule_case(rule_id: str, path: Path) -> None:
    found, resolved = run_case(path)
    expected_file = path.with_name(path.stem + ".expected.json")
    expected = json.loads(expected_file.read_text()) if expected_file.exists() else []
    assert rows(found) == sorted(expected, key=lambda r: [str(x) for x in r])
    if path.parent.name == "fail":
        assert any(r[0] == rule_id for r in expected), "a fail case must expect its own rule"
    for f in found:
        assert f.message and f.source.startswith("https://") and f.hint
        if f.identity is not None:  # the message names the item
            assert jsonwrite.dump_string(f.identity) in f.message
        assert f.profile == resolved.label
        assert f.location is not None and f.location.file == str(path)


def test_every_rule_has_pass_and_fail_cases_and_metadata() -> None:
    for rule_id, rule in PROFILE_RULES.items():
        assert ID_FORM.fullmatch(rule_id), rule_id
        assert rule.sources and all(s.startswith("https://") for s in rule.sources)
        assert rule.summary and rule.symptom and rule.workaround and rule.reads
        for kind in ("pass", "fail"):
            assert case_files(RULES_DIR / rule_id, kind), f"{rule_id} lacks {kind} cases"
    owned = [r.id for p in load_all().values() for r in p.rules]
    assert len(owned) == len(set(owned)), "a rule id is owned by two profiles"
    fixture_dirs = {d.name for d in RULES_DIR.iterdir() if not d.name.startswith("CA")}
    assert fixture_dirs <= set(PROFILE_RULES), "fixtures for a rule that no longer exists"


def test_every_check_clause_is_exercised_by_a_fail_case() -> None:
    """Each (rule, check) pair must produce a hit in some fail case, so no version line or
    check of a rule goes untested."""
    seen: set[tuple[str, int]] = set()
    for rule_id in PROFILE_RULES:
        for path in case_files(RULES_DIR / rule_id, "fail"):
            conf = config_for(path)
            catalog = load_case(path, conf.get("revision", "auto"))
            resolved = profiles.resolve(conf["profile"], conf.get("settings", {}))
            ctx = Context(
                profile=resolved.label,
                settings=resolved.values,
                server_name=conf.get("server_name"),
                gateway_name=conf.get("gateway_name"),
            )
            for rule, clause, _ in profiles.applicable(resolved):
                if rule.id != rule_id:
                    continue
                params = profiles.bound_params(clause, resolved)
                if list(CHECKS[clause.type](catalog, params, ctx)):
                    seen.add((rule.id, next(i for i, c in enumerate(rule.checks) if c is clause)))
    missing = [
        f"{r.id}#{i}"
        for r in PROFILE_RULES.values()
        for i in range(len(r.checks))
        if (r.id, i) not in seen
    ]
    assert not missing


def test_every_profile_file_validates_against_the_schema() -> None:
    files = raw_files()
    assert len(files) == 23
    for name, doc in files.items():
        assert schema_problems(doc) == [], name
        assert worded_problems(doc) == [], name  # NOTE: python-jsonschema, the reference
        assert name == f"{doc['id']}.json"


def test_check_vocabulary_is_documented_and_schema_checked() -> None:
    assert set(CHECKS) == set(PARAMS) == set(DOCS)
    used = {c["type"] for d in raw_files().values() for r in d["rules"] for c in r["checks"]}
    assert used == set(CHECKS), "every check type is used by some profile"
    docs = (Path(__file__).resolve().parents[2] / "docs" / "profiles.md").read_text()
    for name in CHECKS:
        assert DOCS[name]
        assert f"`{name}`" in docs, f"docs/profiles.md does not describe {name}"


def test_a_bad_param_fails_validation() -> None:
    doc = json.loads(json.dumps(raw_files()["ascii-prose.json"]))
    doc["rules"][1]["checks"][0]["params"]["patern"] = [";"]
    assert any("patern" in p for p in schema_problems(doc))
    doc["rules"][1]["checks"][0]["type"] = "no-such-check"
    assert any("unknown check type" in p for p in schema_problems(doc))


#: One value of each JSON type (and empty and non-empty containers).
_OF_EACH_TYPE = ("x", 7, 2.5, True, None, [], ["x"], {}, {"x": 1})


def _members(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every member and element inside `value`."""
    if not isinstance(value, (dict, list)):
        return []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    return [p for key, sub in items for p in [(*at, key), *_members(sub, (*at, key))]]


def test_jsonschema_rs_finds_a_profile_valid_only_where_python_jsonschema_does() -> None:
    # A profile file holding the first clause of each check type the shipped files use, then
    # each of its members in turn replaced by each JSON type: where jsonschema-rs finds no
    # problem (and `schema_problems` asks no more), python-jsonschema finds none either.
    first: dict[str, Any] = {}
    for doc in raw_files().values():
        for rule in doc["rules"]:
            for clause in rule["checks"]:
                first.setdefault(clause["type"], clause)
    base = json.loads(json.dumps(raw_files()["ascii-prose.json"]))
    base["rules"][0]["checks"] = list(first.values())
    assert surely_valid(base) and worded_problems(base) == []
    paths = _members(base)
    kept = refused = 0
    for path in paths:
        for value in _OF_EACH_TYPE:
            doc = json.loads(json.dumps(base))
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = value
            if surely_valid(doc):
                assert worded_problems(doc) == [], (path, value)
                kept += 1
            else:
                refused += 1
                if len(path) <= 4:  # NOTE: python-jsonschema words it, and does not crash
                    assert schema_problems(doc), (path, value)
    assert len(paths) > 200 and kept > 100 and refused > kept


# --- resolution --------------------------------------------------------------------------------


def test_pep440_spellings_are_one_version() -> None:
    a = profiles.resolve("context-forge@1.0.0b2", {})
    b = profiles.resolve("context-forge@1.0.0-beta.2", {})
    c = profiles.resolve("context-forge@v1.0.0-BETA-2", {})
    assert a.label == b.label == c.label == "context-forge@1.0.0b2"
    assert a.effective == b.effective and not a.newer_than_verified


def test_no_version_means_the_newest_verified_and_says_so() -> None:
    r = profiles.resolve("context-forge", {})
    assert r.label == "context-forge@1.1.0"  # its lattice run of 2026-12-06
    assert any("newest version" in n and "1.1.0" in n for n in r.notes)
    assert r.basis == "measured on 1.1.0 (2026-12-06)"
    assert profiles.resolve("codex", {}).label == "codex@0.169.0"
    assert profiles.resolve("claude-code", {}).label == "claude-code@2.1.328"
    assert profiles.resolve("openai", {}).label == "openai"  # unversioned
    assert profiles.resolve("codex", {}).basis == "measured on 0.169.0 (2026-11-30)"
    assert "unverified here" in profiles.resolve("codex-app", {}).basis


def test_newer_than_measured_uses_the_nearest_lower_range_and_adds_an_info_finding(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {"tools": [{"name": "run", "description": "a && b", "inputSchema": {"type": "object"}}]}
        )
    )
    catalog = load_case(path)
    r = profiles.resolve("context-forge@1.2.0", {})
    assert r.label == "context-forge@1.2.0" and str(r.effective) == "1.1.0"
    assert r.newer_than_verified and any("newer than any verified" in n for n in r.notes)
    assert r.basis == "unverified at 1.2.0; rules measured on 1.1.0 (2026-12-06)"
    found, errors = profiles.run_profile(catalog, r, Context())
    assert not errors
    assert rows(found) == [
        ["CF-DESC-001", "tools", "run", "/description", "error"],
        ["PROFILE-VER-001", "catalog", None, "", "info"],
    ]
    # codex@0.170.0 is audited as 0.169.0: 128-byte names, not flagged at 100
    assert str(profiles.resolve("codex@0.170.0", {}).effective) == "0.169.0"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        # the gate issue: the closest id, not all of them
        ("nonesuch", "unknown profile 'nonesuch'; did you mean "),
        ("codexapp", "unknown profile 'codexapp'; did you mean codex-app?"),
        ("context-forge@not a version", "is not a PEP 440 version"),
        ("context-forge@", "is not a PEP 440 version"),
        ("openai@1.0", "is not versioned"),
        ("spec", "built in"),
    ],
)
def test_bad_specs_are_one_line_usage_errors(spec: str, words: str) -> None:
    with pytest.raises(UsageError) as err:
        profiles.resolve(spec, {})
    assert words in str(err.value) and "\n" not in str(err.value)


def test_settings_are_typed_shared_and_checked() -> None:
    r = profiles.resolve("context-forge@1.0.0", {"VALIDATION_STRICT": "false"})
    assert r.settings == {"VALIDATION_STRICT": False}
    # a key another profile declares is ignored, not an error
    assert profiles.resolve("codex", {"VALIDATION_STRICT": "false"}).settings == {}
    # a key at a version that ignores it is a note
    rc1 = profiles.resolve("context-forge@1.0.0rc1", {"VALIDATION_STRICT": "false"})
    assert rc1.settings == {} and any("has no effect" in n for n in rc1.notes)
    with pytest.raises(UsageError, match="unknown profile setting 'VALIDATON_STRICT'"):
        profiles.resolve("context-forge", {"VALIDATON_STRICT": "false"})
    with pytest.raises(UsageError, match="expected true or false"):
        profiles.resolve("context-forge", {"VALIDATION_STRICT": "maybe"})
    with pytest.raises(UsageError, match="JSON list"):
        profiles.resolve("context-forge", {"TOOL_DESCRIPTION_FORBIDDEN_PATTERNS": '"x"'})
    with pytest.raises(UsageError, match="VALIDATION_MAX_JSON_DEPTH"):
        profiles.resolve("context-forge", {"VALIDATION_MAX_JSON_DEPTH": "deep"})


def test_a_check_that_raises_is_a_rule_error_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalogaudit.rules import checks

    def boom(*args: Any) -> Any:
        raise RuntimeError("bang")

    monkeypatch.setitem(checks.CHECKS, "forbidden-substrings", boom)
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {"tools": [{"name": "a.b", "description": "x; é", "inputSchema": {"type": "object"}}]}
        )
    )
    found, errors = profiles.run_profile(
        load_case(path), profiles.resolve("ascii-prose", {}), Context()
    )
    assert [(e.rule_id, "bang" in e.error) for e in errors] == [("ASCII-PROSE-002", True)]
    assert [f.rule_id for f in found] == ["ASCII-PROSE-001"]


def test_messages_quote_the_offending_text(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {
                "tools": [
                    {
                        "name": "A__" + "b" * 125,
                        "description": "x; y",
                        "inputSchema": {"type": "object"},
                    }
                ]
            }
        )
    )
    catalog = load_case(path)
    found, _ = profiles.run_profile(
        catalog, profiles.resolve("context-forge@1.0.0b2", {}), Context(gateway_name="GW!")
    )
    msgs = {f.rule_id: f.message for f in found}
    assert 'description contains ";" (in "x; y")' in msgs["CF-DESC-001"]
    assert "CF-NAME-004" not in msgs  # 255 before 1.0.1
    found, _ = profiles.run_profile(
        catalog, profiles.resolve("context-forge@1.0.1", {}), Context(gateway_name="GW!")
    )
    msg = next(f.message for f in found if f.rule_id == "CF-NAME-004")
    # shown as ContextForge builds it: the slugs of both parts
    assert msg.startswith('tool "A__' + "b" * 125 + '": qualified name "gw-a-bbbb')
    assert "is 130 chars, over 128" in msg


def test_rule_meta_and_summaries() -> None:
    metas = profiles.rule_meta()
    by_origin: dict[str, set[str]] = {}
    for m in metas:
        by_origin.setdefault(m.origin, set()).add(m.id)
        assert (
            m.source.startswith("https://")
            and m.summary
            and m.confidence
            or m.id.startswith("PROFILE")
        )
    assert "CDX-ANN-001" in by_origin["codex-app"] and "CDX-ANN-001" not in by_origin["codex"]
    assert {"CDX-TYPE-001", "OAI-COUNT-001"} <= by_origin["codex-app"]
    assert "PROFILE-VER-001" in by_origin["context-forge"]
    cf = next(m for m in metas if m.id == "CF-DESC-001")
    assert (cf.versions, cf.confidence, cf.severity) == (">=0.9.0", "measured", Severity.ERROR)
    ids = [s.id for s in summary.profile_summaries()]
    assert ids == sorted(ids) and len(ids) == 23 and "spec" not in ids


# --- the verb ----------------------------------------------------------------------------------


def test_profiles_verb_lists_and_shows() -> None:
    listing = cli("profiles", "--format", "json")
    assert listing.code == 0, str(listing)
    rows_ = {r["id"]: r for r in listing.json()["profiles"]}
    assert rows_["context-forge"]["newest"] == "1.1.0"
    assert rows_["codex"]["versions"] == [
        "0.47.0",  # codex#5619, #11284 and #26983: the versions CDX-XPORT-001 covers
        "0.98.0",
        "0.137.0",
        "0.148.0",
        "0.153.2",
        "0.169.0",
    ]
    text = cli("profiles")
    # a pipe is 100 columns: one short record per profile (a table from 160 columns on)
    assert text.code == 0 and "\ncontext-forge  " in text.stdout and "verified: " in text.stdout
    wide = cli("profiles", env={"COLUMNS": "200"})
    assert wide.stdout.split()[:8] == [
        "Profile", "Versions", "(newest", "last)", "Rules", "Verified", "Confidence", "Enforcer"
    ]  # fmt: skip
    one = cli("profiles", "context-forge@1.0.0-beta.2", "--format", "json")
    assert one.code == 0, str(one)
    doc = one.json()
    assert doc["resolved"]["label"] == "context-forge@1.0.0b2"
    ids = [r["id"] for r in doc["rules"]]
    assert "CF-DESC-001" in ids and "CF-TITLE-001" not in ids  # title limit is 1.0.0+
    desc = next(r for r in doc["rules"] if r["id"] == "CF-DESC-001")
    assert [c["versions"] for c in desc["checks"]] == [">=0.9.0,<1.0.0rc1"]
    shown = cli("profiles", "claude-code")
    assert shown.code == 0 and "CC-CACHE-001" in shown.stdout and "[from anthropic]" in shown.stdout
    bad = cli("profiles", "nope")
    assert bad.code == 2 and bad.stderr.startswith("error: unknown profile 'nope'")
    assert cli("profiles", "--format", "xml").code == 2
