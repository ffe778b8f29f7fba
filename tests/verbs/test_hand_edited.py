"""One hand-edited snapshot through every verb that reads catalogs: the `wire` section is what
the server sent, so every verb says the same warning and reaches the verdict it reaches on the
untouched snapshot (the house issue, item 3).

Before, `audit` checked the edited readable copy ("No findings", exit 0) while `hash` and
`canonicalize` rebuilt from the wire copy and `diff` compared served items: an error fixed by
hand in the readable items switched the gate off.

The snapshot is captured from the bundled example server (mcp 2.3.0 over real stdio); its
`search_notes` tool has a `;` in a nested schema description, an error for `ascii-prose`.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, SERVERS, cli
from helpers.positions import raw_positions

EDITED_TOOL = "search_notes"


def warning(path: Path, listing: str = "tools") -> str:
    return (
        f"warning: {path}: listings.{listing}: the readable items differ from the wire "
        "section; using the wire copy"
    )


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The example server's snapshot, and a copy whose readable `;` was "fixed" by hand."""
    root = tmp_path_factory.mktemp("hand-edited")
    original = root / "original.json"
    result = cli(
        "snapshot", "-o", str(original), "--", PYTHON, str(SERVERS / "example_server.py"), "stdio"
    )
    assert result.code == 0, str(result)
    doc = json.loads(original.read_text())
    tools = doc["listings"]["tools"]["items"]
    target = next(t for t in tools if t["name"] == EDITED_TOOL)
    text = json.dumps(target)
    assert ";" in text, "the example server no longer has the nested ';'"
    tools[tools.index(target)] = json.loads(text.replace(";", ","))
    edited = root / "edited.json"
    edited.write_text(json.dumps(doc, indent=2))
    return original, edited


def both(snapshots: tuple[Path, Path], *args: str, cwd: Path | None = None) -> tuple[Any, Any]:
    """Run a verb on the original and on the edited snapshot (placeholder `{}` in `args`)."""
    original, edited = snapshots
    runs = []
    for path in (original, edited):
        argv = [str(path) if a == "{}" else a for a in args]
        runs.append(cli(*argv, cwd=cwd or path.parent))
    return runs[0], runs[1]


def assert_warned(snapshots: tuple[Path, Path], before: Any, after: Any) -> None:
    original, edited = snapshots
    assert warning(original) not in before.stderr
    assert after.stderr.splitlines().count(warning(edited)) == 1, str(after)
    assert "listings.prompts" not in after.stderr, "only the edited listing is reported"


def test_audit_checks_the_wire_copy(snapshots: tuple[Path, Path]) -> None:
    before, after = both(snapshots, "audit", "{}", "--profile", "ascii-prose", "--format", "json")
    assert_warned(snapshots, before, after)
    assert before.code == after.code == 1, str(after)
    found = [(f["ruleId"], f.get("identity"), f.get("pointer")) for f in after.json()["findings"]]
    assert found == [
        (f["ruleId"], f.get("identity"), f.get("pointer")) for f in before.json()["findings"]
    ]
    assert any(identity == EDITED_TOOL for _, identity, _ in found), found


def test_hash_is_the_hash_of_what_was_served(snapshots: tuple[Path, Path]) -> None:
    before, after = both(snapshots, "hash", "{}", "--format", "json")
    assert_warned(snapshots, before, after)
    assert before.code == after.code == 0
    old, new = before.json(), after.json()
    assert (old["catalog"], old["listings"]) == (new["catalog"], new["listings"])


def test_canonicalize_restores_the_served_form(snapshots: tuple[Path, Path]) -> None:
    before, after = both(snapshots, "canonicalize", "{}")
    assert_warned(snapshots, before, after)
    assert before.code == after.code == 0
    assert after.stdout == before.stdout == snapshots[0].read_text()


def test_diff_and_stability_compare_what_was_served(snapshots: tuple[Path, Path]) -> None:
    original, edited = snapshots
    result = cli("diff", str(original), str(edited), "--format", "json")
    assert result.stderr.splitlines().count(warning(edited)) == 1, str(result)
    assert result.code == 0 and result.json()["changes"] == [], str(result)
    result = cli("stability", str(original), str(edited), "--format", "json")
    assert result.stderr.splitlines().count(warning(edited)) == 1, str(result)
    assert result.code == 0 and result.json()["stable"] is True, str(result)


