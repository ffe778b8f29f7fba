"""The context-forge verify pieces that need no ContextForge release (plain `pytest`).

The profile must predict the verdicts measured on the seven releases (`cf_measured.MEASURED`)
from its data alone; `scope` data decides how much a finding costs; the driver's argv,
outcome mapping and venv lookup, the installer's pinned dates and the child script's message
and matching helpers behave as documented.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers import cli
from helpers.cf_measured import RELEASES, SCENARIOS, SCENARIOS_DIR, Verdict, measured, target
from packaging.version import Version

from catalogaudit.profiles.load import raw_files
from catalogaudit.verify.base import ClientNotFound
from catalogaudit.verify.drivers import context_forge as cf
from catalogaudit.verify.drivers import context_forge_client as child
from catalogaudit.verify.drivers import context_forge_install as inst
from catalogaudit.verify.predict import entries, predict, reach, scope


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("release", RELEASES)
def test_profile_predicts_the_measured_verdicts(
    release: str, scenario: str, tmp_path: Path
) -> None:
    """context-forge@RELEASE's prediction equals what RELEASE did (listings it reads)."""
    wanted = measured(scenario, release)
    seen: dict[str, Verdict] = {}
    for o in predict(target(scenario, tmp_path), f"context-forge@{release}"):
        if o.listing not in wanted:
            continue
        if o.index is None:
            seen[o.listing] = "failed" if o.verdict == "failed" else ()
        elif o.verdict == "dropped" and seen[o.listing] != "failed":
            seen[o.listing] = (*seen[o.listing], o.identity or "")
    assert seen == wanted


def test_every_profile_rule_has_a_scope() -> None:
    """Scope is data: the effect-text regexes are only a fallback for a rule without one."""
    missing = [
        f"{name}: {rule['id']}"
        for name, doc in raw_files().items()
        for rule in doc["rules"]
        if "scope" not in rule
    ]
    assert not missing, "add a scope to: " + ", ".join(missing)


@pytest.mark.parametrize(
    ("rule", "version", "listing", "expected"),
    [
        ("CF-NAME-001", "0.6.0", "tools", "server"),
        ("CF-NAME-001", "0.9.0", "tools", "item"),
        ("CF-DESC-002", "0.6.0", "prompts", "item-and-later"),
        ("CF-NAME-003", "1.0.7", "prompts", "item-and-later"),
        ("CF-TITLE-001", "1.0.0", "resources", "none"),
        ("CF-TITLE-001", "1.0.0", "prompts", "item-and-later"),
        ("CF-SCHEMA-002", "1.0.7", "tools", "server"),
        ("CF-CAP-001", "1.0.0", None, "list"),
        ("CDX-TYPE-001", "0.169.0", "resources", "list"),
        ("CDX-TYPE-001", "0.169.0", "tools", "server"),
    ],
)
def test_reach_by_version_and_listing(
    rule: str, version: str, listing: str | None, expected: str
) -> None:
    assert reach(rule, Version(version), listing, "") == expected


def test_a_rule_without_scope_falls_back_to_its_effect_text() -> None:
    assert reach("XX-NONE-001", None, "tools", "the client fails the whole server") == "server"
    assert scope("the Responses API refuses the request") == "request"
    assert scope("drops the whole tool list") == "list"
    assert scope("drops the tool") == "item"


def test_scope_entries_first_match_wins() -> None:
    found = entries(
        [{"versions": "<1", "listings": ["tools"], "scope": "server"}, {"scope": "item"}]
    )
    assert [e.applies(Version("0.5"), "tools") for e in found] == [True, True]
    assert found[0].applies(Version("0.5"), "prompts") is False
    assert found[0].applies(Version("1.0"), "tools") is False
    assert entries("list")[0].scope == "list"


def test_all_tools_dropped_refuses_the_registration_from_0_9_0(tmp_path: Path) -> None:
    t = target("cf-all-tools-fail", tmp_path)
    lists = {o.listing: o.verdict for o in predict(t, "context-forge@1.0.7") if o.index is None}
    assert lists == {"tools": "failed"}
    failed = [o for o in predict(t, "context-forge@1.0.7") if o.index is None]
    assert failed[0].message.startswith("every item of tools is dropped")


def test_serve_argv_declares_non_empty_capabilities_over_http(tmp_path: Path) -> None:
    t = target("cf-prompt-colon", tmp_path)
    argv = cf.serve_argv(t, 30)
    assert argv[-2:] == ["--http", "0"]
    assert str(t.path.resolve()) in argv
    caps = json.loads(argv[argv.index("--capabilities") + 1])
    assert caps == {"tools": {"listChanged": False}, "prompts": {"listChanged": False}}


def test_serve_argv_keeps_captured_capabilities(tmp_path: Path) -> None:
    """A snapshot that captured `"resources": {}` is served as captured (CF-CAP-001)."""
    argv = cf.serve_argv(target("cf-empty-capabilities", tmp_path), 30)
    assert "--capabilities" not in argv


def test_outcomes_map_kept_positions_to_served_items(tmp_path: Path) -> None:
    t = target("cf-uri-dotdot", tmp_path)
    got = cf.outcomes(
        t,
        [
            {"listing": "tools", "kept": []},
            {"listing": "resources", "kept": [0, 1]},
            {"listing": "resourceTemplates", "unread": True},
        ],
    )
    assert [o.listing for o in got] == ["tools", "resources"]
    assert [r["uri"] for r in got[1].items or []] == ["file:///x/../y", "file:///a"]
    failed = cf.outcomes(t, [{"listing": "tools", "error": "boom"}])
    assert failed[0].items is None and failed[0].error == "boom"


