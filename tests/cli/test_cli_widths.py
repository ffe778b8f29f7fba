"""Issue 36: every verb reads well at 80 columns, on the real-server fixtures.

No line (stdout or stderr) is wider than the terminal, and no word is broken: a word the wide
rendering (`COLUMNS=1000`, where nothing needs to wrap) prints whole never comes out in two
pieces at 80 columns, across a line break or inside a table cell. `audit --matrix` of every
profile fits one screen. The help, completion and the bare command are checked here too.
"""

from __future__ import annotations

import re

import pytest
from helpers import FIXTURES, cli
from rich.cells import cell_len

REAL = FIXTURES / "real-servers"


def snap(name: str) -> str:
    return str(REAL / f"{name}.snapshot.json")


COMMANDS = {
    "matrix": ["audit", "--matrix", snap("notion-mcp-server")],
    "audit": ["audit", snap("notion-mcp-server"), "--profile", "openai", "--profile", "spec"],
    "profiles": ["profiles"],
    "profiles-claude-code": ["profiles", "claude-code"],
    "rules": ["rules"],
    "diff": ["diff", snap("server-memory"), snap("server-filesystem")],
    "diff-summary": [
        "diff",
        snap("server-everything"),
        snap("server-everything-full"),
        "--summary",
    ],
    "stability": [
        "stability",
        snap("server-everything"),
        snap("server-everything-http"),
        snap("server-everything-full"),
    ],
    "rule-CA801": ["rule", "CA801"],
    "rule-CC-SCHEMA-001": ["rule", "CC-SCHEMA-001"],
    "rule-CF-DESC-001": ["rule", "CF-DESC-001"],
}
WORD = re.compile(r"\w+")


def run(args: list[str], columns: int) -> tuple[str, str]:
    got = cli(*args, env={"COLUMNS": str(columns)})
    assert got.code in (0, 1), got
    return got.stdout, got.stderr


def _tokens(line: str) -> dict[int, str]:
    """The words of a line by the column they start at (ASCII lines: columns are indices)."""
    return {m.start(): m.group() for m in re.finditer(r"\S+", line)}


def broken_words(narrow: str, wide: str) -> list[str]:
    """Words of `wide` that `narrow` shows in two pieces: the end of one line and the start of
    the next (a wrapped line), or a cell's last word on one row and the word that starts at the
    same column on the next row (a folded table cell). Two words that `wide` also shows apart
    ("TS SDK" beside the rule id "TSSDK-...") are not one broken word."""
    words = set(WORD.findall(wide))
    bad = []
    lines = narrow.splitlines()
    for line, after in zip(lines, lines[1:], strict=False):
        pairs = []
        here, there = _tokens(line), _tokens(after)
        if here and there:
            pairs.append((here[max(here)], there[min(there)]))
        for col, token in here.items():
            end = col + len(token)
            ends_cell = line[end : end + 2] in ("  ", "", " ")
            if col in there and ends_cell and (col, token) != (max(here), here[max(here)]):
                pairs.append((token, there[col]))
        for head, tail in pairs:
            a, b = re.search(r"(\w+)$", head), re.match(r"(\w+)", tail)
            apart = a and b and re.search(rf"\b{a.group(1)}\s+{b.group(1)}\b", wide)
            if a and b and a.group(1) + b.group(1) in words and not apart:
                bad.append(f"{a.group(1)}|{b.group(1)}")
    return bad


@pytest.mark.parametrize("name", list(COMMANDS))
def test_no_line_is_wider_than_80_columns_and_no_word_is_broken(name: str) -> None:
    out, err = run(COMMANDS[name], 80)
    wide_out, wide_err = run(COMMANDS[name], 1000)
    assert out.strip()
    for line in (out + err).splitlines():
        assert cell_len(line) <= 80, (name, line)
    assert not broken_words(out, wide_out), (name, broken_words(out, wide_out))
    assert not broken_words(err, wide_err), (name, broken_words(err, wide_err))


