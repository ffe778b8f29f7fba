"""The public Python API (issue 16): what `import catalogaudit` offers, used as a user would.

The tour test imports only public names and does what the README's tour does, against the
bundled example server over real stdio; each result is checked against the CLI's answer for
the same catalog, so the API and the command line cannot drift apart.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import PYTHON, ROOT, SERVERS, cli, fixture

import catalogaudit as ca
from catalogaudit import (
    CatalogauditError,
    DiffReport,
    InputError,
    Report,
    Snapshot,
    UsageError,
    audit,
    canonicalize,
    diff,
    hashes,
    load,
    rewrite,
    snapshot,
    stability,
)

EXAMPLE = [PYTHON, str(SERVERS / "example_server.py"), "stdio"]
CAPTURE = fixture("captures", "example-server.snapshot.json")
PRIORITIES = "fixtures/oracle/C-priority-lexemes/resources.json"
QUICKSTART = ["spec", "codex-app", "claude-code", "ascii-prose"]


def test_the_done_when_command_prints_what_the_cli_reports() -> None:
    code = (
        "import catalogaudit as ca; "
        f"s = ca.load({PRIORITIES!r}); "
        "print(len(ca.audit(s, profiles=['codex-app']).findings))"
    )
    proc = subprocess.run(
        [PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    result = cli("audit", PRIORITIES, "--profile", "codex-app", "--format", "json", cwd=ROOT)
    assert result.code == 1, str(result)
    assert proc.stdout == f"{len(result.json()['findings'])}\n"
    assert proc.stdout == "2\n"  # CDX-ANN-001 on `0.5` and on `1.0`


def fingerprints(report: Report) -> list[str]:
    return [f.fingerprint for f in report.sorted_findings()]


def test_the_readme_tour_through_the_public_names(tmp_path: Path) -> None:
    # snapshot: the quickstart's live capture, over stdio
    s = snapshot(EXAMPLE)
    assert isinstance(s, Snapshot) and s.name == "<live>"
    assert [t["name"] for t in s.items("tools")]
    written = tmp_path / "example.snapshot.json"
    written.write_text(s.dumps(), encoding="utf-8")
    assert load(written).doc == s.doc

    # audit: the quickstart's four profiles, the findings `catalogaudit audit` reports
    report = audit(s, profiles=QUICKSTART)
    counts = report.counts()
    assert (counts["error"], counts["warning"]) == (3, 1), report.findings
    assert report.exit_code("error") == 1
    from_file = audit(written, profiles=QUICKSTART)
    flags = [a for p in QUICKSTART for a in ("--profile", p)]
    as_json = cli("audit", str(written), *flags, "--format", "json")
    assert [f["fingerprint"] for f in as_json.json()["findings"]] == fingerprints(from_file)

    # diff: the live capture against the committed capture of the same server
    changes = diff(CAPTURE, s)
    assert isinstance(changes, DiffReport)
    assert changes.exit_code("model-visible") == 0, [c.message for c in changes.changes]
    assert cli("diff", str(CAPTURE), str(written), "--fail-on", "model-visible").code == 0

    # stability and the release gate: three restarts, then the diff against the baseline
    runs = snapshot(EXAMPLE, runs=3)
    assert runs.doc["capture"]["runs"]["stable"] is True
    assert stability(runs)["stable"] is True
    assert diff(CAPTURE, runs).exit_code("model-visible") == 0

    # hashes and the written form, byte for byte what `hash` and `canonicalize` print
    by_cli = cli("hash", str(written), "--format", "json").json()
    # NOTE: `hash` names an input outside the current directory by its path, `audit` (and a
    # Snapshot) by `.../NAME`; the hashes are the point.
    assert {**hashes(written), "input": by_cli["input"]} == by_cli
    assert canonicalize(written) == cli("canonicalize", str(written)).stdout

    # rewrite: the codex-app fix clears the two priorities codex-app refuses
    fixed = rewrite(s, fixes=["codex-app"])
    assert [f.rule_id for f in audit(s, "codex-app").findings] == ["CDX-ANN-001"] * 2
    assert audit(fixed, "codex-app").findings == []
    subs = audit(s, "ascii-prose", substitutions=";=\\,")
    assert subs.rewritten and len(subs.findings) < len(audit(s, "ascii-prose").findings)


def test_the_exception_tree() -> None:
    assert issubclass(UsageError, CatalogauditError) and issubclass(InputError, CatalogauditError)
    assert issubclass(ca.ProtocolError, ca.ServerError)
    with pytest.raises(InputError):
        load(ROOT / "no-such.snapshot.json")
    with pytest.raises(UsageError, match="did you mean"):
        audit(CAPTURE, "codex-app", select=["cdx-ann-01"])
    with pytest.raises(UsageError):
        audit(CAPTURE, "no-such-profile")
    with pytest.raises(UsageError):
        snapshot()  # neither a command nor a URL
    with pytest.raises(UsageError):
        stability(CAPTURE)  # one capture of one run


def test_several_inputs_merge_as_snapshot_from_does(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    prompts = tmp_path / "prompts.json"
    tools.write_text('{"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}')
    prompts.write_text('{"prompts": [{"name": "p"}]}')
    merged = load([tools, prompts])
    assert [i["name"] for i in merged.items("tools")] == ["t"]
    assert [i["name"] for i in merged.items("prompts")] == ["p"]
    out = tmp_path / "s.json"
    got = cli("snapshot", "--from", str(tools), "--from", str(prompts), "-o", str(out))
    assert got.code == 0, str(got)
    assert merged.dumps() == out.read_text(encoding="utf-8")


def test_import_catalogaudit_loads_only_the_version_and_the_errors() -> None:
    code = (
        "import sys; import catalogaudit as ca\n"
        "print(sorted(m for m in sys.modules if m.startswith('catalogaudit')))\n"
        "print(sorted(ca.__all__) == sorted(dir(ca)))\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=True)
    loaded, listed = proc.stdout.splitlines()
    assert loaded == "['catalogaudit', 'catalogaudit._version', 'catalogaudit.errors']"
    assert listed == "True"


def test_every_public_name_resolves_and_subpackages_do_not_shadow_it() -> None:
    """Importing a subpackage binds it on the package root: none is named as an API name."""
    code = (
        "import catalogaudit.auditing, catalogaudit.diffing, catalogaudit.rewriting, types\n"
        "import catalogaudit.snapshots, catalogaudit.canonical, catalogaudit.intake\n"
        "import catalogaudit as ca\n"
        "bad = [n for n in ca.__all__ if isinstance(getattr(ca, n), types.ModuleType)]\n"
        "print(bad, ca.__version__ == ca._version.__version__)\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout == "[] True\n"


def test_the_api_loads_no_command_line_terminal_or_formatter() -> None:
    """The `api-quiet` contract checks `_api`'s own imports; the packages' faces load their
    modules on first use, so what the API loads when used is checked here."""
    code = (
        "import sys; import catalogaudit as ca\n"
        f"s = ca.load({str(CAPTURE)!r})\n"
        "ca.audit(s, ['spec', 'codex-app']); ca.diff(s, s); ca.canonicalize(s); ca.hashes(s)\n"
        "ca.rewrite(s, substitutions='tool=instrument')\n"
        f"ca.snapshot({EXAMPLE!r})\n"
        "bad = ('typer', 'rich', 'catalogaudit.cli', 'catalogaudit.formatters')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad or m.startswith(bad)))\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout == "[]\n", proc.stdout
