"""Seeded random catalogs for the differential suite (issue 6).

Each catalog mixes clean items with the defects the real clients were measured on (non-object
or missing inputSchema, priorities `0.5`/`1.0`/`1`/`2`, a resource without uri, forbidden
description substrings, odd tool names, deep schemas, long descriptions, CSV resources,
`..` in URIs, `{+path}` templates, a prompt named `git:commit`), in random order and number,
so interactions the scenario matrix does not spell out (two defects in one list, a defect
after a clean item, a defect in one list and none in another) are checked too. The same seed
gives the same files, byte for byte.

`CATALOGAUDIT_ORACLE_RANDOM` sets how many catalogs the differential suite drives (default 8;
the refresh script may ask for more), `CATALOGAUDIT_ORACLE_SEED` the first seed (default fixed,
so CI is repeatable; a failure names the seed so it can be replayed).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from helpers import cli

DEFAULT_SEED = 20261130
COUNT = int(os.environ.get("CATALOGAUDIT_ORACLE_RANDOM", "8"))
SEED = int(os.environ.get("CATALOGAUDIT_ORACLE_SEED", str(DEFAULT_SEED)))

_WORDS = ("read", "write", "list", "sync", "fetch", "build", "scan", "echo", "plan", "grep")
_BAD_PROSE = ("; then ", " && ", " || ", " | ", " $(date) ", " `x` ", " a > b ", " <b> ")


def _schema(rng: random.Random) -> dict[str, Any] | None:
    """A tool's inputSchema: usually a plain object, sometimes a measured defect."""
    roll = rng.random()
    if roll < 0.12:
        return {"type": "array"}
    if roll < 0.22:
        return None  # no inputSchema at all
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {w: {"type": "string"} for w in rng.sample(_WORDS, rng.randint(0, 3))},
    }
    if roll < 0.32:
        deep: dict[str, Any] = {"type": "string"}
        for _ in range(rng.choice((6, 16))):
            deep = {"type": "object", "properties": {"n": deep}}
        schema["properties"]["nested"] = deep
    return schema


def _description(rng: random.Random) -> str | None:
    roll = rng.random()
    if roll < 0.1:
        return None
    text = f"{rng.choice(_WORDS).capitalize()} the {rng.choice(_WORDS)} data"
    if roll < 0.35:
        text += rng.choice(_BAD_PROSE) + rng.choice(_WORDS)  # each carries its own spaces
    elif roll < 0.42:
        text += " " + "x" * rng.choice((3000, 5000))
    return text


def _tool_name(rng: random.Random, n: int) -> str:
    base = f"{rng.choice(_WORDS)}_{n}"
    roll = rng.random()
    if roll < 0.08:
        return f"ns.{base}"
    if roll < 0.14:
        return f"ns/{base}"
    if roll < 0.19:
        return f"_{base}"
    if roll < 0.23:
        return f"{n}{base}"
    if roll < 0.27:
        return base + "_" + "y" * rng.choice((60, 130))
    return base


def _tools(rng: random.Random) -> list[dict[str, Any]]:
    tools = []
    for n in range(rng.randint(1, 5)):
        tool: dict[str, Any] = {"name": _tool_name(rng, n)}
        description = _description(rng)
        if description is not None:
            tool["description"] = description
        schema = _schema(rng)
        if schema is not None:
            tool["inputSchema"] = schema
        tools.append(tool)
    return tools


def _resources(rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for n in range(rng.randint(0, 4)):
        name = f"{rng.choice(_WORDS)}-{n}"
        item: dict[str, Any] = {"name": name}
        roll = rng.random()
        if roll < 0.1:
            pass  # no uri
        elif roll < 0.16:
            item["uri"] = f"note:a/../{name}"
        else:
            item["uri"] = f"file:///data/{name}"
        if rng.random() < 0.5:
            item["mimeType"] = rng.choice(("text/plain", "text/plain", "text/csv"))
        if rng.random() < 0.5:
            item["annotations"] = {"priority": rng.choice((0.5, 1.0, 1, 0, 2))}
        out.append(item)
    return out


def _prompts(rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for n in range(rng.randint(0, 3)):
        name = "git:commit" if rng.random() < 0.15 else f"{rng.choice(_WORDS)}_prompt_{n}"
        out.append({"name": name, "description": f"Prompt {n}"})
    return out


def _templates(rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for n in range(rng.randint(0, 2)):
        template = "file:///{+path}" if rng.random() < 0.25 else f"file:///t{n}/{{name}}"
        out.append({"uriTemplate": template, "name": f"template-{n}"})
    return out


def catalog(seed: int) -> dict[str, list[dict[str, Any]]]:
    """One random catalog: always a tool list (every measured client reads one), the others
    present or absent at random."""
    rng = random.Random(seed)
    out: dict[str, list[dict[str, Any]]] = {"tools": _tools(rng)}
    if rng.random() < 0.7:
        out["resources"] = _resources(rng)
    if rng.random() < 0.5:
        out["prompts"] = _prompts(rng)
    if rng.random() < 0.4:
        out["resourceTemplates"] = _templates(rng)
    return out


def write(seed: int, directory: Path) -> list[Path]:
    """The catalog's list results as raw JSON files, one per listing (for `snapshot --from`)."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for listing, items in catalog(seed).items():
        path = directory / f"{listing}.json"
        path.write_text(json.dumps({listing: items}) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def snapshots(base: Path) -> list[Path]:
    """COUNT catalogs from SEED as snapshots `random-<seed>.json`, made by `snapshot --from`."""
    out = []
    for seed in range(SEED, SEED + COUNT):
        inputs = write(seed, base / f"random-{seed}")
        path = base / f"random-{seed}.json"
        made = cli("snapshot", *[a for f in inputs for a in ("--from", str(f))], "-o", str(path))
        assert made.code == 0, str(made)
        out.append(path)
    return out
