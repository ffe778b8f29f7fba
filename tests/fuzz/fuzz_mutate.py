"""A seeded mutation fuzzer over real snapshots (fixtures/captures/): structural JSON mutations
(wrong types, dropped and duplicated keys, hostile strings, long integers, deep nesting, lone
surrogates) and byte mutations (truncation, flipped and inserted bytes).

Used by tests/fuzz/test_fuzz.py (a bounded run in `.ci/run`) and scripts/fuzz_catalogs.py (the
long run). Everything is derived from one `random.Random(seed)`, so a crash is reproducible
from its seed and index.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "fixtures" / "captures").glob("*.snapshot.json"))

HOSTILE_STRINGS = (
    "\x1b]0;t\x07\x1b[2J\x9b31m\u202eevil\u2066\x85",
    "\ud800",
    "",
    " " * 3,
    "a" * 5000,
    "${PORT}",
    "{{x}}",
    "%s%n",
    "\u0000",
    "__proto__",
)
HOSTILE_VALUES: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1.5,
    10**30,
    [],
    {},
    [None],
    {"": None},
    "x",
)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*at, i))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _structural(doc: Any, rng: random.Random) -> str:
    doc = copy.deepcopy(doc)
    paths = list(_paths(doc))
    for _ in range(rng.randint(1, 4)):
        path = rng.choice(paths)
        if not path:
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        op = rng.randrange(6)
        try:
            if op == 0:
                parent[key] = rng.choice(HOSTILE_VALUES)
            elif op == 1:
                parent[key] = rng.choice(HOSTILE_STRINGS)
            elif op == 2 and isinstance(parent, dict):
                del parent[key]
            elif op == 3 and isinstance(parent, list):
                parent.append(copy.deepcopy(parent[key]))
            elif op == 4 and isinstance(parent, dict):
                parent[rng.choice(HOSTILE_STRINGS)] = copy.deepcopy(parent[key])
            else:
                parent[key] = {"nested": [parent[key]]}
        except (KeyError, IndexError, TypeError):
            continue
        paths = list(_paths(doc))
    text = json.dumps(doc, ensure_ascii=False, indent=rng.choice((None, 2)))
    if rng.random() < 0.1:  # a long integer lexeme (CPython's int-string limit is 4,300)
        text = text.replace("1", "9" * rng.choice((4301, 6000)), 1)
    if rng.random() < 0.05:  # deep nesting
        depth = rng.choice((500, 980, 3000))
        text = text.replace('"type"', "[" * depth + "1" + "]" * depth + ', "type"', 1)
    return text


def _raw(doc: Any) -> Any:
    """A snapshot's tools as a tools/list result: its wire page wins over its readable items
    on read, so a mutant of the items alone reaches no rule; a list result's items are read."""
    tools = doc.get("listings", {}).get("tools", {}).get("items")
    return {"tools": tools} if isinstance(tools, list) and tools else doc


def _bytes(text: str, rng: random.Random) -> bytes:
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randint(1, 8)):
        if not data:
            break
        i = rng.randrange(len(data))
        op = rng.randrange(4)
        if op == 0:
            data[i] = rng.randrange(256)
        elif op == 1:
            del data[i : i + rng.randint(1, 64)]
        elif op == 2:
            data[i:i] = rng.choice((b"\xff", b"\x00", b'"', b"{", b"]", b"\\u", b",", b"-0"))
        else:
            data = data[: i or 1]
    return bytes(data)


def mutants(seed: int, count: int) -> Iterator[tuple[int, bytes]]:
    """`count` mutated snapshots (index, bytes) from the committed real captures; a quarter
    of the structural ones are of their tools as a list result instead (`_raw`)."""
    rng = random.Random(seed)
    docs = [json.loads(p.read_text()) for p in SEEDS]
    texts = [p.read_text() for p in SEEDS]
    for index in range(count):
        which = rng.randrange(len(docs))
        if rng.random() < 0.7:
            text = _structural(docs[which], rng)
            if index % 4 == 2:  # NOTE: own draws, so the other mutants stay as they were
                text = _structural(_raw(docs[which]), random.Random(f"{seed}:{index}"))
            yield index, text.encode("utf-8", "surrogatepass")
        else:
            yield index, _bytes(texts[which], rng)
