"""Benchmark: file bytes to every canonical hash, ours against `rfc8785` and `jq -S -c`.

Not run by CI (`.ci/run`). One synthetic catalog (bench/generate.py, or `--catalog FILE`, a
`tools/list` result); each contender runs 3 times on the same file, in interleaved rounds, and
its best time counts:

- ours: `catalogaudit.hashes.canonical_hashes(bytes)` (C parser, C encoder where it equals
  RFC 8785, the exact path per item where it does not), the SHA-256 per item and the listing hash;
- reference: `json.load` + `rfc8785.dumps` per item, the same SHA-256s and listing hash;
- `jq -S -c '.tools[]'` as a subprocess (a speed reference only: jq is not JCS), output discarded.

Then peak memory (tracemalloc for the Python contenders, max RSS for jq), and the check that
our canonical bytes equal `rfc8785.dumps` for every item (on both our parse paths). Targets
(issue 4): at least 2x faster than the reference and no slower than jq. Exit 1 if one is missed.

    .venv/bin/python bench/run.py                 # 1,000 tools, about 10 MB
    .venv/bin/python bench/run.py --tools 5000    # about 50 MB
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402 - bench/generate.py, next to this file

from catalogaudit.canonical import hashes  # noqa: E402
from catalogaudit.canonical import jcs as canonical  # noqa: E402
from catalogaudit.model import jsonwire, names  # noqa: E402

RUNS = 3


def ours(path: Path) -> str:
    return hashes.canonical_hashes(path.read_bytes())["tools"].listing


def reference(path: Path) -> str:
    import rfc8785

    with path.open("rb") as fh:
        items = json.load(fh)["tools"]
    per_item = ["sha256:" + hashlib.sha256(rfc8785.dumps(item)).hexdigest() for item in items]
    order = sorted(
        names.identity_sort_key(names.identity("tools", item), h)
        for item, h in zip(items, per_item, strict=True)
    )
    return hashes.combine(key[2] for key in order)


def jq(path: Path) -> str:
    with open(path, "rb") as src:
        subprocess.run(
            ["jq", "-S", "-c", ".tools[]"], stdin=src, stdout=subprocess.DEVNULL, check=True
        )
    return ""


def best_of(contenders: list[Callable[[Path], str]], path: Path) -> list[tuple[float, str]]:
    """Best time of each contender; rounds interleave them, so background load hits all alike."""
    times: list[list[float]] = [[] for _ in contenders]
    results = [""] * len(contenders)
    for _ in range(RUNS):
        for i, fn in enumerate(contenders):
            start = time.perf_counter()
            results[i] = fn(path)
            times[i].append(time.perf_counter() - start)
    return [(min(t), r) for t, r in zip(times, results, strict=True)]


def peak_mib(fn: Callable[[Path], str], path: Path) -> float:
    tracemalloc.start()
    try:
        fn(path)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def check_bytes(path: Path) -> int:
    """Our canonical bytes == rfc8785.dumps, per item, on the file path and the snapshot path."""
    import rfc8785

    data = path.read_bytes()
    expected = [rfc8785.dumps(item) for item in json.loads(data)["tools"]]
    fast = [canonical.parsed_jcs_bytes(item) for item in canonical.parse(data)["tools"]]
    wire = [canonical.jcs_bytes(item) for item in jsonwire.loads(data.decode())["tools"]]
    assert fast == expected, "file path: canonical bytes differ from rfc8785.dumps"
    assert wire == expected, "jsonwire path (hashes.item_hashes): bytes differ from rfc8785.dumps"
    return len(expected)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000, help="tools to generate (1000)")
    parser.add_argument("--seed", type=int, default=4, help="generator seed (4)")
    parser.add_argument("--catalog", type=Path, help="use this tools/list result instead")
    parser.add_argument("--no-diff", action="store_true", help="skip bench/bench_diff.py")
    args = parser.parse_args(argv)
    if shutil.which("jq") is None:
        print("jq is not installed (apt-get install jq)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        path = args.catalog or Path(tmp) / "catalog.json"
        if args.catalog is None:
            path.write_bytes(generate.render(generate.catalog(args.tools, args.seed)))
        return run(path, args)


def run(path: Path, args: Any) -> int:
    size = path.stat().st_size
    print(f"catalog: {path.name}, {size / 1e6:.1f} MB, python {sys.version.split()[0]}")
    items = check_bytes(path)
    print(f"canonical bytes == rfc8785.dumps for all {items} items (file path, jsonwire path)")
    (ours_s, ours_hash), (ref_s, ref_hash), (jq_s, _) = best_of([ours, reference, jq], path)
    assert ours_hash == ref_hash, "listing canonical hash differs from the reference"
    print(f"\nfile bytes -> all canonical hashes, best of {RUNS}:")
    rows = [("ours", ours_s), ("json.load + rfc8785.dumps", ref_s), ("jq -S -c (no hashing)", jq_s)]
    for label, secs in rows:
        print(f"  {label:<28} {secs:8.3f} s  {size / secs / 1e6:7.1f} MB/s")
    ratio_ref, ratio_jq = ref_s / ours_s, jq_s / ours_s
    print(f"  ours vs rfc8785: {ratio_ref:.2f}x faster (target >= 2x)")
    print(f"  ours vs jq:      {ratio_jq:.2f}x faster (target >= 1x)")
    jq_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print("\npeak memory:")
    print(f"  ours                         {peak_mib(ours, path):8.1f} MiB (tracemalloc)")
    print(f"  json.load + rfc8785.dumps    {peak_mib(reference, path):8.1f} MiB (tracemalloc)")
    print(f"  jq -S -c                     {jq_rss:8.1f} MiB (max RSS)")
    met = ratio_ref >= 2.0 and ratio_jq >= 1.0
    print(f"\ntargets: {'met' if met else 'MISSED'}")

    # --- HOOK: the diff benchmark (bench/bench_diff.py, written separately) ------------------
    # Runs when the file exists, on the same generator settings; its exit code counts too.
    diff_code = 0
    bench_diff = HERE / "bench_diff.py"
    if bench_diff.exists() and not args.no_diff:
        print(f"\n--- {bench_diff.name} ---", flush=True)
        cmd = [
            sys.executable,
            str(bench_diff),
            "--tools",
            str(args.tools),
            "--seed",
            str(args.seed),
        ]
        diff_code = subprocess.run(cmd, check=False).returncode
    # --- end of hook ----------------------------------------------------------------------------
    return 0 if met and diff_code == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
