"""The long fuzz run (issue 15 item 10): N mutated real snapshots through every verb that reads
catalogs, in one process; prints progress and every crash (seed, index, verb), exit 1 on any.

    PYTHONPATH=src python scripts/fuzz_catalogs.py --count 5000 --seed 1

The bounded job of the same fuzzer is tests/fuzz/test_fuzz.py (`.ci/run`, about a minute).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "fuzz"))

from fuzz_run import fuzz  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--count", type=int, default=5000, help="mutated snapshots (default 5000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chunk", type=int, default=250, help="mutants per progress line")
    o = p.parse_args()
    started = time.monotonic()
    runs = 0
    codes: dict[int, int] = {}
    crashes: list[str] = []
    for first in range(0, o.count, o.chunk):
        # NOTE: each chunk has its own seed (seed * 1000003 + chunk start), so a crash
        # reproduces with --seed/--count of its chunk alone.
        chunk_seed = o.seed * 1_000_003 + first
        got = fuzz(chunk_seed, min(o.chunk, o.count - first))
        runs += got.runs
        for code, n in got.codes.items():
            codes[code] = codes.get(code, 0) + n
        crashes.extend(got.crashes)
        print(
            f"{first + min(o.chunk, o.count - first)}/{o.count} mutants, {runs} verb runs, "
            f"exit codes {dict(sorted(codes.items()))}, {len(crashes)} crashes, "
            f"{time.monotonic() - started:.0f}s",
            flush=True,
        )
    for crash in crashes:
        print(crash)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
