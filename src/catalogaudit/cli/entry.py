"""The console entry point: signals, the one-line errors, and the typer app that parses.

`main(argv)` is also how tests and embedding programs run a command in-process: what it
changes in the interpreter (signal handlers, the integer-digit limit) it puts back.
"""

from __future__ import annotations

import signal
import sys
from typing import Any, NoReturn

from catalogaudit.errors import CatalogauditError


def fail(message: str) -> NoReturn:
    """One `error:` line on stderr, exit 2."""
    # NOTE: messages quote servers (bodies, stderr tails, lines): controls are shown escaped,
    # so no byte a server chose reaches the terminal and the error stays one line. The import
    # is lazy: every start-up imports this module.
    from catalogaudit.model import EXIT_ERROR, visible

    sys.stderr.write(f"error: {visible(message, keep='')}\n")
    sys.stderr.flush()
    raise SystemExit(EXIT_ERROR)


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
    raise Terminated(f"terminated by {signal.Signals(signum).name}; no partial file written")


class Interrupted(CatalogauditError):
    """SIGINT (Ctrl-C): `error: interrupted`, exit 2, as documented (typer would exit 130)."""


def _on_sigint(signum: int, frame: Any) -> None:
    _end_servers()
    raise Interrupted("interrupted")


def _handle_signals() -> dict[int, Any]:
    """Install our handlers; the ones they replace, to put back."""
    previous: dict[int, Any] = {}
    try:
        for sig in _ENDING:
            previous[sig] = signal.signal(sig, _on_signal)
        # NOTE: only where SIGINT is not ignored (a background job of a shell keeps it so).
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, _on_sigint)
    except ValueError:
        pass  # not the main thread (embedded use)
    return previous


def main(argv: list[str] | None = None) -> int:
    """Console entry point: one `error: ...` line and exit 2 for every expected failure."""
    args = list(sys.argv[1:] if argv is None else argv)
    head = args[: args.index("--")] if "--" in args else args
    show_traceback = "--traceback" in head
    from catalogaudit.model import MAX_INT_DIGITS  # NOTE: not jsonwire: start-up

    digits = sys.get_int_max_str_digits()
    if 0 < digits < MAX_INT_DIGITS:
        sys.set_int_max_str_digits(MAX_INT_DIGITS)  # JSON integers of any length up to it
    previous = _handle_signals()
    try:
        return _main(args, show_traceback)
    finally:
        # NOTE: servers' descendants that left their group were re-parented to us: none may
        # outlive the program (verbs.live.at_exit, when a capture loaded it).
        live = sys.modules.get("catalogaudit.verbs.live")
        if live is not None:
            live.at_exit(program=argv is None)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sys.set_int_max_str_digits(digits)
        if argv is None:
            # NOTE: the process ends next (the console script, `python -m catalogaudit`):
            # frozen objects are skipped by the interpreter's last garbage collection, which
            # a live snapshot's user waits for after the server exited. Cyclic garbage is then
            # not finalized; every file we write is closed.
            import gc

            gc.freeze()


def _main(args: list[str], show_traceback: bool) -> int:
    """Parse and run with typer; every failure but a bug's traceback ends in one line."""
    import typer

    from catalogaudit.cli import root
    from catalogaudit.cli.app import app
    from catalogaudit.cli.helptext import plain

    root.AFTER_DASH = args[args.index("--") + 1 :] if "--" in args else None
    command = plain(typer.main.get_command(app))
    for param in command.params:
        if param.name in ("install_completion", "show_completion"):
            param.callback = _named_shell(args, param.callback)
    try:
        result = command.main(args=args, prog_name="catalogaudit", standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except typer.Abort:
        fail("interrupted")  # end of input at a prompt (click wrote the blank line)
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            # NOTE: building the error rendered the help: rich help prints it then (and the
            # message is empty), plain help returns it as the message; never both.
            text = exc.format_message() if hasattr(exc, "format_message") else ""
            if text:
                sys.stdout.write(text + "\n")
            return 0
        if show_traceback:
            raise
        fail(_one_line(exc))
    return result if isinstance(result, int) else 0


def _one_line(exc: Exception) -> str:
    """The `error:` line of a failure: ours, a usage error, or a bug's."""
    from typer.exceptions import TyperException

    if isinstance(exc, CatalogauditError):
        return str(exc)
    if isinstance(exc, TyperException):
        # NOTE: typer >= 0.28 vendors click; its usage errors all derive from TyperException.
        return (exc.format_message().splitlines() or [type(exc).__name__])[0]
    if isinstance(exc, RecursionError):
        # NOTE: JSON nested about as deep as Python's stack (~1,000 frames) parses, but the
        # walks over it (audit, rewrite, diff, canonical form) cannot follow it that far.
        return "the input nests too deeply to process (JSON nested about 900 levels or more)"
    return f"internal error: {type(exc).__name__}: {exc} (rerun with --traceback)"


#: The shells typer writes completion scripts for.
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _named_shell(args: list[str], callback: Any) -> Any:
    """Typer's `--show-completion`/`--install-completion` callback given the shell the word
    after the flag names. Typer declares both as flags when shellingham is installed (they take
    no value) and guesses the shell from the process's ancestors, so a named shell was ignored,
    and a detached process (no shell among them) got "Shell  not supported."."""

    def named(ctx: Any, param: Any, value: Any) -> Any:
        flag = param.opts[0]
        after = args[args.index(flag) + 1 :] if value and flag in args else []
        shell = after[0] if after and not after[0].startswith("-") else value
        if isinstance(shell, str) and shell not in SHELLS:
            from catalogaudit.errors import UsageError

            raise UsageError(f"{flag} {shell}: not a shell typer completes ({', '.join(SHELLS)})")
        return callback(ctx, param, shell)

    return named
