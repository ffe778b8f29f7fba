"""A rewrite replays as the rewrite and nothing else (issue 12, item 5).

Before, a rewritten snapshot had no `wire` section, so `serve` rebuilt its pages from the
readable copy in RFC 8785 key order, and one substituted string on server-filesystem showed as
14 key-order changes (CA861) when the replay was captured and diffed against the input. The
input is the committed capture of @modelcontextprotocol/server-filesystem 2026.8.31.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import PYTHON, SERVERS, cli, fixture, validate_snapshot

FS = fixture("captures", "server-filesystem-2026.8.31.snapshot.json")
SUB = "Get a recursive tree view=Get a recursive tree"
SERVE = [PYTHON, "-m", "catalogaudit", "serve"]


def replay(tmp_path: Path, snap: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "replay.json"
    result = cli("snapshot", "-o", str(out), *args, "--", *SERVE, str(snap), timeout=120)
    assert result.code == 0, str(result)
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def test_a_replayed_rewrite_diffs_as_the_one_substituted_string(tmp_path: Path) -> None:
    out = tmp_path / "rw.json"
    result = cli("rewrite", str(FS), "--substitutions", SUB, "-o", str(out))
    assert result.code == 0, str(result)
    rewritten = json.loads(out.read_text())
    validate_snapshot(rewritten)
    served = replay(tmp_path, out)
    assert served["hashes"] == rewritten["hashes"]  # the replay serves what the rewrite says
    diff = cli("diff", str(FS), str(tmp_path / "replay.json"), "--format", "json")
    changes = diff.json()["changes"]
    assert [(c["ruleId"], c["identity"], c["pointer"]) for c in changes] == [
        ("CA860", "directory_tree", "/description")
    ], str(diff)
    # every other page text is the captured text, byte for byte
    original = json.loads(FS.read_text())
    pages = zip(
        original["wire"]["pages"]["tools"], rewritten["wire"]["pages"]["tools"], strict=True
    )
    assert sum(a != b for a, b in pages) == 1


def test_the_legacy_pages_replay_rewritten_too(tmp_path: Path) -> None:
    snap = tmp_path / "time.json"
    time = str(Path(PYTHON).parent / "mcp-server-time")
    result = cli("snapshot", "-o", str(snap), "--legacy-probe", "--", time, timeout=120)
    assert result.code == 0, str(result)
    out = tmp_path / "rw.json"
    sub = "Get current time in a specific timezone=Get the current time in a time zone"
    result = cli("rewrite", str(snap), "--substitutions", sub, "-o", str(out))
    assert result.code == 0, str(result)
    rewritten = json.loads(out.read_text())
    assert replay(tmp_path, out)["hashes"] == rewritten["hashes"]
    legacy = replay(tmp_path, out, "--protocol", "legacy")
    descriptions = [t["description"] for t in legacy["listings"]["tools"]["items"]]
    assert "Get the current time in a time zone" in descriptions
    assert legacy["wire"]["pages"]["tools"] == rewritten["wire"]["legacy"]["pages"]["tools"]


def test_the_cache_hints_fix_replays_with_its_added_page_fields(tmp_path: Path) -> None:
    example = fixture("captures", "example-server.snapshot.json")
    bare = tmp_path / "bare.json"
    argv = [*SERVE, "--cache-hints", "absent", str(example)]
    assert cli("snapshot", "-o", str(bare), "--", *argv).code == 0
    assert "ttlMs" not in json.loads(bare.read_text())["wire"]["pages"]["tools"][0]
    out = tmp_path / "rw.json"
    assert cli("rewrite", str(bare), "--fix", "cache-hints", "-o", str(out)).code == 0
    rewritten = json.loads(out.read_text())
    served = replay(tmp_path, out)
    assert served["hashes"] == rewritten["hashes"]
    for name in ("tools", "prompts", "resources"):
        fields = served["listings"][name]["pages"][0]["fields"]
        assert (fields["ttlMs"], fields["cacheScope"], fields["resultType"]) == (
            0,
            "private",
            "complete",
        )
        assert fields == rewritten["listings"][name]["pages"][0]["fields"]


def test_an_input_without_wire_gives_a_rewrite_without_wire(tmp_path: Path) -> None:
    snap = tmp_path / "nowire.json"
    server = [PYTHON, str(SERVERS / "example_server.py"), "stdio"]
    assert cli("snapshot", "--no-wire", "-o", str(snap), "--", *server).code == 0
    out = tmp_path / "rw.json"
    assert cli("rewrite", str(snap), "--substitutions", "notes=Notes", "-o", str(out)).code == 0
    doc = json.loads(out.read_text())
    assert "wire" not in doc and doc["capture"]["wire"] == "omitted"
