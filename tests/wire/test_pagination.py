"""Pagination in both eras and wire anomalies, against the raw stdio server.

The raw server writes every item's JSON text by hand, so number lexemes, duplicate keys, NaN,
lone surrogates and invalid UTF-8 reach us exactly as a hostile or sloppy server would send them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.rawservers import counts, findings, raw, records, snapshot_ok

from catalogaudit.canonical import hashes
from catalogaudit.model import jsonwire

CATALOG = ("--tools", "25", "--prompts", "7", "--resources", "12", "--templates", "3")
PAGED = (*CATALOG, "--page-size", "5")
EXPECTED_COUNTS = (25, 7, 12, 3)
EXPECTED_PAGES = {"tools": 5, "prompts": 2, "resources": 3, "resourceTemplates": 1}
IDENTITY = {
    "tools": "name",
    "prompts": "name",
    "resources": "uri",
    "resourceTemplates": "uriTemplate",
}


def check_listing_layout(doc: dict[str, Any], name: str) -> None:
    """Items sorted by identity, one hash record each, servedPositions a permutation."""
    rec = doc["listings"][name]
    idents = [item[IDENTITY[name]] for item in rec["items"]]
    assert idents == sorted(idents)
    assert len(set(idents)) == len(idents)
    assert sorted(rec["servedPositions"]) == list(range(len(rec["items"])))
    assert len(rec["itemHashes"]) == len(rec["items"])
    assert sum(page["items"] for page in rec["pages"]) == len(rec["items"])


@pytest.mark.parametrize(
    ("protocol", "era", "version"),
    [("legacy", "legacy", "2025-11-25"), ("modern", "modern", "2026-07-28")],
)
def test_every_page_of_every_listing(tmp_path: Path, protocol: str, era: str, version: str) -> None:
    doc, _ = snapshot_ok(tmp_path, "--protocol", protocol, "--", *raw(*PAGED))
    assert (doc["capture"]["protocol"]["era"], doc["capture"]["protocol"]["negotiated"]) == (
        era,
        version,
    )
    assert counts(doc) == EXPECTED_COUNTS
    assert [f for f in doc["findings"] if f["severity"] == "error"] == []
    assert [f["ruleId"] for f in doc["findings"] if f["ruleId"].startswith("CA53")] == []
    for name, pages in EXPECTED_PAGES.items():
        rec = doc["listings"][name]
        assert rec["status"] == "ok"
        assert len(rec["pages"]) == pages
        assert len(doc["wire"]["pages"][name]) == pages
        sizes = [page["items"] for page in rec["pages"]]
        total = EXPECTED_COUNTS[list(EXPECTED_PAGES).index(name)]
        assert sizes == [5] * (pages - 1) + [total - 5 * (pages - 1)]
        cursors = [page["fields"].get("nextCursor") for page in rec["pages"]]
        assert all(isinstance(c, str) and c for c in cursors[:-1]) and cursors[-1] is None
        assert len(set(cursors[:-1])) == pages - 1
        for page in rec["pages"]:
            if era == "modern":
                assert page["fields"]["resultType"] == "complete"
            else:
                assert "resultType" not in page["fields"]
        check_listing_layout(doc, name)
    names = [t["name"] for t in doc["listings"]["tools"]["items"]]
    assert names == [f"tool_{i:03d}" for i in range(25)]


def test_modern_empty_cursor_is_followed(tmp_path: Path) -> None:
    """2026-07-28: nextCursor "" does not end the list; the page after it is fetched."""
    record = tmp_path / "received.jsonl"
    doc, _ = snapshot_ok(
        tmp_path,
        "--protocol",
        "modern",
        "--",
        *raw(*PAGED, "--empty-cursor", "--record", str(record)),
    )
    assert counts(doc) == EXPECTED_COUNTS
    assert findings(doc, "CA535") == []
    tools = doc["listings"]["tools"]
    assert len(tools["pages"]) == 5
    assert tools["pages"][0]["fields"]["nextCursor"] == ""
    assert '"nextCursor":""' in doc["wire"]["pages"]["tools"][0]
    check_listing_layout(doc, "tools")
    sent = [
        r["message"]["params"].get("cursor")
        for r in records(record)
        if r.get("message", {}).get("method") == "tools/list"
    ]
    assert sent[:2] == [None, ""]
    assert len(sent) == 5


def test_legacy_empty_cursor_stops_with_ca535(tmp_path: Path) -> None:
    """Before 2026-07-28, clients disagree on "": we stop after that page and say so (CA535).

    What the snapshot then holds: the first page only (5 of 25 tools, 5 of 7 prompts, 5 of 12
    resources), status "partial", page fields recording nextCursor "", one CA535 warning per
    listing that served "", and listings that fit on one page (templates) unaffected.
    """
    doc, _ = snapshot_ok(tmp_path, "--protocol", "legacy", "--", *raw(*PAGED, "--empty-cursor"))
    by_kind = {f["kind"]: f for f in findings(doc, "CA535")}
    assert set(by_kind) == {"tools", "prompts", "resources"}
    for finding in by_kind.values():
        assert finding["severity"] == "warning"
        assert finding["pointer"] == "/nextCursor" and finding["page"] == 0
    assert counts(doc) == (5, 5, 5, 3)
    for name in ("tools", "prompts", "resources"):
        rec = doc["listings"][name]
        assert rec["status"] == "partial"
        assert [p["fields"] for p in rec["pages"]] == [{"nextCursor": ""}]
        check_listing_layout(doc, name)


def test_number_lexemes_are_kept(tmp_path: Path) -> None:
    doc, text = snapshot_ok(tmp_path, "--", *raw("--priority-lexemes"))
    # resource i has priority ("1.0", "1", "0.5", "1E0")[i % 4], written verbatim
    written = re.findall(r'"priority": ([^\s,}]+)', text)
    assert written == ["1.0", "1", "0.5", "1E0"]
    assert '"priority": 1.0\n' in text and '"priority": 1\n' in text
    rec = doc["listings"]["resources"]
    served = [h["served"] for h in rec["itemHashes"]]
    assert len(set(served)) == 4
    # The hashes in the file are those of the served text; an item that differs from another
    # only in `1.0` versus `1` has a different served hash and the same canonical hash.
    page = jsonwire.loads(doc["wire"]["pages"]["resources"][0])
    items = page["resources"]
    for i, item in enumerate(items):
        assert hashes.item_hashes("resources", item).as_dict() == rec["itemHashes"][i]
    one_point_zero, one = items[0], dict(items[1])
    one.update(uri=one_point_zero["uri"], name=one_point_zero["name"])
    a, b = hashes.item_hashes("resources", one_point_zero), hashes.item_hashes("resources", one)
    assert a.served != b.served
    assert a.canonical == b.canonical


ANOMALIES = [
    pytest.param(
        "--dup-keys",
        "CA540",
        "/description",
        '"description":"Generated tool 0.","description":"Second description (duplicate key)."',
        id="dup-keys",
    ),
    pytest.param(
        "--nan",
        "CA541",
        "/inputSchema/properties/x/default",
        '"description":"Input value.","default":NaN}',
        id="nan",
    ),
    pytest.param(
        "--lone-surrogate",
        "CA542",
        "/description",
        '"description":"Generated tool 0. Lone surrogate: \\ud800 end."',
        id="lone-surrogate",
    ),
    pytest.param(
        "--invalid-utf8",
        "CA543",
        "/description",
        '"description":"Generated tool 0. Raw byte: \udcff end."',
        id="invalid-utf8",
    ),
    pytest.param(
        "--big-int",
        "CA544",
        "/inputSchema/properties/x/maximum",
        '"maximum":9223372036854775807}',
        id="big-int",
    ),
]


@pytest.mark.parametrize(("flag", "rule", "pointer", "wire_text"), ANOMALIES)
def test_wire_anomalies(tmp_path: Path, flag: str, rule: str, pointer: str, wire_text: str) -> None:
    doc, text = snapshot_ok(tmp_path, "--", *raw(flag))
    # the file is strict UTF-8 JSON, whatever the server sent
    raw_bytes = (tmp_path / "s.json").read_bytes()
    assert json.loads(raw_bytes.decode("utf-8")) == json.loads(text)
    anomalies = [f for f in doc["findings"] if f["ruleId"].startswith("CA54")]
    assert [f["ruleId"] for f in anomalies] == [rule]
    (finding,) = anomalies
    assert finding["identity"] == "tool_000"
    assert finding["kind"] == "tools"
    assert finding["pointer"] == pointer
    assert finding["page"] == 0
    assert "'tool_000'" in finding["message"]
    # the wire section keeps the served text of the page, anomaly included
    assert wire_text in doc["wire"]["pages"]["tools"][0]
    assert counts(doc) == (3, 2, 4, 1)
    tool = doc["listings"]["tools"]["items"][0]
    assert tool["name"] == "tool_000"
    if flag == "--dup-keys":
        assert tool["description"] == "Second description (duplicate key)."
    if flag == "--nan":
        assert tool["inputSchema"]["properties"]["x"]["default"] is None
        assert '"default": null' in text
    if flag == "--big-int":
        assert '"maximum": 9223372036854775807' in text
        assert finding["severity"] == "warning"
    else:
        assert finding["severity"] == "error"
