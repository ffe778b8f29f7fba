"""The lattice (issue 32): deterministic, at least 300 shapes, and each shape is its era's base
with exactly one defect, at the pointer the shape names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from catalogaudit.verify.lattice import ERAS, Shape, base_pages, jsonl, shapes

_ALL = shapes()


def _diffs(a: Any, b: Any, at: str = "") -> Iterator[str]:
    """Pointers where two JSON values differ (a member or element added, removed, changed)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                yield f"{at}/{key}"
            else:
                yield from _diffs(a[key], b[key], f"{at}/{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _diffs(x, y, f"{at}/{n}")
    elif type(a) is not type(b) or a != b:
        yield at


def _parsed(shape: Shape) -> dict[str, list[Any]]:
    # The raw text, parsed: what a client reads (Raw lexemes included).
    return {name: [json.loads(t) for t in texts] for name, texts in shape.texts().items()}


def test_there_are_at_least_300_shapes_with_unique_ids() -> None:
    ids = [s.id for s in _ALL]
    assert len(ids) == len(set(ids))
    assert len([s for s in _ALL if s.era == "legacy"]) >= 300
    assert {s.era for s in _ALL} == set(ERAS)


def test_each_shape_has_exactly_one_defect_at_its_pointer() -> None:
    bases = {era: {n: list(p) for n, p in base_pages(era).items()} for era in ERAS}
    for shape in _ALL:
        if shape.id.startswith("base"):
            assert _parsed(shape) == bases[shape.era]
            continue
        found = list(_diffs(json.loads(json.dumps(bases[shape.era])), _parsed(shape)))
        assert found, f"{shape.id}: no defect"
        stray = [p for p in found if not (p == shape.pointer or p.startswith(shape.pointer + "/"))]
        assert not stray, f"{shape.id}: changes outside {shape.pointer}: {stray}"
        # One defect: every change sits under one item-level field (or one listing's pages).
        assert len({p.split("/")[: len(shape.pointer.split("/"))][-1] for p in found}) == 1


def test_number_lexemes_reach_the_text_as_written() -> None:
    by_id = {s.id: s for s in _ALL}
    text = by_id["resource.annotations.priority/lexeme-1e0"].texts()["resources"][0]
    assert '"priority":1e0' in text
    assert (
        '"priority":1.0'
        in by_id["resource.annotations.priority/lexeme-1.0"].texts()["resources"][0]
    )


def test_the_lattice_is_the_same_in_another_process() -> None:
    """Same ids and bytes whatever the hash seed: ledgers of different runs compare."""
    code = (
        "import hashlib;from catalogaudit.verify.lattice import shapes, jsonl;"
        "print(hashlib.sha256(''.join(s.id+jsonl(s) for s in shapes()).encode()).hexdigest())"
    )
    here = __import__("hashlib").sha256("".join(s.id + jsonl(s) for s in _ALL).encode())
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == here.hexdigest()


def test_a_static_2026_snapshot_is_predicted_as_serve_presents_it() -> None:
    """`serve` answers a 2026-07-28 snapshot that records no legacy answer in 2026-07-28 only,
    so Codex (initialize only) is predicted to fail the whole server, as observed."""
    from catalogaudit.verify.observatory import SERVER, predict_all

    base = [s for s in _ALL if s.id == "base@modern"]
    got = predict_all("codex@0.169.0", base)["base@modern"]
    assert (got.verdict, got.message.split(":")[0]) == (SERVER, "CDX-ERA-001")
    assert predict_all("claude-code@2.1.328", base)["base@modern"].verdict != SERVER


def test_each_batch_is_kept_before_the_next_one_runs() -> None:
    """An interrupted run keeps what it observed: `keep` gets every finished batch."""
    from catalogaudit.verify.base import ListOutcome, Target
    from catalogaudit.verify.observatory import observe_all

    class Dies:
        id = "dies"
        calls = 0

        def run(self, targets: list[Target]) -> list[list[ListOutcome]]:
            Dies.calls += 1
            if Dies.calls > 1:
                raise RuntimeError("interrupted")
            return [[ListOutcome("tools", None, "boom")] for _ in targets]

    kept: dict[str, object] = {}
    chosen = [s for s in _ALL if s.era == "legacy"][:4]
    try:
        observe_all(Dies(), chosen, batch=2, jobs=1, keep=kept.update)  # type: ignore[arg-type]
    except RuntimeError:
        pass
    assert sorted(kept) == sorted(s.id for s in chosen[:2])
