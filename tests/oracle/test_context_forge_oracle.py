"""Differential oracle (issue 6): the context-forge profile against six ContextForge PyPI releases.

Each release runs its own discovery and validation code (`register_gateway`, the pydantic
validators, the SQLite models and their insert listeners) from a cached venv made by
`python -m catalogaudit.verify.context_forge_install` (`.ci/run` installs them). Every scenario
of fixtures/oracle-cf/ becomes a snapshot, all of them go through one `catalogaudit verify` run
per release (one interpreter for the batch, two releases at a time), and the profile's
prediction must equal the observation for every list and item. The verdicts measured on the
releases are asserted too (`MEASURED`), so a profile and a driver wrong the same way still fail.
A mismatch is fixed in the profile data, never here.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1. A release that
is not installed skips its tests locally and fails them under CI.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Union

import pytest
from conftest import FIXTURES, cli
from oracle_common import asked_for, mismatches  # noqa: F401 - fixture

from catalogaudit.verify.context_forge_install import ORACLE, cache_root, installed

pytestmark = pytest.mark.oracle

SCENARIOS_DIR = FIXTURES / "oracle-cf"
SCENARIOS = sorted(p.name for p in SCENARIOS_DIR.iterdir() if p.is_dir())
RELEASES = ORACLE  # 0.6.0 0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7
ALL = " ".join(RELEASES)
#: A listing's measured verdict: "failed", or the identities the release dropped (list kept).
Verdict = Union[str, tuple[str, ...]]  # noqa: UP007 - the test suite also runs on 3.10
#: scenario -> space-separated releases -> listing -> verdict, as measured on 2026-11-30.
MEASURED: dict[str, dict[str, dict[str, Verdict]]] = {
    "cf-all-tools-fail": {
        "0.6.0": {"tools": ()},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {"tools": "failed"},
    },
    "cf-array-schema": {ALL: {"tools": ()}},
    "cf-depth": {
        "0.6.0": {"tools": "failed"},
        "0.9.0": {"tools": ("depth11", "depth31")},
        "1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {"tools": ("depth31",)},
    },
    "cf-depth-boundary": {
        "0.6.0": {"tools": "failed"},
        "0.9.0": {"tools": ("depth29",)},
        "1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {"tools": ()},
    },
    "cf-desc-forbidden": {
        "0.6.0": {"tools": ()},
        "0.9.0 1.0.0b2": {
            "tools": ("semicolon", "backtick", "pipe", "and", "or", "dollar", "gt", "lt")
        },
        "1.0.0rc1": {"tools": ("semicolon", "pipe", "and", "or", "dollar", "gt", "lt")},
        "1.0.0": {"tools": ("and", "or", "dollar", "gt", "lt")},
        "1.0.7": {"tools": ("and", "or", "dollar")},
    },
    "cf-desc-length-prompt": {
        "0.6.0": {"tools": (), "prompts": ("p_long", "p3")},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {"tools": (), "prompts": ()},
    },
    "cf-desc-length-tool": {
        # 4096 rejects (and fails the gateway); from 0.7.0 8192 truncates, which keeps the tool.
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {"tools": ()},
    },
    "cf-empty-capabilities": {ALL: {"tools": (), "resources": "failed", "prompts": "failed"}},
    "cf-html-resource": {ALL: {"tools": (), "resources": ("file:///b", "file:///c")}},
    "cf-html-tool": {
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {"tools": ("script",)},
    },
    "cf-mime": {
        "0.6.0": {"tools": (), "resources": ()},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {
            "tools": (),
            "resources": ("file:///b.csv", "file:///c.txt"),
        },
    },
    "cf-name-dot": {ALL: {"tools": ()}},
    "cf-name-length": {
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0": {"tools": ("u" * 256,)},
        "1.0.7": {"tools": ("t" * 200, "u" * 256)},
    },
    "cf-name-qualified-128": {
        "0.6.0 0.9.0 1.0.0b2 1.0.0rc1 1.0.0": {"tools": ()},
        "1.0.7": {"tools": "failed"},
    },
    "cf-name-qualified-255": {
        "0.6.0 0.9.0 1.0.0b2 1.0.0rc1 1.0.0": {"tools": "failed"},
        "1.0.7": {"tools": ("q" * 254,)},
    },
    "cf-name-rules": {
        "0.6.0": {"tools": "failed"},
        "0.9.0 1.0.0b2": {"tools": ("1tool", "_tool", "a/b", "a:b")},
        "1.0.0rc1 1.0.0 1.0.7": {"tools": ("a:b",)},
    },
    "cf-prompt-colon": {ALL: {"tools": (), "prompts": ("git:commit", "p3")}},
    "cf-schema-meta": {
        "0.6.0 0.9.0 1.0.0rc1 1.0.0 1.0.7": {"tools": "failed"},
        "1.0.0b2": {"tools": ()},
    },
    "cf-template-plus": {
        # 0.6.0 never asks for resources/templates/list: the listing is not observed there.
        "0.6.0": {"tools": (), "resources": ()},
        "0.9.0 1.0.0b2 1.0.0rc1 1.0.0 1.0.7": {
            "tools": (),
            "resources": (),
            "resourceTemplates": ("file:///{+path}", "file:///docs/{id}"),
        },
    },
    "cf-title-length": {
        "0.6.0 0.9.0 1.0.0b2 1.0.0rc1": {"tools": (), "prompts": (), "resources": ()},
        # A resource is retried as a minimal object without its title, so it is kept.
        "1.0.0 1.0.7": {"tools": ("titled",), "prompts": ("p_title", "p3"), "resources": ()},
    },
    "cf-uri-dotdot": {ALL: {"tools": (), "resources": ("note:a/../b", "file:///c")}},
    "cf-zero-tools": {ALL: {"tools": (), "resources": ()}},
}
#: What a failed list's message must quote (ContextForge's own words).
QUOTES: dict[tuple[str, str], str] = {
    ("cf-all-tools-fail", "1.0.7"): "All 2 tools failed validation",
    ("cf-depth", "0.6.0"): "JSON structure exceeds maximum depth of 10",
    ("cf-desc-length-tool", "0.6.0"): "Description exceeds maximum length of 4096",
    ("cf-name-qualified-128", "1.0.7"): "Tool name exceeds MCP spec limit of 128 characters",
    ("cf-name-qualified-255", "1.0.0"): "Tool name exceeds maximum length of 255",
    ("cf-name-rules", "0.6.0"): "Tool name must start with a letter",
    ("cf-schema-meta", "1.0.7"): "Invalid tool input schema",
}
CASES = [(r, s) for r in RELEASES for s in SCENARIOS]


def _measured(scenario: str, release: str) -> dict[str, Verdict]:
    for releases, verdicts in MEASURED[scenario].items():
        if release in releases.split():
            return verdicts
    raise AssertionError(f"MEASURED[{scenario!r}] has no entry for {release}")


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One snapshot per scenario; ContextForge always lists tools, so a scenario without
    tools.json serves an empty tool list."""
    base = tmp_path_factory.mktemp("oracle-cf")
    filler = base / "empty-tools.txt"
    filler.write_text('{"tools": []}\n', encoding="utf-8")
    out: dict[str, Path] = {}
    for name in SCENARIOS:
        inputs = sorted((SCENARIOS_DIR / name).glob("*.json"))
        if not any(p.name == "tools.json" for p in inputs):
            inputs.append(filler)
        path = base / f"{name}.json"
        made = cli("snapshot", *[a for f in inputs for a in ("--from", str(f))], "-o", str(path))
        assert made.code == 0, str(made)
        out[name] = path
    return out


