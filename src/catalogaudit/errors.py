"""Exceptions: every expected failure is a `CatalogauditError`, printed as one line."""

from __future__ import annotations

#: Exit codes shared by every verb (documented in the README; `model.findings` re-exports
#: them). NOTE: here, not in `model.findings`, so a verb that reports no findings
#: (`canonicalize --jcs`) returns its code without loading the findings vocabulary.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


class CatalogauditError(Exception):
    """Root of every expected error; its message is one line, shown as `error: <message>`."""


class UsageError(CatalogauditError):
    """Bad options or option values."""


class InputError(CatalogauditError):
    """A file or stream that cannot be read as a catalog."""


class ServerError(CatalogauditError):
    """The server failed: it exited, hung, sent garbage, or answered with an HTTP error."""


class ProtocolError(ServerError):
    """The server answered, but not in a way the protocol allows us to continue from."""
