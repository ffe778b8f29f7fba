"""Writing one shape's catalogs to disk, and the byte-for-byte checks of ours against the peers.

Per shape, in `DIR/<shape>/`: `big` (`--mb`, 10 MB by default), `mid` (a tenth), `changed`
(`big` with ten descriptions edited), 500 catalogs of a fiftieth each in `many/`, and the
snapshots `diff` and the 500-file audit read. Each catalog is written as one JSON document
holding its listings (`X.json`: what the peers read); a catalog of several listings is also
written as JSON Lines, one JSON-RPC response per listing (`X.jsonl`: what ours reads, since
catalogaudit takes one listing per document).

    python bench/corpus.py   # rewrite peers/list-result.schema.json
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import generate
import shapes
from timing import ENV, OURS, PY, ROOT

PEERS = Path(__file__).resolve().parent / "peers"
SCHEMA = PEERS / "list-result.schema.json"
MCP_SCHEMA = ROOT / "src" / "catalogaudit" / "rules" / "spec" / "mcp" / "2025-11-25.schema.json"
#: The catalogs of the 500-file row.
FILES = 500


def write(listings: shapes.Listings, base: Path, escaped: bool) -> Path:
    """`base.json`, and `base.jsonl` when there are several listings; returns ours' input."""
    json_path = base.with_suffix(".json")
    json_path.write_bytes(generate.render(listings, escaped))
    if len(listings) == 1:
        return json_path
    lines = (
        generate.render({"jsonrpc": "2.0", "id": n, "result": {key: items}}, escaped)
        for n, (key, items) in enumerate(listings.items(), 1)
    )
    jsonl = base.with_suffix(".jsonl")
    jsonl.write_bytes(b"\n".join(lines) + b"\n")
    return jsonl


def ours_input(base: Path) -> Path:
    jsonl = base.with_suffix(".jsonl")
    return jsonl if jsonl.exists() else base.with_suffix(".json")


def changed(listings: shapes.Listings) -> shapes.Listings:
    """Ten items, spread over the catalog, with a sentence added to their description."""
    items = [item for key in listings for item in listings[key]]
    for item in items[:: max(1, len(items) // 10)][:10]:
        item["description"] = str(item.get("description", "")) + " Changed."
    return listings


def snapshot(src: Path, dst: Path) -> None:
    argv = [*OURS, "snapshot", "--from", str(src), "-o", str(dst)]
    subprocess.run(argv, check=True, capture_output=True, env=ENV)


def write_catalogs(shape: shapes.Shape, tmp: Path, mb: float, seed: int) -> None:
    """Every catalog of `shape` (see the module docstring), in `tmp`."""
    tmp.mkdir(parents=True, exist_ok=True)
    size = int(mb * 1e6)
    big = write(shape.build(size, seed), tmp / "big", shape.escaped)
    write(shape.build(size // 10, seed), tmp / "mid", shape.escaped)
    edited = write(changed(shape.build(size, seed)), tmp / "changed", shape.escaped)
    snapshot(big, tmp / "snap_a.snapshot.json")
    snapshot(edited, tmp / "snap_b.snapshot.json")
    if not shape.per_file:
        return
    many, snaps = tmp / "many", tmp / "many-snapshots"
    many.mkdir()
    snaps.mkdir()
    inputs = [
        write(shape.build(size // 50, s), many / f"c{s:03d}", shape.escaped)
        for s in range(1, FILES + 1)
    ]
    # NOTE: raw results given together are one catalog's listings, so ours audits the 500 as
    # snapshot files (what `snapshot --from` writes), made in one process through the API;
    # check-jsonschema validates the raw documents they were made from.
    made = subprocess.run(
        [PY, "-c", _SNAPSHOT_ALL, str(snaps), *map(str, inputs)], capture_output=True, env=ENV
    )
    if made.returncode:
        raise SystemExit(made.stderr.decode(errors="replace")[-2000:])


_SNAPSHOT_ALL = """
import sys
from pathlib import Path
import catalogaudit as ca
dst = Path(sys.argv[1])
for p in map(Path, sys.argv[2:]):
    (dst / (p.stem + ".snapshot.json")).write_text(ca.load(str(p)).dumps(), encoding="utf-8")
"""


def output(argv: list[str]) -> bytes:
    return subprocess.run(argv, capture_output=True, check=False, env=ENV).stdout


def identical(shape: shapes.Shape, tmp: Path) -> list[str]:
    """Outputs that must be byte-identical, compared in this run; returns what differed."""
    bad = []
    big = str(tmp / "big.json")
    if not shape.no_jcs and output([*OURS, "canonicalize", "--jcs", big]) != output(
        [PY, str(PEERS / "rfc8785_script.py"), big]
    ):
        bad.append("canonicalize --jcs differs from rfc8785.dumps")
    said = output([*OURS, "hash", "--format", "json", str(ours_input(tmp / "big"))])
    ours: dict[str, list[str]] = {}
    try:
        for key, listing in json.loads(said)["listings"].items():
            served = sorted(listing.get("items", []), key=lambda i: i["servedPosition"])
            if served:
                ours[key] = [i["canonical"].removeprefix("sha256:") for i in served]
    except (ValueError, KeyError) as exc:
        return [*bad, f"catalogaudit hash --format json gave no report ({exc!r})"]
    peer: dict[str, list[str]] = {}
    for line in output([PY, str(PEERS / "hash_script.py"), big]).decode().splitlines():
        key, canonical, _ = line.split()
        peer.setdefault(key, []).append(canonical)
    if not ours or ours != peer:
        counts = {k: (len(ours.get(k, [])), len(peer.get(k, []))) for k in {*ours, *peer}}
        bad.append(f"item canonical hashes differ from rfc8785 + sha256 (ours, peer: {counts})")
    return bad


def write_schema() -> None:
    """The peer's schema: each listing the document holds checked against its MCP 2025-11-25
    result definition (`if` it has the key, `then` the `$ref`), at least one listing."""
    mcp = json.loads(MCP_SCHEMA.read_text(encoding="utf-8"))
    defs = {
        "tools": "ListToolsResult",
        "prompts": "ListPromptsResult",
        "resources": "ListResourcesResult",
        "resourceTemplates": "ListResourceTemplatesResult",
    }
    schema = {
        "$schema": mcp["$schema"],
        "anyOf": [{"required": [key]} for key in defs],
        "allOf": [
            {"if": {"required": [key]}, "then": {"$ref": f"#/$defs/{name}"}}
            for key, name in defs.items()
        ],
        "$defs": mcp["$defs"],
    }
    SCHEMA.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_schema()
    print(f"wrote {SCHEMA.relative_to(ROOT)}")
