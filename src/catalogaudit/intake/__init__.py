"""Intake: every catalog input becomes one snapshot document, the same way for every verb.

Inputs are a snapshot file, a raw list result (`{"tools": [...]}`), a JSON-RPC response line,
a JSON-Lines capture of several, `-` for stdin, or `git:REF:PATH` (`loader`). A snapshot's
`wire` section is what was served: where its readable items disagree, the wire copy is used
and `Intake.warnings` says so (`snapshots.rehash.resolve_wire`); other inputs are built into a
static snapshot (`static.merge` + `snapshots.build`). Nothing is printed here: the verb prints
`notes` and `warnings`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from catalogaudit._faces import lazy
from catalogaudit.canonical import gc_paused
from catalogaudit.errors import InputError, UsageError
from catalogaudit.intake import loader
from catalogaudit.intake.loader import (
    Loaded,
    display_name,
    display_names,
    input_name,
    is_fleet,
    is_server_json,
    read_bytes,
)

if TYPE_CHECKING:  # NOTE: only for types; `snapshots.build` is imported where used
    from catalogaudit.intake.clients import read_fleet
    from catalogaudit.intake.registry import entries as server_json_entries


@dataclass(frozen=True)
class Intake:
    """One catalog as read: its snapshot document and what to tell the user about it."""

    #: The input as given (a path, `-` or `git:REF:PATH`), and its name in messages.
    spec: str
    name: str
    #: snapshot | list-result | jsonrpc-response | jsonl | merged (several inputs in one)
    form: str
    #: The snapshot document: the wire copy where a snapshot's readable items disagree.
    doc: dict[str, Any]
    #: The bytes read (empty for merged inputs) and, for a snapshot file whose `doc` is its
    #: parse (no listing rebuilt from the wire), its decoded text (line and column of findings).
    data: bytes = b""
    text: str | None = None
    #: What the loader inferred about each non-snapshot input: (input name, note).
    inferred: tuple[tuple[str, str], ...] = ()
    #: With `rehash=True`: snapshot listings without a wire section rehashed since recorded.
    notes: tuple[str, ...] = ()
    #: Complete stderr lines (`warning: ...`) every verb prints the same way.
    warnings: tuple[str, ...] = ()
    #: With `rehash=True`: the CA544 findings the snapshot did not carry yet.
    added: tuple[dict[str, Any], ...] = ()

    @property
    def said(self) -> tuple[str, ...]:
        """The lines to print on stderr besides the warnings: the inferences, named, then
        the notes."""
        return (*(f"{name}: {note}" for name, note in self.inferred), *self.notes)

    @property
    def is_snapshot(self) -> bool:
        """Whether the input was a catalogaudit snapshot (not built from a raw result)."""
        return self.form == "snapshot"


def read_catalog(
    spec: str,
    *,
    protocol: str = "auto",
    rehash: bool = False,
    data: bytes | None = None,
    lean: bool = False,
    raw: bool = True,
) -> Intake:
    """Read one input into one snapshot document.

    `protocol` is the revision of inputs that do not say it (not snapshots). `rehash=True`
    (canonicalize, hash) rebuilds every listing and recomputes every hash of a snapshot;
    otherwise only listings whose readable items differ from the wire are rebuilt. `data`:
    the input's bytes, when the caller has read them already (stdin can be read once). `lean`:
    the intake keeps neither the bytes nor the text (several times the file as a Python
    string), let go once parsed, for a caller that needs only the document (`diff`); and a
    written-form snapshot's run-1 wire page texts may be UTF-8 bytes (`diffing.sides` packs them
    so anyway; not with `rehash`). `raw=False`: the intake keeps no bytes (`Intake.data`);
    read here, they are let go before the parse.
    """
    with gc_paused():  # parsed JSON holds no cycles; the cyclic GC would only cost time
        loaded = lean and data is None and loader.parse_mapped_snapshot(spec, packed=not rehash)
        if not loaded and not lean and not raw and data is None:
            loaded = loader.parse(spec)
        if not loaded:
            data = loader.read_bytes(spec) if data is None else data
            written = lean and loader.parse_written_snapshot(spec, data, packed=not rehash)
            loaded = written or loader.parse(spec, data)
        if lean:
            # NOTE: the caller's name for the bytes lives on; ours goes before the wire check
            data, loaded.text = b"", None
        return _intake(spec, data or b"", loaded, protocol, rehash)


def read_catalogs(
    specs: Sequence[str], *, protocol: str = "auto", hashed: bool = True, raw: bool = True
) -> Iterator[Intake]:
    """What `audit` reads: each snapshot file on its own, every other input (one per listing)
    merged into one static snapshot, last; each input is read once (stdin can be read once).
    `raw=False`: no input keeps its bytes (`Intake.data`: the audit needs them for one raw
    input's regions only); they are let go before the parse. `hashed=False`: the merged
    snapshot has no hashes (`snapshots.build`; a plain audit) and no wire copy: no rule reads
    the page texts of one capture (only `--runs` captures', which are snapshots), and they are
    each input's whole text, as big as its parse in memory.
    Each snapshot is yielded as soon as it is read, so a caller that drops it before the next
    holds one file, not all (500 files: 2.8 GiB)."""
    if sum(1 for s in specs if s == "-") > 1:
        raise UsageError("- (stdin) can be given once")
    others: list[tuple[str, Loaded]] = []
    first_raw = b""  # one raw list keeps its bytes (its findings' regions); more merge
    for spec in specs:
        got, loaded, data = _read(spec, protocol, raw and not others, hashed)
        if got is not None:
            yield got
        else:
            first_raw = data if not others else first_raw
            others.append((spec, loaded))
        del got, loaded, data
    if others:
        with gc_paused():
            merged = _merged(others, protocol, hashed, hashed)
        if len(others) == 1:
            merged = replace(merged, data=first_raw)
        del others  # NOTE: their texts, while the caller audits what is yielded
        yield merged


def read_snapshot(spec: str, *, protocol: str = "auto") -> Intake | None:
    """One input as `read_catalogs` reads it when it is a snapshot file; None when it is not
    (a raw input, which `read_catalogs` merges with the others: `verbs.files`). Its bytes are
    not kept (`read_catalogs(raw=False)`)."""
    return _read(spec, protocol, False)[0]


def _read(
    spec: str, protocol: str, keep: bool = True, texts: bool = True
) -> tuple[Intake | None, Loaded, bytes]:
    """One input read and parsed: its intake when it is a snapshot, and what was read (`keep`:
    the bytes too, else let go before the parse; `texts`: see `loader.parse`)."""
    with gc_paused():
        data = loader.read_bytes(spec) if keep else b""
        loaded = loader.parse(spec, data if keep else None, texts=texts)
        if loaded.snapshot is None:
            return None, loaded, data
        return _intake(spec, data, loaded, protocol, False), loaded, data


def read_merged(
    specs: Sequence[str],
    *,
    protocol: str = "auto",
    wire: bool = True,
) -> Intake:
    """Several inputs (one per listing, e.g. `snapshot --from` a tools and a prompts result)
    merged into one static snapshot document."""
    if sum(1 for s in specs if s == "-") > 1:
        raise UsageError("- (stdin) can be given once")
    with gc_paused():
        loaded = [(spec, loader.parse(spec)) for spec in specs]
        return _merged(loaded, protocol, wire)


def _merged(
    loaded: Sequence[tuple[str, Loaded]],
    protocol: str,
    wire: bool,
    hashed: bool = True,
) -> Intake:
    # NOTE: imported here, not at the top: `hash` of a list result (`canonical.quick`) and
    # `canonicalize --jcs` read bytes through this package and build no snapshot (nor parse a
    # protocol: `model.protocol` loads the findings vocabulary).
    from catalogaudit.intake import static
    from catalogaudit.model import parse_protocol
    from catalogaudit.snapshots import build_snapshot

    for _, item in loaded:
        _refuse_invalid(item)
    capture = static.merge(loaded, parse_protocol(protocol), wire)
    doc = build_snapshot(capture, wire=wire, hashed=hashed)
    inferred = tuple((item.name, note) for _, item in loaded for note in item.inferred)
    names = ", ".join(display_name(s) for s, _ in loaded)
    return Intake(names, names, "merged", doc, inferred=inferred)


def _intake(spec: str, data: bytes, loaded: Loaded, protocol: str, rehash: bool) -> Intake:
    from catalogaudit.snapshots import rehash_snapshot, resolve_wire  # NOTE: lazy, as in `_merged`

    if loaded.snapshot is None:
        merged = _merged([(spec, loaded)], protocol, wire=True)
        return replace(merged, spec=spec, name=loaded.name, form=loaded.form, data=data)
    _refuse_invalid(loaded)
    if rehash:
        done = rehash_snapshot(loaded.snapshot, loaded.name)
        return Intake(
            spec,
            loaded.name,
            "snapshot",
            done.doc,
            data,
            None,  # NOTE: a rehashed document is not the text's parse (see `text`)
            warnings=tuple(done.warnings),
            notes=tuple(done.notes),
            added=tuple(done.added),
        )
    doc, warnings = resolve_wire(loaded.snapshot, loaded.name)
    text = loaded.text if doc is loaded.snapshot else None  # rebuilt: not the text's parse
    return Intake(spec, loaded.name, "snapshot", doc, data, text, warnings=tuple(warnings))


def _refuse_invalid(loaded: Loaded) -> None:
    """A snapshot input is validated here, once, so no verb (nor `snapshot --from`) meets a
    document its code assumes is valid (a mutated file would otherwise reach it: issue 15
    counted 26 distinct internal errors)."""
    from catalogaudit.snapshots import validate

    if loaded.snapshot is None:
        return
    problems = validate(_as_text(loaded.snapshot))
    if problems:
        # NOTE: checked again with the texts decoded, so a message that quotes them is exact
        problems = validate(_as_text(loaded.snapshot, decoded=True))
        raise InputError(f"{loaded.name}: not a valid catalogaudit snapshot: {problems[0]}")


def _as_text(doc: dict[str, Any], *, decoded: bool = False) -> dict[str, Any]:
    """`doc` as the schema sees it: a packed wire page text (UTF-8 bytes, `lean`) is a string.
    The schema asks nothing of a page text but its type, so an empty one stands in, unless
    `decoded` (a message quoting a containing value then quotes the text)."""
    wire = doc.get("wire")
    pages = wire.get("pages") if isinstance(wire, dict) else None
    if not isinstance(wire, dict) or not isinstance(pages, dict):
        return doc

    def text(t: Any) -> Any:
        if not isinstance(t, bytes):
            return t
        return t.decode("utf-8", "surrogatepass") if decoded else ""

    unpacked = {k: [text(t) for t in v] if isinstance(v, list) else v for k, v in pages.items()}
    return {**doc, "wire": {**wire, "pages": unpacked}}


#: The servers of a client configuration or registry `server.json`, and each registry
#: server.json in a document with its JSON Pointer: loaded on first use (`_faces.lazy`).
__getattr__ = lazy(globals(), {"clients": "read_fleet", "registry": "server_json_entries=entries"})

__all__ = [
    "Intake",
    "display_name",
    "display_names",
    "input_name",
    "is_fleet",
    "is_server_json",
    "read_bytes",
    "read_catalog",
    "read_catalogs",
    "read_fleet",
    "read_merged",
    "read_snapshot",
    "server_json_entries",
]
