"""The release-gating recipe (docs/release-gating.md, and the README's tour), run end to end
with real servers."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import PYTHON, ROOT, cli, fixture

RAW = str(fixture("servers", "raw_server.py"))
UNSTABLE = str(fixture("servers", "unstable_server.py"))
DOC = ROOT / "docs" / "release-gating.md"
STEP1 = "catalogaudit snapshot --runs 3 -o new.json -- CMD"
STEP2 = "catalogaudit diff catalog.snapshot.json new.json --fail-on model-visible"


def test_the_doc_holds_the_recipe_and_exit_codes() -> None:
    text = DOC.read_text().split("# Release gating", 1)[1].split("\n# ", 1)[0]
    assert f"{STEP1}\n{STEP2}\n" in text
    for code in ("| 0 |", "| 1 |", "| 2 |"):
        assert text.count(code) == 2  # one table per step
    readme = (ROOT / "README.md").read_text().split("### The release gate", 1)[1]
    assert f"{STEP1}\n{STEP2}\n" in readme  # the tour shows the same two steps


def recipe(tmp_path: Path, server: list[str]) -> tuple[int, int | None, str]:
    """Step 1 then step 2, exactly as documented (CMD replaced); step 2 only if step 1 passed."""
    step1 = STEP1.replace("CMD", "").split()[1:]
    snap = cli(*step1, *server, cwd=tmp_path)
    if snap.code != 0:
        return snap.code, None, snap.stderr
    diff = cli(*STEP2.split()[1:], cwd=tmp_path)
    return snap.code, diff.code, diff.stdout + diff.stderr


def baseline(tmp_path: Path, server: list[str]) -> None:
    made = cli("snapshot", "-o", "catalog.snapshot.json", "--", *server, cwd=tmp_path)
    assert made.code == 0, str(made)


@pytest.mark.parametrize(
    ("tools", "step2", "rule"),
    [
        ("3", 0, None),  # unchanged: release
        ("4", 1, "CA804"),  # a new tool: additive, but the model sees it
        ("2", 1, "CA801"),  # a removed tool: breaking
    ],
)
def test_recipe_against_a_committed_snapshot(
    tmp_path: Path, tools: str, step2: int, rule: str | None
) -> None:
    baseline(tmp_path, [PYTHON, RAW, "--tools", "3"])
    step1, code2, out = recipe(tmp_path, [PYTHON, RAW, "--tools", tools])
    assert (step1, code2) == (0, step2), out
    assert (tmp_path / "new.json").exists()
    if rule:
        assert rule in out and "at or above --fail-on model-visible" in out
    else:
        assert "no changes" in out


def test_a_catalog_that_changes_across_restarts_stops_at_step_1(tmp_path: Path) -> None:
    baseline(tmp_path, [PYTHON, UNSTABLE, str(tmp_path / "c0"), "stable"])
    step1, code2, err = recipe(tmp_path, [PYTHON, UNSTABLE, str(tmp_path / "c1"), "order"])
    assert (step1, code2) == (1, None), err
    assert "UNSTABLE" in err
    why = cli("stability", "new.json", cwd=tmp_path)
    assert why.code == 1
    assert 'tool "steady": bytes-only; key order at the top level' in why.stdout
    assert "prompt tokens re-sent uncached" in why.stderr


def test_a_server_that_fails_writes_nothing_and_exits_2(tmp_path: Path) -> None:
    step1, code2, err = recipe(tmp_path, [str(tmp_path / "no-such-server")])
    assert (step1, code2) == (2, None)
    assert "error: cannot start server" in err and not (tmp_path / "new.json").exists()
    missing = cli(*STEP2.split()[1:], cwd=tmp_path)
    assert missing.code == 2 and missing.stderr.startswith("error: catalog.snapshot.json")


def test_breaking_threshold_lets_model_visible_changes_through(tmp_path: Path) -> None:
    baseline(tmp_path, [PYTHON, RAW, "--tools", "3"])
    assert (
        cli(
            "snapshot",
            "--runs",
            "3",
            "-o",
            "new.json",
            "--",
            PYTHON,
            RAW,
            "--tools",
            "4",
            cwd=tmp_path,
        ).code
        == 0
    )
    lenient = cli(
        "diff", "catalog.snapshot.json", "new.json", "--fail-on", "breaking", cwd=tmp_path
    )
    assert lenient.code == 0, str(lenient)
