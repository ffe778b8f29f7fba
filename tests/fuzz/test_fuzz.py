"""Issue 15 item 10: a bounded fuzz job (a few minutes in `.ci/run`), seeded with the committed
real snapshots (fixtures/captures/): the intake and every verb that reads catalogs, the prose
walker, the substitution parser and `serve`'s request parser. The long run is
scripts/fuzz_catalogs.py (README, "Fuzzing"); a crash it finds becomes a
case below (test_found_crashes) before it is fixed.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from fuzz_mutate import HOSTILE_STRINGS, HOSTILE_VALUES, SEEDS, mutants
from fuzz_run import fuzz, verbs

#: Mutants per run of the bounded job (each through 11 verbs, in process): about a minute.
COUNT = int(os.environ.get("CATALOGAUDIT_FUZZ_COUNT", "60"))
SEED = int(os.environ.get("CATALOGAUDIT_FUZZ_SEED", "20261201"))


@pytest.mark.fuzz
def test_mutated_snapshots_through_every_verb(request: pytest.FixtureRequest) -> None:
    if not request.config.getoption("markexpr") and os.environ.get("CATALOGAUDIT_FUZZ") != "1":
        pytest.skip("the bounded fuzz job: `pytest -m fuzz tests/fuzz` (a .ci/run step)")
    got = fuzz(SEED, COUNT)
    assert got.runs == COUNT * len(verbs("", ""))
    assert not got.crashes, "\n".join(got.crashes[:10])


#: Seeds and indexes of crashes the fuzzer found, each fixed (issue 15): mutated snapshots whose
#: capture block had an unknown key reached `rewrite`, which said "internal error: the
#: rewritten snapshot is invalid" (now refused at the intake, one line).
FOUND = [(1, 3), (1, 13)]


@pytest.mark.parametrize(("seed", "index"), FOUND)
def test_found_crashes(seed: int, index: int) -> None:
    got = fuzz(seed, index + 1)
    assert not got.crashes, "\n".join(got.crashes)


def _random_json(rng: random.Random, depth: int = 0) -> object:
    pick = rng.randrange(8 if depth < 6 else 3)
    if pick == 0:
        return rng.choice(HOSTILE_VALUES)
    if pick in (1, 2):
        return rng.choice(HOSTILE_STRINGS)
    if pick in (3, 4):
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ("type", "properties", "items", "description", "anyOf", "$ref", "enum", "name", "x")
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def test_walker_takes_any_json() -> None:
    from catalogaudit.walker import visits

    rng = random.Random(SEED)
    items = [json.loads(p.read_text())["listings"] for p in SEEDS]
    for _ in range(2000):
        listing = rng.choice(("tools", "prompts", "resources", "resourceTemplates"))
        item = _random_json(rng)
        if rng.random() < 0.5:
            real = rng.choice(items)[listing].get("items") or [{}]
            item = dict(rng.choice(real), **{rng.choice(("inputSchema", "arguments")): item})
        visits(listing, item)


def test_substitution_parser_raises_only_usage_errors() -> None:
    from catalogaudit.errors import UsageError
    from catalogaudit.rewriting.substitutions import apply, parse

    rng = random.Random(SEED)
    alphabet = "ab=,\\\\u{}0x \t\ud800\u202e\x1b;:=="
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        try:
            subs = parse(text)
        except UsageError:
            continue
        apply(subs, rng.choice(HOSTILE_STRINGS) + text)


def test_serve_request_parser_answers_anything() -> None:
    from catalogaudit import intake
    from catalogaudit.serve.replay import Replay, ServeOptions
    from catalogaudit.serve.stdio import parse_line

    replay = Replay(intake.read_catalog(str(SEEDS[0])).doc, ServeOptions(str(SEEDS[0])))
    rng = random.Random(SEED)
    methods = ("initialize", "tools/list", "server/discover", "ping", "prompts/list", "x")
    for index, data in mutants(SEED, 300):
        line = data[: rng.randrange(1, 400)]
        if index % 2:
            msg = {"jsonrpc": "2.0", "id": _random_json(rng), "method": rng.choice(methods)}
            if rng.random() < 0.7:
                msg["params"] = _random_json(rng)
            line = json.dumps(msg, ensure_ascii=False).encode("utf-8", "surrogatepass")
        msg, problem = parse_line(line)
        if problem is None and not isinstance(msg, list):
            replay.answer(msg)
