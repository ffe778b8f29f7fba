"""Whole CLI processes against their peers: wall time and peak RSS, medians, a table of ratios.

Not run by CI (`.ci/run`); see bench/README.md. Every contender is a new process, timed from
outside (`os.wait4`: wall clock around it, `ru_maxrss` of that child only). Each comparison
runs ours and its peer alternately (the order flips every round), so background load hits
both alike; the medians of `--runs` rounds (at least 5) give the ratio. Peer scripts live in
bench/peers/ and run exactly as committed. Before timing, outputs that must be byte-identical
are compared in the same run (`canonicalize --jcs` against `rfc8785.dumps`; each tool's
canonical hash against the hash script's).

    python bench/run.py                 # the table
    python bench/run.py --check         # exit 1 when a target is missed
    python bench/run.py --scaling       # also 1,000 / 5,000 / 20,000 tools
    python bench/run.py --only "500 files" --catalogs /tmp/cat   # one row, catalogs kept
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEERS = HERE / "peers"
sys.path.insert(0, str(HERE))

import generate  # noqa: E402 - bench/generate.py, next to this file

PY = sys.executable
OURS = [PY, "-m", "catalogaudit"]


@dataclass(frozen=True)
class Sample:
    seconds: float
    rss_mib: float


def timed(argv: Sequence[str], stdout: int | None = subprocess.DEVNULL) -> Sample:
    """One process, waited for with `os.wait4` so the RSS is this child's alone."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        shown = " ".join(argv[:6]) + (f" ... ({len(argv)} words)" if len(argv) > 6 else "")
        raise SystemExit(f"failed (exit {proc.returncode}): {shown}")
    return Sample(seconds, usage.ru_maxrss / 1024)


def output(argv: Sequence[str]) -> bytes:
    return subprocess.run(argv, capture_output=True, check=False, env=ENV).stdout


@dataclass
class Row:
    label: str
    ours: list[Sample]
    peer: list[Sample]
    peer_label: str
    target: float | None  # ours / peer at most this (None: shown only)

    @property
    def ratio(self) -> float:
        return med(self.ours) / med(self.peer)

    @property
    def met(self) -> bool:
        return self.target is None or self.ratio <= self.target


def med(samples: list[Sample]) -> float:
    return statistics.median(s.seconds for s in samples)


def rss(samples: list[Sample]) -> float:
    return statistics.median(s.rss_mib for s in samples)


def compare(
    label: str,
    ours: Sequence[str],
    peer: Sequence[str],
    peer_label: str,
    target: float | None,
    runs: int,
) -> Row | None:
    """Interleaved: ours, peer, then peer, ours, ... after one untimed warm-up each (None:
    not among `--only`)."""
    if ONLY and not any(word in label for word in ONLY):
        return None
    timed(ours)
    timed(peer)
    mine: list[Sample] = []
    theirs: list[Sample] = []
    for i in range(runs):
        if i % 2 == 0:
            mine.append(timed(ours))
            theirs.append(timed(peer))
        else:
            theirs.append(timed(peer))
            mine.append(timed(ours))
    row = Row(label, mine, theirs, peer_label, target)
    print(f"  {label}: {med(mine):.3f} s vs {med(theirs):.3f} s ({row.ratio:.2f}x)", flush=True)
    return row


