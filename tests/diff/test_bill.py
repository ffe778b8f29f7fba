"""The prompt-cache bill of `stability`, `diff` and `snapshot --runs`: tokens re-sent per
session and money per 1,000 sessions per provider, dated and sourced, `--prices FILE`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import PYTHON, ROOT, cli, fixture

UNSTABLE = str(fixture("servers", "unstable_server.py"))
KEY_ORDER = fixture("stability", "key-order")
PRICES: dict[str, Any] = json.loads(
    (ROOT / "src" / "catalogaudit" / "diffing" / "prices.json").read_text()
)
SCHEMA = json.loads(
    (ROOT / "src" / "catalogaudit" / "formatters" / "schemas" / "stability.schema.json").read_text()
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A server whose key order changes at every start, captured three times."""
    where = tmp_path_factory.mktemp("runs")
    snap = where / "s.json"
    made = cli(
        "snapshot", "--runs", "3", "-o", snap, "--", PYTHON, UNSTABLE, where / "counter", "order"
    )
    assert made.code == 1, str(made)
    # snapshot --runs says what the runs that differ cost, on stderr
    assert "prompt-cache bill (prices of " + PRICES["date"] in made.stderr
    assert "per 1,000 sessions" in made.stderr
    return snap


def _rows(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["provider"]: r for r in doc["promptCache"]["providers"]}


def test_key_order_per_start_is_billed_per_provider_in_json(runs: Path) -> None:
    result = cli("stability", runs, "--format", "json")
    assert result.code == 1, str(result)
    doc = result.json()
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    prices = doc["promptCache"]["prices"]
    assert prices["date"] == PRICES["date"] and prices["source"] == "built-in"
    assert "https://platform.claude.com/docs/en/about-claude/pricing" in prices["sources"]
    rows = doc["promptCache"]["providers"]
    assert {r["provider"] for r in rows} == {"anthropic", "openai", "google"}
    for row in rows:
        assert row["tokens"] > 0 and row["belowMinimum"] is True  # one small tool
        # odd starts agree with start 1 (the server alternates), so only start 2 can re-bill
        assert row["perInput"] == {f"{runs}#2": row["resent"], f"{runs}#3": 0}
        # every client with a predicted prompt builds the tool object itself, so the served
        # top-level key order never reaches its request; the served projection does change
        assert row["rebills"] is (row["client"] is None), row
    # Claude Code writes {name, description, input_schema} itself
    claude = _rows(doc)["anthropic"]
    assert claude["client"] == "claude-code" and claude["mode"] == "tool-search-off"
    assert claude["cost"]["perThousandSessions"] == 0 and len(set(claude["prompts"].values())) == 1
    assert "defers MCP tools by default" in claude["note"]
    assert {r["tokenizer"] for r in rows if r["provider"] == "openai"} == {"o200k_base"}
    assert {r["tokenizer"] for r in rows if r["provider"] != "openai"} == {"o200k estimate"}


def _described(where: Path) -> tuple[Path, Path]:
    """Two captures whose first tool's description differs: every client forwards it."""
    tools = json.loads((KEY_ORDER / "a.json").read_text())
    old, new = where / "old.json", where / "new.json"
    old.write_text(json.dumps(tools))
    tools["tools"][0]["description"] = "First tool, reworded."
    new.write_text(json.dumps(tools))
    return old, new


def test_key_order_per_start_bill_in_text_and_markdown(runs: Path) -> None:
    # A provider's line wraps at 100 columns under itself, six columns in: joined back here.
    text = re.sub(r"\n {6}(?=\S)", " ", cli("stability", runs).stdout)
    assert f"prompt-cache bill (prices of {PRICES['date']}, built-in" in text
    for provider in ("anthropic", "openai", "google"):
        line = next(ln for ln in text.splitlines() if ln.startswith(f"  {provider} "))
        assert "tokens re-sent per session" in line and "per 1,000 sessions" in line
    assert "the cached prefix is not re-billed" in text  # claude-code
    md = cli("stability", runs, "--format", "markdown").stdout
    assert f"Prompt-cache bill, prices of {PRICES['date']} (built-in), in USD:" in md
    assert "| provider | family | priced on | tokens | re-sent per session |" in md
    assert "| anthropic | claude-sonnet-4.6 | claude-code 2.1.328, mode tool-search-off |" in md
    assert "| openai | gpt-5 |" in md and "| google | gemini-2.5-pro |" in md