def test_rewrite_derives_from_the_wire_copy(snapshots: tuple[Path, Path]) -> None:
    original, edited = snapshots
    outs = []
    for path in (original, edited):
        out = path.with_suffix(".rewritten.json")
        result = cli("rewrite", str(path), "--fix", "codex-app", "-o", str(out), "--format", "json")
        assert result.code in (0, 1), str(result)
        assert (warning(path) in result.stderr) is (path == edited), str(result)
        outs.append((json.loads(out.read_text())["listings"], result.code))
    assert outs[0] == outs[1]


def _served(path: Path) -> tuple[list[str], str]:
    """What `serve` answers over stdio to discover + tools/list, and its stderr."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
    }
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}},
    ]
    proc = subprocess.run(
        [PYTHON, "-m", "catalogaudit", "serve", str(path), "--max-seconds", "60"],
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines(), proc.stderr


def test_serve_replays_the_wire_copy(snapshots: tuple[Path, Path]) -> None:
    original, edited = snapshots
    lines, err = _served(original)
    edited_lines, edited_err = _served(edited)
    assert warning(original) not in err
    assert edited_err.splitlines().count(warning(edited)) == 1, edited_err
    assert len(lines) == 2 and edited_lines == lines
    assert ";" in lines[1]


def test_verify_warns_before_the_client_and_predicts_from_the_wire(
    snapshots: tuple[Path, Path],
) -> None:
    before, after = both(
        snapshots, "verify", "{}", "--client", "python-sdk", "--client-path", PYTHON,
        "--format", "json",
    )  # fmt: skip
    assert_warned(snapshots, before, after)
    assert before.code == after.code == 0, str(after)
    assert after.stderr.index(warning(snapshots[1])) == 0, "warned before anything else"

    def rows(result: Any) -> list[dict[str, Any]]:
        return [
            {k: v for k, v in o.items() if k != "catalog"} for o in result.json()["observations"]
        ]

    assert rows(before) == rows(after) and rows(before)
    assert before.json()["matches"] is after.json()["matches"] is True


def test_a_snapshot_without_wire_uses_its_readable_items(snapshots: tuple[Path, Path]) -> None:
    original, edited = snapshots
    doc = json.loads(edited.read_text())
    del doc["wire"]
    bare = edited.with_name("bare.json")
    bare.write_text(json.dumps(doc))
    result = cli("audit", str(bare), "--profile", "ascii-prose", "--format", "json")
    assert "the wire section" not in result.stderr
    assert all(f.get("identity") != EDITED_TOOL for f in result.json()["findings"]), str(result)


def _lines(run: Any) -> list[tuple[str, Any, Any]]:
    return [
        (f["location"]["pointer"], f["location"].get("line"), f["location"].get("column"))
        for f in run.json()["findings"]
    ]


def test_audit_lines_follow_a_reformatted_snapshot(
    snapshots: tuple[Path, Path], tmp_path: Path
) -> None:
    """A snapshot reindented by hand (same document) keeps line and column on its findings,
    where its own text has them; the edited copy, rebuilt from the wire, has none (its
    readable text no longer holds what is audited), nor has a file with a duplicate key."""
    original, edited = snapshots
    text = original.read_text(encoding="utf-8")
    reformatted = tmp_path / "reformatted.json"
    reformatted.write_text(json.dumps(json.loads(text), indent="\t", separators=(",", " : ")))
    duplicated = tmp_path / "duplicated.json"
    duplicated.write_text(text.replace("{", '{\n  "formatVersion": 1,', 1))
    args = ("--profile", "ascii-prose", "--format", "json")
    runs = [cli("audit", str(p), *args, cwd=tmp_path) for p in (original, reformatted)]
    before, after = (_lines(r) for r in runs)
    assert [p for p, _, _ in before] == [p for p, _, _ in after] and before, before
    assert all(line is not None for _, line, _ in before + after), after
    where = raw_positions(reformatted.read_text(encoding="utf-8"))
    assert [(p, where[p][0], where[p][1]) for p, _, _ in after] == after
    assert after != before  # the lines moved with the layout
    for path in (edited, duplicated):
        found = _lines(cli("audit", str(path), *args, cwd=tmp_path))
        assert found and all(line is None for _, line, _ in found), found
