"""Whole CLI processes against their peers, on every catalog shape: time, peak RSS, ratios.

Not run by CI (`.ci/run`); see bench/README.md. Every contender is a new process, timed from
outside (`os.wait4`: wall clock around it, `ru_maxrss` of that child only). Each comparison
runs ours and its peer alternately (the order flips every round), so background load hits
both alike; the medians of `--runs` rounds give the ratio. Peer scripts live in bench/peers/
and run exactly as committed. Before timing a shape, the outputs that must be byte-identical
are compared (`canonicalize --jcs` against `rfc8785.dumps`; each item's canonical hash against
the hash script's). The shapes are in bench/shapes.py, their files in bench/corpus.py.

    python bench/run.py                      # every shape, every row
    python bench/run.py --check              # exit 1 when a target is missed on any shape
    python bench/run.py --shape deep --only hash --runs 1 --mb 1   # one row of one shape
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

# bench/ modules, next to this file
import corpus  # noqa: E402
import scaling  # noqa: E402
import shapes  # noqa: E402
import timing  # noqa: E402
from timing import ENV, OURS, PY, ROOT, Row, Sample, compare, rss, skip, timed  # noqa: E402

PEERS = HERE / "peers"
BIN = ROOT / "tests" / "node_modules" / ".bin"
#: Peak RSS of ours at most this times the hash script's on the big catalog.
RSS_TARGET = 1.5


def shape_rows(shape: shapes.Shape, tmp: Path, runs: int, mb: float) -> list[Row]:
    """The offline rows on one shape's catalogs."""
    big_json, mid_json = str(tmp / "big.json"), str(tmp / "mid.json")
    big, mid = str(corpus.ours_input(tmp / "big")), str(corpus.ours_input(tmp / "mid"))
    hash_peer = [PY, str(PEERS / "hash_script.py")]
    cj = [str(PEERS / "check_jsonschema.sh")]
    jcs = [*OURS, "canonicalize", "--jcs", big_json]
    size = f"{mb:g} MB"
    out: list[Row | None] = [
        compare(
            f"hash {size}", [*OURS, "hash", big], [*hash_peer, big_json], "hash script", 0.5, runs
        )
    ]
    if shape.no_jcs:
        out.append(skip(f"canonicalize --jcs {size}", "rfc8785 script", 0.5, shape.no_jcs))
        out.append(skip(f"canonicalize --jcs {size}", "jq -S -c .", 1.0, shape.no_jcs))
    else:
        rfc = [PY, str(PEERS / "rfc8785_script.py"), big_json]
        out.append(compare(f"canonicalize --jcs {size}", jcs, rfc, "rfc8785 script", 0.5, runs))
        jq = ["jq", "-S", "-c", ".", big_json]
        out.append(compare(f"canonicalize --jcs {size}", jcs, jq, "jq -S -c .", 1.0, runs))

    def audit(label: str, ours: list[str], raw: list[str]) -> Row | None:
        return compare(label, [*OURS, "audit", *ours], [*cj, *raw], "check-jsonschema", 1.0, runs)

    out.append(audit(f"audit {size}", [big], [big_json]))
    out.append(audit(f"audit {mb / 10:g} MB", [mid], [mid_json]))
    if shape.per_file:
        snaps = sorted(str(p) for p in (tmp / "many-snapshots").iterdir())
        raw = sorted(str(p) for p in (tmp / "many").glob("*.json"))
        out.append(audit(f"audit {corpus.FILES} files", snaps, raw))
    else:
        why = f"a {mb * 1000 / 50:g} kB catalog cannot hold one item of this shape"
        out.append(skip(f"audit {corpus.FILES} files", "check-jsonschema", 1.0, why))
    snap = [*OURS, "snapshot", "--from", big, "-o", os.devnull]
    out.append(
        compare(f"snapshot --from {size}", snap, [*hash_peer, big_json], "hash script", 1.0, runs)
    )
    diff = [*OURS, "diff", str(tmp / "snap_a.snapshot.json"), str(tmp / "snap_b.snapshot.json")]
    both = [*hash_peer, big_json, str(tmp / "changed.json")]
    out.append(compare(f"diff two {size} snapshots", diff, both, "hash script on both", 1.0, runs))
    return [row for row in out if row is not None]


