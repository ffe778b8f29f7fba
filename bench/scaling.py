"""`run.py --scaling`: per-tool time and peak RSS of hash, audit and canonicalize at 1,000,
5,000 and 20,000 of generate.py's tools (about 10, 50 and 200 MB); each may grow at most
1.3x per tool from 1,000 to 20,000."""

from __future__ import annotations

import subprocess
from pathlib import Path

from timing import OURS, PY, med, rss, timed

HERE = Path(__file__).resolve().parent
#: Per-tool time and RSS at 20,000 tools at most this times that at 1,000.
GROWTH = 1.3


def run(tmp: Path, seed: int) -> bool:
    """Print the per-tool figures; False when one grows more than `GROWTH`."""
    print("\nscaling (per tool; 5 runs, 3 at 20,000):")
    tmp.mkdir(parents=True, exist_ok=True)
    ok = True
    for verb in (["hash"], ["audit"], ["canonicalize"]):
        base: tuple[float, float] | None = None
        for tools in (1000, 5000, 20000):
            path = tmp / f"scale{tools}.json"
            if not path.exists():  # in a child: see run.run_shape
                made = [PY, str(HERE / "generate.py"), "--tools", str(tools), "--seed", str(seed)]
                subprocess.run([*made, "-o", str(path)], check=True)
            got = [timed([*OURS, *verb, str(path)]) for _ in range(3 if tools == 20000 else 5)]
            per = (med(got) / tools * 1e3, rss(got) / tools * 1e3)
            base = base or per
            grow = (per[0] / base[0], per[1] / base[1])
            if tools == 20000 and max(grow) > GROWTH:
                ok = False
            print(
                f"  {verb[0]:<13} {tools:>6} tools: {per[0]:7.3f} ms/tool ({grow[0]:.2f}x)"
                f"  {per[1]:7.1f} KiB/tool ({grow[1]:.2f}x)"
            )
    return ok
