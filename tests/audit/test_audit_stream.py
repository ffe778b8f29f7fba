"""`audit FILE...` reads, audits and drops one file at a time (issue 14: 500 files held
2.8 GiB), with the report the held path writes; names that clash keep the held path."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, ROOT

import catalogaudit as ca
from catalogaudit.audit.engine import AuditOptions, audit
from catalogaudit.formatters.formats import OutputFormat
from catalogaudit.formatters.report import format_report
from catalogaudit.verbs import audit as verb

#: Runs the CLI and prints its own peak RSS (VmHWM, KiB) on stderr's last line: ru_maxrss
#: would keep the forked pytest process's high-water mark.
_PEAK = """
import atexit, sys
def peak():
    with open("/proc/self/status", encoding="ascii") as f:
        sys.stderr.write("".join(l for l in f if l.startswith("VmHWM:")))
atexit.register(peak)
from catalogaudit.cli.entry import main
sys.argv = ["catalogaudit", *sys.argv[1:]]
main()
"""


def _snapshot(tmp: Path, name: str, raw: Path) -> Path:
    path = tmp / name
    path.write_text(ca.load(str(raw)).dumps(), encoding="utf-8")
    return path


def _peak_kib(cwd: Path, *args: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [PYTHON, "-c", _PEAK, "audit", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode in (0, 1), done.stderr
    return int(done.stderr.strip().splitlines()[-1].split()[1])


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_auditing_many_files_holds_one_at_a_time(tmp_path: Path) -> None:
    one = _snapshot(tmp_path, "s0.snapshot.json", FIXTURES / "bench" / "tools100.json")
    names = [one.name]
    for i in range(1, 16):
        shutil.copy(one, tmp_path / f"s{i}.snapshot.json")
        names.append(f"s{i}.snapshot.json")
    alone = _peak_kib(tmp_path, one.name)
    many = _peak_kib(tmp_path, *names)
    # Held (before), the 16 documents, texts and position maps cost 26 MiB more than one
    # file; streamed, 7 MiB (the per-text caches of the prose rules).
    assert many < alone + 14 * 1024, (alone, many)


def _held(o: verb.AuditRunOptions) -> str:
    reports = [audit(c, AuditOptions()) for c in verb.catalogs(o, None)]
    return format_report(verb._merge(reports), OutputFormat.JSON)


def test_streamed_report_equals_the_held_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    caps = FIXTURES / "captures"
    raws = sorted(p for p in caps.glob("*.json"))[:3]
    snaps = [_snapshot(tmp_path, f"c{i}.snapshot.json", p) for i, p in enumerate(raws)]
    raw = tmp_path / "tools.json"
    raw.write_text('{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}')
    inputs = tuple(p.name for p in snaps) + (raw.name,)
    o = verb.AuditRunOptions(inputs=inputs)
    streamed = verb._streamed(o, None, AuditOptions(), False)
    assert streamed is not None
    reports, specs = streamed
    assert format_report(verb._merge(reports), OutputFormat.JSON) == _held(o)
    # each catalog keeps the input it came from (SARIF's repository paths), the raw list too
    assert sorted(specs.values()) == sorted(inputs)


def test_clashing_names_keep_the_held_path(tmp_path: Path) -> None:
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        _snapshot(tmp_path / d, "x.snapshot.json", FIXTURES / "bench" / "tools100.json")
    inputs = (str(tmp_path / "a" / "x.snapshot.json"), str(tmp_path / "b" / "x.snapshot.json"))
    assert verb._streamed(verb.AuditRunOptions(inputs=inputs), None, AuditOptions(), False) is None
