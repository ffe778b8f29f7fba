"""Benchmark: `catalogaudit diff` (hash first) against a naive `DeepDiff(old, new)`.

Two catalogs of N generated tools (bench/generate.py when present, else a small generator
here) differ in 10 tools. Best of R runs:

- the target (>= 50x): `DeepDiff(old, new)` over the two whole catalogs against catalogaudit's
  diff of the same two catalogs as loaded snapshots: item hashes compared first, only the 10
  items whose hashes differ classified and deep-diffed, the JSON report rendered;
- for reference, both from file bytes: `json.loads` + DeepDiff against `catalogaudit diff` on
  the snapshot files (the shared loader parses them whole) and on the raw list results (no
  stored hashes, so every item is hashed first).

    python bench/bench_diff.py [--tools 1000] [--changed 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET = 50.0


def generated(tools: int, seed: int) -> dict[str, Any]:
    """bench/generate.py's catalog when it exists, else a small nested-schema generator."""
    sys.path.insert(0, str(HERE))
    try:
        import generate

        doc: dict[str, Any] = generate.catalog(tools, seed)
        return doc
    except (ImportError, AttributeError):
        return _fallback(tools, seed)
    finally:
        sys.path.remove(str(HERE))


def _fallback(tools: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda".split()

    def prose(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n)).capitalize() + "."

    def schema(depth: int) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for i in range(rng.randint(6, 12)):
            if depth and rng.random() < 0.3:
                props[f"{rng.choice(words)}_{i}"] = schema(depth - 1)
            else:
                props[f"{rng.choice(words)}_{i}"] = {
                    "type": rng.choice(["string", "integer", "number"]),
                    "description": prose(12),
                    "minimum": 0,
                    "maximum": rng.choice([10, 100, 1000]),
                }
        return {
            "type": "object",
            "properties": props,
            "required": sorted(props)[:2],
            "description": prose(8),
        }

    return {
        "tools": [
            {
                "name": f"tool_{i:05d}",
                "description": prose(40),
                "inputSchema": schema(2),
                "annotations": {"readOnlyHint": rng.random() < 0.5},
            }
            for i in range(tools)
        ]
    }


def changed_copy(old: dict[str, Any], count: int, seed: int) -> tuple[dict[str, Any], set[str]]:
    """The same catalog with `count` tools changed: half in prose, half with a new input."""
    new = copy.deepcopy(old)
    rng = random.Random(seed + 1)
    picked = rng.sample(range(len(new["tools"])), count)
    for n, index in enumerate(picked):
        tool = new["tools"][index]
        if n % 2:
            tool["description"] = str(tool.get("description", "")) + " Changed for the bench."
        else:
            tool["inputSchema"].setdefault("properties", {})["bench_extra"] = {"type": "string"}
    return new, {new["tools"][i]["name"] for i in picked}


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return min(times), result


def load(old: Path, new: Path) -> Any:
    """Both inputs through the shared loader, as `catalogaudit diff` reads them."""
    from catalogaudit.verbs.diff import load_inputs

    return load_inputs([str(old), str(new)])[0]


def ours(old: Any, new: Any) -> Any:
    """`diff` on loaded inputs (run 1 of each, as the CLI does): hash comparison,
    classification, deep diff of the changed items, the JSON report. Fresh sides every time,
    so nothing parsed or hashed in an earlier run is reused."""
    from catalogaudit.diff import items as diff
    from catalogaudit.diff.sides import Side
    from catalogaudit.formatters.diff import as_json

    fresh = [Side(s.label, s.capture, s.listings, s.wire) for s in (old, new)]
    result = diff.diff(*fresh)
    json.dumps(as_json(result, "breaking", "fail"))
    return result


def naive(old: Any, new: Any) -> Any:
    from deepdiff import DeepDiff

    return DeepDiff(old, new)


def snapshot_of(raw: Path, out: Path) -> None:
    from catalogaudit.intake import read_catalog
    from catalogaudit.snapshot import build as snapshot

    doc = read_catalog(str(raw)).doc
    out.write_text(snapshot.render(doc), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--changed", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    old_doc = generated(args.tools, args.seed)
    new_doc, names = changed_copy(old_doc, args.changed, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        raw_old, raw_new = d / "old.json", d / "new.json"
        for path, doc in ((raw_old, old_doc), (raw_new, new_doc)):
            path.write_bytes(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode())
        snap_old, snap_new = d / "old.snapshot.json", d / "new.snapshot.json"
        snapshot_of(raw_old, snap_old)
        snapshot_of(raw_new, snap_new)
        sides = [group[0] for group in load(snap_old, snap_new)]
        t_mem, result = best(lambda: ours(*sides), args.repeat)
        found = {c.identity for c in result.changes}
        assert found == names, f"diff found {sorted(found)}, expected {sorted(names)}"
        t_e2e, _ = best(lambda: ours(*(g[0] for g in load(snap_old, snap_new))), args.repeat)
        t_raw, _ = best(lambda: ours(*(g[0] for g in load(raw_old, raw_new))), args.repeat)
        naive_mem, naive_e2e = [], []
        for _ in range(args.repeat):
            started = time.perf_counter()
            old_cat, new_cat = (json.loads(p.read_bytes()) for p in (raw_old, raw_new))
            parsed = time.perf_counter()
            naive(old_cat, new_cat)
            done = time.perf_counter()
            naive_mem.append(done - parsed)
            naive_e2e.append(done - started)
        size = raw_old.stat().st_size
        snap_size = snap_old.stat().st_size
    ratio = min(naive_mem) / t_mem
    ok = ratio >= TARGET
    print(
        f"diff: {args.tools} tools ({size / 1e6:.1f} MB served, {snap_size / 1e6:.1f} MB as a "
        f"snapshot), {args.changed} changed, best of {args.repeat}"
    )
    print(f"  naive DeepDiff(old, new) over the whole catalogs: {min(naive_mem):8.3f} s")
    print(
        f"  catalogaudit diff(old, new), hash first:          {t_mem:8.3f} s  "
        f"ratio {ratio:.0f}x (target >= {TARGET:.0f}x): {'OK' if ok else 'MISSED'}"
    )
    print("  from file bytes (parsing included):")
    print(f"    naive json.loads + DeepDiff:                    {min(naive_e2e):8.3f} s")
    print(
        f"    catalogaudit diff OLD.snapshot NEW.snapshot:    {t_e2e:8.3f} s  "
        f"ratio {min(naive_e2e) / t_e2e:.0f}x (the shared loader's full parse dominates)"
    )
    print(
        f"    catalogaudit diff OLD.json NEW.json (raw):      {t_raw:8.3f} s  "
        f"ratio {min(naive_e2e) / t_raw:.0f}x (no stored hashes: every item hashed)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
