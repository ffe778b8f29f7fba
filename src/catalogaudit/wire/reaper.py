"""No orphans: every server we start is known here until it is gone, a signal ends them all
at once, and on Linux we are a child subreaper, so a server's descendants that leave its
process group (`setsid()`, a double fork) are re-parented to us and can be killed and reaped.

The process-group kill in `wire.stdio` reaches what stays in the group; `kill_descendants`
reaches the rest through /proc (each process's parent), which the subreaper keeps pointing
at us. Without /proc or prctl (other systems) only the group kill applies.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

#: prctl(2) option: orphaned descendants are re-parented to the caller instead of init.
PR_SET_CHILD_SUBREAPER = 36

_lock = threading.RLock()
_live: dict[int, Callable[[], None]] = {}
_aborted = False
_subreaper: bool | None = None


class Aborted(Exception):
    """A signal ended the command: no new server may start."""


def become_subreaper() -> bool:
    """Ask Linux to re-parent our orphaned descendants to us (once; False where unsupported)."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                _subreaper = False
    return _subreaper


@contextlib.contextmanager
def spawning() -> Iterator[Callable[[int, Callable[[], None]], None]]:
    """Hold the registry while a server starts, so `abort` cannot miss it; refuse after abort.

    Yields `register(pid, kill)`; `kill` must end the server's whole group at once."""
    become_subreaper()
    with _lock:
        if _aborted:
            raise Aborted("stopped by a signal")

        def register(pid: int, kill: Callable[[], None]) -> None:
            _live[pid] = kill

        yield register


def forget(pid: int) -> None:
    """The server is gone (its transport closed)."""
    with _lock:
        _live.pop(pid, None)


def aborted() -> bool:
    """True once a signal ended the command (transports then skip their grace periods)."""
    return _aborted


def abort() -> None:
    """End every live server now and start no more (a signal, or a failed `--jobs` run)."""
    global _aborted
    with _lock:
        _aborted = True
        kills = list(_live.values())
    for kill in kills:
        with contextlib.suppress(OSError):
            kill()
    kill_descendants()


def reset() -> None:
    """The command is over: the next one may start servers (`abort` held for one command)."""
    global _aborted
    with _lock:
        _aborted = False


def kill(pid: int) -> None:
    """SIGKILL one process, if it still exists."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def exited(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait up to `timeout` for the server to exit; True once it has (and is reaped).

    A pidfd (Linux 5.3+) wakes us the moment it exits: `Popen.wait` sleeps up to 50 ms a
    step, and a server that exits some time after stdin closes was found that late."""
    try:
        handle = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # no pidfd here, or the process is gone and reaped
        handle = None
    try:
        if handle is not None:
            select.select([handle], [], [], timeout)
        proc.wait(0 if handle is not None else timeout)
        return True
    except subprocess.TimeoutExpired:
        return False
    finally:
        if handle is not None:
            os.close(handle)


def wait(proc: subprocess.Popen[bytes], grace: float) -> None:
    """Reap a killed server (SIGKILL cannot be ignored; the bound covers a D-state hang)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(grace)


def descendants(root: int | None = None) -> list[int]:
    """Every living process below `root` (default: us), by the parent links in /proc."""
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields and fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_descendants(root: int | None = None) -> None:
    """SIGKILL what lives below `root` (default: us), then reap our own zombies."""
    for _ in range(3):  # a dying parent re-parents its children to us a moment later
        pids = descendants(root)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap()
    _reap()


def _reap() -> None:
    """Collect re-parented orphans that died (zombies whose parent is us and that no `Popen`
    owns: a `Popen` must still see its own child's status)."""
    if not _subreaper:
        return
    me = str(os.getpid()).encode()
    with _lock:
        owned = set(_live)
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit() and int(e) not in owned]
    except OSError:
        return
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[:2] == [b"Z", me]:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(int(entry), os.WNOHANG)


def at_exit() -> None:
    """The command is ending: no descendant of ours may outlive it."""
    if _subreaper and _has_children():
        kill_descendants()


def _has_children() -> bool:
    """Whether any process is our child, living or a zombie (False: nothing is below us).

    Why: the look through /proc reads every process's stat file, twice, after the server
    exited (the user waits for it); and every process below us has an ancestor that is our
    child, since as their subreaper we inherit each orphan before its parent is a zombie."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    except (AttributeError, OSError):  # no waitid here: look through /proc as before
        return True
    return True
