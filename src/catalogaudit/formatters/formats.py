"""Every report kind's formats, one enum each, declared once: the CLI builds each verb's
`--format` choices from these (so `--help` lists them), the formatters dispatch on them. Kept
apart from the formatters so the command line loads no renderer before one is needed."""

from __future__ import annotations

import enum


class OutputFormat(str, enum.Enum):
    """Every report format; the CLI builds its `--format` choices from this enum alone."""

    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    JUNIT = "junit"
    GITHUB = "github"
    MARKDOWN = "markdown"
    #: GitLab's code-quality report (`artifacts:reports:codequality`).
    GITLAB = "gitlab"


class DiffFormat(str, enum.Enum):
    """`diff --format` choices."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"
    SARIF = "sarif"
    GITHUB = "github"
    JUNIT = "junit"
    GITLAB = "gitlab"


class StabilityFormat(str, enum.Enum):
    """`stability --format` choices."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"


class HashFormat(str, enum.Enum):
    """Output formats of `catalogaudit hash`."""

    TEXT = "text"
    JSON = "json"


class RulesFormat(str, enum.Enum):
    """Output formats of `catalogaudit rules`."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"


class RuleFormat(str, enum.Enum):
    """Output formats of `catalogaudit rule ID`."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"


class RewriteFormat(str, enum.Enum):
    """Report formats of `catalogaudit rewrite`."""

    TEXT = "text"
    JSON = "json"


class ProfilesFormat(str, enum.Enum):
    """Output formats of `catalogaudit profiles`."""

    TEXT = "text"
    JSON = "json"


class VerifyFormat(str, enum.Enum):
    """Report formats of `catalogaudit verify`."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"
    JUNIT = "junit"
    GITHUB = "github"
