"""The corpus of catalog shapes `run.py` times every row on (issue 31, item 6).

Each shape builds the listings of one catalog (`{"tools": [...], "prompts": [...], ...}`) up to a
size in bytes, deterministically for a seed, and says how it is written. A shape stresses one
thing a fast path may not hold on: how text is escaped, how numbers are spelled, unusual keys,
depth, item count and size, listings other than tools, and real servers' catalogs.

    python bench/shapes.py    # the list, one line each
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import generate
from generate import WORDS, Gen, lexeme

Listings = dict[str, list[dict[str, Any]]]
REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real-servers"
#: The listing keys in the order a snapshot and the lifecycle list them.
KEYS = ("tools", "prompts", "resources", "resourceTemplates")


@dataclass(frozen=True)
class Shape:
    name: str
    about: str
    build: Callable[[int, int], Listings]  # (bytes wanted, seed) -> listings
    escaped: bool = False  # written as `json.dumps` writes by default
    no_jcs: str = ""  # why no RFC 8785 form exists (then the --jcs rows are skipped)
    per_file: bool = True  # the 500-file row makes sense (a 1/50 catalog keeps the shape)


def fill(
    size: int, make: Callable[[int], tuple[str, dict[str, Any]]], escaped: bool = False
) -> Listings:
    """Items from `make(index)` (listing key, item) until they are `size` bytes written."""
    out: Listings = {}
    total = i = 0
    while total < size:
        key, item = make(i)
        out.setdefault(key, []).append(item)
        total += len(generate.render(item, escaped)) + 1
        i += 1
    return {k: out[k] for k in KEYS if k in out}


def tools_of(gen_type: type[Gen], escaped: bool = False) -> Callable[[int, int], Listings]:
    """A tools-only catalog of `generate.Gen`'s tools (about 10 kB each), made by `gen_type`."""

    def build(size: int, seed: int) -> Listings:
        gen = gen_type(seed)
        return fill(size, lambda i: ("tools", gen.tool(i)), escaped)

    return build


class ProseGen(Gen):
    """Prose mostly outside ASCII: escaped, each such character is 6 or 12 bytes."""

    def prose(self, sentences: int) -> str:
        return " ".join(self.rng.choice(generate.PROSE[3:]) for _ in range(sentences))


class NumberGen(Gen):
    """Number-heavy schemas: every scalar a number with bounds, default and examples, each
    spelled by `spell` (the shape's number lexemes)."""

    spell: Callable[[random.Random], str] = staticmethod(lambda rng: "1")

    def scalar_schema(self, floats: bool) -> dict[str, Any]:
        def num() -> str:
            return lexeme(self.spell(self.rng))

        schema = {
            "type": "number",
            "description": self.words(4, 10),
            "minimum": num(),
            "maximum": num(),
            "default": num(),
            "examples": [num() for _ in range(6)],
        }
        return self.shuffled(schema)


def _digits17(rng: random.Random) -> str:
    # Half as `repr` writes them (shortest, as json.dumps), half with 17 significant digits
    # (`%.17g`, as C and Go writers do), often not the shortest spelling of the same double.
    x = rng.random() * 10 ** rng.randint(-3, 4)
    return repr(x) if rng.random() < 0.5 else f"{x:.17g}"


def _integral(rng: random.Random) -> str:
    n = rng.randint(0, 5000)
    return rng.choice((f"{n}.0", f"{n}.00", f"{n}e0", "1e3", "1E3", "2e+2", "1.0", "-0.0", "5.0"))


def _exponent(rng: random.Random) -> str:
    mantissa = f"{rng.randint(1, 9)}.{rng.randint(0, 99999)}"
    return f"{mantissa}{rng.choice('eE')}{rng.choice(('', '+', '-'))}{rng.randint(1, 300)}"


def _digits50(rng: random.Random) -> str:
    return str(rng.randint(10**49, 10**50 - 1))


def numbers(spell: Callable[[random.Random], str]) -> type[Gen]:
    return type("Numbers", (NumberGen,), {"spell": staticmethod(spell)})


class KeyGen(Gen):
    """Property names led by astral (U+1F300...) and private-use (U+E000..., U+F0000...)
    characters: where UTF-16 order (RFC 8785 3.2.3) and code-point order part."""

    def object_schema(self, depth: int, width: int, floats: bool, odd_keys: bool) -> dict[str, Any]:
        schema = super().object_schema(depth, width, floats, odd_keys)
        props = schema["properties"]
        renamed = {self._odd(k): v for k, v in props.items()}
        schema["properties"] = renamed
        schema["required"] = sorted(self.rng.sample(list(renamed), k=min(len(renamed), 3)))
        return schema

    def _odd(self, key: str) -> str:
        lead = self.rng.choice(
            (
                chr(self.rng.randint(0x1F300, 0x1FAFF)),
                chr(self.rng.randint(0xE000, 0xF8FF)),
                chr(self.rng.randint(0xF0000, 0xFFFFD)),
                chr(self.rng.randint(0xFB00, 0xFFEF)),
            )
        )
        return lead + key + chr(self.rng.randint(0x10000, 0x1FFFF))


