"""The stdio server of `catalogaudit proxy`: spawned, drained and killed as `StdioTransport`
does (own process group, bounded writes, the reaper), but its lines are relayed, not read.

Every stdout line goes to the relay exactly as served (our client's requests and the server's
requests are the proxy's to route), and the end of stdout is reported as `None`; each stderr
line goes to `errors` (the proxy's stderr, secrets masked), as it would without the proxy.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence

from catalogaudit.wire.stdio import STDERR_KEEP, StdioTransport
from catalogaudit.wire.transport import Limits


class RelayTransport(StdioTransport):
    """One spawned server whose stdout lines are handed on unread."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None,
        env: Mapping[str, str],
        limits: Limits,
        relay: Callable[[bytes | None], None],
        errors: Callable[[bytes], None],
    ) -> None:
        # NOTE: set before the reader threads start in the parent's constructor.
        self._relay = relay
        self._errors = errors
        super().__init__(argv, cwd=cwd, env=env, limits=limits, roots_declared=False)

    def send_line(self, line: str) -> str | None:
        """Write one line as given, bounded by the request timeout; None when written, else
        why not (`timeout`: the server does not read its stdin; `cut`; `closed`)."""
        return self._pipe.write(line, self._limits.until(self._limits.request_timeout))

    @property
    def fatal(self) -> str | None:
        """Why the stdout reader stopped early (a message over the size limit), if it did."""
        return self._fatal

    def exit_story(self) -> str:
        """How the server ended, with its last stderr lines."""
        return self._exit_story()

    def _read_stdout(self) -> None:
        try:
            super()._read_stdout()
        finally:
            self._relay(None)

    def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        fd = self._proc.stderr.fileno()
        buf = bytearray()
        try:
            while chunk := os.read(fd, 1 << 16):
                self._stderr += chunk
                del self._stderr[: max(0, len(self._stderr) - STDERR_KEEP)]
                buf += chunk
                *lines, rest = bytes(buf).split(b"\n")
                buf = bytearray(rest[-STDERR_KEEP:])  # a line without end is cut, not kept
                for line in lines:
                    self._errors(line)
            if buf:
                self._errors(bytes(buf))
        except OSError:
            return

    def _line(self, raw: bytes) -> None:
        if len(raw) > self._limits.max_message:
            self._die(f"a stdout message of {len(raw)} bytes exceeded {self._limits.max_message}")
            return
        self._relay(raw)
