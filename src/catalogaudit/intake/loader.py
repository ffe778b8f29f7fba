"""Static intake: the one loader every command uses to read catalogs from files.

Accepts a snapshot file, a raw list result (`{"tools": [...]}`), a JSON-RPC response line, a
JSON-Lines capture of several, `-` for stdin and `git:REF:PATH`, with the same wire-faithful
parsing as the live client, and says what it inferred.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalogaudit.errors import InputError
from catalogaudit.model import (
    LISTINGS,
    MANIFEST,
    MAX_INPUT,
    Member,
    WireDecodeError,
    WireObject,
    decode_utf8,
    ended,
    has_unsafe_integer,
    loads,
    object_members,
    parse_members,
    parse_written,
    result_note,
)


@dataclass
class StaticPage:
    """One page read from a file: its exact result text and parsed value."""

    #: The page's exact result text, or (`parse(texts=False)`) the file or line holding it.
    text: str
    result: Any
    invalid_utf8: bool
    #: Parsed plain (`jsonwire.raw_decode_plain`): no duplicate key or NaN in it.
    plain: bool = False
    #: False when the text has no digit run that may be an integer beyond 2^53-1
    #: (`model.has_unsafe_integer`, `model.capture.page_anomalies`).
    digits: bool = True


@dataclass
class Loaded:
    """What one input held."""

    name: str
    form: str  # snapshot | list-result | jsonrpc-response | jsonl
    snapshot: dict[str, Any] | None = None
    pages: dict[str, list[StaticPage]] = field(default_factory=dict)
    handshake: dict[str, Any] | None = None
    handshake_text: str | None = None
    inferred: list[str] = field(default_factory=list)
    #: The decoded file text of a snapshot, when `snapshot` is its parse (line and column of
    #: findings).
    text: str | None = None


def read_bytes(spec: str) -> bytes:
    """Read `-` (stdin), `git:REF:PATH` (a blob of the current repository) or a file path."""
    if spec == "-":
        data = sys.stdin.buffer.read(MAX_INPUT + 1)
    elif spec.startswith("git:"):
        data = _git_blob(spec)
    else:
        try:
            with open(spec, "rb") as fh:
                # NOTE: sized by the file: `read(MAX_INPUT + 1)` allocates that much first. More
                # than its size: it grew, or is no regular file (a FIFO says 0); the rest is
                # read up to the bound, as before.
                size = min(os.fstat(fh.fileno()).st_size, MAX_INPUT)
                data = fh.read(size + 1)
                if len(data) > size:
                    data += fh.read(MAX_INPUT + 1 - len(data))
        except FileNotFoundError:
            raise InputError(f"{spec}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{spec}: is a directory") from None
        except OSError as exc:
            raise InputError(f"{spec}: {exc.strerror}") from None
    if len(data) > MAX_INPUT:  # NOTE: one check for every source, stdin included
        raise InputError(f"{input_name(spec)}: larger than {MAX_INPUT} bytes")
    return data


def _git_blob(spec: str) -> bytes:
    """The blob at `git:REF:PATH`, read with plumbing that takes no options from the input.

    A ref starting with `-` would be an option to git (`--output=FILE` writes a file), so it
    is refused, and `--end-of-options` makes git read whatever follows as the object name.
    """
    import subprocess  # NOTE: lazy: only git: inputs run git

    ref, sep, path = spec[4:].partition(":")
    if not sep or not ref or not path:
        raise InputError(f"{spec}: expected git:REF:PATH")
    if ref.startswith("-"):
        raise InputError(f"{spec}: a git ref cannot start with '-'")
    try:
        proc = subprocess.run(
            ["git", "cat-file", "blob", "--end-of-options", f"{ref}:{path}"],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
            check=False,
        )
    except FileNotFoundError:
        raise InputError(f"{spec}: git is not installed") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"{spec}: git timed out") from None
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"{spec}: {why[0] if why else 'git cat-file failed'}")
    return proc.stdout


def parse_written_snapshot(spec: str, data: bytes, *, packed: bool = False) -> Loaded | None:
    """`parse` of a snapshot file in the written form, parsed in pieces (`model.pieces`:
    never decoded whole) and without its text; None for anything else (`parse` it).
    `packed`: run 1's wire page texts as UTF-8 bytes (`pieces.parse_written`)."""
    value = parse_written(data, packed=packed)
    return _written(spec, value)


