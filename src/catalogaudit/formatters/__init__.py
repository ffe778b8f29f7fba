"""Rendering: a finished result to a string; no I/O, no exit codes, no edge.

- `formats`: every report kind's `--format` enum (light: the command line imports it);
- `report` (+ `text`, `json`, `sarif`, `junit`, `github`, `markdown`): audit reports;
- `matrix`, `suggest`, `rules`, `profiles`, `hashes`, `rewrite`, `diff`, `stability`,
  `verify`: the other report kinds; `base`: the shared helpers (`visible` makes server text
  inert).
"""

__all__ = [
    "base",
    "diff",
    "formats",
    "github",
    "hashes",
    "json",
    "junit",
    "markdown",
    "matrix",
    "profiles",
    "report",
    "rewrite",
    "rules",
    "sarif",
    "stability",
    "suggest",
    "text",
    "verify",
]