def test_prices_file_overrides_and_minimum(tmp_path: Path) -> None:
    mine = json.loads(json.dumps(PRICES))
    mine["date"] = "2030-01-01"
    fam = mine["providers"]["openai"]["families"]["gpt-5"]
    fam.update({"cacheWrite": {"auto": 1_000_000}, "cacheRead": 0, "minimumPrefix": 0})
    for provider in mine["providers"].values():
        provider.pop("tokenizer", None)  # NOTE: optional: then told by provider (`tokens.label`)
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(mine))
    old, new = _described(tmp_path)
    doc = cli("stability", old, new, "--format", "json", "--prices", path).json()
    assert doc["promptCache"]["prices"]["date"] == "2030-01-01"
    assert doc["promptCache"]["prices"]["source"] == str(path)
    for row in doc["promptCache"]["providers"]:
        assert row["rebills"] is True and row["resent"] > 0
        estimate = row["provider"] != "openai"
        assert row["tokenizer"] == ("o200k estimate" if estimate else "o200k_base")
        if row["provider"] == "openai":  # one currency unit per re-sent token
            assert row["cost"]["perSession"] == row["resent"]
            assert row["belowMinimum"] is False
        else:
            assert row["belowMinimum"] is True


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not JSON"),
        ('{"date": "2026-12-06", "providers": {}}', "not price data: /: 'currency'"),
        (
            json.dumps(
                {**PRICES, "providers": {"x": {**PRICES["providers"]["openai"], "ttl": "1h"}}}
            ),
            "no cacheWrite price for '1h'",
        ),
    ],
)
def test_bad_prices_file_is_one_error_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(content)
    for verb in (["stability", "a.json", "b.json"], ["diff", "a.json", "b.json"]):
        result = cli(*verb, "--prices", path, cwd=KEY_ORDER)
        assert result.code == 2, str(result)
        assert result.stderr.startswith("error: --prices ") and message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and not result.stdout


def test_diff_bills_a_change_and_not_an_equal_catalog(tmp_path: Path) -> None:
    old, new = _described(tmp_path)
    changed = cli("diff", old, new, "--format", "json").json()
    assert all(r["rebills"] for r in changed["promptCache"]["providers"])
    text = cli("diff", old, new).stdout
    assert "prompt-cache bill (prices of" in text and "per 1,000 sessions" in text
    md = cli("diff", old, new, "--format", "markdown").stdout
    assert "| anthropic | claude-sonnet-4.6 |" in md
    same = cli("diff", old, old)
    assert same.code == 0 and "prompt-cache bill" not in same.stdout
    assert "promptCache" not in cli("diff", old, old, "--format", "json").json()


def test_the_built_in_prices_are_valid_price_data() -> None:
    from catalogaudit.diffing import check_prices

    schema = json.loads(
        (ROOT / "src" / "catalogaudit" / "diffing" / "prices.schema.json").read_text()
    )
    jsonschema.Draft202012Validator(schema).validate(PRICES)
    assert check_prices(PRICES, "built-in") == PRICES
    for provider in PRICES["providers"].values():
        assert all(s.startswith("https://") for s in provider["sources"])
    assert set(PRICES["clients"].values()) <= set(PRICES["providers"])


@pytest.mark.parametrize("description", ["plain", "a lone \ud800 surrogate"])
def test_a_rows_prompt_hashes_are_the_prompts_own(description: str) -> None:
    """Each row names a prompt by `ClientPrompt.sha256` (a lone surrogate written `?`), and
    counts its text with the surrogate kept, whichever way the bill writes the bytes."""
    from catalogaudit.canonical import ClientPrompt, SentTool, count_tokens
    from catalogaudit.diffing.bill import bill

    def prompt(text: str) -> ClientPrompt:
        return ClientPrompt("x", None, "inline", (SentTool("t", "inline", "t", text),))

    old, new = prompt(description), prompt(description + "!")
    rows = bill(lambda client: {"old": old, "new": new}, (lambda: 0, {"new": 0}), PRICES)
    assert rows and all(r["prompts"] == {"old": old.sha256, "new": new.sha256} for r in rows)
    assert all(r["tokens"] == count_tokens(old.utf8()) for r in rows)
