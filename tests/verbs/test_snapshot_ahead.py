"""`snapshot --from` of a big catalog renders it in a forked child while it hashes
(`snapshot.build.build_rendered`): the file, or stdout, is the bytes one process writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import cli_process

from catalogaudit.snapshot import build as snap
from catalogaudit.verbs import fanout
from catalogaudit.verbs.live import SnapshotOptions
from catalogaudit.verbs.snapshot import snapshot


def _big(path: Path) -> Path:
    prose = 'Résumé \U0001f600 \ue000 "q" \\ ' * 60
    tools = [
        {"name": f"t{i:04}", "description": prose, "inputSchema": {"type": "object", "n": 2.5}}
        for i in range(1500, 0, -1)
    ]
    text = json.dumps({"tools": tools}, ensure_ascii=False)
    assert len(text) > snap.BIG
    path.write_text(text.replace('"n": 2.5', '"n": 2.50', 7), encoding="utf-8")
    return path


def _run(source: Path, out: Path) -> bytes:
    assert snapshot(SnapshotOptions(static_inputs=(str(source),), output=str(out))) == 0
    return out.read_bytes()


def test_forked_and_alone_write_the_same_bytes(tmp_path: Path, monkeypatch: Any) -> None:
    source = _big(tmp_path / "big.json")
    rendered: list[bool] = []
    real = snap.write

    def write(doc: Any, fh: Any, ahead: Any = None) -> int:
        rendered.append(bool(ahead and ahead.parts))
        return real(doc, fh, ahead)

    monkeypatch.setattr(snap, "write", write)
    monkeypatch.setattr(fanout, "cpus", lambda jobs: 2)
    forked = _run(source, tmp_path / "forked.json")
    monkeypatch.setattr(fanout, "cpus", lambda jobs: 1)
    alone = _run(source, tmp_path / "alone.json")
    assert rendered == [True, False]
    assert forked == alone
    got = cli_process("snapshot", "--from", str(source), "-o", "-")  # a real process, to stdout
    assert got.code == 0, got
    assert got.stdout.encode("utf-8") == alone
