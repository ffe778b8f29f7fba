"""Documentation that is generated or must list things stays in sync with the code."""

from __future__ import annotations

import re

from helpers import ROOT, cli

from catalogaudit.profiles import summary
from catalogaudit.rules.registry import spec_meta


def test_docs_rules_md_is_generated_from_the_registry() -> None:
    result = cli("rules", "--format", "markdown")
    assert result.code == 0
    assert (ROOT / "docs" / "rules.md").read_text() == result.stdout, (
        "docs/rules.md is stale: run `catalogaudit rules --format markdown > docs/rules.md`"
    )


def test_the_audit_reference_lists_every_spec_rule_id_and_profile() -> None:
    """The spec rule and profile tables moved with the audit reference to docs/audit.md, the
    capture findings (CA5xx) with the snapshot reference; the README names every profile."""
    reference = "".join((ROOT / "docs" / n).read_text() for n in ("audit.md", "snapshot.md"))
    missing = [rule for rule in spec_meta() if rule not in reference]
    assert not missing, f"docs/audit.md and docs/snapshot.md (CA5xx) do not mention {missing}"
    ids = [p.id for p in summary.profile_summaries()]
    for name in ("README.md", "docs/audit.md"):
        text = (ROOT / name).read_text()
        absent = [p for p in ids if f"`{p}`" not in text]
        assert not absent, f"{name} does not mention profiles {absent}"


def test_the_readme_is_a_short_page_whose_links_resolve() -> None:
    readme = (ROOT / "README.md").read_text()
    assert readme.count("\n") < 250
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert links and all((ROOT / link).is_file() for link in links), links
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert pages <= {link.removeprefix("docs/") for link in links}, "a docs page the README hides"


def test_readme_quickstart_is_two_commands_and_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0].strip() for b in quick.split("```sh\n")[1:]]
    assert len(blocks) == 2 and all("\n" not in b for b in blocks), blocks
    test_cmd = blocks[1].rsplit("&& ", 1)[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert f"TEST_CMD=({test_cmd})" in ci
    oracle = readme.split("## Contributing", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0]
    assert f"ORACLE_CMD=({oracle})" in ci, "the README's second test command is not .ci/run's"
