"""`diff --schema-only`, `--prose-only`, `--allowlist`, `--summary`, `--expand` (issue 20), on
captures of a real server (server-filesystem) and that capture with its wording rewritten."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from helpers import FIXTURES, ROOT, cli

OLD = str(FIXTURES / "captures" / "server-filesystem-2026.1.14.snapshot.json")
NEW = str(FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json")
MEMORY = str(FIXTURES / "real-servers" / "server-memory.snapshot.json")
SCHEMA = ROOT / "src" / "catalogaudit" / "formatters" / "schemas" / "diff.schema.json"


def _valid(doc: object) -> None:
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(doc)


@pytest.fixture(scope="module")
def reworded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 2026.8.31 capture with only its wording changed (rewritten by the one walker)."""
    out = tmp_path_factory.mktemp("reworded") / "reworded.json"
    made = cli("rewrite", "--substitutions", "file=document,File=Document", "-o", str(out), NEW)
    assert made.code in (0, 1) and out.exists(), str(made)
    return out


def test_schema_only_of_a_wording_change_exits_0_under_fail_on_model_visible(
    reworded: Path,
) -> None:
    everything = cli("diff", NEW, str(reworded), "--fail-on", "model-visible")
    assert everything.code == 1, "the wording change is model-visible without the mode"
    schema = cli("diff", NEW, str(reworded), "--fail-on", "model-visible", "--schema-only",
                 "--format", "json")  # fmt: skip
    assert schema.code == 0, str(schema)
    doc = schema.json()
    _valid(doc)
    assert doc["changes"] == [] and doc["mode"] == "schema"


def test_prose_only_reports_exactly_the_wording_changes(reworded: Path) -> None:
    doc = cli("diff", NEW, str(reworded), "--prose-only", "--format", "json").json()
    _valid(doc)
    got = {(c["identity"], c["pointer"]) for c in doc["changes"]}
    assert {c["ruleId"] for c in doc["changes"]} == {"CA860"}
    # what the walker sees as prose, string by string, in the two files
    old, new = (json.loads(Path(p).read_text()) for p in (NEW, reworded))
    from catalogaudit.walker import visits

    def prose(snap: dict) -> dict:
        return {
            (t["name"], v.pointer): v.text
            for t in snap["listings"]["tools"]["items"]
            for v in visits("tools", t)
        }

    before, after = prose(old), prose(new)
    assert got == {k for k in before if before[k] != after.get(k)}
    assert len(got) == 27


def test_prose_only_ignores_schema_and_annotation_changes_of_a_real_upgrade() -> None:
    result = cli("diff", OLD, NEW, "--prose-only", "--format", "json")
    assert result.code == 0, str(result)
    changes = result.json()["changes"]
    assert [(c["ruleId"], c["identity"], c["pointer"]) for c in changes] == [
        ("CA860", "read_media_file", "/description")
    ]
    schema = cli("diff", OLD, NEW, "--schema-only", "--format", "json").json()
    assert "CA860" not in {c["ruleId"] for c in schema["changes"]}
    assert {"CA850", "CA840"} <= {c["ruleId"] for c in schema["changes"]}


def test_the_modes_exclude_each_other() -> None:
    both = cli("diff", OLD, NEW, "--schema-only", "--prose-only")
    assert both.code == 2 and both.stderr.startswith("error: --schema-only and --prose-only")


def test_allowlist_names_what_it_relies_on_and_makes_it_breaking(tmp_path: Path) -> None:
    allow = tmp_path / "allow.txt"
    allow.write_text("# tools the deployment allows\nread_*\nmove_file\nnot_there\n")
    result = cli("diff", NEW, MEMORY, "--allowlist", str(allow), "--format", "json")
    doc = result.json()
    _valid(doc)
    relied = sorted(c["identity"] for c in doc["changes"] if c["ruleId"] == "CA805")
    assert relied == [
        "move_file",
        "read_file",
        "read_media_file",
        "read_multiple_files",
        "read_text_file",
    ]
    first = next(c for c in doc["changes"] if c["identity"] == "move_file")
    assert f"{allow}:3: move_file" in first["message"] and first["class"] == "breaking"
    # --prose-only looks at wording only, but what the allowlist relies on still breaks
    prose = cli("diff", NEW, MEMORY, "--allowlist", str(allow), "--prose-only")
    assert prose.code == 1 and prose.stdout.count("CA805") == 5
    assert cli("diff", NEW, MEMORY, "--prose-only").code == 0
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    bad = cli("diff", NEW, MEMORY, "--allowlist", str(empty))
    assert bad.code == 2 and "no names" in bad.stderr


def test_summary_prints_one_line_per_class_and_rule() -> None:
    result = cli("diff", OLD, NEW, "--summary")
    # the first line names both inputs (wrapped under itself when long)
    assert re.sub(r"\n {4,}", " ", result.stdout).splitlines()[1:] == [
        "  breaking      CA850     1  hint-toward-danger",
        "  unknown       CA840     1  composition-changed",
        "  model-visible CA860     1  prose-changed",
        "  compatible    CA851    14  hint-toward-safety",
    ]
    assert result.code == 1


def test_spec_default_hints_fold_into_one_cosmetic_line_per_listing(tmp_path: Path) -> None:
    # an upgrade that spells every absent hint out at its spec default (MCP ToolAnnotations)
    defaults = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
                "openWorldHint": True}  # fmt: skip
    snap = json.loads(Path(NEW).read_text())
    snap.pop("wire")
    for tool in snap["listings"]["tools"]["items"]:
        for hint, value in defaults.items():
            tool["annotations"].setdefault(hint, value)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(snap))
    spelled = tmp_path / "spelled.json"
    rehashed = cli("canonicalize", "-o", str(spelled), str(edited))  # hashes recomputed
    assert rehashed.code in (0, 1) and spelled.exists(), str(rehashed)
    plain = cli("diff", NEW, str(spelled), "--format", "json").json()
    _valid(plain)
    folded = [c for c in plain["changes"] if c["ruleId"] == "CA873"]
    assert len(folded) == 1 and folded[0]["class"] == "cosmetic"
    n = len(folded[0]["folded"])
    assert n >= 3 and "(effective value stays" not in json.dumps(
        [c for c in plain["changes"] if c["ruleId"] != "CA873"]
    )
    text = cli("diff", NEW, str(spelled))
    assert text.stdout.count("CA873") == 1, text.stdout
    expanded = cli("diff", NEW, str(spelled), "--expand")
    assert re.sub(r"\n {4,}", " ", expanded.stdout).count("(effective value stays") == n
