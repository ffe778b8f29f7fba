"""`intake.read_catalog(lean=True)` (what `diff` and `stability` read: run-1 wire page texts as
UTF-8 bytes, compared with the readable items one item at a time) resolves a snapshot exactly
as the plain read does: the same listings, hashes and warnings, hand-edited or not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import fixture

from catalogaudit import intake
from catalogaudit.model import jsonwrite


def _unpacked(doc: dict[str, Any]) -> dict[str, Any]:
    wire = doc.get("wire")
    if not isinstance(wire, dict) or not isinstance(wire.get("pages"), dict):
        return doc
    pages = {
        k: [t.decode("utf-8", "surrogatepass") if isinstance(t, bytes) else t for t in v]
        for k, v in wire["pages"].items()
    }
    return {**doc, "wire": {**wire, "pages": pages}}


def _snapshots() -> list[Path]:
    found = sorted(fixture().glob("**/*.json"))
    return [p for p in found if all(k in p.read_bytes() for k in (b'"formatVersion"', b'"wire"'))]


def _edits(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The snapshot as written, its first item hand-edited, its page fields edited."""
    out = [doc]
    for lname, rec in doc["listings"].items():
        if rec.get("items"):
            item = {**rec["items"][0], "description": "edited by hand"}
            items = [item, *rec["items"][1:]]
            out.append({**doc, "listings": {**doc["listings"], lname: {**rec, "items": items}}})
            pages = [{**rec["pages"][0], "fields": {"nextCursor": "x"}}, *rec["pages"][1:]]
            out.append({**doc, "listings": {**doc["listings"], lname: {**rec, "pages": pages}}})
            break
    return out


@pytest.mark.parametrize("path", _snapshots(), ids=lambda p: p.name)
def test_a_lean_read_resolves_the_wire_as_the_plain_read(path: Path, tmp_path: Path) -> None:
    doc = intake.read_catalog(str(path)).doc
    for n, edited in enumerate(_edits(doc)):
        written = tmp_path / f"{n}.json"
        written.write_text(jsonwrite.written(edited), encoding="utf-8")
        plain = intake.read_catalog(str(written))
        lean = intake.read_catalog(str(written), lean=True)
        assert lean.warnings == plain.warnings
        assert (n > 0) == bool(plain.warnings), "an edit is found"
        assert jsonwrite.written(_unpacked(lean.doc)) == jsonwrite.written(plain.doc)
        pages = (lean.doc.get("wire") or {}).get("pages") or {}
        assert all(isinstance(t, bytes) for v in pages.values() for t in v if t is not None)


def test_a_mapped_snapshot_parses_as_its_bytes_do(tmp_path: Path) -> None:
    from catalogaudit.intake import loader

    seen = 0
    for path in _snapshots():
        data = path.read_bytes()
        want = loader.parse_written_snapshot(str(path), data, packed=True)
        got = loader.parse_mapped_snapshot(str(path), packed=True)
        assert (got is None) == (want is None), path
        if got is not None and want is not None:
            assert jsonwrite.written(_unpacked(got.snapshot or {})) == jsonwrite.written(
                _unpacked(want.snapshot or {})
            )
            assert (got.name, got.form, got.inferred) == (want.name, want.form, want.inferred)
            seen += 1
    assert seen > 5
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    other = tmp_path / "other.json"
    other.write_text('{"formatVersion": 1, "listings": {}}')  # not the written form
    for spec in ("-", "git:HEAD:x.json", str(tmp_path / "missing.json"), str(empty), str(other)):
        assert loader.parse_mapped_snapshot(spec, packed=True) is None, spec
    assert loader.parse_mapped_snapshot(str(tmp_path)) is None  # a directory
