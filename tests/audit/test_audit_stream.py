"""`audit FILE...` reads, audits and drops one file at a time (issue 14: 500 files held
2.8 GiB), with the report the held path writes; names that clash keep the held path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, ROOT, cli

import catalogaudit as ca
from catalogaudit.auditing.engine import AuditOptions, audit
from catalogaudit.formatters.formats import OutputFormat
from catalogaudit.formatters.report import format_report
from catalogaudit.verbs import audit as verb
from catalogaudit.verbs import fanout

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


def _copies(tmp: Path, count: int) -> list[str]:
    """`count` copies of the snapshot of the 100-tool bench catalog: s00.snapshot.json, ..."""
    names = [f"s{i:02}.snapshot.json" for i in range(count)]
    one = _snapshot(tmp, names[0], FIXTURES / "bench" / "tools100.json")
    for name in names[1:]:
        shutil.copy(one, tmp / name)
    return names


def _peak_kib(cwd: Path, *args: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [PYTHON, "-c", _PEAK, "audit", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode in (0, 1), done.stderr
    return int(done.stderr.strip().splitlines()[-1].split()[1])


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_auditing_many_files_holds_one_at_a_time(tmp_path: Path) -> None:
    names = _copies(tmp_path, 16)
    alone = _peak_kib(tmp_path, names[0])
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


def _cli(cwd: Path, *args: str) -> tuple[int, str, str]:
    done = cli("audit", *args, cwd=cwd, env={"COLUMNS": "100"})
    return done.code, done.stdout, done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_workers_write_the_one_process_report(tmp_path: Path, fmt: str) -> None:
    # Real servers' snapshots (server-filesystem, the example server) and one raw list,
    # which is merged and audited last, in this process.
    caps = sorted((FIXTURES / "captures").glob("*.snapshot.json"))
    assert len(caps) >= 3
    names = [f"c{i:02}.snapshot.json" for i in range(10)]
    for i, name in enumerate(names):
        shutil.copy(caps[i % len(caps)], tmp_path / name)
    raw = tmp_path / "tools.json"
    raw.write_text('{"tools": [{"name": "a b", "inputSchema": {"type": "object"}}]}')
    inputs = [*names[:5], raw.name, *names[5:]]
    args = ("--format", fmt, "--fail-on", "info")
    one = _cli(tmp_path, *args, "--jobs", "1", *inputs)
    assert one[0] == 1 and "CA520" in one[1] and "tools.json" in one[1], one
    assert _cli(tmp_path, *args, "--jobs", "3", *inputs) == one
    assert _cli(tmp_path, *args, *inputs) == one  # 11 inputs: one worker per CPU


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_a_bad_file_among_many_is_the_one_process_error(tmp_path: Path) -> None:
    names = _copies(tmp_path, 10)
    (tmp_path / "s04.snapshot.json").write_text('{"formatVersion": 1, "listings": ')
    (tmp_path / "s07.snapshot.json").write_text("[]")
    alone = _cli(tmp_path, "--jobs", "1", *names)
    assert alone[0] == 2 and alone[2].startswith("error: ") and alone[2].count("\n") == 1
    assert "s04" in alone[2] and "Traceback" not in alone[2]
    assert _cli(tmp_path, "--jobs", "2", *names) == alone


def test_how_many_workers() -> None:
    many = tuple(f"f{i}.snapshot.json" for i in range(fanout.MANY))
    linux = sys.platform.startswith("linux")
    assert fanout.workers(0, many[:-1]) == 1  # too few to be worth a fork
    assert fanout.workers(3, many[:2]) == (2 if linux else 1)  # never more than the inputs
    assert fanout.workers(2, (*many, "-")) == 1  # stdin is read once, here
    assert fanout.workers(1, many) == 1
    if linux:
        assert fanout.workers(0, many) == len(os.sched_getaffinity(0))
