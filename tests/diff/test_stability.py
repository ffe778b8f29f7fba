"""`catalogaudit stability`: verdicts, causes, exact paths and prompt-cache cost on real servers."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import PYTHON, ROOT, cli, fixture
from helpers.tokens import reference, resent

STABILITY = fixture("stability")
UNSTABLE = str(fixture("servers", "unstable_server.py"))
REF_PORT = str(fixture("stability", "ref_port_server.py"))
EXAMPLE = str(fixture("servers", "example_server.py"))
TIME_SERVER = str(Path(PYTHON).parent / "mcp-server-time")


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        (
            ROOT / "src" / "catalogaudit" / "formatters" / "schemas" / "stability.schema.json"
        ).read_text()
    )
    return loaded


def report(*args: str, cwd: Path | None = None, code: int = 1) -> dict[str, Any]:
    result = cli("stability", *args, "--format", "json", cwd=cwd)
    assert result.code == code, str(result)
    doc: dict[str, Any] = result.json()
    jsonschema.Draft202012Validator(schema()).validate(doc)
    return doc


def item(doc: dict[str, Any], ident: str, listing: str = "tools") -> dict[str, Any]:
    return next(i for i in doc["listings"][listing]["items"] if i["identity"] == ident)


def test_item_order_only_is_bytes_only_with_cause_and_cost(tmp_path: Path) -> None:
    doc = report("a.json", "b.json", cwd=STABILITY / "item-order")
    tools = doc["listings"]["tools"]
    assert doc["verdict"] == tools["verdict"] == "bytes-only"
    assert tools["causes"] == [{"cause": "item order", "inputs": ["b.json"]}]
    assert {i["verdict"] for i in tools["items"]} == {"stable"}
    assert tools["hashesAgree"] == {
        "served": False,
        "prompt": False,
        "canonical": True,
        "pageFields": True,
    }
    cache_ = tools["promptCache"]
    # alpha still hits the cache; everything from the first byte of the moved tool misses
    b_block = '[{"name":"alpha","description":"First tool.","inputSchema":{"type":"object",'
    b_block += '"properties":{"q":{"type":"string"}}}},'
    assert cache_["cachedBytes"] == len(b_block) + len('{"name":"')
    assert cache_["fromItem"] == "gamma" and cache_["exact"] is True
    # tokens: tiktoken's o200k_base from the first token of b's block that a's lacks
    blocks = [
        json.dumps(
            json.loads((STABILITY / "item-order" / f).read_text())["tools"],
            separators=(",", ":"),
            ensure_ascii=False,
        )
        for f in ("a.json", "b.json")
    ]
    assert cache_["tokens"] == resent(reference(str(tmp_path)), *blocks) > 0
    assert doc["promptCache"]["tokens"] == cache_["tokens"]


def test_key_order_only_is_bytes_only_at_its_pointer_with_cost() -> None:
    doc = report("a.json", "b.json", cwd=STABILITY / "key-order")
    alpha = item(doc, "alpha")
    assert alpha["verdict"] == "bytes-only" and alpha["promptChanged"] is True
    assert alpha["causes"] == [{"cause": "key order", "pointer": "/inputSchema"}]
    assert alpha["paths"] == ["/inputSchema"]
    assert doc["listings"]["tools"]["promptCache"]["tokens"] > 0
    text = cli("stability", "a.json", "b.json", cwd=STABILITY / "key-order")
    assert (
        'tool "alpha": bytes-only; key order at /inputSchema; prompt bytes changed' in text.stdout
    )
    assert "tokens" in text.stdout and "BYTES-ONLY across 2 inputs" in text.stderr


def test_escaping_and_whitespace_are_bytes_only_at_no_cost() -> None:
    doc = report("a.json", "b.json", cwd=STABILITY / "escaping")
    tools = doc["listings"]["tools"]
    assert tools["verdict"] == "bytes-only"
    assert tools["causes"] == [{"cause": "escaping/whitespace", "inputs": ["b.json"]}]
    assert tools["hashesAgree"]["served"] is True
    assert doc["promptCache"]["tokens"] == 0


def test_identical_inputs_are_stable_and_exit_0() -> None:
    doc = report("a.json", "a.json", cwd=STABILITY / "key-order", code=0)
    assert doc["stable"] is True and doc["inputs"] == ["a.json", "a.json (2)"]


@pytest.mark.parametrize(
    ("mode", "verdict", "cause", "pointer"),
    [
        ("order", "bytes-only", "key order", ""),
        ("lexeme", "bytes-only", "number lexeme", "/inputSchema/properties/n/maximum"),
        ("content", "content", "content", ""),
    ],
)
def test_runs_of_one_snapshot(
    tmp_path: Path, mode: str, verdict: str, cause: str, pointer: str
) -> None:
    snap = tmp_path / "s.json"
    made = cli(
        "snapshot",
        "--runs",
        "3",
        "-o",
        str(snap),
        "--",
        PYTHON,
        UNSTABLE,
        str(tmp_path / "counter"),
        mode,
    )
    assert made.code == 1, str(made)
    doc = report(str(snap))
    assert doc["inputs"] == [f"{snap}#1", f"{snap}#2", f"{snap}#3"]
    steady = item(doc, "steady")
    assert steady["verdict"] == doc["verdict"] == verdict
    assert {"cause": cause, "pointer": pointer} in steady["causes"]
    assert steady["promptChanged"] is True
    assert doc["promptCache"]["tokens"] > 0
    # odd starts agree with run 1, so only run 2 differs unless every start differs
    assert steady["inputs"] == ([f"{snap}#2", f"{snap}#3"] if mode == "content" else [f"{snap}#2"])
    if mode == "content":
        assert steady["paths"] == ["/description"]


def test_stable_runs_exit_0(tmp_path: Path) -> None:
    snap = tmp_path / "s.json"
    made = cli(
        "snapshot",
        "--runs",
        "2",
        "-o",
        str(snap),
        "--",
        PYTHON,
        UNSTABLE,
        str(tmp_path / "counter"),
        "stable",
    )
    assert made.code == 0, str(made)
    assert report(str(snap), code=0)["verdict"] == "stable"


def test_runs_without_wire_still_give_a_verdict(tmp_path: Path) -> None:
    snap = tmp_path / "s.json"
    cli(
        "snapshot",
        "--runs",
        "2",
        "--no-wire",
        "-o",
        str(snap),
        "--",
        PYTHON,
        UNSTABLE,
        str(tmp_path / "counter"),
        "content",
    )
    doc = report(str(snap))
    assert doc["listings"]["tools"]["verdict"] == "content"
    assert "pages were not kept" in doc["notes"][0]


def test_random_port_in_ref_is_content_unstable_at_that_path(tmp_path: Path) -> None:
    snap = tmp_path / "s.json"
    made = cli("snapshot", "--runs", "3", "-o", str(snap), "--", PYTHON, REF_PORT)
    assert made.code == 1, str(made)
    doc = report(str(snap))
    configure = item(doc, "configure")
    assert configure["verdict"] == "content"
    assert configure["paths"] == ["/inputSchema/properties/config/$ref"]
    assert item(doc, "ping")["verdict"] == "stable"
    assert doc["listings"]["tools"]["promptCache"]["fromItem"] == "configure"
    # the same from a committed pair of captures
    pair = report("a.json", "b.json", cwd=STABILITY / "ref-port")
    assert item(pair, "configure")["paths"] == ["/inputSchema/properties/config/$ref"]


def test_timezone_in_descriptions_differs_with_a_capture_warning(tmp_path: Path) -> None:
    snaps = []
    for tz in ("Asia/Tokyo", "America/New_York"):
        out = tmp_path / f"{tz.replace('/', '-')}.json"
        made = cli("snapshot", "--env", f"TZ={tz}", "-o", str(out), "--", TIME_SERVER)
        assert made.code == 0, str(made)
        snaps.append(str(out))
    doc = report(*snaps)
    assert doc["verdict"] == "content"
    paths = {p for i in doc["listings"]["tools"]["items"] for p in i["paths"]}
    assert "/inputSchema/properties/timezone/description" in paths
    warning = doc["warnings"][0]
    assert warning["kind"] == "capture-differs"
    assert warning["differences"] == [
        {"key": "/server/environment/values/TZ", "old": "Asia/Tokyo", "new": "America/New_York"}
    ]
    text = cli("stability", *snaps)
    assert "warning: the capture blocks" in text.stdout and "/server/environment/values/TZ" in (
        text.stdout
    )
    diff = cli("diff", *snaps, "--fail-on", "model-visible")
    assert diff.code == 1 and "CA860" in diff.stdout and "TZ" in diff.stdout


def test_eras_are_bytes_only_in_tools(tmp_path: Path) -> None:
    snaps = []
    for protocol in ("legacy", "auto"):
        out = tmp_path / f"{protocol}.json"
        assert (
            cli(
                "snapshot", "--protocol", protocol, "-o", str(out), "--", PYTHON, EXAMPLE, "stdio"
            ).code
            == 0
        )
        snaps.append(str(out))
    doc = report(*snaps)
    tools = doc["listings"]["tools"]
    assert {i["verdict"] for i in tools["items"]} == {"bytes-only"}
    assert all(i["promptChanged"] for i in tools["items"])
    assert tools["hashesAgree"]["canonical"] is True and tools["hashesAgree"]["prompt"] is False
    # 2026-07-28 results add resultType/ttlMs/cacheScope/_meta: page fields, not items
    assert tools["pageFields"]["verdict"] == "content"
    assert doc["warnings"] and "/protocol/era" in doc["warnings"][0]["message"]


def test_markdown_and_usage_errors() -> None:
    result = cli(
        "stability", "a.json", "b.json", "--format", "markdown", cwd=STABILITY / "key-order"
    )
    assert result.code == 1
    assert result.stdout.startswith("### catalogaudit stability: :x: BYTES-ONLY")
    assert '| `tool "alpha"` | bytes-only | key order | `/inputSchema` |' in result.stdout
    one = cli("stability", "a.json", cwd=STABILITY / "key-order")
    assert one.code == 2 and one.stderr.startswith("error: stability needs two or more")
