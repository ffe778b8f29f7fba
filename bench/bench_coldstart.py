"""Cold start of the pre-commit hook: `catalogaudit audit` against `check-jsonschema`.

A hook runs on every commit, so what matters is the whole process: interpreter start, imports,
reading one file, checking it, exiting. Both tools get the same committed raw `tools/list`
result (fixtures/bench/tools100.json: 100 tools of about 1 KB each). catalogaudit runs exactly
the hook's entry (`catalogaudit audit --fail-on error`, default profile `spec`, which includes
validating every page against the vendored MCP 2025-11-25 schema); check-jsonschema validates
the file against that same vendored schema wrapped as `{"$ref": "#/$defs/ListToolsResult"}`
plus its `$defs`.

Each run is a new process (a "cold" start of the program; the OS file cache and compiled
bytecode are warm, as they are for a hook after its first run). One untimed run of each warms
them; then runs alternate between the tools so background load hits both alike. Prints the
median of N runs with the spread (min, max, interquartile range) and the ratio of medians.

    .venv/bin/pip install check-jsonschema   # bench only; not a catalogaudit dependency
    .venv/bin/python bench/bench_coldstart.py [--runs 10]
    .venv/bin/python bench/bench_coldstart.py --regenerate   # rewrite the fixture
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "bench" / "tools100.json"
MCP_SCHEMA = ROOT / "src" / "catalogaudit" / "rules" / "spec" / "mcp" / "2025-11-25.schema.json"
BIN = Path(sys.executable).parent

WORDS = (
    "account archive branch bucket calendar channel commit config contact cursor dataset "
    "deploy device domain event export field filter folder format graph group image index "
    "invoice issue label layer ledger member message metric model module note order owner "
    "page policy project query queue record region release report request resource role "
    "route rule sample schema scope segment session source stage status stream summary table "
    "task template tenant thread ticket token topic trace user value version view window"
).split()


def generate(count: int = 100, seed: int = 5) -> dict[str, object]:
    """A deterministic `tools/list` result: `count` realistic tools of about 1 KB each."""
    rng = random.Random(seed)
    tools = []
    for i in range(count):
        noun, verb = rng.choice(WORDS), rng.choice(("get", "list", "create", "update", "delete"))
        props = {}
        for name in rng.sample(WORDS, 4):
            props[f"{name}_id" if rng.random() < 0.3 else name] = {
                "type": rng.choice(("string", "integer", "boolean")),
                "description": f"The {name} to use; "
                + " ".join(rng.choices(WORDS, k=rng.randint(8, 14)))
                + ".",
            }
        tools.append(
            {
                "name": f"{verb}_{noun}_{i:03d}",
                "title": f"{verb.title()} {noun}",
                "description": f"{verb.title()} a {noun} in the workspace. "
                + " ".join(rng.choices(WORDS, k=rng.randint(30, 40)))
                + ". Returns the result as JSON.",
                "inputSchema": {
                    "type": "object",
                    "properties": props,
                    "required": sorted(props)[:2],
                    "additionalProperties": False,
                },
                "annotations": {
                    "readOnlyHint": verb in ("get", "list"),
                    "destructiveHint": verb == "delete",
                },
            }
        )
    return {"tools": tools}


def wrapped_schema(directory: Path) -> Path:
    """The vendored 2025-11-25 schema as a schema of one `tools/list` result."""
    mcp = json.loads(MCP_SCHEMA.read_text(encoding="utf-8"))
    doc = {"$schema": mcp["$schema"], "$ref": "#/$defs/ListToolsResult", "$defs": mcp["$defs"]}
    path = directory / "list-tools-result.schema.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def timed(argv: list[str]) -> tuple[float, int]:
    started = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    return time.perf_counter() - started, proc.returncode


def spread(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=4)
    return (
        f"median {statistics.median(samples) * 1000:7.1f} ms   min {min(samples) * 1000:6.1f}"
        f"   max {max(samples) * 1000:6.1f}   IQR {q[0] * 1000:6.1f}-{q[2] * 1000:6.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--regenerate", action="store_true", help="rewrite the fixture")
    args = parser.parse_args(argv)
    if args.regenerate:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        FIXTURE.write_text(json.dumps(generate(), indent=1) + "\n", encoding="utf-8")
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    sizes = [len(json.dumps(t)) for t in data["tools"]]
    checker = shutil.which("check-jsonschema", path=str(BIN)) or shutil.which("check-jsonschema")
    if checker is None:
        sys.stderr.write("check-jsonschema is not installed: pip install check-jsonschema\n")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        schema = wrapped_schema(Path(tmp))
        commands = {
            "catalogaudit": [
                str(BIN / "catalogaudit"),
                "audit",
                "--fail-on",
                "error",
                str(FIXTURE),
            ],
            "check-jsonschema": [checker, "--schemafile", str(schema), str(FIXTURE)],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for name, cmd in commands.items():  # warm-up: bytecode and file cache, not timed
            _, code = timed(cmd)
            if code != 0:
                sys.stderr.write(f"{name} failed on the fixture (exit {code}): {cmd}\n")
                return 2
        for i in range(args.runs):
            order = list(commands) if i % 2 == 0 else list(reversed(commands))
            for name in order:
                seconds, _ = timed(commands[name])
                times[name].append(seconds)
    print(
        f"{FIXTURE.relative_to(ROOT)}: {len(sizes)} tools, {statistics.mean(sizes):.0f} bytes "
        f"per tool on average, {FIXTURE.stat().st_size} bytes; {args.runs} cold runs each"
    )
    for name, samples in times.items():
        print(f"{name:<17} {spread(samples)}")
    ratio = statistics.median(times["catalogaudit"]) / statistics.median(times["check-jsonschema"])
    verdict = "met" if ratio <= 1 else "NOT met"
    print(f"ratio catalogaudit / check-jsonschema (medians): {ratio:.2f} (target <= 1: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