@pytest.fixture(scope="module")
def verdicts(snapshots: dict[str, Path]) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each installed release's `verify --format json` over every scenario, two at a time."""
    root = cache_root()
    missing = [r for r in RELEASES if not installed(root, r)]
    if missing and os.environ.get("CI"):
        pytest.fail(
            f"ContextForge {', '.join(missing)} not installed under {root}: .ci/run must "
            f"run `python -m catalogaudit.verify.context_forge_install`"
        )
    paths = [str(snapshots[n]) for n in SCENARIOS]

    def run(release: str) -> tuple[int, dict[str, Any]]:
        spec = f"context-forge@{release}"
        result = cli("verify", "--client", spec, "--format", "json", *paths, timeout=900)
        assert result.code in (0, 1), str(result)
        return result.code, result.json()

    wanted = [r for r in RELEASES if r not in missing]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(wanted, pool.map(run, wanted), strict=True))


@pytest.mark.parametrize(("release", "scenario"), CASES)
def test_profile_predicts_the_release(
    release: str,
    scenario: str,
    snapshots: dict[str, Path],
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """Per list and item: context-forge@RELEASE predicts what the release did, and that is
    what was measured."""
    if release not in verdicts:
        pytest.skip(f"install it: python -m catalogaudit.verify.context_forge_install {release}")
    _, doc = verdicts[release]
    assert doc["client"] == {"id": "context-forge", "version": release}
    rows = [o for o in doc["observations"] if o["catalog"] == str(snapshots[scenario])]
    assert rows, f"context-forge {release} observed nothing for {scenario}"
    wrong = mismatches(rows)
    assert not wrong, "profile data disagrees with the release:\n" + "\n".join(wrong)
    seen: dict[str, Verdict] = {}
    for r in rows:
        if r["index"] is None:
            seen[r["listing"]] = "failed" if r["verdict"] == "failed" else ()
            if r["verdict"] == "failed":
                assert r["message"], "a failed list must quote the release's own message"
        elif r["verdict"] == "dropped" and seen[r["listing"]] != "failed":
            seen[r["listing"]] = (*seen[r["listing"]], r["identity"])
    assert seen == _measured(scenario, release)
    quote = QUOTES.get((scenario, release))
    if quote is not None:
        assert any(quote in r["message"] for r in rows if r["index"] is None), rows


def test_every_scenario_is_measured_on_every_release() -> None:
    """The measured matrix is never shrunk: each scenario has a verdict for each release."""
    assert set(MEASURED) == set(SCENARIOS)
    for scenario in SCENARIOS:
        for release in RELEASES:
            _measured(scenario, release)


def test_exit_code_says_whether_everything_matched(
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """`verify` exits 0 exactly when every observation matched its prediction."""
    for code, doc in verdicts.values():
        assert code == (0 if doc["matches"] else 1)
