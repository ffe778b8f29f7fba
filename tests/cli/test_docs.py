"""Documentation that is generated or must list things stays in sync with the code."""

from __future__ import annotations

from helpers import ROOT, cli

from catalogaudit.profiles import summary
from catalogaudit.rules.registry import spec_meta


def test_docs_rules_md_is_generated_from_the_registry() -> None:
    result = cli("rules", "--format", "markdown")
    assert result.code == 0
    assert (ROOT / "docs" / "rules.md").read_text() == result.stdout, (
        "docs/rules.md is stale: run `catalogaudit rules --format markdown > docs/rules.md`"
    )


def test_readme_lists_every_spec_rule_id_and_profile() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = [rule for rule in spec_meta() if rule not in readme]
    assert not missing, f"README.md does not mention {missing}"
    ids = [p.id for p in summary.profile_summaries()]
    absent = [p for p in ids if f"`{p}`" not in readme]
    assert not absent, f"README.md does not mention profiles {absent}"


def test_readme_quickstart_is_two_commands_and_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0].strip() for b in quick.split("```sh\n")[1:]]
    assert len(blocks) == 2 and all("\n" not in b for b in blocks), blocks
    test_cmd = blocks[1].rsplit("&& ", 1)[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert f"TEST_CMD=({test_cmd})" in ci
