"""`canonicalize` and `hash`: any catalog input to the one written form, with its hashes recomputed.

Why: the pre-commit hook keeps committed snapshots in the form `snapshot` writes, so a file that
another tool reformatted, or whose readable copy was edited by hand, must show up as a diff
instead of carrying stale hashes. When a snapshot has its `wire` section, that section is what
was served: the readable items, pages and all three hashes are rebuilt from it. Without it,
served key order is lost (see `snapshot.WIRE_LOST`), so canonical hashes are recomputed and the
served-order hashes (served, prompt, pageFields) are kept for items whose meaning did not change.
"""

from __future__ import annotations

import difflib
import io
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from catalogaudit.canonical import hashes
from catalogaudit.canonical import jcs as canonical
from catalogaudit.errors import InputError
from catalogaudit.intake import loader
from catalogaudit.model import jsonwire, names
from catalogaudit.model.findings import EXIT_FINDINGS, EXIT_OK
from catalogaudit.snapshot import build as snap

_DERIVED = ("items", "servedPositions", "itemHashes", "hashes", "pages")


@dataclass(frozen=True)
class Result:
    """One input in written form: what was read, what it becomes, and what to tell the user."""

    name: str
    original: bytes
    text: str
    doc: dict[str, Any]
    notes: tuple[str, ...] = ()
    #: CA544 findings this run added (an input that was not a snapshot: all of them).
    precision: tuple[str, ...] = ()
    snapshot: bool = True

    @property
    def changed(self) -> bool:
        """True when the written form differs from the bytes read."""
        return self.original != self.text.encode("utf-8")

    def diff(self) -> str:
        """A unified diff from the bytes read to the written form."""
        old = self.original.decode("utf-8", "surrogateescape").splitlines(keepends=True)
        new = self.text.splitlines(keepends=True)
        lines = difflib.unified_diff(old, new, self.name, f"{self.name} (canonical)")
        # NOTE: as GNU diff does, so a file without a final newline still diffs line by line.
        eof = "\n\\ No newline at end of file\n"
        return "".join(ln if ln.endswith("\n") else ln + eof for ln in lines)


def canonicalize(spec: str, protocol: str = "auto") -> Result:
    """Any input the loader reads, in the written form `snapshot` writes."""
    from catalogaudit.intake import static
    from catalogaudit.model.protocol import parse_protocol

    data, loaded = _load(spec)
    if loaded.snapshot is not None:
        doc, notes, added = rehash(loaded.snapshot, loaded.name)
    else:
        doc = snap.build(static.merge([(spec, loaded)], parse_protocol(protocol)))
        notes, added = [f"{loaded.name}: {note}" for note in loaded.inferred], doc["findings"]
    text = snap.render(doc)
    _validate(loaded.name, text)
    precision = precision_notes(loaded.name, added)
    return Result(
        loaded.name, data, text, doc, tuple(notes), precision, loaded.snapshot is not None
    )


def _load(spec: str) -> tuple[bytes, loader.Loaded]:
    if spec != "-":
        return loader.read_bytes(spec), loader.load(spec)
    data = loader.read_bytes(spec)
    with _stdin(data):  # NOTE: stdin can be read once; the loader reads it again from here
        return data, loader.load(spec)


@contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        yield
    finally:
        sys.stdin = saved


def _validate(name: str, text: str) -> None:
    import json

    import jsonschema  # lazy: heavy

    validator = jsonschema.Draft202012Validator(snap.snapshot_schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(json.loads(text)))
    if error is not None:
        where = "/" + "/".join(jsonwire.escape_pointer(str(p)) for p in error.absolute_path)
        raise InputError(f"{name}: not a valid catalogaudit snapshot: {where}: {error.message}")


def precision_notes(name: str, findings: Sequence[Any]) -> tuple[str, ...]:
    """One stderr line per CA544 finding: integers the canonical hash sees as IEEE doubles."""
    return tuple(
        f"{name}: warning: CA544 {f.get('message')}"
        for f in findings
        if isinstance(f, dict) and f.get("ruleId") == "CA544"
    )


# --- a snapshot: rebuild from wire, or rehash the readable copy --------------------------------


@dataclass(frozen=True)
class _Page:
    fields: dict[str, Any]
    items: list[Any]
    result: Any


