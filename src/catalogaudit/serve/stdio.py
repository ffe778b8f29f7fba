"""stdio transport of `catalogaudit serve`: newline-delimited JSON-RPC on stdin and stdout.

P:2025-11-25/basic/transports "stdio" and P:2026-07-28/basic/transports/stdio: one message
per line, nothing but MCP messages on stdout (our own notes go to stderr), and the server
exits when stdin closes. SIGTERM and `--max-seconds` end the run cleanly too.
"""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

from catalogaudit.model import WireDecodeError, decode_utf8, loads
from catalogaudit.serve.lifecycle import Stopped, install_sigterm, stopped
from catalogaudit.serve.replay import error_text

if TYPE_CHECKING:
    from catalogaudit.serve.replay import Replay, ServeOptions

#: Largest line we buffer; a client sending more without a newline is not speaking MCP.
MAX_LINE = 64 * 1024 * 1024


def encode(text: str) -> bytes:
    """UTF-8 bytes of a response; captured invalid UTF-8 (surrogate escapes) goes back raw."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def one_line(text: str) -> str:
    """A response on one line: raw CR/LF can only be whitespace between JSON tokens."""
    if "\n" not in text and "\r" not in text:
        return text
    return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def parse_line(line: bytes) -> tuple[object, str | None]:
    """A message, or (None, error response text) for a line that is not one JSON value."""
    text, _ = decode_utf8(line)
    try:
        return loads(text), None
    except WireDecodeError:
        return None, error_text(None, -32700, "Parse error")


def serve_stdio(replay: Replay, options: ServeOptions) -> int:
    """Answer lines until stdin EOF, SIGTERM or the deadline."""
    deadline = None if options.max_seconds is None else time.monotonic() + options.max_seconds
    out = sys.stdout.buffer
    try:
        install_sigterm()
        why = each_line(
            lambda line: _answer(replay, line, out),
            lambda: _write(out, error_text(None, -32700, "Parse error: line too long")),
            deadline=deadline,
            limit=f"--max-seconds {options.max_seconds or 0:g}",
        )
        return stopped(why)
    except Stopped as exc:
        return stopped(str(exc))
    except BrokenPipeError:
        return stopped("the client closed stdout")


def each_line(
    handle: Callable[[bytes], None],
    too_long: Callable[[], None],
    *,
    deadline: float | None = None,
    limit: str = "",
    wake: int | None = None,
    max_line: int = MAX_LINE,
) -> str:
    """Hand every line of our stdin to `handle` (also `proxy`'s client side) until stdin
    closes or `wake` (a pipe) becomes readable; say which. A line over `max_line` bytes is
    dropped and `too_long` called; Stopped when the monotonic `deadline` passes."""
    fd_in = sys.stdin.fileno()
    watched = [fd_in] if wake is None else [fd_in, wake]
    # NOTE: one growing bytearray, searched for a newline only in what arrived since the last
    # search: a long line costs linear time (bytes `+=` and re-scans were quadratic).
    buf = bytearray()
    scanned = 0
    while True:
        timeout = None if deadline is None else deadline - time.monotonic()
        if timeout is not None and timeout <= 0:
            raise Stopped(f"{limit} reached")
        ready = select.select(watched, [], [], timeout)[0]
        if wake is not None and wake in ready:
            return "woken"
        if not ready:
            continue
        chunk = os.read(fd_in, 1 << 20)
        if not chunk:
            if buf.strip():
                handle(bytes(buf))
            return "stdin closed"
        buf += chunk
        start = 0
        while (nl := buf.find(b"\n", max(start, scanned))) >= 0:
            handle(bytes(buf[start:nl]))
            start = scanned = nl + 1
        del buf[:start]
        scanned = len(buf)
        if len(buf) > max_line:
            buf.clear()
            scanned = 0
            too_long()


def _answer(replay: Replay, line: bytes, out: BinaryIO) -> None:
    if not line.strip():
        return
    msg, problem = parse_line(line.rstrip(b"\r"))
    if problem is not None:
        _write(out, problem)
        return
    if isinstance(msg, list):
        _write(out, error_text(None, -32600, "Invalid Request: batches are not supported"))
        return
    answer = replay.answer(msg)
    if answer.text is not None:
        _write(out, answer.text)


def _write(out: BinaryIO, text: str) -> None:
    out.write(encode(one_line(text)) + b"\n")
    out.flush()
