"""Synthetic MCP `tools/list` results for the canonical-hash and diff benchmarks.

Real catalogs are small; gateways aggregate many servers into big ones, and that is where hashing
speed matters. The generator is deterministic for a seed (same bytes every run), writes served
key order shuffled (so canonical sorting has work to do) and mixes in what makes a fast path fall
back: floats (`0.5`, `1.0`, `1e-07`), astral and private-use characters in keys, and non-ASCII
prose. About 10 kB per tool: `--tools 5000` writes about 50 MB.

    python bench/generate.py --tools 1000 -o /tmp/catalog.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from typing import Any

WORDS = (
    "account address amount archive batch branch bucket cache calendar channel checksum cluster "
    "commit config contact cursor dataset deadline deploy device digest domain draft event export "
    "field filter folder format graph group handle header image import index invoice issue job "
    "label layer ledger limit locale member message metric mode model module note order owner "
    "page payload period policy project query queue range record region release report request "
    "resource role route rule sample schema scope secret segment session shard snapshot source "
    "stage status stream subject summary table tag task template tenant thread ticket token topic "
    "trace unit user value version view volume window workflow zone"
).split()
PROSE = (
    "Returns the matching records, newest first.",
    "Use this when the user asks about recent activity; never for billing questions.",
    "The value is validated server-side and rejected if it does not match the pattern.",
    "Résumé des données de la région, mis à jour toutes les heures.",
    "检索指定项目中的所有记录，并按时间排序。",
    "Включает только активные записи.",
    "Fast path ⚡ for cached lookups — results may be up to 5 minutes old.",
    'Supports ISO 8601 dates (e.g. 2026-07-28T12:00:00Z) and relative forms like "-7d".',
    'Tabs\tand newlines\nare escaped; so are quotes " and backslashes \\ in JSON.',
    "Emoji in prose 😀 are kept as UTF-8 by RFC 8785, not escaped.",
)
FLOATS = (0.5, 1.0, 0.01, 1e-07, 2.5, 100.0, 0.7, 1e16, 3.14159, -0.25)


class Gen:
    """One deterministic generator; `rng` is the only source of variation."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def words(self, lo: int, hi: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(lo, hi)))

    def prose(self, sentences: int) -> str:
        parts = []
        for _ in range(sentences):
            if self.rng.random() < 0.3:
                parts.append(self.rng.choice(PROSE))
            else:
                parts.append(self.words(6, 16).capitalize() + ".")
        return " ".join(parts)

    def shuffled(self, obj: dict[str, Any]) -> dict[str, Any]:
        keys = list(obj)
        self.rng.shuffle(keys)
        return {k: obj[k] for k in keys}

    def scalar_schema(self, floats: bool) -> dict[str, Any]:
        kind = self.rng.choice(("string", "integer", "number", "boolean", "enum"))
        schema: dict[str, Any] = {"description": self.prose(self.rng.randint(1, 2))}
        if kind == "string":
            schema.update(type="string", minLength=1, maxLength=self.rng.choice((64, 256, 4096)))
            if self.rng.random() < 0.3:
                schema["pattern"] = "^[a-z][a-z0-9_-]{0,63}$"
        elif kind == "integer":
            schema.update(type="integer", minimum=0, maximum=self.rng.choice((10, 1000, 2**31 - 1)))
            schema["default"] = self.rng.randint(0, 10)
        elif kind == "number":
            schema["type"] = "number"
            if floats:
                schema["minimum"] = self.rng.choice(FLOATS)
                schema["multipleOf"] = self.rng.choice(FLOATS)
            else:
                schema["minimum"] = 0
        elif kind == "boolean":
            schema.update(type="boolean", default=self.rng.random() < 0.5)
        else:
            schema.update(type="string", enum=sorted({self.rng.choice(WORDS) for _ in range(5)}))
        return self.shuffled(schema)

    def object_schema(self, depth: int, width: int, floats: bool, odd_keys: bool) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for i in range(width):
            name = f"{self.rng.choice(WORDS)}_{i}"
            if depth and self.rng.random() < 0.25:
                props[name] = self.object_schema(depth - 1, max(2, width // 2), floats, False)
            elif self.rng.random() < 0.15:
                props[name] = {
                    "type": "array",
                    "items": self.scalar_schema(floats),
                    "maxItems": self.rng.choice((10, 100)),
                    "description": self.prose(1),
                }
            else:
                props[name] = self.scalar_schema(floats)
        if odd_keys:
            # UTF-16 order differs from code-point order only here (RFC 8785 section 3.2.3).
            props["\U0001f600 mood"] = {"type": "string"}
            props["\ufb33 letter"] = {"type": "string"}
            props["café"] = {"type": "string"}
        required = sorted(self.rng.sample(list(props), k=min(len(props), 3)))
        schema = {
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": False,
            "description": self.prose(1),
        }
        return self.shuffled(schema)

    def tool(self, index: int) -> dict[str, Any]:
        floats = self.rng.random() < 0.1
        odd_keys = self.rng.random() < 0.01
        name = f"{self.rng.choice(WORDS)}_{self.rng.choice(WORDS)}_{index:05d}"
        tool: dict[str, Any] = {
            "name": name,
            "title": self.words(2, 5).title(),
            "description": self.prose(self.rng.randint(3, 8)),
            "inputSchema": self.object_schema(2, self.rng.randint(8, 14), floats, odd_keys),
            "annotations": self.shuffled(
                {
                    "title": self.words(2, 4).title(),
                    "readOnlyHint": self.rng.random() < 0.5,
                    "destructiveHint": self.rng.random() < 0.2,
                    "idempotentHint": self.rng.random() < 0.5,
                }
            ),
        }
        if self.rng.random() < 0.6:
            tool["outputSchema"] = self.object_schema(1, self.rng.randint(4, 10), floats, False)
        if self.rng.random() < 0.3:
            tool["_meta"] = {"example.com/owner": self.rng.choice(WORDS), "revision": index}
        return self.shuffled(tool)


def catalog(tools: int, seed: int) -> dict[str, Any]:
    """A `tools/list` result with `tools` items."""
    gen = Gen(seed)
    return {"tools": [gen.tool(i) for i in range(tools)]}


def lexeme(text: str) -> str:
    """A number written exactly as `text` (`1e3`, `1.0`, 17 digits), which `json.dumps` cannot
    spell: a marked string that `render` replaces by the bare lexeme."""
    return f"\0{text}\0"


_LEXEME = re.compile(rb'"\\u0000([-+.0-9eE]+)\\u0000"')


def render(doc: dict[str, Any], escaped: bool = False) -> bytes:
    """Compact, served-style JSON: non-ASCII kept as UTF-8, as most servers send it; or, with
    `escaped`, what `json.dumps` writes by default (`\\u`-escaped, `", "` and `": "`)."""
    if escaped:
        data = json.dumps(doc).encode("ascii")
    else:
        data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return _LEXEME.sub(rb"\1", data) if b"\\u0000" in data else data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000, help="number of tools (default 1000)")
    parser.add_argument("--seed", type=int, default=4, help="random seed (default 4)")
    parser.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    args = parser.parse_args(argv)
    data = render(catalog(args.tools, args.seed))
    if args.output == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(args.output, "wb") as fh:
            fh.write(data)
        print(f"wrote {args.output}: {args.tools} tools, {len(data):,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