def rehash(
    doc: dict[str, Any], name: str
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """A snapshot with listings and hashes recomputed; notes; the CA544 findings it lacked."""
    listings = doc.get("listings")
    findings = doc.get("findings", [])
    if not isinstance(listings, dict) or not isinstance(findings, list):
        raise InputError(f"{name}: not a valid catalogaudit snapshot: no listings or findings")
    wire: dict[str, Any] = doc["wire"] if isinstance(doc.get("wire"), dict) else {}
    wire_pages: dict[str, Any] = wire["pages"] if isinstance(wire.get("pages"), dict) else {}
    out: dict[str, Any] = {}
    notes: list[str] = []
    added: list[dict[str, Any]] = []
    known = {jsonwire.canonical(f) for f in findings}
    for lname in names.LISTINGS:
        rec = listings.get(lname)
        where = f"{name}: listings.{lname}"
        if not isinstance(rec, dict):
            raise InputError(f"{where} is missing")
        if rec.get("status") == "absent" and "items" not in rec:
            out[lname] = rec
            continue
        texts = wire_pages.get(lname)
        if isinstance(texts, list) and texts and all(isinstance(t, str) for t in texts):
            pages = [_wire_page(f"{where}: wire page {i}", lname, t) for i, t in enumerate(texts)]
            out[lname], _ = _record(lname, rec, pages, None)
            if rec.get("items") != out[lname]["items"]:
                notes.append(f"{where}: the readable items differ from the wire section; rebuilt")
        else:
            pages, recorded = _readable_pages(where, lname, rec)
            out[lname], stale = _record(lname, rec, pages, recorded)
            if stale and any(recorded):
                notes.append(
                    f"{where}: {stale} item(s) changed since hashed; without a wire section their "
                    "served and prompt hashes use the file's key order"
                )
        added.extend(_unsafe_integers(lname, pages, known))
    result = {**doc, "listings": out, "findings": findings + added}
    capture: dict[str, Any] = doc["capture"] if isinstance(doc.get("capture"), dict) else {}
    result["hashes"] = snap.catalog_hashes(out, capture.get("instructions"))
    return result, notes, added


def _wire_page(where: str, lname: str, text: str) -> _Page:
    try:
        result = jsonwire.loads(text)
    except jsonwire.WireDecodeError as exc:
        raise InputError(f"{where} is not JSON ({exc})") from None
    if not isinstance(result, dict):  # as the wire client records it (CA537)
        return _Page({}, [], result)
    items = result.get(lname)
    fields = {k: v for k, v in result.items() if k != lname}
    return _Page(fields, items if isinstance(items, list) else [], result)


def _readable_pages(where: str, lname: str, rec: dict[str, Any]) -> tuple[list[_Page], list[Any]]:
    """Pages in served order from the readable copy, and the recorded item hashes by position."""
    items = rec.get("items", [])
    positions = rec.get("servedPositions", list(range(len(items))))
    ints = [p for p in positions if isinstance(p, int)] if isinstance(positions, list) else []
    if not isinstance(items, list) or sorted(ints) != list(range(len(items))):
        raise InputError(
            f"{where}: servedPositions does not match the items "
            "(re-snapshot, or give each item its served position)"
        )
    served: list[Any] = [None] * len(items)
    recorded: list[Any] = [None] * len(items)
    old = rec.get("itemHashes")
    for i, pos in enumerate(positions):
        served[pos] = items[i]
        if isinstance(old, list) and len(old) == len(items):
            recorded[pos] = old[i]
    meta = rec.get("pages", [{"items": len(items), "fields": {}}])
    counts: list[int] = []
    if isinstance(meta, list) and all(isinstance(p, dict) for p in meta):
        counts = [p["items"] for p in meta if isinstance(p.get("items"), int)]
    if len(counts) != len(meta) or sum(counts) != len(items):
        raise InputError(f"{where}: the page item counts do not add up to {len(items)} items")
    pages: list[_Page] = []
    start = 0
    for page, count in zip(meta, counts, strict=True):
        fields = page["fields"] if isinstance(page.get("fields"), dict) else {}
        chunk = served[start : start + count]
        pages.append(_Page(fields, chunk, {**fields, lname: chunk}))
        start += count
    return pages, recorded


def _record(
    lname: str, rec: dict[str, Any], pages: list[_Page], recorded: list[Any] | None
) -> tuple[dict[str, Any], int]:
    """A listing record as `snapshot.items_record` writes it, and how many items were rehashed.

    With `recorded` (no wire section), an item keeps its recorded served and prompt hashes
    while its canonical hash still matches: they cover served key order, which is lost.
    """
    served = [item for page in pages for item in page.items]
    per_item: list[hashes.ItemHashes] = []
    for i, item in enumerate(served):
        old = recorded[i] if recorded is not None else None
        if isinstance(old, dict) and old.get("canonical") == canonical.jcs_hash(item):
            kept_served, kept_prompt = old.get("served"), old.get("prompt")
            if isinstance(kept_served, str) and isinstance(kept_prompt, str):
                per_item.append(hashes.ItemHashes(kept_served, kept_prompt, old["canonical"]))
                continue
        per_item.append(hashes.item_hashes(lname, item))
    rehashed = len(served) - sum(
        1 for i, h in enumerate(per_item) if recorded and recorded[i] == h.as_dict()
    )
    order = sorted(
        range(len(served)),
        key=lambda i: names.identity_sort_key(names.identity(lname, served[i]), i),
    )
    by_identity = sorted(
        names.identity_sort_key(names.identity(lname, item), h.canonical)
        for item, h in zip(served, per_item, strict=True)
    )
    page_fields = hashes.page_fields_hash([p.fields for p in pages])
    old_fields = (rec.get("hashes") or {}).get("pageFields") if recorded is not None else None
    listing = {
        "served": hashes.combine(h.served for h in per_item),
        "prompt": hashes.combine(h.prompt for h in per_item),
        "canonical": hashes.combine(key[2] for key in by_identity),
        # NOTE: page fields are hashed in served key order, lost without the wire section.
        "pageFields": old_fields if isinstance(old_fields, str) else page_fields,
    }
    record = {k: v for k, v in rec.items() if k not in _DERIVED}
    record.update(
        items=[served[i] for i in order],
        servedPositions=order,
        itemHashes=[per_item[i].as_dict() for i in order],
        hashes=listing,
        pages=[{"items": len(p.items), "fields": p.fields} for p in pages],
    )
    return record, rehashed


def _unsafe_integers(lname: str, pages: list[_Page], known: set[str]) -> Iterator[dict[str, Any]]:
    """CA544 findings the document does not already carry (e.g. after a hand edit)."""
    from catalogaudit.model.capture import anomaly_finding, unsafe_integers

    for index, page in enumerate(pages):
        for anomaly in unsafe_integers(page.result):
            found = anomaly_finding(lname, anomaly, page.items, index).as_dict()
            if jsonwire.canonical(found) not in known:
                known.add(jsonwire.canonical(found))
                yield found


# --- the verbs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """What `catalogaudit canonicalize` was asked to do."""

    inputs: tuple[str, ...]
    check: bool = False
    in_place: bool = False
    output: str | None = None
    jcs: bool = False
    protocol: str = "auto"


def run(o: Options) -> int:
    """Canonicalize; exit 1 when `--check`/`--in-place` found a file not in written form.

    Option combinations are checked by the command (`commands.canonical.options`).
    """
    if o.jcs:
        spec = o.inputs[0]
        name = "<stdin>" if spec == "-" else spec
        _emit(o.output, canonical.strict_jcs(loader.read_bytes(spec), name))
        return EXIT_OK
    results = [canonicalize(spec, o.protocol) for spec in o.inputs]  # all read before any write
    notes = "".join(f"{note}\n" for r in results for note in (*r.notes, *r.precision))
    err = sys.stderr
    if not (o.check or o.in_place):
        _emit(o.output, results[0].text.encode("utf-8"))
        err.write(notes)
        return EXIT_OK
    err.write(notes)
    changed = [r for r in results if r.changed]
    for r in changed:
        if o.check:
            sys.stdout.buffer.write(r.diff().encode("utf-8", "surrogateescape"))
            err.write(f"{r.name}: would be rewritten\n")
        else:
            _emit(r.name, r.text.encode("utf-8"))
            err.write(f"{r.name}: rewritten\n")
    sys.stdout.flush()
    return EXIT_FINDINGS if changed else EXIT_OK


def _emit(output: str | None, data: bytes) -> None:
    if output in (None, "-"):
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        snap.write_atomic(output, data.decode("utf-8"))


def hashes_of(spec: str, protocol: str = "auto") -> tuple[dict[str, Any], list[str]]:
    """The hash report of any input (see `hash_report`), and notes for stderr."""
    r = canonicalize(spec, protocol)
    notes = [*r.notes, *precision_notes(r.name, r.doc["findings"])]
    if r.snapshot and r.changed:
        notes.append(
            f"{r.name}: not in written form, so these hashes are recomputed, not the recorded "
            f"ones (catalogaudit canonicalize --in-place {r.name} rewrites it)"
        )
    return hash_report(r), notes


def hash_report(r: Result) -> dict[str, Any]:
    """The hashes of a canonicalized input, items in file (identity) order."""
    listings: dict[str, Any] = {}
    for lname in names.LISTINGS:
        rec = r.doc["listings"][lname]
        entry: dict[str, Any] = {"status": rec["status"]}
        if "hashes" in rec:
            entry["hashes"] = rec["hashes"]
            entry["items"] = [
                {"identity": names.identity(lname, item), "servedPosition": pos, **h}
                for item, pos, h in zip(
                    rec["items"], rec["servedPositions"], rec["itemHashes"], strict=True
                )
            ]
        listings[lname] = entry
    return {"input": r.name, "catalog": r.doc["hashes"], "listings": listings}
