"""`serve` against hostile tool schemas (issue 33): a capture of a real `mcp` server
(fixtures/servers/hostile_schema_server.py) replayed by `catalogaudit serve --http`, called by
the `mcp` SDK's client. A catastrophic-backtracking `pattern` and `uniqueItems` on a large
array of objects are checked in linear time, and output schemas asking for gigabytes get a
tool error naming the bound instead of an answer that size (the server runs under a 3 GB
address-space limit, so the unbounded generator fails instead of filling the machine)."""

from __future__ import annotations

import json
import select
import signal
import subprocess
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from helpers import PYTHON, SERVERS, cli

from catalogaudit.serve.instances import MAX_CHARS, MAX_ITEMS, MAX_LENGTH, MAX_VALUES, generate


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    snap = tmp_path_factory.mktemp("hostile") / "hostile.snapshot.json"
    made = cli("snapshot", "-o", str(snap), "--", PYTHON, str(SERVERS / "hostile_schema_server.py"))
    assert made.code == 0, made.stderr
    serve = f"{PYTHON} -m catalogaudit serve {snap} --http 0 --max-seconds 300"
    proc = subprocess.Popen(
        ["sh", "-c", f"ulimit -v 3000000 && exec {serve}"],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stderr is not None
        assert select.select([proc.stderr], [], [], 30)[0]
        line = proc.stderr.readline().decode()
        assert line.startswith("listening on http://127.0.0.1:"), line
        yield line.split(" ", 2)[2].strip()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # a thread that never releases the GIL (the bug)
            proc.kill()
            proc.communicate(timeout=10)


def _call(url: str, name: str, arguments: dict[str, Any], within: float = 20) -> Any:
    """One `tools/call` by the SDK's client, which must be answered `within` seconds."""
    from mcp import Client

    async def go() -> Any:
        with anyio.fail_after(within):
            async with Client(url, mode="auto", cache=None) as client:
                return await client.call_tool(name, arguments)

    return anyio.run(go)


def _text(result: Any) -> str:
    return str(result.content[0].text)


def test_backtracking_pattern_is_linear(url: str) -> None:
    """`^(a+)+$` against 40 a's and a b: about 2**40 steps for a backtracking engine."""
    bad = _call(url, "match", {"word": "a" * 40 + "b"})
    assert bad.is_error and "word" in _text(bad) and "does not match" in _text(bad)
    good = _call(url, "match", {"word": "a" * 100_000})
    assert not good.is_error, _text(good)


def test_unique_items_on_a_large_array(url: str) -> None:
    """12,000 distinct objects (about 130 kB): quadratic comparison took minutes."""
    rows: list[Any] = [{"k": n} for n in range(12_000)]
    assert not _call(url, "dedupe", {"rows": rows}).is_error
    dup = _call(url, "dedupe", {"rows": [*rows, {"k": 11_999}]})
    assert dup.is_error and "non-unique" in _text(dup)


@pytest.mark.parametrize(
    ("tool", "bound"),
    [
        ("long_text", f"minLength 300000000 over {MAX_LENGTH}"),
        ("long_list", f"minItems 100000000 over {MAX_ITEMS}"),
        ("grid", f"more than {MAX_CHARS} characters"),
    ],
)
def test_huge_output_schemas_are_refused_with_the_bound(url: str, tool: str, bound: str) -> None:
    result = _call(url, tool, {})
    assert result.is_error and result.structured_content is None
    assert bound in _text(result) and "outputSchema" in _text(result)


def test_arguments_over_the_cap_are_refused(url: str) -> None:
    big = _call(url, "match", {"word": "a" * 5_000_000}, within=60)
    assert big.is_error and "serve checks at most" in _text(big)


def test_generator_bounds_nested_sizes() -> None:
    """Each bound holds on its own and multiplied through nesting; the value stays small."""
    text: dict[str, Any] = {"type": "string", "minLength": 4000}
    short: dict[str, Any] = {"type": "string", "minLength": 1}
    for leaf, bound in ((text, f"{MAX_CHARS} characters"), (short, f"{MAX_VALUES} values")):
        nested = leaf
        for _ in range(4):
            nested = {"type": "array", "minItems": 500, "items": nested}
        value, cut = generate({"type": "object", "required": ["v"], "properties": {"v": nested}})
        assert bound in cut and len(json.dumps(value)) < 2 * MAX_CHARS
    value, cut = generate(
        {"type": "array", "minItems": 3, "items": {"type": "string", "minLength": 2.0}}
    )
    assert value == ["aa", "aa", "aa"] and cut == ""
