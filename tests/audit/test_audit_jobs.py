"""`audit --jobs`: a big catalog's spec rules run in two processes (`verbs.fanout.beside`),
with the one-process report; a child that fails leaves its work to the parent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, ROOT

from catalogaudit.audit.engine import BIG, AuditOptions, audit
from catalogaudit.model.catalog import Catalog
from catalogaudit.verbs import fanout

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="workers fork on Linux only"
)


def _big(tmp: Path) -> Path:
    """The 100-tool bench catalog six times over (renamed), plus what each rule group finds:
    a control character and a timestamp in prose (CA201, CA701), a required property that is
    not declared (CA404)."""
    tools = json.loads((FIXTURES / "bench" / "tools100.json").read_text(encoding="utf-8"))["tools"]
    out = [{**tool, "name": f"{tool['name']}_{copy}"} for copy in range(6) for tool in tools]
    out[7]["description"] = "Rings the bell \u0007 at 2026-12-02T10:00:00Z"
    out[450]["inputSchema"] = {"type": "object", "properties": {}, "required": ["ghost"]}
    assert len(out) >= BIG
    path = tmp / "big.json"
    path.write_text(json.dumps({"tools": out}), encoding="utf-8")
    return path


def _cli(*args: str) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100"}
    done = subprocess.run(
        [PYTHON, "-m", "catalogaudit", "audit", *args], env=env, capture_output=True, text=True
    )
    return done.returncode, done.stdout, done.stderr


@linux_only
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_two_groups_write_the_one_process_report(tmp_path: Path, fmt: str) -> None:
    path = str(_big(tmp_path))
    one = _cli("--format", fmt, "--fail-on", "info", "--jobs", "1", path)
    assert one[0] == 1, one
    for rule in ("CA201", "CA701", "CA404"):
        assert rule in one[1]
    assert _cli("--format", fmt, "--fail-on", "info", "--jobs", "2", path) == one


@linux_only
def test_a_child_that_dies_leaves_its_work_here() -> None:
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            os._exit(3)  # killed, as by the OOM killer: nothing written back
        return 42

    assert fanout.beside(work)() == 42
    assert fanout.beside(lambda: os.getpid())() != parent  # the work did run in a child


@linux_only
def test_a_rule_that_crashes_in_the_child_is_the_same_rule_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalogaudit.intake import read_catalog
    from catalogaudit.rules.spec import volatile

    def crash(*_: object) -> None:
        raise ValueError("boom")

    monkeypatch.setattr(volatile, "_controls", crash)  # CA201, in the second group
    catalog = Catalog(read_catalog(str(_big(tmp_path))).doc, source="big.json")
    alone = audit(catalog, AuditOptions())
    both = audit(catalog, AuditOptions(beside=fanout.beside))
    assert [(e.rule_id, e.error) for e in alone.rule_errors] == [("CA201", "ValueError: boom")]
    assert both.rule_errors == alone.rule_errors
    assert [f.fingerprint for f in both.findings] == [f.fingerprint for f in alone.findings]
