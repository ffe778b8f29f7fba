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
#: The keeper: reads `+PGID` and `-PGID` lines (a server's group started, ended) and, at EOF,
#: SIGKILLs the groups still there. EOF comes when every write end is closed: at our exit, or
#: when the kernel closes them after a SIGKILL to us (the OOM killer, a CI runner's hard kill).
KEEPER = """live=' '
while read -r line; do
  id=${line#?}
  case $line in
    +*) live="$live$id " ;;
    -*) case $live in *" $id "*) live="${live%% $id *} ${live#* $id }" ;; esac ;;
  esac
done
for id in $live; do kill -9 -$id 2>/dev/null; done
"""

_lock = threading.RLock()
_live: dict[int, Callable[[], None]] = {}
_aborted = False
_subreaper: bool | None = None
_keeper: subprocess.Popen[bytes] | None = None


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
        _start_keeper()

        def register(pid: int, kill: Callable[[], None]) -> None:
            _live[pid] = kill
            _tell(f"+{pid}")

        yield register


def forget(pid: int) -> None:
    """The server is gone (its transport closed)."""
    with _lock:
        if _live.pop(pid, None) is not None:
            _tell(f"-{pid}")


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
    _stop_keeper()
    if _subreaper and _has_children():
        kill_descendants()


def _start_keeper() -> None:
    """Start the keeper once (POSIX), in its own session: a signal to our process group, or
    a terminal's, must not reach it. Why not `prctl(PR_SET_PDEATHSIG)` in each server: set
    between fork and exec it needs a `preexec_fn`, which is unsafe with our threads; it fires
    when the spawning thread ends (a `--jobs` worker), not the process; and it reaches the
    server only, not what `sh -c` or an npm wrapper starts in its group."""
    global _keeper
    if _keeper is not None or os.name != "posix" or not os.path.exists("/bin/sh"):
        return
    try:
        _keeper = subprocess.Popen(
            ["/bin/sh", "-c", KEEPER],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        _keeper = None


def _tell(line: str) -> None:
    """One line to the keeper (under `_lock`; shorter than PIPE_BUF, so written whole)."""
    if _keeper is None or _keeper.stdin is None:
        return
    with contextlib.suppress(OSError, ValueError):
        _keeper.stdin.write(f"{line}\n".encode())
        _keeper.stdin.flush()


def _stop_keeper() -> None:
    """Close the keeper's input (every server is closed by now) and reap it."""
    global _keeper
    with _lock:
        keeper, _keeper = _keeper, None
    if keeper is None:
        return
    with contextlib.suppress(OSError, ValueError):
        if keeper.stdin is not None:
            keeper.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        keeper.wait(1.0)


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
