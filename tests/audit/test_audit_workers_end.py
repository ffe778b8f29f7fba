"""`audit --jobs` ends with its workers: a dead worker is one `error:` line, not a hang, and a
signal to the command stops every worker at once (none finishes its chunk or outlives it).

Real processes: what is tested is how processes end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, ROOT

import catalogaudit as ca

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="workers fork on Linux only; reads /proc"
)


def _children(pid: int) -> list[int]:
    """The live processes whose parent is `pid` (from /proc/*/stat)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while listed
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _started(tmp_path: Path, count: int = 400) -> tuple[subprocess.Popen[str], list[int]]:
    """`audit --jobs 2` on `count` snapshots of the 100-tool catalog, once both workers run."""
    one = tmp_path / "s000.snapshot.json"
    one.write_text(ca.load(str(FIXTURES / "bench" / "tools100.json")).dumps(), encoding="utf-8")
    for i in range(1, count):
        os.link(one, tmp_path / f"s{i:03}.snapshot.json")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    names = sorted(p.name for p in tmp_path.glob("*.snapshot.json"))
    proc = subprocess.Popen(
        [PYTHON, "-m", "catalogaudit", "audit", "--jobs", "2", *names],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while len(workers := _children(proc.pid)) < 2:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    return proc, workers


def _ended(proc: subprocess.Popen[str], workers: list[int]) -> str:
    """The command's stderr once it exited with 2, every worker gone."""
    try:
        _, err = proc.communicate(timeout=30)  # NOTE: a bound on a hang, not a timing
    finally:
        proc.kill()
    assert proc.returncode == 2, err
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or _state(pid) == "Z", f"worker {pid} outlived"
    return err


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_worker_that_dies_is_one_error_line(tmp_path: Path, sig: signal.Signals) -> None:
    proc, workers = _started(tmp_path)
    os.kill(workers[0], sig)
    err = _ended(proc, workers)
    assert err.startswith("error: a --jobs worker process died"), err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_signal_to_the_command_stops_its_workers(tmp_path: Path) -> None:
    proc, workers = _started(tmp_path)
    proc.send_signal(signal.SIGTERM)
    err = _ended(proc, workers)
    assert err == "error: terminated by SIGTERM; no partial file written\n", err


def test_a_worker_signalled_as_it_starts_is_one_error_line(tmp_path: Path) -> None:
    """A worker starts with the command's handlers, which raise: until it has put the
    defaults back, the signal waits (each round signals the first worker the moment it is
    seen, which printed a traceback in most rounds before)."""
    for n in range(5):
        where = tmp_path / str(n)
        where.mkdir()
        one = where / "s00.snapshot.json"
        one.write_text(ca.load(str(FIXTURES / "bench" / "tools100.json")).dumps(), "utf-8")
        for i in range(1, 40):
            os.link(one, where / f"s{i:02}.snapshot.json")
        names = sorted(p.name for p in where.glob("*.snapshot.json"))
        proc = subprocess.Popen(
            [PYTHON, "-m", "catalogaudit", "audit", "--jobs", "2", *names],
            cwd=where,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        while not (workers := _children(proc.pid)):
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        os.kill(workers[0], signal.SIGTERM)
        err = _ended(proc, workers)
        assert err.startswith("error: a --jobs worker process died"), err
        assert err.count("\n") == 1 and "Traceback" not in err, err
