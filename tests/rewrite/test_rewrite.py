"""`catalogaudit rewrite`, `audit --substitutions` and `audit --suggest`, through the real CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import cli, fixture, npm_bin, validate_snapshot

from catalogaudit import walker
from catalogaudit.canonical import hashes
from catalogaudit.model import jsonwire, jsonwrite
from catalogaudit.model.names import LISTINGS

SEMI = ";=\\,"


def all_strings(value: Any, at: str = "") -> dict[str, str]:
    """Every string in a document by pointer; keys are part of pointers, so a renamed key shows."""
    out: dict[str, str] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(all_strings(v, jsonwire.pointer_join(at, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(all_strings(v, jsonwire.pointer_join(at, i)))
    elif isinstance(value, str):
        out[at] = value
    return out


def prose_pointers(doc: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for name in LISTINGS:
        for i, item in enumerate(doc["listings"][name].get("items") or []):
            out |= {f"/listings/{name}/items/{i}{v.pointer}" for v in walker.visits(name, item)}
    return out


def snapshot_of(tmp_path: Path, source: str, *extra: str) -> Path:
    out = tmp_path / "in.snapshot.json"
    got = cli("snapshot", "--from", str(fixture(*source.split("/"))), *extra, "-o", str(out))
    assert got.code == 0, got
    return out


def rewrite(tmp_path: Path, snap: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    out = tmp_path / "out.snapshot.json"
    got = cli("rewrite", str(snap), "-o", str(out), "--format", "json", *args, env=env)
    assert got.code in (0, 1), got
    doc = json.loads(out.read_text())
    return got, doc, json.loads(got.stdout)


def test_semicolons_become_commas_in_prose_only(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/semicolons.jsonl", "--protocol", "2025-11-25")
    before = json.loads(snap.read_text())
    got, after, report = rewrite(tmp_path, snap, "--substitutions", SEMI)
    validate_snapshot(after)
    old, new = all_strings(before["listings"]), all_strings(after["listings"])
    prose = {p.removeprefix("/listings") for p in prose_pointers(before)}
    old_items = {p: v for p, v in old.items() if "/items/" in p}
    new_items = {p: v for p, v in new.items() if "/items/" in p}
    assert old_items.keys() == new_items.keys(), "no key (property name) may change"
    changed = {p for p in old_items if old_items[p] != new_items[p]}
    assert changed == {p for p in prose if ";" in old_items[p]}
    for p in changed:
        assert new_items[p] == old_items[p].replace(";", ",")
    # a ; in a pattern, an enum value, a default, a const, examples, a property name, a name,
    # a URI, a template and _meta stays
    untouched = [v for p, v in new_items.items() if p not in prose and ";" in v]
    assert {"^[^;]+;?$", "fast;safe", "a;b", "x;y", "semi;tool", "file:///a;b.txt"} <= set(
        untouched
    )
    assert "data; not prose" in untouched and "meta; never prose" in untouched
    assert any("semi;colon" in p for p in new_items)
    assert len(report["changes"]) == len(changed) == 16
    assert {c["cause"] for c in report["changes"]} == {"substitutions"}
    assert report["refused"] == []


def test_derived_file_is_a_written_snapshot_with_the_rewritten_wire(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/semicolons.jsonl", "--protocol", "2025-11-25")
    _, doc, _ = rewrite(tmp_path, snap, "--substitutions", SEMI)
    text = (tmp_path / "out.snapshot.json").read_text()
    assert text == jsonwrite.written(jsonwire.loads(text)), "the one written form"
    assert doc["capture"]["source"] == "derived"
    assert doc["capture"]["wire"] == "kept" and "wireLost" not in doc["capture"]
    # the wire pages hold the rewritten items: their served hashes are the file's
    for name in LISTINGS:
        items = [i for t in doc["wire"]["pages"][name] for i in jsonwire.loads(t)[name]]
        want = [hashes.item_hashes(name, i).served for i in items]
        recorded = doc["listings"][name]["itemHashes"]
        positions = doc["listings"][name]["servedPositions"]
        assert [recorded[positions.index(k)]["served"] for k in range(len(items))] == want
    derived = doc["derived"]
    assert derived["from"] == str(snap) or derived["from"].endswith("in.snapshot.json")
    assert derived["substitutions"] == {"text": SEMI, "pairs": [{"old": ";", "new": ","}]}
    assert derived["fixes"] == [] and derived["changes"] == 16 and derived["refused"] == 0
    original = json.loads(snap.read_text())
    assert derived["fromHashes"] == original["hashes"]
    # hashes were recomputed: the catalog and every changed item differ, names did not move
    assert doc["hashes"]["canonical"] != original["hashes"]["canonical"]
    for name in LISTINGS:
        assert (
            doc["listings"][name]["servedPositions"]
            == original["listings"][name]["servedPositions"]
        )
    # served and prompt hashes are of the rewritten items in *served* key order (from the
    # input's wire pages); canonical ones can be recomputed from the file itself
    for name in LISTINGS:
        page = jsonwire.loads(original["wire"]["pages"][name][0])
        served = [jsonwire.loads(jsonwrite.compact(i).replace(";", ",")) for i in page[name]]
        expected = [hashes.item_hashes(name, i).as_dict() for i in served]
        # names, URIs and data keep their ; -- rebuild the expectation from the file instead
        got = doc["listings"][name]
        by_canonical = {h["canonical"] for h in got["itemHashes"]}
        file_items = got["items"]
        assert {hashes.item_hashes(name, i).canonical for i in file_items} == by_canonical
        positions = got["servedPositions"]
        assert len(expected) == len(positions)
    tool = jsonwire.loads(original["wire"]["pages"]["tools"][0])["tools"][0]
    rewritten, _ = walker.walk("tools", tool, lambda v: v.text.replace(";", ","))
    want = hashes.item_hashes("tools", rewritten)
    assert doc["listings"]["tools"]["itemHashes"][0] == want.as_dict()
    # the derived file audits like any snapshot
    again = cli("audit", str(tmp_path / "out.snapshot.json"), "--format", "json")
    assert again.code == 0, again


def test_environment_variable_is_read_by_rewrite(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/semicolons.jsonl", "--protocol", "2025-11-25")
    _, doc, _ = rewrite(tmp_path, snap, env={"CATALOGAUDIT_SUBSTITUTIONS": SEMI})
    assert doc["derived"]["substitutions"]["text"] == SEMI
    bad = cli(
        "rewrite",
        str(snap),
        "-o",
        str(tmp_path / "x.json"),
        env={"CATALOGAUDIT_SUBSTITUTIONS": "a=b,"},
    )
    assert bad.code == 2
    assert bad.stderr == (
        'error: CATALOGAUDIT_SUBSTITUTIONS: pair 2 "": '
        "a trailing comma (nothing after the last comma)\n"
    )
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--substitutions", "a\\n=b"], 'pair 1 "a\\\\n=b": unknown escape "\\\\n"'),
        (["--substitutions", "=b"], 'pair 1 "=b": empty old text'),
        (["--substitutions", "a=b,,c=d"], 'pair 2 "": empty pair'),
        (["--fix", "codex"], "--fix must be one of codex-app, cache-hints, not 'codex'"),
        ([], "nothing to rewrite"),
    ],
)
def test_usage_errors_are_one_line_and_write_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    snap = snapshot_of(tmp_path, "substitutions/semicolons.jsonl", "--protocol", "2025-11-25")
    out = tmp_path / "never.json"
    got = cli("rewrite", str(snap), "-o", str(out), *args)
    assert got.code == 2, got
    assert got.stderr.startswith("error: ") and got.stderr.count("\n") == 1
    assert message in got.stderr
    assert not out.exists()


def test_growth_bound_refuses_a_multiplying_rule(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/growth.json", "--protocol", "2025-11-25")
    got, doc, report = rewrite(tmp_path, snap, "--substitutions", "x=y,e=eeeeeeeeee")
    before = json.loads(snap.read_text())
    tools = {t["name"]: t for t in doc["listings"]["tools"]["items"]}
    old = {t["name"]: t for t in before["listings"]["tools"]["items"]}
    # long, e-heavy strings would grow tenfold: left exactly as written
    assert tools["long"]["description"] == old["long"]["description"]
    nested = tools["long"]["inputSchema"]["properties"]["q"]["description"]
    assert nested == old["long"]["inputSchema"]["properties"]["q"]["description"]
    # a short string stays within max(2 x input, input + 64) and is rewritten
    assert tools["short"]["description"] == "Th" + "e" * 10 + " tool"
    refused = report["refused"]
    assert [(f["identity"], f["pointer"]) for f in refused] == [
        ("long", "/description"),
        ("long", "/inputSchema/properties/q/description"),
    ]
    for f in refused:
        assert f["ruleId"] == "CA901"
        assert 'pair 2 "e=eeeeeeeeee"' in f["message"]
    assert doc["derived"]["refused"] == 2
    assert [f["ruleId"] for f in doc["findings"] if f["ruleId"] == "CA901"] == ["CA901", "CA901"]
    validate_snapshot(doc)
    # the whole catalog cannot be multiplied: at most max(2x, +64) per string
    assert len((tmp_path / "out.snapshot.json").read_bytes()) < 3 * len(snap.read_bytes())
    text = cli(
        "rewrite", str(snap), "-o", str(tmp_path / "t.json"), "--substitutions", "x=y,e=eeeeeeeeee"
    )
    assert "2 string(s) left as written by the growth bound" in text.stdout
    assert 'refused: tool "long": pair 2 "e=eeeeeeeeee" would grow the description' in text.stdout


def test_codex_app_fix_writes_integer_priorities(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/priorities.jsonl", "--protocol", "2025-11-25")
    got, doc, report = rewrite(tmp_path, snap, "--fix", "codex-app", "--profile", "codex-app")
    prios = {
        r["uri"]: jsonwrite.lexeme(r["annotations"]["priority"])
        for r in jsonwire.loads((tmp_path / "out.snapshot.json").read_text())["listings"][
            "resources"
        ]["items"]
    }
    assert prios == {
        "file:///a": "1",  # 1.0
        "file:///b": "1",  # 0.5
        "file:///c": "0",  # 0.25
        "file:///d": "1",  # 1 stays
        "file:///e": "0",  # 0 stays
        "file:///f": "1",  # 5E-1
    }
    text = (tmp_path / "out.snapshot.json").read_text()
    assert '"priority": 1.0' not in text and '"priority": 1\n' in text
    changes = {(c["identity"], c["beforeText"], c["afterText"]) for c in report["changes"]}
    assert changes == {
        ("file:///a", "1.0", "1"),
        ("file:///b", "0.5", "1"),
        ("file:///c", "0.25", "0"),
        ("file:///f", "5E-1", "1"),
        ("file:///{x}", "0.75", "1"),
    }
    assert report["after"]["error"] == 0
    assert report["cleared"] and all(f["ruleId"].startswith("CDX") for f in report["cleared"])
    assert got.code == 0


def test_cache_hints_fix_backfills_2026_pages(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/pages-2026.jsonl", "--protocol", "2026-07-28")
    got, doc, report = rewrite(tmp_path, snap, "--fix", "cache-hints")
    fields = doc["listings"]["tools"]["pages"][0]["fields"]
    assert fields == {"ttlMs": 0, "cacheScope": "private", "resultType": "complete"}
    kept = doc["listings"]["prompts"]["pages"][0]["fields"]
    assert kept == {"ttlMs": 60000, "cacheScope": "public", "resultType": "complete"}
    assert {(c["listing"], c["pointer"]) for c in report["changes"]} == {
        ("tools", "/ttlMs"),
        ("tools", "/cacheScope"),
        ("tools", "/resultType"),
    }
    assert all(
        c["documentPointer"].startswith("/listings/tools/pages/0/fields/")
        for c in report["changes"]
    )
    assert any(f["ruleId"] == "CA611" for f in report["cleared"])
    assert got.code == 0
    validate_snapshot(doc)
    # a legacy catalog has no cache fields to backfill
    legacy = snapshot_of(tmp_path, "substitutions/semicolons.jsonl", "--protocol", "2025-11-25")
    _, _, report = rewrite(tmp_path, legacy, "--fix", "cache-hints")
    assert report["changes"] == []


def test_audit_substitutions_reports_as_rewritten(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/semicolons.jsonl", "--protocol", "2025-11-25")
    plain = cli("audit", str(snap), "--format", "json", "--select", "CA7")
    assert plain.json()["rewritten"] is False
    got = cli("audit", str(snap), "--format", "json", "--substitutions", SEMI)
    assert got.code == 0, got
    doc = got.json()
    assert doc["rewritten"] is True
    assert any("audited as if rewritten with --substitutions ';=\\,'" in n for n in doc["notes"])
    text = cli("audit", str(snap), "--substitutions", SEMI)
    assert "audited as if rewritten" in text.stdout


def test_audit_reads_the_environment_only_when_asked(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/semicolons.jsonl", "--protocol", "2025-11-25")
    env = {"CATALOGAUDIT_SUBSTITUTIONS": SEMI}
    assert cli("audit", str(snap), "--format", "json", env=env).json()["rewritten"] is False
    got = cli("audit", str(snap), "--format", "json", "--substitutions-from-env", env=env)
    assert got.json()["rewritten"] is True
    missing = cli(
        "audit", str(snap), "--substitutions-from-env", env={"CATALOGAUDIT_SUBSTITUTIONS": ""}
    )
    assert missing.code == 2 and "CATALOGAUDIT_SUBSTITUTIONS: empty" in missing.stderr


FORBID_SEMICOLON = ("context-forge@0.9.0", "context-forge@1.0.0rc1")


def _profiles_ready() -> None:
    got = cli(
        "audit", str(fixture("substitutions", "growth.json")), "--profile", FORBID_SEMICOLON[0]
    )
    if got.code == 2:
        pytest.fail(f"profile {FORBID_SEMICOLON[0]} is not usable: {got.stderr.strip()}")


@pytest.mark.npm
@pytest.mark.parametrize("profile", FORBID_SEMICOLON)
def test_server_filesystem_rewritten_passes_context_forge(tmp_path: Path, profile: str) -> None:
    binary = npm_bin("mcp-server-filesystem")
    _profiles_ready()
    snap = tmp_path / "fs.snapshot.json"
    got = cli("snapshot", "--cwd", str(tmp_path), "-o", str(snap), "--", binary, ".")
    assert got.code == 0, got
    before = cli("audit", str(snap), "--profile", profile, "--format", "json")
    assert before.code == 1, before
    errors = [f for f in before.json()["findings"] if f["severity"] == "error"]
    assert [(f["ruleId"], f["identity"], f["pointer"]) for f in errors] == [
        ("CF-DESC-001", "read_media_file", "/description")
    ]
    out = tmp_path / "fs.rewritten.json"
    rw = cli(
        "rewrite",
        str(snap),
        "--substitutions",
        SEMI,
        "-o",
        str(out),
        "--profile",
        profile,
        "--format",
        "json",
    )
    assert rw.code == 0, rw
    report = rw.json()
    assert [c["identity"] for c in report["changes"]] == ["read_media_file"]
    assert [f["ruleId"] for f in report["cleared"]] == ["CF-DESC-001"]
    assert [f for f in report["remaining"] if f["severity"] == "error"] == []
    assert report["introduced"] == [] and report["after"]["error"] == 0
    after = cli("audit", str(out), "--profile", profile)
    assert after.code == 0, after
    as_if = cli("audit", str(snap), "--profile", profile, "--substitutions", SEMI)
    assert as_if.code == 0, as_if
    suggestion = cli("audit", str(snap), "--profile", profile, "--suggest")
    assert suggestion.code == 0, suggestion
    assert "--substitutions ';=\\,'" in suggestion.stdout
    assert re.search(r"1 of \d+ prose finding\(s\) cleared", suggestion.stdout)
    assert "cleared: error CF-DESC-001 tools/read_media_file /description" in suggestion.stdout


def test_suggest_proposes_a_proven_list(tmp_path: Path) -> None:
    src = str(fixture("substitutions", "shellish.json"))
    _profiles_ready()
    got = cli("audit", src, "--profile", "context-forge@0.9.0", "--suggest", "--format", "json")
    assert got.code == 0, got
    assert got.json()["kind"] == "suggest"
    (doc,) = got.json()["suggestions"]
    # only what the flagged description needs, in a safe order; non-ASCII is left alone
    assert doc["substitutions"] == "&&=and,;=\\,,|=/,`="
    assert doc["clearsAll"] is True
    assert len(doc["cleared"]) == len(doc["targeted"]) == 5
    assert doc["after"] == {"error": 0, "warning": 0, "info": doc["after"]["info"]}
    # the proposal really clears them: audit as if rewritten with it
    proof = cli(
        "audit", src, "--profile", "context-forge@0.9.0", "--substitutions", doc["substitutions"]
    )
    assert proof.code == 0, proof
    text = cli("audit", src, "--profile", "context-forge@0.9.0", "--suggest")
    assert "--substitutions '&&=and,;=\\,,|=/,`='" in text.stdout
    assert "5 of 5 prose finding(s) cleared" in text.stdout


def test_suggest_with_nothing_to_fix(tmp_path: Path) -> None:
    got = cli("audit", str(fixture("hooks", "clean", "catalog.snapshot.json")), "--suggest")
    assert got.code == 0, got
    assert got.stdout.startswith("no prose findings for spec: nothing to substitute")


def test_suggest_and_substitutions_exclude_each_other() -> None:
    got = cli(
        "audit",
        str(fixture("substitutions", "shellish.json")),
        "--suggest",
        "--substitutions",
        "a=b",
    )
    assert got.code == 2
    assert got.stderr == "error: --substitutions cannot be combined with --suggest or --matrix\n"


def test_compare_matches_findings_as_multisets() -> None:
    from catalogaudit.model.findings import Finding, Severity
    from catalogaudit.rewriting.derive import compare

    def f(rule: str, excerpt: str, pointer: str = "/description") -> Finding:
        return Finding(rule, Severity.ERROR, "m", "tools", "t", pointer, excerpt=excerpt)

    before = [f("CF-DESC-001", ";"), f("CF-DESC-001", "|"), f("CA101", "x", "/name")]
    after = [f("CF-DESC-001", "|"), f("CF-DESC-003", "<img", "/title")]
    out = compare(before, after)
    assert [x.rule_id for x in out.cleared] == ["CA101", "CF-DESC-001"]
    assert [x.rule_id for x in out.remaining] == ["CF-DESC-001"]
    assert [x.rule_id for x in out.introduced] == ["CF-DESC-003"]


def test_suggest_fixes_what_an_earlier_replacement_introduced() -> None:
    """`→` folds to `->`, which ContextForge 1.0.0 refuses as `> `: a later round appends a
    pair after it, and pairs neither profile needs (`|`, backtick) are dropped again."""
    src = str(fixture("substitutions", "shellish.json"))
    profiles = ("--profile", "ascii-prose", "--profile", "context-forge@1.0.0")
    got = cli("audit", src, *profiles, "--suggest", "--format", "json")
    assert got.code == 0, got
    (doc,) = got.json()["suggestions"]
    pairs = [(p["old"], p["new"]) for p in doc["pairs"]]
    assert pairs.index(("\u2192", "->")) < pairs.index(("> ", ">"))
    assert ("|", "/") not in pairs and ("`", "") not in pairs
    assert doc["clearsAll"] is True and doc["after"]["error"] == 0
    proof = cli("audit", src, *profiles, "--substitutions", doc["substitutions"])
    assert proof.code == 0, proof


def test_audit_substitutions_reports_refusals_for_any_profile(tmp_path: Path) -> None:
    snap = snapshot_of(tmp_path, "substitutions/growth.json", "--protocol", "2025-11-25")
    args = ("audit", str(snap), "--substitutions", "x=y,e=eeeeeeeeee", "--format", "json")
    doc = cli(*args, "--profile", "codex").json()
    refused = [f for f in doc["findings"] if f["ruleId"] == "CA901"]
    assert [(f["identity"], f["pointer"]) for f in refused] == [
        ("long", "/description"),
        ("long", "/inputSchema/properties/q/description"),
    ]
    assert refused[0]["location"]["pointer"].endswith("/description")
    assert "CA901" in {r["id"] for r in doc["rules"]}
    ignored = cli(*args, "--ignore", "CA901").json()
    assert not [f for f in ignored["findings"] if f["ruleId"] == "CA901"]
