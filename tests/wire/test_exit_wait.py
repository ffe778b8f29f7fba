"""`reaper.exited`: the wait for a server's exit after stdin closes wakes when it exits
(a pidfd), not at the next of `Popen.wait`'s sleeps (issue 14: live snapshot start-to-exit)."""

from __future__ import annotations

import subprocess
import time

from helpers import PYTHON

from catalogaudit.wire import reaper


def _sleeper(seconds: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen([PYTHON, "-c", f"import time; time.sleep({seconds})"])


def test_an_exit_is_seen_when_it_happens() -> None:
    proc = _sleeper(0.3)
    time.sleep(0.1)
    started = time.monotonic()
    assert reaper.exited(proc, 5.0)
    assert proc.returncode == 0
    assert time.monotonic() - started < 1.0


def test_a_server_still_running_is_waited_for_at_most_the_timeout() -> None:
    proc = _sleeper(30)
    try:
        started = time.monotonic()
        assert not reaper.exited(proc, 0.2)
        assert 0.15 < time.monotonic() - started < 2.0
    finally:
        proc.kill()
        proc.wait()
    assert reaper.exited(proc, 0.1)  # reaped already: no pidfd, still True


def test_the_exit_sweep_knows_whether_anything_is_below_us() -> None:
    """`at_exit` skips its two looks through /proc only when we have no child at all (an
    orphan of a server is re-parented to us, so it is our child until reaped)."""
    code = (
        "import subprocess, time\n"
        "from catalogaudit.wire import reaper\n"
        "said = [reaper._has_children()]\n"
        "p = subprocess.Popen(['sleep', '0.3'])\n"
        "said.append(reaper._has_children())\n"
        "time.sleep(0.6)\n"
        "said.append(reaper._has_children())  # a zombie still is a child\n"
        "p.wait()\n"
        "said.append(reaper._has_children())\n"
        "print(said)\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.strip() == "[False, True, True, False]", proc.stdout + proc.stderr
