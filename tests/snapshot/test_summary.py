"""The `snapshot` summary line counts only what was listed in full (the gate issue, item 7):
before, a listing whose call failed was summarised as `resourceTemplates 0`, and one cut short
(a pagination loop) as if complete. Servers of ours over real stdio
(fixtures/servers/raw_server.py).
"""

from __future__ import annotations

from pathlib import Path

from helpers import cli
from helpers.rawservers import FAST, raw


def summary(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "s.json"
    result = cli("snapshot", "-o", str(out), *FAST, *args)
    assert result.code == 0, str(result)
    line = next(ln for ln in result.stderr.splitlines() if ln.startswith("wrote "))
    return line


def test_a_failed_listing_is_not_a_count(tmp_path: Path) -> None:
    line = summary(tmp_path, "--", *raw("--fail-templates"))
    assert "resourceTemplates error (the list call failed)" in line, line
    assert "resourceTemplates 0" not in line
    assert "tools 3, prompts 2, resources 4," in line


def test_a_listing_cut_short_says_so(tmp_path: Path) -> None:
    """A repeated cursor stops the pagination loop after the second page (CA533)."""
    line = summary(tmp_path, "--", *raw("--page-size", "1", "--repeat-cursor"))
    assert "tools 2 (partial: stopped early)" in line, line
