"""stdio wire client: spawn the server in its own process group, speak newline-delimited JSON-RPC.

Our own client rather than the SDK's, because an auditor must keep each line as served (the
SDK re-parses and repairs). Threads drain stdout and stderr so a chatty or flooding server can
never block us; every wait is bounded; shutdown reaches the whole process group (spec:
P:2025-11-25/basic/transports "stdio": close stdin, wait, SIGTERM, SIGKILL).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from catalogaudit.errors import ServerError
from catalogaudit.model import compact, decode_utf8, loads
from catalogaudit.wire import reaper
from catalogaudit.wire.pipe import Pipe, close_quietly
from catalogaudit.wire.transport import (
    Events,
    Inbox,
    Limits,
    Reply,
    ServerExited,
    ServerTimeout,
    answer_server_request,
    classify,
    excerpt,
    seconds,
)

STDERR_KEEP = 64 * 1024
SHUTDOWN_GRACE = 2.0
#: After a failed capture nothing is recorded about the exit, so the server gets less time.
FAILED_GRACE = 0.5
#: A server that asks us something after stdin closed waits for an answer that cannot come
#: (server-everything's roots/list, sent 350 ms after `initialized`, keeps it alive 60 s); it
#: gets this long to exit anyway, then SIGTERM, and CA513 is not its fault.
UNANSWERABLE_GRACE = 0.2


class StdioTransport:
    """One spawned server process."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None,
        env: Mapping[str, str],
        limits: Limits,
        roots_declared: bool,
    ) -> None:
        self.events = Events()
        self._argv = list(argv)
        self._limits = limits
        self._roots = roots_declared
        self._next_id = 0
        self._inbox = Inbox(self.events)
        self._cond = self._inbox.cond
        self._fatal: str | None = None
        self._eof = False
        self._stderr = bytearray()
        self._closed = False
        self._honoured_eof = False
        self._unanswerable_at: float | None = None
        #: Held by the stdout reader while it handles a chunk, and by `close` while it reads
        #: /proc; see `_walk_below`.
        self._hold = threading.Lock()
        try:
            with reaper.spawning() as register:
                self._proc = subprocess.Popen(
                    self._argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=cwd,
                    env=dict(env),
                    start_new_session=True,
                    bufsize=0,
                )
                register(self._proc.pid, self._kill_now)
        except reaper.Aborted:
            raise ServerError(f"{self.describe()}: not started, stopped by a signal") from None
        except FileNotFoundError:
            raise ServerError(f"cannot start {self.describe()}: command not found") from None
        except PermissionError:
            raise ServerError(f"cannot start {self.describe()}: permission denied") from None
        except NotADirectoryError:
            raise ServerError(f"cannot start {self.describe()}: --cwd is not a directory") from None
        except OSError as exc:
            raise ServerError(f"cannot start {self.describe()}: {exc.strerror}") from None
        assert self._proc.stdin is not None
        self._pipe = Pipe(self._proc.stdin)
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for t in self._threads:
            t.start()

    # --- Transport protocol -------------------------------------------------------------------

    def describe(self) -> str:
        """The command, by its program name (no paths or environment in messages)."""
        return f"server '{Path(self._argv[0]).name}'"

    def request(self, method: str, params: dict[str, Any] | None, timeout: float) -> Reply:
        """Send a request and wait (bounded) for the response with the same id."""
        self._next_id += 1
        rid = self._next_id
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        deadline = self._limits.until(timeout)
        self._inbox.expect(rid)
        self._send(msg, method, deadline)

        def check() -> None:
            if self._fatal:
                raise ServerError(f"{self.describe()}, {method}: {self._fatal}")
            if self._eof:
                self._exited(method)

        def timed_out() -> ServerTimeout:
            said = f"no answer within {seconds(timeout)}{self.events.garbage_story()}"
            return ServerTimeout(f"{self.describe()}, {method}: {said}")

        who = self.describe()
        return self._inbox.take(rid, method, deadline, check, timed_out, self._limits, who)

    def notify(self, method: str, params: dict[str, Any] | None) -> None:
        """Send a notification (no answer expected)."""
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._send(msg, method, self._limits.until(self._limits.request_timeout))

    def late_answer(self) -> Reply | None:
        """The answer to the last request that timed out, if it has arrived since."""
        return self._inbox.late_answer(self._limits, self.describe())

    def set_protocol(self, version: str | None, modern: bool) -> None:
        """stdio carries the revision in the messages only."""

    def reset_session(self) -> None:
        """stdio has no transport session; the same process is reused for the fallback."""

    def close(self, failed: bool = False) -> None:
        """Close stdin, wait, then SIGTERM and SIGKILL the whole process group.

        An answer being written when we close is finished first (the write lock), so the
        server never waits on a request we took; a request that arrives after stdin closed is
        unanswerable, and the wait for that server is cut short (`UNANSWERABLE_GRACE`).
        """
        if self._closed:
            return
        self._closed = True
        proc = self._proc
        # NOTE: descendants that left the group (setsid) are found now, while their parent
        # links still lead to the server; orphans re-parented to us are `reaper.at_exit`'s.
        below = self._walk_below()
        try:
            # NOTE: an answer being written gets a moment to end (a server that reads it does
            # not wait on a request we took); one the server does not read is given up.
            self._pipe.close(FAILED_GRACE)
            if reaper.aborted():
                self._kill_now()
            elif self._exits_on_eof(FAILED_GRACE if failed else SHUTDOWN_GRACE):
                self._honoured_eof = True
            else:
                self._signal(signal.SIGTERM)
                try:
                    proc.wait(SHUTDOWN_GRACE)
                except subprocess.TimeoutExpired:
                    self._signal(signal.SIGKILL)
        finally:
            # NOTE: the leader may exit on EOF while children it started live on in its group;
            # the group must not outlive us, so it always gets a final SIGKILL, also when a
            # signal to us (see cli.entry) interrupts the waits above.
            self._kill_now()
            for pid in below:
                reaper.kill(pid)
            reaper.wait(proc, SHUTDOWN_GRACE)
            reaper.forget(proc.pid)
        for t in self._threads:
            t.join(1.0)
        close_quietly(proc.stdout)
        close_quietly(proc.stderr)

    # --- diagnostics ----------------------------------------------------------------------------

    def stderr_tail(self, lines: int = 3) -> str:
        """The last few stderr lines, joined with ' | ', for error messages."""
        text = bytes(self._stderr).decode("utf-8", "replace")
        tail = [ln.strip() for ln in text.splitlines() if ln.strip()][-lines:]
        return " | ".join(excerpt(ln, 200) for ln in tail)

    def exited_by_itself(self) -> bool:
        """After close: whether the server exited on stdin EOF without being signalled."""
        return self._honoured_eof

    def waited_on_us(self) -> bool:
        """After close: the server did not exit because it waited on an unanswerable request."""
        return not self._honoured_eof and self._unanswerable_at is not None

    # --- internals -----------------------------------------------------------------------------

    def _exits_on_eof(self, grace: float) -> bool:
        """Wait up to `grace` for the exit that stdin EOF asks for (less after a late request)."""
        end = time.monotonic() + grace
        while True:
            if self._unanswerable_at is not None:
                end = min(end, self._unanswerable_at + UNANSWERABLE_GRACE)
            left = end - time.monotonic()
            if left <= 0:
                return False
            if reaper.exited(self._proc, min(left, 0.05)):
                return True

    def _walk_below(self) -> list[int]:
        """The server's descendants, read from /proc while the stdout reader holds still.

        The walk makes hundreds of small reads, and each gives up the GIL; a reader busy with
        a flood of stdout lines takes it back every time and keeps it for a switch interval,
        so one walk took up to 14 s (a convoy). The reader is held for a moment instead; the
        server blocks on a full pipe meanwhile, which costs it nothing.
        """
        held = self._hold.acquire(timeout=FAILED_GRACE)
        try:
            return reaper.descendants(self._proc.pid)
        finally:
            if held:
                self._hold.release()

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self._proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def _kill_now(self) -> None:
        """SIGKILL the whole group (also what `reaper.abort` calls from a signal handler)."""
        self._signal(signal.SIGKILL)

    def _write(self, msg: dict[str, Any], until: float) -> str | None:
        """Write one message before the monotonic `until`; None when written, else why not."""
        return self._pipe.write(compact(msg), until)

    def _send(self, msg: dict[str, Any], method: str, until: float) -> None:
        why = self._write(msg, until)
        if why is None:
            return
        if why != "closed" and self._proc.poll() is None:
            raise ServerTimeout(
                f"{self.describe()}, {method}: could not send the request in time (the server "
                "does not read its stdin)" + self.events.garbage_story()
            )
        self._await_exit()
        self._exited(method)

    def _await_exit(self) -> None:
        try:
            self._proc.wait(1.0)
        except subprocess.TimeoutExpired:
            pass
        for t in self._threads:
            t.join(0.5)

    def _exited(self, method: str) -> NoReturn:
        story = self._exit_story(stderr=False)
        read = self._pipe.unread() == 0
        raise ServerExited(f"{self.describe()}, {method}: {self._exit_story()}", story, read)

    def _exit_story(self, stderr: bool = True) -> str:
        code = self._proc.poll()
        if code is None:
            self._await_exit()
            code = self._proc.poll()
        elif stderr:
            self._threads[1].join(0.5)  # NOTE: what it wrote before exiting is still in the pipe
        if code is None:
            story = "the server closed stdout"
        elif code < 0:
            story = f"the server was killed by signal {-code}"
        else:
            story = f"the server exited with status {code}"
        if not stderr:
            return story
        tail = self.stderr_tail()
        return f"{story}; stderr: {tail}" if tail else f"{story} (no stderr output)"

    def _read_stdout(self) -> None:
        assert self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        buf = bytearray()
        limit = self._limits.max_message
        try:
            while True:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                with self._hold:
                    buf += chunk
                    start = 0
                    while True:
                        nl = buf.find(b"\n", start)
                        if nl < 0:
                            break
                        self._line(bytes(buf[start:nl]))
                        start = nl + 1
                    del buf[:start]
                if len(buf) > limit:
                    self._die(f"a stdout message exceeded {limit} bytes without a newline")
                    return
            if buf.strip():
                self._line(bytes(buf))
        except OSError:
            pass
        finally:
            with self._cond:
                self._eof = True
                self._cond.notify_all()

    def _die(self, why: str) -> None:
        with self._cond:
            self._fatal = why
            self._cond.notify_all()

    def _line(self, raw: bytes) -> None:
        if len(raw) > self._limits.max_message:
            self._die(f"a stdout message of {len(raw)} bytes exceeded {self._limits.max_message}")
            return
        text, bad_utf8 = decode_utf8(raw.rstrip(b"\r"))
        if not text.strip():
            return
        if text in self._pipe.sent:
            # NOTE: `cat` and shells read back what we wrote; answering that "request" would
            # make our own -32601 come back as the server's answer.
            what = _what(loads(text))
            self._die(
                f"stdout repeats our own {what} instead of answering (the command echoes "
                "its input: is it an MCP server?)"
            )
            return
        kind, value, members = classify(text, bad_utf8)
        if kind == "refused":
            self._die(f"a stdout message of {len(raw)} bytes cannot be read: {value}")
            return
        if kind == "response" and members is not None:
            self._inbox.put(text, value, members, bad_utf8)
        elif kind == "request":
            # NOTE: runs on the reader thread, which must not stop draining stdout for long:
            # the answer gets one request timeout (cut to the deadline), a closed stdin none.
            self.events.server_request(value["method"])
            until = self._limits.until(self._limits.request_timeout)
            why = self._write(answer_server_request(value, self._roots), until)
            if why is not None and self._unanswerable_at is None:
                self._unanswerable_at = time.monotonic()
        elif kind == "notification":
            self.events.notification(value["method"])
        elif kind == "batch":
            self.events.non_json("[batch] " + text)
        else:
            self.events.non_json(text)

    def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        fd = self._proc.stderr.fileno()
        try:
            while True:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return
                self._stderr += chunk
                if len(self._stderr) > STDERR_KEEP:
                    del self._stderr[: len(self._stderr) - STDERR_KEEP]
        except OSError:
            return


def _what(msg: Any) -> str:
    """`server/discover request` or `notifications/initialized notification` (ours, echoed)."""
    method = msg.get("method") if isinstance(msg, dict) else None
    if not isinstance(method, str):
        return "answer to a server request"
    return f"{method} {'request' if 'id' in msg else 'notification'}"
