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
    fd_in = sys.stdin.fileno()
    out = sys.stdout.buffer
    # NOTE: one growing bytearray, searched for a newline only in what arrived since the last
    # search: a long line costs linear time (bytes `+=` and re-scans were quadratic).
    buf = bytearray()
    scanned = 0
    try:
        install_sigterm()
        while True:
            timeout = None if deadline is None else deadline - time.monotonic()
            if timeout is not None and timeout <= 0:
                raise Stopped(f"--max-seconds {options.max_seconds:g} reached")
            if not select.select([fd_in], [], [], timeout)[0]:
                continue
            chunk = os.read(fd_in, 1 << 20)
            if not chunk:
                if buf.strip():
                    _answer(replay, bytes(buf), out)
                return stopped("stdin closed")
            buf += chunk
            start = 0
            while (nl := buf.find(b"\n", max(start, scanned))) >= 0:
                _answer(replay, bytes(buf[start:nl]), out)
                start = scanned = nl + 1
            del buf[:start]
            scanned = len(buf)
            if len(buf) > MAX_LINE:
                buf.clear()
                scanned = 0
                _write(out, error_text(None, -32700, "Parse error: line too long"))
    except Stopped as exc:
        return stopped(str(exc))
    except BrokenPipeError:
        return stopped("the client closed stdout")


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