#: Containers deep, counted from the document: doc, tools, tool, inputSchema, two (properties,
#: schema) per nested object schema, then at most four in the innermost one's properties.
DEPTH = 50


def deep(size: int, seed: int) -> Listings:
    gen = Gen(seed)

    def tool(i: int) -> tuple[str, dict[str, Any]]:
        schema: dict[str, Any] = gen.object_schema(0, 2, False, False)
        for level in range((DEPTH - 8) // 2, 0, -1):
            outer = gen.object_schema(0, 2, False, False)
            outer["properties"][f"level_{level}"] = schema
            schema = outer
        return "tools", {
            "name": f"deep_{i:05d}",
            "description": gen.prose(2),
            "inputSchema": schema,
        }

    return fill(size, tool)


def tiny(size: int, seed: int) -> Listings:
    """About 500 bytes a tool: 20,000 tools in 10 MB."""
    gen = Gen(seed)

    def tool(i: int) -> tuple[str, dict[str, Any]]:
        props = {
            f"{gen.rng.choice(WORDS)}_{k}": {"type": gen.rng.choice(("string", "integer"))}
            for k in range(gen.rng.randint(2, 4))
        }
        return "tools", {
            "name": f"{gen.rng.choice(WORDS)}_{i:05d}",
            "title": gen.words(2, 5).title(),
            "description": gen.prose(3),
            "inputSchema": {"type": "object", "properties": props, "required": list(props)[:1]},
            "annotations": {"readOnlyHint": gen.rng.random() < 0.5},
        }

    return fill(size, tool)


def fat(size: int, seed: int) -> Listings:
    """Tools of 500 kB (a generated API surface as one tool): 20 in 10 MB."""
    gen = Gen(seed)

    def tool(i: int) -> tuple[str, dict[str, Any]]:
        props: dict[str, Any] = {}
        written = 0
        while written < 500_000:
            prop = gen.object_schema(1, 8, True, False)
            props[f"{gen.rng.choice(WORDS)}_{len(props)}"] = prop
            written += len(generate.render(prop)) + 20
        schema = {"type": "object", "properties": props, "required": sorted(props)[:5]}
        return "tools", {
            "name": f"api_{i:02d}",
            "description": gen.prose(12),
            "inputSchema": schema,
        }

    return fill(size, tool)


def _prompt(gen: Gen, i: int) -> dict[str, Any]:
    args = [
        {"name": f"{gen.rng.choice(WORDS)}_{k}", "description": gen.prose(1), "required": k == 0}
        for k in range(gen.rng.randint(1, 6))
    ]
    prompt = {"name": f"{gen.rng.choice(WORDS)}-{i:05d}", "title": gen.words(2, 4).title()}
    return gen.shuffled(
        {**prompt, "description": gen.prose(gen.rng.randint(2, 6)), "arguments": args}
    )


def _resource(gen: Gen, i: int) -> dict[str, Any]:
    path = "/".join(gen.rng.choice(WORDS) for _ in range(3))
    return gen.shuffled(
        {
            "uri": f"{gen.rng.choice(('file://', 'https://example.com', 'db://'))}/{path}/{i}.md",
            "name": f"{path.replace('/', '-')}-{i}",
            "title": gen.words(2, 5).title(),
            "description": gen.prose(gen.rng.randint(1, 4)),
            "mimeType": gen.rng.choice(("text/markdown", "application/json", "text/plain")),
            "size": gen.rng.randint(10, 10**7),
            "annotations": {
                "audience": gen.rng.choice((["user"], ["assistant"], ["user", "assistant"])),
                "priority": gen.rng.choice((0.0, 0.25, 0.5, 0.8, 1.0)),
                "lastModified": f"2026-{gen.rng.randint(10, 12)}-0{gen.rng.randint(1, 9)}T12:00Z",
            },
        }
    )


def _template(gen: Gen, i: int) -> dict[str, Any]:
    a, b = gen.rng.choice(WORDS), gen.rng.choice(WORDS)
    return gen.shuffled(
        {
            "uriTemplate": f"{a}://{b}/{i}/{{owner}}/{{{a}_id}}{{?{b},page}}",
            "name": f"{a}-{b}-{i}",
            "title": gen.words(2, 5).title(),
            "description": gen.prose(gen.rng.randint(1, 4)),
            "mimeType": gen.rng.choice(("text/markdown", "application/json")),
        }
    )


def mixed(main: str) -> Callable[[int, int], Listings]:
    """Nine in ten items of the `main` listing, the rest spread over the others."""
    makers: dict[str, Callable[[Gen, int], dict[str, Any]]] = {
        "tools": lambda gen, i: gen.tool(i),
        "prompts": _prompt,
        "resources": _resource,
        "resourceTemplates": _template,
    }

    def build(size: int, seed: int) -> Listings:
        gen = Gen(seed)

        def item(i: int) -> tuple[str, dict[str, Any]]:
            key = main if i % 10 else KEYS[(i // 10) % 4]
            return key, makers[key](gen, i)

        return fill(size, item)

    return build


def captures() -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    """(capture, listing, items as served: each wire page parsed in order)."""
    for path in sorted(REAL.glob("*.snapshot.json")):
        wire = json.loads(path.read_text(encoding="utf-8")).get("wire", {}).get("pages", {})
        for key in KEYS:
            items = [i for page in wire.get(key, []) for i in json.loads(page).get(key, [])]
            if items:
                yield path.name.removesuffix(".snapshot.json"), key, items


def real(size: int, seed: int) -> Listings:
    """Every capture's served items, round after round until `size`; names, URIs and URI
    templates get a `-N`/`?copy=N` suffix per round and capture so identities stay unique."""
    rng = random.Random(seed)
    pool = list(captures())
    copy = 0

    def item(i: int) -> tuple[str, dict[str, Any]]:
        nonlocal copy
        if i % len(stream) == 0:
            rng.shuffle(order)
        name, key, source = stream[order[i % len(stream)]]
        copy += 1
        return key, _unique(dict(source), f"{name[:3]}{copy}")

    stream = [(name, key, it) for name, key, items in pool for it in items]
    order = list(range(len(stream)))
    return fill(size, item)


def _unique(item: dict[str, Any], tag: str) -> dict[str, Any]:
    if "name" in item:
        item["name"] = f"{item['name']}-{tag}"
    if "uri" in item:
        item["uri"] += ("&" if "?" in item["uri"] else "?") + f"copy={tag}"
    if "uriTemplate" in item:
        item["uriTemplate"] += f"/copy-{tag}"
    return item


SHAPES = (
    Shape("utf8-prose", "generate.py's tools, non-ASCII prose as raw UTF-8", tools_of(Gen)),
    Shape(
        "escaped-prose",
        "tools with mostly non-ASCII prose, written by json.dumps's defaults (\\u escapes)",
        tools_of(ProseGen, escaped=True),
        escaped=True,
    ),
    Shape(
        "floats17",
        "number schemas, floats as repr and %.17g writes them",
        tools_of(numbers(_digits17)),
    ),
    Shape(
        "integral-floats",
        "number schemas of 1.0, 1e3, 2e+2, -0.0 spellings",
        tools_of(numbers(_integral)),
    ),
    Shape(
        "exponents", "number schemas of 3.14e-7, 2.5E+300 spellings", tools_of(numbers(_exponent))
    ),
    Shape(
        "int50",
        "number schemas of 50-digit integers",
        tools_of(numbers(_digits50)),
        no_jcs="integers beyond 2^53-1 have no RFC 8785 form (ours and rfc8785 refuse)",
    ),
    Shape(
        "astral-keys", "property names led by astral and private-use characters", tools_of(KeyGen)
    ),
    Shape("deep", f"every tool {DEPTH} containers deep", deep),
    Shape("tiny-tools", "about 500 bytes a tool (20,000 in 10 MB)", tiny),
    Shape("fat-tools", "500 kB a tool (20 in 10 MB)", fat, per_file=False),
    Shape(
        "prompts", "nine items in ten prompts, the rest the other three listings", mixed("prompts")
    ),
    Shape("resources", "nine items in ten resources", mixed("resources")),
    Shape("templates", "nine items in ten resource templates", mixed("resourceTemplates")),
    Shape("real", "fixtures/real-servers/ served items, repeated with unique names", real),
)


def by_name(words: list[str]) -> list[Shape]:
    """The shapes named (exactly, or else containing a word); all when `words` is empty."""
    if not words:
        return list(SHAPES)
    exact = [s for s in SHAPES if s.name in words]
    return exact or [s for s in SHAPES if any(w in s.name for w in words)]


if __name__ == "__main__":
    for shape in SHAPES:
        print(f"{shape.name:<16} {shape.about}")
