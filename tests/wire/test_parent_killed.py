"""A SIGKILL to catalogaudit (the OOM killer, a CI runner's hard kill) cannot be caught, yet
its servers must not outlive it (issue 33's hostile run: 1 orphan per run, 3 with `--runs 3
--jobs 3`): the keeper, a `/bin/sh` in its own session, kills every server's process group
when our end of its pipe closes, what `sh -c` started in that group included."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import PYTHON
from helpers.rawservers import assert_gone

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="the keeper is POSIX; tested on Linux"
)


@pytest.mark.parametrize("runs", [1, 3])
def test_a_sigkill_to_catalogaudit_takes_its_servers_along(tmp_path: Path, runs: int) -> None:
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    # a server that reads the probe and never answers, with a grandchild it starts in its group
    # (as npm wrappers do); its pids are written once the probe came, so after catalogaudit
    # told the keeper of the group (a SIGKILL between exec and that is not covered)
    server = f"read -r probe; echo > {pid_dir}/$$; sleep 600 & echo > {pid_dir}/$!; wait"
    proc = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "catalogaudit",
            "snapshot",
            "--runs",
            str(runs),
            "--jobs",
            str(runs),
            "-o",
            str(tmp_path / "s.json"),
            "--",
            "sh",
            "-c",
            server,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while len(os.listdir(pid_dir)) < 2 * runs:
            assert time.monotonic() < deadline, os.listdir(pid_dir)
            assert proc.poll() is None, proc.returncode
            time.sleep(0.05)
        pids = [int(name) for name in os.listdir(pid_dir)]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert_gone(pids, within=5.0)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for name in os.listdir(pid_dir):  # NOTE: not to leave them behind on a failure
            with contextlib.suppress(OSError):
                os.kill(int(name), signal.SIGKILL)
