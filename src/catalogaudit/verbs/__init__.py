"""The use cases: one module per verb, options in, exit code out. Only here are configuration
and the environment read and stdout, stderr and files written.

- `output`: the one writer (`-o` atomically, or stdout) and stderr lines;
- `live`: the one live capture (`snapshot`, `audit --live`, `diff --live`);
- `config`: `[tool.catalogaudit]` / catalogaudit.toml;
- `snapshot`, `audit`, `canonicalize` (and `hash`), `diff` (and `stability`), `rewrite`,
  `profiles`, `serve`, `verify`: the verbs.
"""

__all__ = [
    "audit",
    "canonicalize",
    "config",
    "diff",
    "live",
    "output",
    "profiles",
    "rewrite",
    "serve",
    "snapshot",
    "verify",
]
