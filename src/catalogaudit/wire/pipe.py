"""The server's stdin as we write it: one line at a time, never blocking past a deadline.

A server that never reads its stdin fills the pipe; a blocking write would then hang the
thread that holds the write lock (the reader thread answering a flood of server requests)
and every thread waiting on that lock. Here the lock is taken with a timeout and the
non-blocking pipe is written as `select()` says it has room, so a write ends by its bound.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections import deque
from typing import IO, Any

#: How many of our own recent lines are remembered to recognise a command that echoes them.
SENT_KEEP = 16
#: How often a blocked write looks whether the pipe is being closed meanwhile.
WRITE_POLL = 0.1


class Pipe:
    """Lines to one server's stdin; thread-safe."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._fd = stream.fileno()
        os.set_blocking(self._fd, False)
        self._lock = threading.Lock()
        self._closing = False
        #: A write gave up halfway through a line: the stream is cut, nothing more can be sent.
        self._cut = False
        self.sent: deque[str] = deque(maxlen=SENT_KEEP)

    def write(self, line: str, until: float) -> str | None:
        """Write `line` and a newline before the monotonic `until`; None when written, else
        why not: `timeout` (no room in time, or closing), `cut` or `closed`."""
        # NOTE: surrogateescape: a relayed line keeps invalid UTF-8 as it came (`proxy`).
        data = memoryview((line + "\n").encode("utf-8", "surrogateescape"))
        whole = len(data)
        if not self._lock.acquire(timeout=max(0.0, until - time.monotonic())):
            return "timeout"
        try:
            if self._cut:
                return "cut"
            self.sent.append(line)
            while data:
                left = until - time.monotonic()
                if self._closing or left <= 0:
                    self._cut = self._cut or len(data) < whole
                    return "timeout"
                try:
                    if not select.select([], [self._fd], [], min(left, WRITE_POLL))[1]:
                        continue
                    data = data[os.write(self._fd, data) :]
                except BlockingIOError:
                    continue
        except (OSError, ValueError):
            return "closed"
        finally:
            self._lock.release()
        return None

    def unread(self) -> int | None:
        """Bytes written that the reader has not read (Linux answers FIONREAD on the write end
        too); None when that cannot be known."""
        try:
            import fcntl
            import struct
            import termios

            got = fcntl.ioctl(self._fd, termios.FIONREAD, b"\0\0\0\0")
            return int(struct.unpack("i", got)[0])
        except (ImportError, OSError, ValueError):
            return None

    def close(self, grace: float) -> None:
        """Close stdin (the server's EOF); a write in progress gets `grace` to end first."""
        self._closing = True
        got = self._lock.acquire(timeout=grace)
        try:
            self._stream.close()
        except OSError:
            pass
        finally:
            if got:
                self._lock.release()


def close_quietly(stream: Any) -> None:
    """Close a pipe end we own, if any; an error there changes nothing for us."""
    try:
        if stream:
            stream.close()
    except OSError:
        pass
