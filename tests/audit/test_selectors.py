"""`--select`/`--ignore` and `--profile` cannot switch the gate off by a typo (issue "The gate
cannot be switched off by accident", item 1).

Before: `--select XX-999`, `--select codexapp` and `--ignore contextforge` printed "No findings"
and exited 0, and `--select cdx-ann-001` silently matched nothing. The catalog is the committed
capture of the example server (fixtures/captures/README.md): codex-app flags its two resource
priorities written as `1.0` and `0.5` (CDX-ANN-001, errors).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, fixture

CAPTURE = fixture("captures", "example-server.snapshot.json")


def audit(*args: str, cwd: Path | None = None) -> tuple[int, list[tuple[str, str | None]], str]:
    result = cli(
        "audit", str(CAPTURE), "--profile", "codex-app", "--format", "json", *args, cwd=cwd
    )
    found = (
        [(f["ruleId"], f.get("identity")) for f in result.json()["findings"]]
        if result.stdout
        else []
    )
    return result.code, found, result.stderr


@pytest.mark.parametrize(
    ("args", "suggestion"),
    [
        (["--select", "XX-999"], "did you mean "),
        (["--select", "codexapp"], "did you mean codex-app?"),
        (["--ignore", "contextforge"], "did you mean context-forge?"),
        (["--select", "cdx-ann-01"], "did you mean CDX-ANN-001?"),
        (["--ignore", "/tool/x"], "a subject pointer starts with one of /tools"),
    ],
)
def test_an_unknown_selector_is_a_usage_error(args: list[str], suggestion: str) -> None:
    code, found, err = audit(*args)
    lines = err.strip().splitlines()
    assert code == 2 and found == [], err
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert suggestion in lines[0], err


def test_a_configured_unknown_selector_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "catalogaudit.toml").write_text('ignore = ["CDX-ANN-01"]\n')
    code, _, err = audit(cwd=tmp_path)
    assert code == 2 and "config ignore 'CDX-ANN-01'" in err, err
    assert "did you mean CDX-ANN-001?" in err


def test_rule_ids_and_prefixes_match_in_any_case() -> None:
    code, everything, _ = audit()
    assert code == 1 and len(everything) == 2, everything
    for pattern in ("CDX-ANN-001", "cdx-ann-001", "Cdx-Ann", "cdx"):
        assert audit("--select", pattern)[1] == everything, pattern
        assert audit("--ignore", pattern)[:2] == (0, []), pattern


def test_names_profiles_and_subject_pointers_still_select() -> None:
    _, everything, _ = audit()
    assert audit("--select", "codex-app")[1] == everything
    assert audit("--ignore", "codex-app")[:2] == (0, [])
    only = audit("--select", "/resources/notes:~1~1index")[1]
    assert only == [("CDX-ANN-001", "notes://index")]


def test_an_unknown_profile_suggests_the_closest() -> None:
    result = cli("audit", str(CAPTURE), "--profile", "contextforge")
    assert result.code == 2, str(result)
    assert result.stderr == (
        "error: unknown profile 'contextforge'; did you mean context-forge? "
        "(`catalogaudit profiles` lists them)\n"
    )