def fixed_rows(runs: int, live: bool) -> list[Row]:
    """The rows that do not depend on a shape: the hook's cold start and the live snapshot."""
    hook = Path(tempfile.gettempdir()) / f"bench-hook-{os.getpid()}.snapshot.json"
    tools100 = str(ROOT / "fixtures/bench/tools100.json")
    cj = [str(PEERS / "check_jsonschema.sh")]
    out: list[Row | None] = []
    if timing.wanted("hook cold start"):
        corpus.snapshot(Path(tools100), hook)
        audit = [*OURS, "audit", "--fail-on", "error", str(hook)]
        label = "hook cold start (snapshot of 100 tools)"
        out.append(compare(label, audit, [*cj, tools100], "check-jsonschema", 1.0, runs))
        hook.unlink()
    server = [str(BIN / "mcp-server-everything"), "stdio"]
    ours = [*OURS, "snapshot", "-o", os.devnull, "--", *server]
    sdk = [PY, str(PEERS / "sdk_client.py"), *server]
    inspector = [str(PEERS / "inspector_cli.sh"), *server]
    label = "live snapshot server-everything"
    if not live or not Path(server[0]).exists():
        why = "--no-live" if not live else "tests/node_modules not installed"
        out.append(skip(label, "MCP Python SDK client", 1.1, why))
        out.append(skip(label, "Inspector CLI, four calls", 0.5, why))
        return [row for row in out if row is not None]
    out.append(compare(label, ours, sdk, "MCP Python SDK client", 1.1, runs))
    if (BIN / "mcp-inspector").exists():
        out.append(compare(label, ours, inspector, "Inspector CLI, four calls", 0.5, runs))
    else:
        out.append(skip(label, "Inspector CLI, four calls", 0.5, "mcp-inspector not installed"))
    four = [*OURS, "snapshot", "--runs", "4", "--jobs", "2", "-o", os.devnull, "--", *server]
    out.append(
        compare("live snapshot --runs 4 --jobs 2", four, ours, "one live snapshot", 2.5, runs)
    )
    return [row for row in out if row is not None]


def memory(
    shape: shapes.Shape, tmp: Path, found: list[Row], runs: int
) -> list[tuple[str, float, float]]:
    """Peak RSS (median) of each offline verb on the big catalog against the hash script's;
    taken from the timed rows where they ran, else timed here."""

    def samples(label: str, argv: list[str], peer: bool = False) -> list[Sample]:
        for row in found:
            if row.label.startswith(label) and (row.peer if peer else row.ours):
                return row.peer if peer else row.ours
        return [timed(argv) for _ in range(runs)]

    big_json, big = str(tmp / "big.json"), str(corpus.ours_input(tmp / "big"))
    peer = rss(samples("hash ", [PY, str(PEERS / "hash_script.py"), big_json], peer=True))
    snaps = [str(tmp / "snap_a.snapshot.json"), str(tmp / "snap_b.snapshot.json")]
    verbs = {
        "hash ": ["hash", big],
        "canonicalize (written form)": ["canonicalize", big],
        "canonicalize --jcs": ["canonicalize", "--jcs", big_json],
        "audit ": ["audit", big],
        "snapshot --from": ["snapshot", "--from", big, "-o", os.devnull],
        "diff": ["diff", *snaps],
    }
    out = []
    for verb, argv in verbs.items():
        if verb == "canonicalize --jcs" and shape.no_jcs:
            continue
        try:
            out.append((verb.strip(), rss(samples(verb, [*OURS, *argv])), peer))
        except timing.Failed as exc:
            print(f"  peak RSS of {verb.strip()}: {exc}", flush=True)
            out.append((verb.strip(), float("inf"), peer))
    return out


def table(title: str, results: list[Row], mem: list[tuple[str, float, float]]) -> None:
    print(f"\n{title}")
    if results:
        print("\n| command | ours | peer | peer time | ratio | target | |")
        print("|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| `{r.label}` |{r.cells()}")
    if mem:
        print(
            f"\n| peak RSS, big catalog | ours | hash script | ratio (target <= {RSS_TARGET}) | |"
        )
        print("|---|---|---|---|---|")
        for verb, ours, peer in mem:
            ok = "met" if ours / peer <= RSS_TARGET else "MISSED"
            print(f"| `{verb}` | {ours:.0f} MiB | {peer:.0f} MiB | {ours / peer:.2f} | {ok} |")


def summary(verdicts: dict[str, list[str]]) -> None:
    """One line per shape: the rows missed there."""
    print("\n| shape | missed |\n|---|---|")
    for name, missed in verdicts.items():
        print(f"| {name} | {'; '.join(missed) if missed else 'none'} |")