def test_missing_release_names_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with pytest.raises(ClientNotFound) as err:
        cf.driver_at(None, "1.0.0-beta.2")
    text = str(err.value)
    assert "context_forge_install 1.0.0b2" in text
    assert str(tmp_path / "catalogaudit" / "context-forge" / "1.0.0b2") in text
    with pytest.raises(ClientNotFound, match="no release installed"):
        cf.driver(None)


def test_client_path_may_be_a_venv_its_python_or_a_cache_root(tmp_path: Path) -> None:
    venv = tmp_path / "1.0.7"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / inst.MARKER).write_text(json.dumps({"version": "1.0.7"}))
    assert cf.locate(str(venv), None) == venv
    assert cf.locate(str(venv / "bin" / "python"), "1.0.7") == venv
    assert cf.locate(str(tmp_path), "1.0.7") == venv
    assert cf.driver_at(str(tmp_path), "1.0.7").venv == venv


def test_verify_without_the_release_is_one_error_line(tmp_path: Path) -> None:
    snap = tmp_path / "s.json"
    made = cli(
        "snapshot", "--from", str(SCENARIOS_DIR / "cf-name-dot" / "tools.json"), "-o", str(snap)
    )
    assert made.code == 0, str(made)
    result = cli(
        "verify",
        "--client",
        "context-forge@0.7.0",
        str(snap),
        env={"XDG_CACHE_HOME": str(tmp_path)},
    )
    assert result.code == 2, str(result)
    assert result.stderr.startswith("error: context-forge 0.7.0: no release venv at ")
    assert "python -m catalogaudit.verify.drivers.context_forge_install 0.7.0" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_installer_pins_every_release_it_names(tmp_path: Path) -> None:
    assert set(inst.ORACLE) <= set(inst.UPLOADED)
    assert inst.exclude_newer("1.0.7") == "2026-08-05T19:09:52Z"
    assert not inst.installed(tmp_path, "1.0.7")
    (tmp_path / "1.0.7").mkdir()
    (tmp_path / "1.0.7" / inst.MARKER).write_text(json.dumps({"version": "1.0.7"}))
    assert inst.installed(tmp_path, "1.0.7")
    with pytest.raises(SystemExit) as usage:
        inst.main(["--root", str(tmp_path), "9.9.9"])
    assert usage.value.code == 2


class _Group(Exception):
    """Stands in for an ExceptionGroup (a tuple of members)."""

    def __init__(self, *members: BaseException) -> None:
        super().__init__(f"({len(members)} sub-exception)")
        self.exceptions = members


def test_child_message_quotes_the_innermost_cause() -> None:
    cause = ValueError("Description contains unsafe characters: ';'")
    group = _Group(cause)
    exc = ConnectionError("Failed to initialize gateway at http://x")
    exc.__cause__ = group
    text = child.message(_Group(exc))
    assert text.startswith("Failed to initialize gateway at http://x: ")
    assert text.endswith("Description contains unsafe characters: ';'")
    bare = ConnectionError("Failed to initialize gateway")
    raised = ValueError("JSON structure exceeds maximum depth of 10")
    assert child.message(bare, raised).endswith("maximum depth of 10")


def test_child_matches_stored_rows_to_served_positions() -> None:
    served: list[Any] = [SimpleNamespace(name=n) for n in ("a", " b ", "a", "c")]
    assert child._kept("tools", served, ["a", "b"]) == [0, 1]
    uris = [SimpleNamespace(uri="file:///b"), SimpleNamespace(uri="file:///a")]
    assert child._kept("resources", uris, ["file:///a"]) == [1]


def test_outcomes_carry_the_release_reason_for_a_dropped_item(tmp_path: Path) -> None:
    from catalogaudit.verify.base import observe

    t = target("cf-prompt-colon", tmp_path)
    answer = [
        {"listing": "tools", "kept": []},
        {"listing": "prompts", "kept": [0], "reasons": {"1": "PromptCreate: bad name"}},
    ]
    rows = {(o.listing, o.index): o for o in observe(t, cf.outcomes(t, answer))}
    assert rows[("prompts", 1)].message == "PromptCreate: bad name"
    assert rows[("prompts", 2)].message == "not in the client's list result"


def test_a_tools_only_release_fails_only_its_tool_list() -> None:
    """Before 0.6.0 ContextForge reads tools only (the profile's `reads`): a registration
    that fails is a failed tool list there; from 0.6.0 it fails the three listings read
    (templates from 0.9.0), as the lattice observed on 0.1.0 to 0.5.0 and on 0.6.0."""
    from catalogaudit.verify.lattice import shapes
    from catalogaudit.verify.observatory import target as shape_target

    shape = next(s for s in shapes() if s.id == "tool.name/missing")
    t = shape_target(shape, None)
    assert set(t.listings) == {"tools", "prompts", "resources", "resourceTemplates"}
    for release, wanted in [("0.5.0", {"tools"}), ("0.6.0", {"tools", "prompts", "resources"})]:
        lists = {
            o.listing: o.verdict for o in predict(t, f"context-forge@{release}") if o.index is None
        }
        assert lists == dict.fromkeys(wanted, "failed"), release