def parse_mapped_snapshot(spec: str, *, packed: bool = False) -> Loaded | None:
    """`parse_written_snapshot` of the file `spec` mapped into memory rather than read, its
    pages let go as the parse passes them; None when `spec` is not a regular file (stdin,
    `git:`, a missing one: `read_bytes` says why) or not a written-form snapshot.

    Why: read, the 29 MB bench snapshot is alive in full until the document it parses to
    (32 MB of items) is built; mapped, the part parsed is dropped (`MADV_DONTNEED`) on the
    way: `diff` peaked 18 MB lower reading its second snapshot.
    """
    import mmap  # NOTE: lazy: only `diff` and `stability` map their inputs
    import os
    import stat

    if spec == "-" or spec.startswith("git:") or not hasattr(mmap, "MADV_DONTNEED"):
        return None
    try:
        with open(spec, "rb") as fh:
            info = os.fstat(fh.fileno())
            if not stat.S_ISREG(info.st_mode) or not 0 < info.st_size <= MAX_INPUT:
                return None
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    released = 0
    page = mmap.PAGESIZE

    def release(offset: int) -> None:
        nonlocal released
        upto = offset - offset % page
        if upto - released >= _RELEASED_AT_ONCE:
            mapped.madvise(mmap.MADV_DONTNEED, released, upto - released)
            released = upto

    try:
        value = parse_written(mapped, packed=packed, release=release)
    finally:
        try:
            mapped.close()
        except BufferError:  # NOTE: a view held by an exception on its way up: unmapped at exit
            pass
    return _written(spec, value)


def _written(spec: str, value: Any, text: str | None = None) -> Loaded | None:
    """A parse as a snapshot input (with the text it is the parse of), or None when it is not
    a snapshot."""
    if not isinstance(value, dict) or "formatVersion" not in value or "listings" not in value:
        return None
    return Loaded(
        input_name(spec),
        "snapshot",
        snapshot=value,
        inferred=["a catalogaudit snapshot"],
        text=text,
    )


#: JSON whitespace.
_JSON_WS = re.compile(r"[ \t\n\r]*")
#: Bytes of a mapped file let go in one `madvise` (a syscall each).
_RELEASED_AT_ONCE = 1 << 20


def parse(spec: str, data: bytes | None = None, *, texts: bool = True) -> Loaded:
    """Classify the bytes read from `spec` (which names the input in messages); without
    `data`, read them (`read_bytes`) and let them go once decoded, before the text is parsed
    (a caller's bytes live as long as it holds them). `texts=False`: no copy of a page's text
    is cut out of the text holding it (`StaticPage.text`), for a caller that keeps no page
    text: each copy beside its JSON Lines line was the peak of reading them."""
    if data is None:
        data = read_bytes(spec)
    # NOTE: asked of the bytes for every page in them, before the text and its parse exist; a
    # snapshot asks nothing of its digits (one not read whole is read as raw input: any).
    like_snapshot = _SNAPSHOT_START.match(data) is not None
    digits = like_snapshot or has_unsafe_integer(data)
    text, bad_utf8 = decode_utf8(data)
    del data
    if text.startswith("\ufeff"):
        text = text[1:]
    name = input_name(spec)
    if not text or text.isspace():  # NOTE: not `strip()`, a copy of the whole text
        raise InputError(f"{name}: empty input")
    whole = _whole_snapshot(spec, text) if like_snapshot else None
    if whole is not None:
        return whole
    duplicates: list[str] = []
    first: tuple[dict[str, Member], int] | None = None
    members: dict[str, Member] | None = None
    try:
        first = object_members(text, duplicates)
        members = ended(text, *first)
    except WireDecodeError as exc:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) <= 1:
            raise InputError(f"{name}: not JSON ({exc})") from None
    if members is None:
        # NOTE: out of the handler, whose traceback holds the text: the lines hold it now,
        # one copy of it, not two
        line1 = _line_one(text, lines[0], first)
        del text
        return _jsonl(name, lines, bad_utf8, digits, line1, texts)
    value = {k: m.value for k, m in members.items()}
    # NOTE: a duplicate top-level key: the document is not the text read member by member
    # (`model.positions.Finder`), so no line and column.
    snapshot = _written(spec, value, None if duplicates else text)
    if snapshot is not None:
        return snapshot
    loaded = Loaded(name, "jsonrpc-response" if "jsonrpc" in value else "list-result")
    _take(loaded, text, members, bad_utf8, 1, digits, texts)
    if not loaded.pages and loaded.handshake is None:
        raise InputError(
            f"{name}: not a snapshot, list result or JSON-RPC response "
            "(no tools, prompts, resources or resourceTemplates array)"
        )
    return loaded


#: How a snapshot file starts: its first key is one of the snapshot's (not a search of the
#: whole file for them, which a big raw result paid for).
_SNAPSHOT_START = re.compile(
    rb"(?:\xef\xbb\xbf)?[ \t\n\r]*\{[ \t\n\r]*"
    rb'"(?:capture|derived|findings|formatVersion|hashes|listings|wire)"'
)


def _whole_snapshot(spec: str, text: str) -> Loaded | None:
    """`parse` of a snapshot file in one scan of the wire decoder (`jsonwire.loads`), not
    member by member with `raw_decode_plain`; None for anything else, or when that scan fails
    (`parse` then says why, as before). The same document: the same decoder, and a duplicate
    top-level key is resolved as `parse_members` does (the last value, in the first one's place).

    Why: `parse_members` parses each member with `raw_decode_plain`, whose verdict (a closure
    around each object and number) a snapshot never uses: a sixth of reading one.
    """
    try:
        value = loads(text)
    except WireDecodeError:
        return None
    if isinstance(value, WireObject):  # a duplicate top-level key: see `parse` (no line and column)
        return _written(spec, dict(value))
    return _written(spec, value, text)