def find_checker() -> str | None:
    for where in (
        os.environ.get("CHECK_JSONSCHEMA"),
        str(Path(PY).parent / "check-jsonschema"),
        shutil.which("check-jsonschema"),
    ):
        if where and Path(where).exists():
            return where
    return None


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add = parser.add_argument
    add("--runs", type=int, default=5, help="timed rounds (default 5; fewer only to smoke-test)")
    add("--mb", type=float, default=10.0, help="size of the big catalogs (default 10)")
    add("--seed", type=int, default=4)
    add("--check", action="store_true", help="exit 1 when a target is missed on any shape")
    add("--scaling", action="store_true", help="also 1,000 / 5,000 / 20,000 tools")
    add("--no-live", action="store_true", help="skip the live snapshot rows")
    add("--list-shapes", action="store_true", help="print the shapes and exit")
    add(
        "--shape",
        action="append",
        default=[],
        metavar="NAME",
        help="run only this shape (repeatable; a word matches the shapes containing it; "
        "'none': no shape, the fixed rows alone)",
    )
    add(
        "--only",
        action="append",
        default=[],
        metavar="WORD",
        help="time only the rows whose label contains WORD (repeatable; 'RSS': the RSS rows)",
    )
    add("--catalogs", metavar="DIR", help="reuse catalogs written there before (per shape)")
    add(
        "--bytecode",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="compile src/ to bytecode first, as an installed package has it (the default)",
    )
    add("--write-catalogs", metavar="DIR", help=argparse.SUPPRESS)
    add("--identical", metavar="DIR", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # progress in a log
    chosen = [] if args.shape == ["none"] else shapes.by_name(args.shape)
    if args.list_shapes:
        for shape in shapes.SHAPES:
            print(f"{shape.name:<16} {shape.about}")
        return 0
    if args.write_catalogs:
        corpus.write_catalogs(chosen[0], Path(args.write_catalogs), args.mb, args.seed)
        return 0
    if args.identical:
        print(json.dumps(corpus.identical(chosen[0], Path(args.identical))))
        return 0
    if args.shape and args.shape != ["none"] and not chosen:
        print(f"no shape matches {args.shape} (see --list-shapes)", file=sys.stderr)
        return 2
    timing.ONLY.extend(args.only)
    checker = find_checker()
    if checker is None or shutil.which("jq") is None:
        print("needs check-jsonschema and jq (see bench/README.md)", file=sys.stderr)
        return 2
    ENV.update(CHECK_JSONSCHEMA=checker, INSPECTOR=str(BIN / "mcp-inspector"))
    if args.bytecode:
        # NOTE: pip compiles what it installs, so the peers' packages (and our dependencies)
        # have bytecode here; our checkout has none under PYTHONDONTWRITEBYTECODE=1, and then
        # every timed run of ours would compile every module it imports.
        compileall.compile_dir(str(ROOT / "src"), quiet=1)
    load = os.getloadavg()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load[0]:.1f}; medians of "
        f"{args.runs}; bytecode of src/ {'compiled first' if args.bytecode else 'as found'}"
    )
    verdicts: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(args.catalogs or scratch)
        for shape in chosen:
            verdicts[shape.name] = run_shape(shape, root / shape.name, args)
        fixed = fixed_rows(args.runs, not args.no_live)
        if fixed:
            table("fixed rows (no shape)", fixed, [])
            verdicts["(fixed rows)"] = [f"{r.label} vs {r.peer_label}" for r in fixed if not r.met]
        scaled = scaling.run(root, args.seed) if args.scaling else True
    summary(verdicts)
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    missed = not scaled or any(verdicts.values())
    return 1 if args.check and missed else 0


def run_shape(shape: shapes.Shape, tmp: Path, args: argparse.Namespace) -> list[str]:
    """Write (or reuse) the shape's catalogs, check outputs, time its rows; what it missed."""
    if not (tmp / "snap_b.snapshot.json").exists():
        # NOTE: in a child, so this process stays small: Linux gives an exec'd child's
        # ru_maxrss at least the RSS it forked with.
        if tmp.exists():
            shutil.rmtree(tmp)
        make = [PY, __file__, "--write-catalogs", str(tmp), "--shape", shape.name]
        subprocess.run([*make, "--mb", str(args.mb), "--seed", str(args.seed)], check=True)
    sizes = ", ".join(
        f"{p.name} {p.stat().st_size / 1e6:.2f} MB" for p in (tmp / "big.json", tmp / "mid.json")
    )
    print(f"\n{shape.name}: {shape.about} ({sizes})", flush=True)
    # NOTE: compared in a child too: holding two big outputs here would raise the RSS floor
    # of every later child (see above).
    said = subprocess.run(
        [PY, __file__, "--identical", str(tmp), "--shape", shape.name],
        capture_output=True,
        text=True,
        check=True,
    )
    bad: list[str] = json.loads(said.stdout)
    print("  byte-identical outputs: " + ("; ".join(bad) if bad else "yes"), flush=True)
    found = shape_rows(shape, tmp, args.runs, args.mb)
    mem = memory(shape, tmp, found, args.runs) if timing.wanted("RSS") else []
    table(f"shape `{shape.name}`", found, mem)
    missed = [*bad, *(f"{r.label} vs {r.peer_label}" for r in found if not r.met)]
    return missed + [f"peak RSS of {v}" for v, o, p in mem if o / p > RSS_TARGET]


if __name__ == "__main__":
    raise SystemExit(main())
