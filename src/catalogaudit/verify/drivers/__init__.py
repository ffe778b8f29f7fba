"""One driver per real client (`--client ID`), each importable alone: a driver only knows how
to run its client against `catalogaudit serve` and read back what the client kept."""

__all__ = [
    "claude_code",
    "codex",
    "context_forge",
    "context_forge_install",
    "gemini_cli",
    "inspector",
    "opencode",
    "python_sdk",
    "ts_sdk",
    "ts_sdk_v2",
]