def write_catalogs(tmp: Path, tools: int, seed: int) -> dict[str, Path]:
    """The catalogs of the issue: 10 MB, 1 MB, 500 files of 20 tools, two snapshots."""
    paths = {"big": tmp / "big.json", "mid": tmp / "mid.json"}
    paths["big"].write_bytes(generate.render(generate.catalog(tools, seed)))
    paths["mid"].write_bytes(generate.render(generate.catalog(max(1, tools // 10), seed)))
    many = tmp / "many"
    many.mkdir()
    for s in range(1, 501):
        (many / f"c{s:03d}.json").write_bytes(generate.render(generate.catalog(20, s)))
    # NOTE: raw results given together are one catalog's listings (two tools/list inputs are
    # an error), so ours audits the 500 as snapshot files (what `snapshot --from` writes, made
    # in one process through the API), check-jsonschema the raw files they were made from.
    snaps = tmp / "many-snapshots"
    snaps.mkdir()
    subprocess.run(
        [PY, "-c", _SNAPSHOT_ALL, str(many), str(snaps)], check=True, capture_output=True, env=ENV
    )
    changed = generate.catalog(tools, seed)
    for tool in changed["tools"][:: max(1, tools // 10)][:10]:
        tool["description"] = tool.get("description", "") + " Changed."
    (tmp / "changed.json").write_bytes(generate.render(changed))
    for name, src in (("snap_a", paths["big"]), ("snap_b", tmp / "changed.json")):
        paths[name] = tmp / f"{name}.snapshot.json"
        subprocess.run(
            [*OURS, "snapshot", "--from", str(src), "-o", str(paths[name])],
            check=True,
            capture_output=True,
            env=ENV,
        )
    paths["hook"] = tmp / "hook.snapshot.json"
    subprocess.run(
        [
            *OURS,
            "snapshot",
            "--from",
            str(ROOT / "fixtures/bench/tools100.json"),
            "-o",
            str(paths["hook"]),
        ],
        check=True,
        capture_output=True,
        env=ENV,
    )
    return catalog_paths(tmp)


def catalog_paths(tmp: Path) -> dict[str, Path]:
    """Where `write_catalogs` put each input."""
    names = ("big.json", "mid.json", "snap_a.snapshot.json", "snap_b.snapshot.json")
    paths = {name.split(".")[0]: tmp / name for name in names}
    paths.update(hook=tmp / "hook.snapshot.json", many=tmp / "many")
    paths["many_snapshots"] = tmp / "many-snapshots"
    return paths


_SNAPSHOT_ALL = """
import sys
from pathlib import Path
import catalogaudit as ca
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
for p in sorted(src.iterdir()):
    (dst / (p.stem + ".snapshot.json")).write_text(ca.load(str(p)).dumps(), encoding="utf-8")
"""


def identical(paths: dict[str, Path]) -> list[str]:
    """Outputs that must be byte-identical, compared in this run; returns what differed."""
    bad = []
    big = str(paths["big"])
    if output([*OURS, "canonicalize", "--jcs", big]) != output(
        [PY, str(PEERS / "rfc8785_script.py"), big]
    ):
        bad.append("canonicalize --jcs differs from rfc8785.dumps")
    report = json.loads(output([*OURS, "hash", "--format", "json", big]))
    ours = [i["canonical"].removeprefix("sha256:") for i in report["listings"]["tools"]["items"]]
    ours_served = [i["servedPosition"] for i in report["listings"]["tools"]["items"]]
    served_order = [h for _, h in sorted(zip(ours_served, ours, strict=True))]
    lines = output([PY, str(PEERS / "hash_script.py"), big]).decode().splitlines()
    peer = [line.split()[0] for line in lines if line]
    if served_order != peer:
        bad.append("per-tool canonical hashes differ from rfc8785.dumps + sha256")
    return bad


def rows(paths: dict[str, Path], runs: int, checker: str, server: list[str] | None) -> list[Row]:
    out: list[Row | None]
    big, mid = str(paths["big"]), str(paths["mid"])
    hash_peer = [PY, str(PEERS / "hash_script.py")]
    cj = [str(PEERS / "check_jsonschema.sh")]
    many = sorted(str(p) for p in paths["many"].iterdir())
    many_snaps = sorted(str(p) for p in paths["many_snapshots"].iterdir())
    out = [
        compare("hash 10 MB", [*OURS, "hash", big], [*hash_peer, big], "hash script", 0.5, runs),
        compare(
            "canonicalize --jcs 10 MB",
            [*OURS, "canonicalize", "--jcs", big],
            [PY, str(PEERS / "rfc8785_script.py"), big],
            "rfc8785 script",
            0.5,
            runs,
        ),
        compare(
            "canonicalize --jcs 10 MB",
            [*OURS, "canonicalize", "--jcs", big],
            ["jq", "-S", "-c", ".", big],
            "jq -S -c .",
            1.0,
            runs,
        ),
        compare("audit 10 MB", [*OURS, "audit", big], [*cj, big], "check-jsonschema", 1.0, runs),
        compare("audit 1 MB", [*OURS, "audit", mid], [*cj, mid], "check-jsonschema", 1.0, runs),
        compare(
            "audit 500 files",
            [*OURS, "audit", *many_snaps],
            [*cj, *many],
            "check-jsonschema",
            1.0,
            runs,
        ),
        compare(
            "snapshot --from 10 MB",
            [*OURS, "snapshot", "--from", big, "-o", os.devnull],
            [*hash_peer, big],
            "hash script",
            1.0,
            runs,
        ),
        compare(
            "diff two 10 MB snapshots",
            [*OURS, "diff", str(paths["snap_a"]), str(paths["snap_b"])],
            [*hash_peer, str(paths["big"]), str(paths["big"])],
            "hash script x2",
            1.0,
            runs,
        ),
        compare(
            "hook cold start (snapshot of 100 tools)",
            [*OURS, "audit", "--fail-on", "error", str(paths["hook"])],
            [*cj, str(ROOT / "fixtures/bench/tools100.json")],
            "check-jsonschema",
            1.0,
            runs,
        ),
    ]
    if server is not None:
        live = [*OURS, "snapshot", "-o", os.devnull, "--", *server]
        out.append(
            compare(
                "live snapshot server-everything",
                live,
                [PY, str(PEERS / "server_start.py"), *server],
                "server start-to-exit",
                2.0,
                runs,
            )
        )
        # NOTE: no target: what a client that sends `notifications/initialized`, as the
        # lifecycle requires, waits for at the least (the row above's peer does not send it).
        out.append(
            compare(
                "live snapshot vs a compliant start-to-exit",
                live,
                [PY, str(PEERS / "server_start.py"), "--initialized", *server],
                "start, initialized, exit",
                None,
                runs,
            )
        )
        four = [*OURS, "snapshot", "--runs", "4", "--jobs", "2", "-o", os.devnull, "--", *server]
        out.append(
            compare("live snapshot --runs 4 --jobs 2", four, live, "one live snapshot", 2.5, runs)
        )
    return [row for row in out if row is not None]


def memory(paths: dict[str, Path], runs: int) -> list[tuple[str, float, float]]:
    """Peak RSS (median) of each offline verb on the 10 MB file against the hash script's."""
    big = str(paths["big"])
    peer = rss([timed([PY, str(PEERS / "hash_script.py"), big]) for _ in range(runs)])
    verbs = {
        "hash": ["hash", big],
        "canonicalize": ["canonicalize", big],
        "canonicalize --jcs": ["canonicalize", "--jcs", big],
        "audit": ["audit", big],
        "snapshot --from": ["snapshot", "--from", big, "-o", os.devnull],
        "diff": ["diff", str(paths["snap_a"]), str(paths["snap_b"])],
    }
    return [(v, rss([timed([*OURS, *a]) for _ in range(runs)]), peer) for v, a in verbs.items()]


def scaling(tmp: Path, seed: int) -> bool:
    """Per-tool time and RSS of hash, audit, canonicalize at 1,000 / 5,000 / 20,000 tools."""
    print("\nscaling (per tool; 5 runs, 3 at 20,000):")
    ok = True
    for verb in (["hash"], ["audit"], ["canonicalize"]):
        base: tuple[float, float] | None = None
        for tools in (1000, 5000, 20000):
            path = tmp / f"scale{tools}.json"
            if not path.exists():  # in a child, as write_catalogs (see main)
                made = [PY, str(HERE / "generate.py"), "--tools", str(tools), "--seed", str(seed)]
                subprocess.run([*made, "-o", str(path)], check=True)
            got = [timed([*OURS, *verb, str(path)]) for _ in range(3 if tools == 20000 else 5)]
            per = (med(got) / tools * 1e3, rss(got) / tools * 1e3)
            base = base or per
            grow = (per[0] / base[0], per[1] / base[1])
            if tools == 20000 and max(grow) > 1.3:
                ok = False
            print(
                f"  {verb[0]:<13} {tools:>6} tools: {per[0]:7.3f} ms/tool ({grow[0]:.2f}x)"
                f"  {per[1]:7.1f} KiB/tool ({grow[1]:.2f}x)"
            )
    return ok


def table(results: list[Row], mem: list[tuple[str, float, float]]) -> None:
    print("\n| command | ours | peer | peer time | ratio | target | |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        target = "" if r.target is None else f"<= {r.target}"
        print(
            f"| `{r.label}` | {med(r.ours):.3f} s, {rss(r.ours):.0f} MiB | {r.peer_label} |"
            f" {med(r.peer):.3f} s, {rss(r.peer):.0f} MiB | {r.ratio:.2f} | {target} |"
            f" {'met' if r.met else 'MISSED'} |"
        )
    if mem:
        print("\n| peak RSS, 10 MB file | ours | hash script | ratio (target <= 1.5) | |")
        print("|---|---|---|---|---|")
        for verb, ours, peer in mem:
            ok = "met" if ours / peer <= 1.5 else "MISSED"
            print(f"| `{verb}` | {ours:.0f} MiB | {peer:.0f} MiB | {ours / peer:.2f} | {ok} |")


def find_checker() -> str | None:
    for where in (
        os.environ.get("CHECK_JSONSCHEMA"),
        str(Path(PY).parent / "check-jsonschema"),
        "/tmp/helpers/perf/peers/bin/check-jsonschema",
        shutil.which("check-jsonschema"),
    ):
        if where and Path(where).exists():
            return where
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed rounds (at least 5)")
    parser.add_argument("--tools", type=int, default=1000, help="tools in the big catalog")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--scaling", action="store_true", help="also 1,000 / 5,000 / 20,000")
    parser.add_argument("--no-live", action="store_true", help="skip the live snapshot rows")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="WORD",
        help="time only the rows whose label contains WORD (repeatable; 'RSS': the RSS rows)",
    )
    parser.add_argument("--catalogs", metavar="DIR", help="reuse catalogs written there before")
    parser.add_argument(
        "--bytecode",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="compile src/ to bytecode first, as an installed package has it (the default)",
    )
    parser.add_argument("--write-catalogs", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--identical", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.write_catalogs:
        write_catalogs(Path(args.write_catalogs), args.tools, args.seed)
        return 0
    if args.identical:
        print(json.dumps(identical(catalog_paths(Path(args.identical)))))
        return 0
    runs = max(5, args.runs)
    ONLY.extend(args.only)
    checker = find_checker()
    if checker is None or shutil.which("jq") is None:
        print("needs check-jsonschema and jq (see bench/README.md)", file=sys.stderr)
        return 2
    ENV["CHECK_JSONSCHEMA"] = checker
    if args.bytecode:
        # NOTE: pip compiles what it installs, so the peers' packages (and our dependencies)
        # have bytecode here; our checkout has none under PYTHONDONTWRITEBYTECODE=1 (the
        # warm-up runs cannot write it), and then every timed run of ours compiles every
        # module it imports: about 100 ms of a live snapshot's start-up.
        compileall.compile_dir(str(ROOT / "src"), quiet=1)
    print(f"bytecode of src/: {'compiled first' if args.bytecode else 'as found'}")
    server_bin = ROOT / "tests" / "node_modules" / ".bin" / "mcp-server-everything"
    server = None if args.no_live or not server_bin.exists() else [str(server_bin), "stdio"]
    load = os.getloadavg()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load[0]:.1f}; "
        f"medians of {runs}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.catalogs or scratch
        # NOTE: in a child, so this process stays small: Linux gives an exec'd child's
        # ru_maxrss at least the RSS it forked with (every row showed the same 119 MiB).
        if not (args.catalogs and (Path(tmp) / "big.json").exists()):
            subprocess.run(
                [PY, __file__, "--write-catalogs", tmp, "--tools", str(args.tools)]
                + ["--seed", str(args.seed)],
                check=True,
            )
        paths = catalog_paths(Path(tmp))
        print(
            f"catalogs: {paths['big'].stat().st_size / 1e6:.1f} MB, "
            f"{paths['mid'].stat().st_size / 1e6:.2f} MB, 500 x 20 tools"
        )
        # NOTE: compared in a child too: holding two 10 MB outputs here would raise the RSS
        # floor of every later child (see above).
        said = subprocess.run(
            [PY, __file__, "--identical", tmp], capture_output=True, text=True, check=True
        )
        bad = json.loads(said.stdout)
        print("byte-identical outputs: " + ("; ".join(bad) if bad else "yes"))
        results = rows(paths, runs, checker, server)
        mem = memory(paths, runs) if not ONLY or "RSS" in ONLY else []
        table(results, mem)
        scaled = scaling(Path(tmp), args.seed) if args.scaling else True
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    missed = bad or not scaled or not all(r.met for r in results)
    missed = missed or any(o / p > 1.5 for _, o, p in mem)
    return 1 if args.check and missed else 0


ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
#: `--only`: the words of the rows to time (empty: every row).
ONLY: list[str] = []

if __name__ == "__main__":
    raise SystemExit(main())
