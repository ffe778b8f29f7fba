"""Differential oracle (issue 32): the ts-sdk-v2 profile against the TS SDK v2 Client (npm
@modelcontextprotocol/client 2.4.0, versionNegotiation auto), driven against `catalogaudit
serve` in both eras.

Handshake era: the listing scenarios B-F (fixtures/oracle/) and the item shapes S1-S7
(fixtures/oracle-npm/) as static snapshots. Both eras: the era scenarios L, M and U of
fixtures/oracle-era/ (README there), and the item shapes again served `--protocol dual
--cache-hints present` (met at 2026-07-28 through server/discover). The cache hints: the tool
list of fixtures/oracle-v2/hints/ with `resultType`, `ttlMs` and `cacheScope` valid, absent,
fractional, negative, too large, of a wrong type or null, served `--protocol dual`. Each served
scenario is captured with `snapshot --legacy-probe`, so the snapshot replays it. The profile's
prediction must equal every observation, and the list verdicts must equal the measured ones
below, quoting the client, so a profile and a driver wrong the same way still fail. The era
scenarios G, H, K and R are captured the same way and driven, with the same verdicts and
quotes, by test_era_oracle.py (every client meets them there).

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, PYTHON, ROOT, cli
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    predicted_rows,
    scenario_snapshots,
    verify_json,
)

from catalogaudit.model.protocol import CAPABILITY_OF

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
ERA = FIXTURES / "oracle-era"
NPM = FIXTURES / "oracle-npm"
HINTS = FIXTURES / "oracle-v2" / "hints"
DUAL_HINTS = ("--protocol", "dual", "--cache-hints", "present")
#: name -> (input files, `snapshot --from` revision, `serve` options; () keeps it static).
SERVED: dict[str, tuple[list[Path], str, tuple[str, ...]]] = {
    "L": (sorted((ERA / "catalog").glob("*.json")), "auto", ("--protocol", "legacy")),
    "M": (sorted((ERA / "catalog").glob("*.json")), "auto", DUAL_HINTS),
    "U": (
        sorted((ERA / "catalog").glob("*.json")),
        "auto",
        ("--protocol", "modern", "--cache-hints", "present"),
    ),
    **{
        f"modern-{s}": (sorted((NPM / s).glob("*.json")), "auto", DUAL_HINTS)
        for s in ("S1-tool-shapes", "S2-output-schema-array", "S4-prompt-shapes", "S5-prompt-names")
    },
    # resources with templates, so the server answers both lists it advertises
    "modern-S3+S6": (
        sorted((NPM / "S3-resource-shapes").glob("*.json"))
        + sorted((NPM / "S6-template-shapes").glob("*.json")),
        "auto",
        DUAL_HINTS,
    ),
    **{
        f"hints-{p.name.removesuffix('.tools.json')}": ([p], "2026-07-28", ("--protocol", "dual"))
        for p in sorted(HINTS.glob("*.tools.json"))
    },
}
STATIC = [
    "B-array-input-schema",
    "C-priority-lexemes",
    "D-no-input-schema",
    "E-priority-2",
    "F-resource-without-uri",
]
SHAPES = sorted(p.name for p in NPM.iterdir() if p.is_dir())
K, F = "kept", "failed"
ALL3 = ("tools", "resources", "resourceTemplates")
#: scenario -> (measured verdict per list, a quote from a failed list's message).
MEASURED: dict[str, tuple[dict[str, str], str]] = {
    "B-array-input-schema": ({"tools": F}, 'expected \\"object\\"'),
    "C-priority-lexemes": ({"resources": K}, ""),
    "D-no-input-schema": ({"tools": F}, "expected object, received undefined"),
    "E-priority-2": ({"resources": F}, "Too big: expected number to be <=1"),
    "F-resource-without-uri": (
        {"resources": F},
        '"uri" ], "message": "Invalid input: expected string',
    ),
    "S1-tool-shapes": (
        {"tools": F},
        '"name" ], "message": "Invalid input: expected string, received undefined"',
    ),
    "S2-output-schema-array": ({"tools": F}, '"outputSchema", "type" ]'),
    "S3-resource-shapes": ({"resources": F}, '"name" ]'),
    "S4-prompt-shapes": ({"prompts": F}, '"name" ]'),
    "S5-prompt-names": ({"prompts": K}, ""),
    "S6-template-shapes": ({"resourceTemplates": F}, '"uriTemplate" ]'),
    "S7-duplicate-uris": ({"resources": K}, ""),
    "L": (dict.fromkeys(ALL3, K), ""),
    "M": (dict.fromkeys(ALL3, K), ""),
    "U": (dict.fromkeys(ALL3, K), ""),
    "modern-S1-tool-shapes": ({"tools": F}, '"name" ]'),
    # the 2026-07-28 Tool schema does not look at outputSchema.type
    "modern-S2-output-schema-array": ({"tools": K}, ""),
    "modern-S4-prompt-shapes": ({"prompts": F}, '"name" ]'),
    "modern-S5-prompt-names": ({"prompts": K}, ""),
    "modern-S3+S6": ({"resources": F, "resourceTemplates": F}, '"name" ]'),
    "hints-ok": ({"tools": K}, ""),
    "hints-public": ({"tools": K}, ""),
    "hints-int-float": ({"tools": K}, ""),
    "hints-frac": ({"tools": F}, "expected int, received number"),
    "hints-huge": ({"tools": F}, "Integers must be within the safe integer range"),
    "hints-neg": ({"tools": F}, "Too small: expected number to be >=0"),
    "hints-str": ({"tools": F}, "expected number, received string"),
    "hints-null": ({"tools": F}, "expected number, received null"),
    "hints-no-ttl": ({"tools": F}, "expected number, received undefined"),
    "hints-no-scope": ({"tools": F}, 'expected one of \\"public\\"|\\"private\\"'),
    "hints-scope-shared": ({"tools": F}, 'expected one of \\"public\\"|\\"private\\"'),
    "hints-scope-num": ({"tools": F}, 'expected one of \\"public\\"|\\"private\\"'),
    "hints-rt-bad": ({"tools": F}, "Unsupported result type 'partial' for tools/list"),
}


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("ts-sdk-v2-oracle")
    out = scenario_snapshots(base, STATIC)
    for name in SHAPES:
        inputs = sorted((NPM / name).glob("*.json"))
        path = base / f"{name}.json"
        made = cli("snapshot", *[a for f in inputs for a in ("--from", str(f))], "-o", str(path))
        assert made.code == 0, str(made)
        out[name] = path
    for name, (inputs, revision, opts) in SERVED.items():
        static = base / f"{name}-static.json"
        args = [a for f in inputs for a in ("--from", str(f))]
        made = cli("snapshot", *args, "--protocol", revision, "-o", str(static))
        assert made.code == 0, str(made)
        listings = json.loads(static.read_text())["listings"]
        served = {n for n, v in listings.items() if v.get("status") != "absent"}
        caps = json.dumps({CAPABILITY_OF[n]: {} for n in served})
        serve = [PYTHON, "-m", "catalogaudit", "serve", str(static)]
        serve += ["--max-seconds", "60", "--capabilities", caps, *opts]
        path = base / f"{name}.json"
        made = cli("snapshot", "--legacy-probe", "-o", str(path), "--", *serve)
        assert made.code == 0, str(made)
        out[name] = path
    return out


@pytest.fixture(scope="module")
def verdicts(snapshots: dict[str, Path]) -> dict[str, Any]:
    if not (MODULES / "@modelcontextprotocol" / "client" / "package.json").is_file():
        not_installed("ts-sdk-v2 (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    code, doc = verify_json(
        "ts-sdk-v2@2.4.0", [snapshots[n] for n in sorted(MEASURED)], str(MODULES)
    )
    assert code == (0 if doc["matches"] else 1)
    return doc


@pytest.mark.parametrize("scenario", sorted(MEASURED))
def test_profile_predicts_the_client(
    scenario: str, snapshots: dict[str, Path], verdicts: dict[str, Any]
) -> None:
    rows = predicted_rows(verdicts, snapshots[scenario], "ts-sdk-v2")
    lists = {r["listing"]: r for r in rows if r["index"] is None}
    measured, quote = MEASURED[scenario]
    assert {n: r["verdict"] for n, r in lists.items()} == measured
    for r in lists.values():
        if r["verdict"] == F:
            assert quote in r["message"], r["message"]


def test_every_shape_scenario_is_run() -> None:
    assert set(STATIC) | set(SHAPES) <= set(MEASURED)
    assert set(SERVED) <= set(MEASURED)
