"""A client's prompt leaves out what it drops at listing time (issue 35): over lattice shapes
where the real client, driven by `verify` (fixtures/lattice/ledger.json), dropped a tool or
failed the tools list (or the whole server), `hash --client C` must not offer that tool, and
its prompt text, hash and tokens (the bill's input) must be those of the tools left.

The expectations are the ledger's observations, not the profile's: a shape the client failed
offers nothing (`[]`, 0 tokens); a shape where it dropped one item offers every other tool.
Gemini CLI's verdicts there were read from its model request ("not declared to the model"),
so for it this is what the model was sent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import cli
from helpers.lattice_drops import FAILED, served, snapshot
from helpers.lattice_drops import cases as lattice_drops

from catalogaudit.canonical.tokens import count

RUNS = ("claude-code@2.1.328", "codex@0.169.0", "gemini-cli@0.61.0", "opencode@1.18.33")
#: How many failed shapes per client (every one would take minutes; they differ only in
#: which defect fails the list).
SAMPLE = 6


def _prompt(shape: Any, run: str, where: Path) -> tuple[dict[str, Any], int]:
    """`hash --client` of the shape's snapshot: the client's prompt, and the tools served."""
    got = cli("hash", snapshot(shape, where), "--client", run, "--format", "json")
    assert got.code == 0, str(got)
    return got.json()["clients"][run.partition("@")[0]], served(shape)


@pytest.mark.parametrize("run", RUNS)
def test_what_a_client_drops_at_listing_time_is_not_in_its_prompt(run: str, tmp_path: Path) -> None:
    cases = lattice_drops(run, SAMPLE)
    assert any(v in FAILED for _, v in cases), run
    wrong: list[str] = []
    for shape, verdict in cases:
        prompt, served = _prompt(shape, run, tmp_path)
        offered = [t for t in prompt["tools"] if t["offered"] == "inline"]
        left_out = [t for t in prompt["tools"] if t["offered"] == "not-offered"]
        want = 0 if verdict in FAILED else served - 1
        if len(offered) != want or len(left_out) != served - want:
            wrong.append(f"{shape.id} ({verdict}): {len(offered)} of {served} offered")
        if any(not t.get("because") for t in left_out):
            wrong.append(f"{shape.id}: a tool left out without a reason")
        if verdict in FAILED and (prompt["tokens"], prompt["inline"]) != (0, 0):
            wrong.append(f"{shape.id}: {prompt['tokens']} tokens for a failed list")
        if verdict not in FAILED:
            # the tokens are those of the offered tools' objects only
            per_tool = sum(t["tokens"] for t in offered)
            if not per_tool or prompt["tokens"] < per_tool or any(t["tokens"] for t in left_out):
                wrong.append(f"{shape.id}: tokens {prompt['tokens']} vs per tool {per_tool}")
    assert not wrong, wrong


def test_a_failed_list_has_the_empty_prompt(tmp_path: Path) -> None:
    """The hash of a prompt without the server's tools is that of `[]` (nothing of it sent)."""
    (shape, _) = next(c for c in lattice_drops("codex@0.169.0", SAMPLE) if c[1] in FAILED)
    prompt, _ = _prompt(shape, "codex@0.169.0", tmp_path)
    import hashlib

    assert prompt["prompt"] == "sha256:" + hashlib.sha256(b"[]").hexdigest()
    assert count("[]") > prompt["tokens"] == 0
