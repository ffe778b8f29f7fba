"""`audit --suggest` never deletes letters of any script (the gate issue, item 7).

Before, on a chart server's catalog `--suggest --profile ascii-prose` proposed `万=` and `亿=`,
turning `such as "万亿"` into `such as ""`, and blamed what remained on "a length limit". The
server is a real `mcp` 2.3.0 server over stdio with the same kind of text
(fixtures/servers/cjk_server.py).
"""

from __future__ import annotations

from pathlib import Path

from helpers import PYTHON, SERVERS, cli


def test_suggest_maps_symbols_and_leaves_letters_to_a_human(tmp_path: Path) -> None:
    snap = tmp_path / "cjk.json"
    server = [PYTHON, str(SERVERS / "cjk_server.py"), "stdio"]
    assert cli("snapshot", "-o", str(snap), "--", *server).code == 0
    result = cli("audit", str(snap), "--suggest", "--profile", "ascii-prose", "--format", "json")
    (doc,) = result.json()["suggestions"]
    assert doc["pairs"] == [{"old": "×", "new": "x"}], doc["pairs"]
    assert [f["identity"] for f in doc["cleared"]] == ["chart_size"]
    assert [f["identity"] for f in doc["remaining"]] == ["format_number"]
    assert doc["introduced"] == []
    (note,) = doc["notes"]
    assert "rewrite by hand (ASCII-PROSE-001 tools/format_number)" in note
    assert "(万, 亿)" in note and "length limit" not in note
    assert result.code == 1  # an error remains
