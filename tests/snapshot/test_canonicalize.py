"""`canonicalize` and `hash` through the real CLI: written form, --check, --in-place, --jcs."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, PYTHON, cli, fixture, validate_snapshot

TOOLS = (
    '{"tools":[{"name":"b","description":"Add two","inputSchema":{"type":"object",'
    '"properties":{"n":{"type":"integer","maximum":9223372036854775807}}}},'
    '{"name":"a","inputSchema":{"type":"object"},"annotations":{"priority":1.0}}]}'
)
CA544 = (
    "warning: CA544 integer 9223372036854775807 is beyond 2^53-1; IEEE 754 readers (JavaScript, "
    "the canonical hash) see 9223372036854776000 ('b' at /inputSchema/properties/n/maximum)"
)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> str:
    """TOOLS as `snapshot --from tools.json` writes it (taken once: the CLI is slow to start)."""
    tmp_path = tmp_path_factory.mktemp("written")
    write(tmp_path, "tools.json", TOOLS)
    return snapshot_from(tmp_path, "snap.json", "--from", "tools.json").read_text()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def snapshot_from(tmp_path: Path, name: str, *args: str) -> Path:
    """`snapshot --from` a raw list result: a snapshot in written form, with a wire section."""
    out = tmp_path / name
    result = cli("snapshot", "-o", name, *args, cwd=tmp_path)
    assert result.code == 0, str(result)
    return out


def canonical_check(tmp_path: Path, *names: str) -> None:
    result = cli("canonicalize", "--check", *names, cwd=tmp_path)
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), str(result)


# --- idempotent on the written form ------------------------------------------------------------


@pytest.mark.parametrize("extra", [[], ["--no-wire"]])
def test_a_static_snapshot_is_already_canonical(tmp_path: Path, extra: list[str]) -> None:
    write(tmp_path, "tools.json", TOOLS)
    snap = snapshot_from(tmp_path, "snap.json", "--from", "tools.json", *extra)
    before = snap.read_bytes()
    canonical_check(tmp_path, "snap.json")
    result = cli("canonicalize", "snap.json", cwd=tmp_path)
    assert result.code == 0 and result.stdout.encode() == before, str(result)
    assert result.stderr == ""
    result = cli("canonicalize", "--in-place", "snap.json", cwd=tmp_path)
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), str(result)
    assert snap.read_bytes() == before


def test_a_live_snapshot_is_already_canonical(tmp_path: Path) -> None:
    server = str(fixture("servers", "example_server.py"))
    result = cli("snapshot", "-o", "live.json", "--", PYTHON, server, "stdio", cwd=tmp_path)
    assert result.code == 0, str(result)
    canonical_check(tmp_path, "live.json")
    listed = cli("hash", "--format", "json", "live.json", cwd=tmp_path)
    doc = json.loads((tmp_path / "live.json").read_text())
    assert listed.code == 0 and listed.stderr == "", str(listed)
    assert listed.json()["catalog"] == doc["hashes"]
    assert (
        listed.json()["listings"]["resources"]["hashes"] == doc["listings"]["resources"]["hashes"]
    )


# --- any loader input becomes what `snapshot` writes -------------------------------------------


def test_a_list_result_becomes_the_snapshot_bytes(tmp_path: Path) -> None:
    write(tmp_path, "tools.json", TOOLS)
    expected = snapshot_from(tmp_path, "snap.json", "--from", "tools.json").read_text()
    result = cli("canonicalize", "tools.json", cwd=tmp_path)
    assert result.code == 0, str(result)
    assert result.stdout == expected
    assert result.stderr == f"tools.json: input: a tools/list result\ntools.json: {CA544}\n"
    doc = result.json()
    validate_snapshot(doc)
    assert [f["ruleId"] for f in doc["findings"]] == ["CA524", "CA544"]
    assert doc["wire"]["pages"]["tools"] == [TOOLS]
    # 1.0 keeps its lexeme in the readable copy
    assert '"priority": 1.0\n' in result.stdout


def test_stdin_jsonrpc_line_jsonl_and_git_inputs(tmp_path: Path) -> None:
    line = '{"jsonrpc":"2.0","id":7,"result":' + TOOLS + "}"
    expected = cli("snapshot", "--from", "-", stdin=line, cwd=tmp_path)
    result = cli("canonicalize", "-", stdin=line, cwd=tmp_path)
    assert (result.code, result.stdout) == (0, expected.stdout), str(result)
    assert result.stderr.startswith("<stdin>: input: a tools/list result\n")

    jsonl = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n' + line + "\n"
    write(tmp_path, "cap.jsonl", jsonl)
    result = cli("canonicalize", "cap.jsonl", cwd=tmp_path)
    assert result.code == 0, str(result)
    assert (
        result.json()["listings"]["tools"]["hashes"]
        == expected.json()["listings"]["tools"]["hashes"]
    )

    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    write(tmp_path, "tools.json", TOOLS)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run([*git, "add", "tools.json"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    write(tmp_path, "tools.json", "garbage")  # the worktree differs; the commit is read
    result = cli("hash", "--format", "json", "git:HEAD:tools.json", cwd=tmp_path)
    assert result.code == 0, str(result)
    assert result.json()["catalog"] == expected.json()["hashes"]
    assert result.json()["input"] == "git:HEAD:tools.json"


# --- --check and --in-place ----------------------------------------------------------------------


def test_a_hand_edit_of_the_readable_copy_cannot_hide(tmp_path: Path) -> None:
    write(tmp_path, "tools.json", TOOLS)
    snap = snapshot_from(tmp_path, "snap.json", "--from", "tools.json")
    original = snap.read_text()
    lines = original.splitlines(keepends=True)
    i = lines.index('          "description": "Add two",\n')
    lines[i] = '          "description": "Add three",\n'
    snap.write_text("".join(lines))

    result = cli("canonicalize", "--check", "snap.json", cwd=tmp_path)
    orig = original.splitlines(keepends=True)
    context_before = "".join(" " + ln for ln in orig[i - 3 : i])
    context_after = "".join(" " + ln for ln in orig[i + 1 : i + 4])
    assert result.code == 1, str(result)
    assert result.stdout == (
        "--- snap.json\n+++ snap.json (canonical)\n"
        f"@@ -{i - 2},7 +{i - 2},7 @@\n"
        f"{context_before}-{lines[i]}+{orig[i]}{context_after}"
    )
    assert result.stderr == (
        "warning: snap.json: listings.tools: the readable items differ from the wire section; "
        "using the wire copy\n"
        "snap.json: would be rewritten\n"
    )
    result = cli("canonicalize", "--in-place", "snap.json", cwd=tmp_path)
    assert (result.code, result.stdout) == (1, ""), str(result)
    assert result.stderr.endswith("snap.json: rewritten\n")
    assert snap.read_text() == original
    canonical_check(tmp_path, "snap.json")


def test_without_wire_an_edit_is_rehashed_and_unchanged_items_keep_their_hashes(
    tmp_path: Path,
) -> None:
    write(tmp_path, "tools.json", TOOLS)
    write(tmp_path, "edited.json", TOOLS.replace("Add two", "Add three"))
    nowire = snapshot_from(tmp_path, "nowire.json", "--from", "tools.json", "--no-wire")
    reference = snapshot_from(tmp_path, "ref.json", "--from", "edited.json")
    before = json.loads(nowire.read_text())
    nowire.write_text(nowire.read_text().replace('"Add two"', '"Add three"'))

    result = cli("canonicalize", "--in-place", "nowire.json", cwd=tmp_path)
    assert result.code == 1, str(result)
    assert result.stderr == (
        "nowire.json: listings.tools: 1 item(s) changed since hashed; without a wire section "
        "their served and prompt hashes use the file's key order\nnowire.json: rewritten\n"
    )
    after = json.loads(nowire.read_text())
    ref = json.loads(reference.read_text())
    tools_after, tools_ref = after["listings"]["tools"], ref["listings"]["tools"]
    # item 0 ("a") unchanged: all three recorded hashes kept
    assert tools_after["itemHashes"][0] == before["listings"]["tools"]["itemHashes"][0]
    # item 1 ("b") edited: canonical is exactly what a capture of the edit gives
    assert tools_after["itemHashes"][1]["canonical"] == tools_ref["itemHashes"][1]["canonical"]
    assert tools_after["hashes"]["canonical"] == tools_ref["hashes"]["canonical"]
    assert after["hashes"]["canonical"] == ref["hashes"]["canonical"]
    canonical_check(tmp_path, "nowire.json")


def test_several_files_and_a_missing_final_newline(tmp_path: Path) -> None:
    write(tmp_path, "tools.json", TOOLS)
    snapshot_from(tmp_path, "good.json", "--from", "tools.json")
    bad = snapshot_from(tmp_path, "bad.json", "--from", "tools.json")
    text = bad.read_text()
    bad.write_text(text[:-1])
    result = cli("canonicalize", "--check", "good.json", "bad.json", cwd=tmp_path)
    last = text.splitlines(keepends=True)[-1]
    assert result.code == 1, str(result)
    assert result.stdout.startswith("--- bad.json\n+++ bad.json (canonical)\n@@ ")
    assert result.stdout.endswith(f"-{last}\\ No newline at end of file\n+{last}")
    assert result.stderr == "bad.json: would be rewritten\n"
    assert bad.read_text() == text[:-1]


def test_in_place_writes_nothing_when_any_input_fails(tmp_path: Path) -> None:
    write(tmp_path, "tools.json", TOOLS)
    result = cli("canonicalize", "--in-place", "tools.json", "missing.json", cwd=tmp_path)
    assert result.code == 2, str(result)
    assert result.stderr == "error: missing.json: no such file\n"
    assert (tmp_path / "tools.json").read_text() == TOOLS


def test_output_file(tmp_path: Path) -> None:
    write(tmp_path, "tools.json", TOOLS)
    result = cli("canonicalize", "-o", "out.json", "tools.json", cwd=tmp_path)
    assert (result.code, result.stdout) == (0, ""), str(result)
    canonical_check(tmp_path, "out.json")
    result = cli("canonicalize", "-o", "no/such/out.json", "tools.json", cwd=tmp_path)
    assert (result.code, result.stdout) == (2, ""), str(result)
    assert result.stderr == "error: cannot write no/such/out.json: No such file or directory\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "x.json", "a.json", "b.json"], "-o takes one input, got 2 (use --check or"),
        (["a.json", "b.json"], "writing to stdout takes one input, got 2"),
        (["--check", "--in-place", "a.json"], "give --check or --in-place, not both"),
        (["--check", "-o", "x.json", "a.json"], "-o writes one file; it cannot be combined"),
        (["--in-place", "-"], "--in-place cannot rewrite - (not a file)"),
        (["--in-place", "git:HEAD:a.json"], "--in-place cannot rewrite git:HEAD:a.json"),
        (["--check", "-", "-"], "- (stdin) can be given once"),
        (["--jcs", "a.json", "b.json"], "--jcs takes one input, got 2"),
        (["--jcs", "--check", "a.json"], "--jcs cannot be combined with --check or --in-place"),
        (["--protocol", "2099-01-01", "a.json"], "--protocol '2099-01-01' is not one of"),
        (["missing.json"], "missing.json: no such file"),
        (["bad.json"], "bad.json: not JSON"),
        (["snap.json"], "snap.json: not a valid catalogaudit snapshot: /listings/tools/status"),
        ([], "Missing argument 'FILE'"),
    ],
)
def test_usage_and_input_errors_are_one_line_exit_2(
    tmp_path: Path, written: str, args: list[str], message: str
) -> None:
    write(tmp_path, "a.json", TOOLS)
    write(tmp_path, "b.json", TOOLS)
    write(tmp_path, "bad.json", '{"tools": [')
    write(tmp_path, "snap.json", written.replace('"status": "ok"', '"status": "fine"'))
    result = cli("canonicalize", *args, cwd=tmp_path)
    assert result.code == 2, str(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], str(result)
    assert result.stdout == ""


# --- --jcs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in (FIXTURES / "canonical" / "input").iterdir())
)
def test_jcs_prints_the_rfc_bytes_exactly(tmp_path: Path, name: str) -> None:
    source = fixture("canonical", "input", f"{name}.json")
    expected = fixture("canonical", "output", f"{name}.json").read_bytes()
    proc = subprocess.run(
        [PYTHON, "-m", "catalogaudit", "canonicalize", "--jcs", str(source)],
        capture_output=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, expected, b"")
    result = cli("canonicalize", "--jcs", "-o", "out.json", str(source), cwd=tmp_path)
    assert (result.code, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / "out.json").read_bytes() == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a":1,"a":2}', "duplicate key at /a"),
        ('{"x":[NaN]}', "NaN is not a JSON number at /x/0"),
        ('{"n":9007199254740993}', "integer 9007199254740993 is beyond +-(2^53-1) at /n"),
        ('["\\udead"]', "string has a lone surrogate at /0"),
    ],
)
def test_jcs_refuses_what_it_cannot_represent(text: str, message: str) -> None:
    result = cli("canonicalize", "--jcs", "-", stdin=text)
    assert (result.code, result.stdout) == (2, ""), str(result)
    assert result.stderr == f"error: <stdin>: not representable in RFC 8785: {message}\n"


# --- hash ----------------------------------------------------------------------------------


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def test_hash_text_follows_the_published_definitions(tmp_path: Path) -> None:
    write(tmp_path, "tiny.json", '{"tools":[{"x":1.0,"name":"b"},{"name":"a"}]}')
    b_served, b_prompt, b_canon = '{"x":1.0,"name":"b"}', '{"name":"b"}', '{"name":"b","x":1}'
    a = '{"name":"a"}'
    item = {"a": (sha(a),) * 3, "b": (sha(b_served), sha(b_prompt), sha(b_canon))}
    listing = [
        sha(item["b"][0] + "\n" + item["a"][0] + "\n"),  # served order: b, a
        sha(item["b"][1] + "\n" + item["a"][1] + "\n"),
        sha(item["a"][2] + "\n" + item["b"][2] + "\n"),  # identity order: a, b
        sha("{}\n"),  # pageFields: one page, no fields
    ]
    catalog = [
        sha(
            f"catalogaudit-catalog-v1\ntools {h}\nprompts absent\nresources absent\n"
            "resourceTemplates absent\ninstructions absent\n"
        )
        for h in listing[:3]
    ]
    kinds = ("served", "prompt", "canonical", "pageFields")
    rows = [*zip(catalog, kinds, ["catalog"] * 3, strict=False)]
    rows += [*zip(listing, kinds, ["tools"] * 4, strict=True)]
    rows += [(h, k, "tools a") for h, k in zip(item["a"], kinds, strict=False)]
    rows += [(h, k, "tools b") for h, k in zip(item["b"], kinds, strict=False)]
    rows += [("absent", "listing", n) for n in ("prompts", "resources", "resourceTemplates")]
    result = cli("hash", "tiny.json", cwd=tmp_path)
    assert result.code == 0, str(result)
    assert result.stdout == "".join(f"{h:<71}  {k:<10}  {s}\n" for h, k, s in rows)
    assert result.stderr == "tiny.json: input: a tools/list result\n"


def test_hash_json_item_and_key_order_change_served_not_canonical(tmp_path: Path) -> None:
    reordered = (
        '{"tools":[{"annotations":{"priority":1},"inputSchema":{"type":"object"},"name":"a"},'
        '{"inputSchema":{"properties":{"n":{"maximum":9223372036854775808,"type":"integer"}},'
        '"type":"object"},"name":"b","description":"Add two"}]}'
    )
    write(tmp_path, "one.json", TOOLS)
    write(tmp_path, "two.json", reordered)
    one = cli("hash", "--format", "json", "one.json", cwd=tmp_path)
    two = cli("hash", "--format", "json", "two.json", cwd=tmp_path)
    assert one.code == two.code == 0, str(two)
    h1, h2 = one.json(), two.json()
    assert h1["catalog"]["canonical"] == h2["catalog"]["canonical"]
    assert h1["catalog"]["served"] != h2["catalog"]["served"]
    assert h1["catalog"]["prompt"] != h2["catalog"]["prompt"]
    items1 = {i["identity"]: i for i in h1["listings"]["tools"]["items"]}
    items2 = {i["identity"]: i for i in h2["listings"]["tools"]["items"]}
    assert [i["servedPosition"] for i in h1["listings"]["tools"]["items"]] == [1, 0]
    assert [i["servedPosition"] for i in h2["listings"]["tools"]["items"]] == [0, 1]
    # 2^63-1 and 2^63 are the same IEEE double: equal canonically, with a CA544 warning each
    assert items1["b"]["canonical"] == items2["b"]["canonical"]
    assert items1["b"]["served"] != items2["b"]["served"]
    assert CA544 in one.stderr
    assert "CA544 integer 9223372036854775808 is beyond 2^53-1" in two.stderr
    assert h2["listings"]["prompts"] == {"status": "absent"}


def test_hash_says_when_a_snapshot_is_not_in_written_form(tmp_path: Path) -> None:
    write(tmp_path, "tools.json", TOOLS)
    snap = snapshot_from(tmp_path, "snap.json", "--from", "tools.json", "--no-wire")
    recorded = json.loads(snap.read_text())["hashes"]
    snap.write_text(json.dumps(json.loads(snap.read_text())))  # compact: another tool's format
    result = cli("hash", "--format", "json", "snap.json", cwd=tmp_path)
    assert result.code == 0, str(result)
    assert result.json()["catalog"] == recorded
    assert result.stderr == (
        f"snap.json: {CA544}\nsnap.json: not in written form, so these hashes are recomputed, "
        "not the recorded ones (catalogaudit canonicalize --in-place snap.json rewrites it)\n"
    )


def test_a_dropped_precision_finding_comes_back(tmp_path: Path, written: str) -> None:
    doc = json.loads(written)
    assert [f["ruleId"] for f in doc["findings"]] == ["CA524", "CA544"]
    ca544 = doc["findings"].pop()
    snap = write(tmp_path, "snap.json", json.dumps(doc))
    result = cli("canonicalize", "--in-place", "snap.json", cwd=tmp_path)
    assert result.code == 1, str(result)
    assert result.stderr == f"snap.json: {CA544}\nsnap.json: rewritten\n"
    assert json.loads(snap.read_text())["findings"][-1] == ca544
    assert snap.read_text() == written


def _no_prompts(doc: dict) -> None:
    del doc["listings"]["prompts"]


def _no_findings(doc: dict) -> None:
    del doc["findings"]


def _bad_wire_page(doc: dict) -> None:
    doc["wire"]["pages"]["tools"] = ['{"tools": [']


def _bad_positions(doc: dict) -> None:
    del doc["wire"]
    doc["listings"]["tools"]["servedPositions"] = [0, 0]


def _bad_page_counts(doc: dict) -> None:
    del doc["wire"]
    doc["listings"]["tools"]["pages"][0]["items"] = 3


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        # (validated at the intake since issue 15 item 7: the schema's own words)
        (
            _no_prompts,
            "snap.json: not a valid catalogaudit snapshot: /listings: 'prompts' is a required "
            "property",
        ),
        # a top-level error has an empty pointer: the message alone (it read ": : 'findings'")
        (
            _no_findings,
            "snap.json: not a valid catalogaudit snapshot: 'findings' is a required property",
        ),
        (
            _bad_wire_page,
            "snap.json: listings.tools: wire page 0 is not JSON (Expecting value at offset 11)",
        ),
        (
            _bad_positions,
            "snap.json: listings.tools: servedPositions does not match the items "
            "(re-snapshot, or give each item its served position)",
        ),
        (
            _bad_page_counts,
            "snap.json: listings.tools: the page item counts do not add up to 2 items",
        ),
    ],
)
def test_a_broken_snapshot_is_a_one_line_error(
    tmp_path: Path, written: str, edit: Any, message: str
) -> None:
    doc = json.loads(written)
    edit(doc)
    write(tmp_path, "snap.json", json.dumps(doc))
    result = cli("canonicalize", "--check", "snap.json", cwd=tmp_path)
    assert (result.code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")


@pytest.mark.parametrize("count", [10, 11, 25])
def test_ca544_lines_stop_at_ten_and_count_the_rest(tmp_path: Path, count: int) -> None:
    """`hash` and `canonicalize` print the first ten CA544 warnings of an input and one line
    counting the others; the snapshot keeps a finding for each item that holds such integers,
    at its first, saying how many more it holds."""
    tools = [
        {"name": f"t{i}", "inputSchema": {"type": "object", "maximum": 2**63 + i}}
        for i in range(count)
    ]
    tools[0]["inputSchema"]["properties"] = {f"p{i}": {"minimum": -(2**60)} for i in range(3)}
    write(tmp_path, "tools.json", json.dumps({"tools": tools}))
    for verb in ("hash", "canonicalize"):
        result = cli(verb, "tools.json", cwd=tmp_path)
        assert result.code == 0, str(result)
        lines = [x for x in result.stderr.splitlines() if "CA544" in x]
        shown = [x for x in lines if "is beyond 2^53-1" in x]
        assert [x.split(" integer ")[1].split()[0] for x in shown] == [
            str(2**63 + i) for i in range(min(count, 10))
        ]
        assert "; 3 more in this item ('t0' at /inputSchema/maximum)" in shown[0]
        assert all(" more in this item" not in x for x in shown[1:])
        rest = [x for x in lines if x not in shown]
        more = f"tools.json: warning: CA544 in {count - 10} more items or pages with integers "
        assert [x[: len(more)] for x in rest] == ([more] if count > 10 else [])
        if verb == "canonicalize":
            found = [f for f in result.json()["findings"] if f["ruleId"] == "CA544"]
            assert [f["identity"] for f in found] == [f"t{i}" for i in range(count)]


def test_wire_anomalies_are_one_finding_per_kind_and_item(tmp_path: Path) -> None:
    """CA540-CA544 of a page: one finding per kind and item (and per kind for the rest of the
    page), at the first, saying how many more; a page of many anomalies cannot grow the
    findings past its items."""
    nan3 = '{"type":"object","properties":{"x":{"minimum":NaN,"maximum":NaN,"default":NaN}}}'
    text = (
        '{"tools":['
        f'{{"name":"a","description":"\\ud800 one","title":"\\udc00 two","inputSchema":{nan3}}},'
        '{"name":"b","inputSchema":{"type":"object","type":"object"}},'
        '{"name":"c","inputSchema":{"type":"object","maximum":NaN}}],'
        '"_meta":{"p":NaN,"q":[NaN,NaN]}}'
    )
    write(tmp_path, "tools.json", text)
    result = cli("canonicalize", "tools.json", cwd=tmp_path)
    assert result.code == 0, str(result)
    found = [
        (f["ruleId"], f.get("identity"), f["pointer"], f["message"])
        for f in result.json()["findings"]
        if f["ruleId"].startswith("CA54")
    ]
    assert found == [
        (
            "CA542",
            "a",
            "/description",
            "string contains an unpaired surrogate; 1 more in this item ('a' at /description)",
        ),
        (
            "CA541",
            "a",
            "/inputSchema/properties/x/minimum",
            "NaN is not JSON; 2 more in this item ('a' at /inputSchema/properties/x/minimum)",
        ),
        ("CA540", "b", "/inputSchema/type", "key 'type' repeated ('b' at /inputSchema/type)"),
        ("CA541", "c", "/inputSchema/maximum", "NaN is not JSON ('c' at /inputSchema/maximum)"),
        ("CA541", None, "/_meta/p", "NaN is not JSON; 2 more in this page (page pointer /_meta/p)"),
    ]
