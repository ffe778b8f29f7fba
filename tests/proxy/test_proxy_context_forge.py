"""ContextForge through `catalogaudit proxy` (issue 38's done-when): a release that refuses `;` in
a tool description refuses a server whose only tool has one (also in a nested description), and
admits the same server behind `proxy --listen --url --substitutions ';=\\,'`.

The releases that refuse `;` are the measured ones (`cf_measured`, scenario cf-desc-forbidden:
0.9.0 to 1.0.0rc1). The release's own `register_gateway` is driven by the `context-forge` verify
driver, given the proxy's URL to register. A control catalog with `;` in the nested description
only is admitted directly: the release reads the top-level description alone (CF-DESC-001).
Run with `pytest -m oracle` (or CATALOGAUDIT_ORACLE=1); a release not installed is skipped.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import cli
from helpers.cf_measured import MEASURED
from helpers.listening import listening
from helpers.oracle_common import asked_for, not_installed  # noqa: F401 - asked_for: fixture

from catalogaudit.verify import base
from catalogaudit.verify.drivers import context_forge
from catalogaudit.verify.drivers.context_forge_install import cache_root, installed

pytestmark = pytest.mark.oracle

#: The releases measured dropping the tool whose description holds `;`.
REFUSING = [
    release
    for releases, verdict in MEASURED["cf-desc-forbidden"].items()
    if "semicolon" in verdict["tools"]
    for release in releases.split()
]


def tool(description: str, nested: str) -> dict[str, object]:
    schema = {"type": "object", "properties": {"word": {"type": "string", "description": nested}}}
    return {"name": "lookup", "description": description, "inputSchema": schema}


def snapshot(tmp: Path, name: str, description: str, nested: str) -> base.Target:
    raw = tmp / f"{name}-tools.json"
    raw.write_text(json.dumps({"tools": [tool(description, nested)]}), encoding="utf-8")
    path = tmp / f"{name}.json"
    made = cli("snapshot", "--from", str(raw), "-o", str(path))
    assert made.code == 0, str(made)
    (target,) = base.targets([str(path)], tmp)
    return target


@contextmanager
def served(argv: list[str]) -> Iterator[str]:
    """The driver's own `serve --http 0` command for a target, started here: its URL."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    try:
        line = proc.stderr.readline().decode()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.parametrize("release", ["0.9.0", "1.0.0rc1"])
def test_a_release_refusing_semicolons_admits_the_server_through_the_substitutions(
    release: str, tmp_path: Path
) -> None:
    assert release in REFUSING, REFUSING  # the measured data still says it refuses `;`
    if not installed(cache_root(), release):
        not_installed(f"ContextForge {release} (under {cache_root()})")
        pytest.skip(f"ContextForge {release} not installed")
    both = snapshot(tmp_path, "both", "Look a word up; case-insensitive.", "One word; no spaces.")
    nested = snapshot(tmp_path, "nested", "Look a word up.", "One word; no spaces.")
    driver = context_forge.driver_at(None, release)
    upstream = context_forge.serve_argv(both, 120)
    with (
        served(upstream) as url,
        listening("proxy", "--listen", "0", "--url", url, "--substitutions", ";=\\,") as (
            proxied,
            _,
        ),
    ):
        direct, through, control = driver.run([both, both, nested], urls=[None, proxied])
    (refused,) = direct
    assert refused.items is None and refused.listing == "tools", direct
    assert "All 1 tools failed validation" in (refused.error or ""), refused.error
    assert "unsafe characters: ';'" in (refused.error or ""), refused.error
    (admitted,) = through
    assert not admitted.error and admitted.items is not None, through
    assert [i["name"] for i in admitted.items] == ["lookup"]
    (alone,) = control
    assert not alone.error and [i["name"] for i in alone.items or []] == ["lookup"], control
