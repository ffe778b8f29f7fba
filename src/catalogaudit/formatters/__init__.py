"""Rendering: a finished result to a string; no I/O, no exit codes, no edge.

- `formats`: every report kind's `--format` enum (light: the command line imports it);
- `report` (+ `text`, `json`, `sarif`, `junit`, `github`, `markdown`): audit reports;
- `matrix`, `suggest`, `rules`, `profiles`, `hashes`, `rewrite`, `diff`, `stability`,
  `verify`: the other report kinds; `base`: the shared helpers (`visible` makes server text
  inert).
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.formatters.console import breaks as wrap_offsets
    from catalogaudit.formatters.diff import render as render_diff
    from catalogaudit.formatters.diff import summary as diff_summary
    from catalogaudit.formatters.diff_ci import markdown as diff_markdown
    from catalogaudit.formatters.formats import (
        DiffFormat,
        HashFormat,
        OutputFormat,
        ProfilesFormat,
        RewriteFormat,
        RuleFormat,
        RulesFormat,
        StabilityFormat,
        VerifyFormat,
    )
    from catalogaudit.formatters.hashes import format_hashes
    from catalogaudit.formatters.markdown import format_markdown
    from catalogaudit.formatters.matrix import MATRIX_FORMATS, format_matrix
    from catalogaudit.formatters.md import DEFAULT_MAX_CHARS, code, escape_text
    from catalogaudit.formatters.paths import Repository, repository_path
    from catalogaudit.formatters.profiles import format_detail, format_summaries
    from catalogaudit.formatters.report import format_report
    from catalogaudit.formatters.rewrite import format_rewrite
    from catalogaudit.formatters.rule import format_rule
    from catalogaudit.formatters.rules import format_rules
    from catalogaudit.formatters.stability import bill_lines
    from catalogaudit.formatters.stability import render as render_stability
    from catalogaudit.formatters.stability import summary as stability_summary
    from catalogaudit.formatters.suggest import documents, render_text
    from catalogaudit.formatters.verify import format_verify, verify_document

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "console": "wrap_offsets=breaks",
        "diff": "diff_summary=summary render_diff=render",
        "diff_ci": "diff_markdown=markdown",
        "formats": (
            "DiffFormat HashFormat OutputFormat ProfilesFormat RewriteFormat RuleFormat "
            "RulesFormat StabilityFormat VerifyFormat"
        ),
        "hashes": "format_hashes",
        "markdown": "format_markdown",
        "matrix": "MATRIX_FORMATS format_matrix",
        "md": "DEFAULT_MAX_CHARS code escape_text",
        "paths": "Repository repository_path",
        "profiles": "format_detail format_summaries",
        "report": "format_report",
        "rewrite": "format_rewrite",
        "rule": "format_rule",
        "rules": "format_rules",
        "stability": "bill_lines render_stability=render stability_summary=summary",
        "suggest": "documents render_text",
        "verify": "format_verify verify_document",
    },
)


__all__ = [
    "bill_lines",
    "DEFAULT_MAX_CHARS",
    "DiffFormat",
    "HashFormat",
    "MATRIX_FORMATS",
    "OutputFormat",
    "ProfilesFormat",
    "Repository",
    "RewriteFormat",
    "RuleFormat",
    "RulesFormat",
    "StabilityFormat",
    "VerifyFormat",
    "code",
    "diff_markdown",
    "diff_summary",
    "documents",
    "escape_text",
    "format_detail",
    "format_hashes",
    "format_markdown",
    "format_matrix",
    "format_report",
    "format_rewrite",
    "format_rule",
    "format_rules",
    "format_summaries",
    "format_verify",
    "render_diff",
    "render_stability",
    "render_text",
    "repository_path",
    "stability_summary",
    "verify_document",
    "wrap_offsets",
]