def _line_one(
    text: str, line: str, first: tuple[dict[str, Member], int] | None
) -> dict[str, Member] | None:
    """`parse_members(line)` for the first line of `text`, from the object `text` was found
    to start with, when that object is the whole line (its spans are then the line's); else
    None."""
    if first is None or not text.startswith(line):
        return None
    members, end = first
    return members if end <= len(line) and _JSON_WS.fullmatch(line, end) else None


def _jsonl(
    name: str,
    lines: list[str],
    bad_utf8: bool,
    digits: bool,
    line1: dict[str, Member] | None,
    texts: bool,
) -> Loaded:
    loaded = Loaded(name, "jsonl")
    for number in range(1, len(lines) + 1):
        # NOTE: each line let go once read: a page keeps its result's text or the line, not both
        line, lines[number - 1] = lines[number - 1], ""
        try:
            members = line1 if number == 1 and line1 is not None else parse_members(line)
        except WireDecodeError as exc:
            raise InputError(f"{name}:{number}: not JSON ({exc})") from None
        _take(loaded, line, members, bad_utf8, number, digits, texts)
    if not loaded.pages and loaded.handshake is None:
        raise InputError(f"{name}: no list results in {len(lines)} lines")
    return loaded


def _take(
    loaded: Loaded,
    text: str,
    members: dict[str, Member],
    bad_utf8: bool,
    line: int,
    digits: bool = True,
    texts: bool = True,
) -> None:
    where = f"line {line}" if loaded.form == "jsonl" else "input"
    span: Member | None = None  # NOTE: where the result's text is; None: `text` stripped
    if "jsonrpc" in members or "result" in members or "error" in members or "method" in members:
        skip = "a request or notification" if "method" in members else "an error response"
        if "method" in members or "result" not in members:
            loaded.inferred.append(f"{where}: skipped {skip}")
            return
        span = members["result"]
        result, plain = span.value, span.plain
    else:
        result = {k: m.value for k, m in members.items()}
        plain = all(m.plain for m in members.values())
    if not isinstance(result, dict):
        raise InputError(f"{loaded.name}: {where}: result is not an object")
    arrays = [name for name in LISTINGS if isinstance(result.get(name), list)]
    if len(arrays) > 1:
        raise InputError(f"{loaded.name}: {where}: holds several listings ({', '.join(arrays)})")
    if arrays:
        listing = arrays[0]
        page = _cut(text, span) if texts else text
        loaded.pages.setdefault(listing, []).append(
            StaticPage(page, result, bad_utf8, plain, digits)
        )
        loaded.inferred.append(f"{where}: {result_note(listing)}")
    elif "protocolVersion" in result or "supportedVersions" in result:
        loaded.handshake, loaded.handshake_text = result, _cut(text, span)
        kind = "an initialize" if "protocolVersion" in result else "a server/discover"
        loaded.inferred.append(f"{where}: {kind} result")
    else:
        loaded.inferred.append(f"{where}: skipped a result that is not a listing")


def _cut(text: str, span: Member | None) -> str:
    """A result's text: where `span` says in `text`, or (no span) `text` stripped."""
    return text.strip() if span is None else text[span.start : span.end]


def is_fleet(spec: str) -> bool:
    """Whether `spec` is a directory `snapshot --servers` wrote (`audit DIR`)."""
    return os.path.isdir(spec) and os.path.isfile(os.path.join(spec, MANIFEST))


def is_server_json(spec: str) -> bool:
    """Whether `spec` names a registry server.json (by its file name: `audit server.json`)."""
    name = os.path.basename(spec)
    return name == "server.json" or name.endswith(".server.json")


def input_name(spec: str) -> str:
    """How an input is named in messages and reports (`-` is `<stdin>`)."""
    return "<stdin>" if spec == "-" else spec


def display_name(spec: str) -> str:
    """How an input is named in the snapshot: no absolute paths."""
    if spec == "-" or spec.startswith("git:") or not spec.startswith("/"):
        return spec
    try:
        return str(Path(spec).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return f".../{Path(spec).name}"


def display_names(specs: list[str]) -> list[str]:
    """`display_name` of each input, with as many parent directories as it takes to tell two
    inputs outside the current directory apart (`.../a/catalog.json`, `.../b/catalog.json`)."""
    names = [display_name(s) for s in specs]
    for depth in range(2, 64):
        clashing = {n for n in names if names.count(n) > 1 and n.startswith(".../")}
        if not clashing:
            break
        for i, (spec, name) in enumerate(zip(specs, names, strict=True)):
            if name in clashing:
                parts = Path(spec).resolve().parts[-depth:]
                names[i] = "/".join(("...", *parts)) if len(parts) == depth else spec
    return names