def test_the_check_sees_a_broken_word() -> None:
    """The oracle above can fail: a word cut over two lines or inside a cell is seen."""
    wide = "profiles claude-code unversioned\n"
    assert broken_words("profiles claude-code unver\nsioned\n", wide) == ["unver|sioned"]
    assert broken_words("profiles clau\nde-code\n", wide) == ["clau|de"]
    cell = "profiles  unver        x\nclaude    sioned       y\n"  # a folded table cell
    assert broken_words(cell, wide) == ["unver|sioned"]
    assert not broken_words("profiles\nclaude-code\nunversioned\n", wide)


def test_the_matrix_of_every_profile_fits_one_screen_at_80_columns() -> None:
    out, _ = run(COMMANDS["matrix"], 80)
    lines = out.splitlines()
    assert len(lines) <= 60, out
    rows = [line for line in lines if re.match(r"^\S+ +(pass|FAIL) ", line)]
    assert len(rows) == 24, out  # spec and the 23 profiles, one row each
    assert "What breaks" in out and "OAI-SCHEMA-001" in out  # details below the table


def test_the_bare_command_prints_the_usage_once() -> None:
    got = cli()
    assert got.code == 0
    assert got.stdout.count("Usage:") == 1, got.stdout


def test_rule_explains_a_diff_rule() -> None:
    got = cli("rule", "CA801", env={"COLUMNS": "100"})
    assert got.code == 0, got
    assert got.stdout.startswith("CA801 item-removed (breaking)\n")
    assert "catalogaudit diff OLD NEW" in got.stdout and "did you mean" not in got.stderr
    assert cli("rule", "item-renamed").stdout.startswith("CA802 item-renamed")


def complete(words: str) -> list[str]:
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    got = cli(
        env={
            "COMP_WORDS": words,
            "COMP_CWORD": str(cword),
            "_CATALOGAUDIT_COMPLETE": "complete_bash",
        }
    )
    return got.stdout.split()


def test_completion_offers_every_closed_value_set() -> None:
    profiles = complete("catalogaudit audit --profile ")
    assert {"spec", "claude-code", "context-forge", "openai-strict"} <= set(profiles)
    assert complete("catalogaudit audit --profile cl") == ["claude-code", "claude-desktop"]
    assert complete("catalogaudit profiles ts") == ["ts-sdk", "ts-sdk-v2"]
    assert "CA801" in complete("catalogaudit rule CA8") and "CA101" not in complete(
        "catalogaudit rule CA8"
    )
    assert "CC-SCHEMA-001" in complete("catalogaudit audit --select CC-")
    assert complete("catalogaudit audit --fail-on ") == ["error", "warning", "info", "never"]
    assert complete("catalogaudit audit --color ") == ["auto", "always", "never"]
    assert complete("catalogaudit diff --color a") == ["auto", "always"]
    assert complete("catalogaudit diff --fail-on m") == ["model-visible"]
    assert "markdown" in complete("catalogaudit stability --format ")


@pytest.mark.parametrize("command", ["audit", "diff", "snapshot", "ci", "stability", "verify"])
def test_help_at_80_columns_cuts_no_choice(command: str) -> None:
    out = cli(command, "--help", env={"COLUMNS": "80"}).stdout
    words = set(re.findall(r"[\w-]+", out))
    choice_sets = {
        "audit": ["text", "json", "sarif", "junit", "github", "markdown", "gitlab", "always"],
        "diff": ["model-visible", "breaking", "cosmetic", "markdown", "gitlab"],
    }
    for choice in choice_sets.get(command, []):
        assert choice in words, (command, choice)
    for line in out.splitlines():
        assert cell_len(line) <= 80, line
    assert not re.search(r"\|\S*\n", out), "a choice list cut at the end of a line"


def test_a_long_command_groups_its_options_into_panels() -> None:
    out = cli("audit", "--help", env={"COLUMNS": "100"}).stdout
    panels = re.findall(r"^╭─ (.+?) ─", out, flags=re.M)
    assert {"Server and capture", "What is checked", "Output"} <= set(panels), panels
    assert sum(1 for line in out.splitlines() if line.startswith("│ --")) > 40
