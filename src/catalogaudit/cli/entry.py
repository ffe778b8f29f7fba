"""The console entry point: signals, the one-line errors, and which parser runs.

Why a module apart from `cli.app`: typer (and the pydantic it loads when it runs a command)
costs more start-up time than a whole `hash` of a real-sized catalog, so the hot offline verbs
are parsed by `cli.fast` when their command line is plain, and `cli.app` (typer) is imported
only for everything else: help, other verbs, and every command line `cli.fast` does not accept.
"""

from __future__ import annotations

import errno
import signal
import sys
from typing import Any

from catalogaudit.cli.failing import fail
from catalogaudit.errors import CatalogauditError


class Terminated(CatalogauditError):
    """A signal arrived; raised in the main thread so `finally` blocks stop our servers."""


#: Signals that end a run with cleanup (SIGINT keeps Python's KeyboardInterrupt).
_ENDING = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name)
)


def _end_servers() -> None:
    """Kill every live server at once and start no more (`verbs.live.abort`, when loaded)."""
    live = sys.modules.get("catalogaudit.verbs.live")
    if live is not None:
        live.abort()


def _on_signal(signum: int, frame: Any) -> None:
    for sig in (*_ENDING, signal.SIGINT):  # a second signal must not cut the cleanup short
        signal.signal(sig, signal.SIG_IGN)
    _end_servers()
    raise Terminated(f"terminated by {signal.Signals(signum).name}; nothing written")


class Interrupted(CatalogauditError):
    """SIGINT (Ctrl-C): `error: interrupted`, exit 2, as documented (typer would exit 130)."""


def _on_sigint(signum: int, frame: Any) -> None:
    _end_servers()
    raise Interrupted("interrupted")


def main(argv: list[str] | None = None) -> int:
    """Console entry point: one `error: ...` line and exit 2 for every expected failure."""
    args = list(sys.argv[1:] if argv is None else argv)
    head = args[: args.index("--")] if "--" in args else args
    show_traceback = "--traceback" in head
    from catalogaudit.model.wiretypes import MAX_INT_DIGITS  # NOTE: not jsonwire: start-up

    if 0 < sys.get_int_max_str_digits() < MAX_INT_DIGITS:
        sys.set_int_max_str_digits(MAX_INT_DIGITS)  # JSON integers of any length up to it
    try:
        for sig in _ENDING:
            signal.signal(sig, _on_signal)
        # NOTE: only where SIGINT is not ignored (a background job of a shell keeps it so).
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_sigint)
    except ValueError:
        pass  # not the main thread (embedded use)
    try:
        return _main(args, show_traceback)
    finally:
        # NOTE: servers' descendants that left their group were re-parented to us: none may
        # outlive the command (verbs.live.at_exit, when a capture loaded it).
        live = sys.modules.get("catalogaudit.verbs.live")
        if live is not None:
            live.at_exit()
        if argv is None:
            # NOTE: the process ends next (the console script, `python -m catalogaudit`):
            # frozen objects are skipped by the interpreter's last garbage collection, 10 to
            # 15 ms of every command, which a live snapshot's user waits for after the server
            # exited. Cyclic garbage is then not finalized; every file we write is closed.
            import gc

            gc.freeze()


#: The words after `--` on this command line (None: no `--`): click folds them into the
#: positional arguments, and `verify --model -- COMMAND` must tell a command from snapshots.
AFTER_DASH: list[str] | None = None


def _main(args: list[str], show_traceback: bool) -> int:
    from catalogaudit.cli import fast

    global AFTER_DASH
    AFTER_DASH = args[args.index("--") + 1 :] if "--" in args else None

    call = fast.parse(args)
    if call is None:
        from catalogaudit.cli import app

        return app.run_typer(args, show_traceback)
    try:
        return _as_typer_runs(call)
    except CatalogauditError as exc:
        if show_traceback:
            raise
        fail(str(exc))
    except RecursionError:
        if show_traceback:
            raise
        fail("the input nests too deeply to process (JSON nested about 900 levels or more)")
    except Exception as exc:  # a bug: still one line unless asked for the trace
        if show_traceback:
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} (rerun with --traceback)")


def _as_typer_runs(call: Any) -> int:
    """Run a `cli.fast` call the way typer's command runner would have run its command.

    NOTE: typer turns Ctrl-C into exit 130 with no message, end of input into a blank line
    and `error: interrupted`, and a closed stdout (EPIPE) into exit 1 with no traceback.
    """
    try:
        return int(call())
    except KeyboardInterrupt:
        fail("interrupted")  # as documented: exit 2 (typer would exit 130)
    except EOFError:
        sys.stderr.write("\n")
        sys.stderr.flush()
        fail("interrupted")
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout = _Pacified(sys.stdout)
        sys.stderr = _Pacified(sys.stderr)
        raise SystemExit(1) from None


class _Pacified:
    """A stream whose `flush` ignores a closed pipe (so exit does not print a traceback)."""

    def __init__(self, wrapped: Any) -> None:
        self._wrapped = wrapped

    def flush(self) -> None:
        try:
            self._wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._wrapped, name)


__all__ = ["Interrupted", "Terminated", "main"]
