"""The C-speed reading (`canonical.jcs.read_documents`, written by orjson: `canonical.quick`,
`strict_jcs`'s quick path) against the exact decoder and writers: same report, same bytes, same
error, on real servers' pages, alone or as JSON Lines, and on sources written every way JSON
allows (whitespace, needless escapes, number lexemes, duplicate keys, line breaks)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, jcs_of
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.canonical import quick, strict
from catalogaudit.errors import InputError
from catalogaudit.verbs import canonicalize


def full_report(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[str]]:
    """`hash` of the file on the snapshot path (the quick path switched off)."""
    with monkeypatch.context() as m:
        m.setattr(quick, "hash_report", lambda name, data: None)
        return canonicalize.hashes_of(str(path))


def both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    got = quick.hash_report(str(path), path.read_bytes())
    expected = full_report(path, monkeypatch)
    return got, expected


def assert_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The quick report equals the full one when it is given; True when it was."""
    got, (report, notes) = both(path, monkeypatch)
    if got is None:
        return False
    assert got[0] == report
    assert [f"{path}: {note}" for note in got[1]] == notes
    assert canonicalize.hashes_of(str(path)) == (report, notes)  # the verb's own choice
    return True


def real_pages() -> list[tuple[str, str, str]]:
    out = []
    for snap in sorted((FIXTURES / "real-servers").glob("*.snapshot.json")):
        pages = json.loads(snap.read_text())["wire"]["pages"]
        for listing, texts in pages.items():
            if len(texts) == 1:
                out.append((snap.name.removesuffix(".snapshot.json"), listing, texts[0]))
    return out


REAL = real_pages()


@pytest.mark.parametrize(("server", "listing", "text"), REAL, ids=[f"{s}-{n}" for s, n, _ in REAL])
def test_real_pages_give_the_full_report(
    server: str, listing: str, text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / f"{listing}.json"
    path.write_text(text, encoding="utf-8")
    taken = assert_same(path, monkeypatch)
    # NOTE: every real page here is compact SDK output (TypeScript and Python SDKs, with and
    # without page fields such as cacheScope), so each takes the quick path.
    assert taken, f"{server} {listing}: the quick path was not taken"


def test_a_snapshot_that_also_holds_a_listing_key_is_read_as_a_snapshot(tmp_path: Path) -> None:
    """The loader reads it as a snapshot, which the schema refuses (no `tools` member)."""
    snap = json.loads((FIXTURES / "real-servers" / "context7-mcp.snapshot.json").read_text())
    path = tmp_path / "odd.snapshot.json"
    path.write_text(json.dumps({**snap, "tools": [{"name": "x"}]}))
    assert quick.hash_report(str(path), path.read_bytes()) is None
    with pytest.raises(InputError, match="not a valid catalogaudit snapshot"):
        canonicalize.hashes_of(str(path))


@pytest.mark.parametrize("constant", ["NaN", "-Infinity"])
def test_a_non_finite_constant_takes_the_full_path(constant: str, tmp_path: Path) -> None:
    """The C scanner refuses NaN and Infinity (`jcs._refuse`): orjson would write them null."""
    path = tmp_path / "catalog.json"
    path.write_text('{"tools":[{"name":"a","x":' + constant + "}]}")
    assert quick.hash_report(str(path), path.read_bytes()) is None


def test_the_quick_path_is_what_hash_runs_on_a_plain_list(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text('{"tools":[{"name":"b","x":1.5},{"name":"a"}],"nextCursor":null}')
    assert quick.hash_report(str(path), path.read_bytes()) is not None
    report, _ = canonicalize.hashes_of(str(path))
    assert [i["identity"] for i in report["listings"]["tools"]["items"]] == ["a", "b"]


def real_lines() -> list[tuple[str, list[str]]]:
    """Per real server, its one-page listings as lines."""
    out: dict[str, list[str]] = {}
    for server, _, text in REAL:
        out.setdefault(server, []).append(text)
    return [(server, lines) for server, lines in out.items() if len(lines) > 1]


LINES = real_lines()


@pytest.mark.parametrize(("server", "lines"), LINES, ids=[s for s, _ in LINES])
@pytest.mark.parametrize("rpc", [False, True], ids=["results", "responses"])
def test_real_pages_as_json_lines_give_the_full_report(
    server: str, lines: list[str], rpc: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if rpc:
        lines = [f'{{"jsonrpc":"2.0","id":{n},"result":{t}}}' for n, t in enumerate(lines, 1)]
    path = tmp_path / "catalog.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert assert_same(path, monkeypatch), f"{server}: the quick path was not taken"


@pytest.mark.parametrize(
    ("source", "refused"),
    [
        ('{"tools":[{"name":"a"}]}\n{"tools":[{"name":"b"}]}\n', False),  # two pages of a listing
        ('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"tools":[]}\n', False),  # a request
        ('{"jsonrpc":"2.0","id":1,"error":{"code":1}}\n{"tools":[]}\n', False),  # an error
        ('{"protocolVersion":"2025-06-18"}\n{"tools":[]}\n', False),  # a handshake
        ('{"jsonrpc":"2.0","result":{"tools":[]},"result":{"prompts":[]}}\n{"tools":[]}\n', False),
        ('{"tools":[{"name":"a\u2028"}]}\n{"prompts":[]}\n', True),  # str.splitlines breaks it
        ('{"tools":\n[]}\n{"prompts":[]}\n', True),  # a value over two lines
        ('{"tools":[]} {"prompts":[]}\n', True),  # two values on one line
    ],
)
def test_what_the_loader_skips_or_refuses_in_json_lines_takes_the_full_path(
    source: str, refused: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "catalog.jsonl"
    path.write_text(source, encoding="utf-8")
    assert quick.hash_report(str(path), path.read_bytes()) is None
    with pytest.raises(InputError) if refused else contextlib.nullcontext():
        full_report(path, monkeypatch)


# --- generated sources -------------------------------------------------------------------------

TRICKY = '\x00\x1f"\\/\x7f\u0080\u2028\ue000\ufb33\uffff\U0001f600é1.[:,e '
chars = st.characters(blacklist_categories=("Cs",)) | st.sampled_from(TRICKY)
text = st.text(chars, max_size=8)
floats = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(
    [1e-07, 1e16, 100.0, -0.0, 0.5, 1e21, 5e-324]
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.sampled_from([2**53, -(2**60), 9007199254740991, 0])
    | floats
    | text
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
item = st.fixed_dictionaries(
    {"name": text},
    optional={
        "description": text,
        "inputSchema": st.dictionaries(text, values, max_size=3),
        "annotations": st.dictionaries(text, values, max_size=2),
        "title": text,
    },
)
listing = st.sampled_from(["tools", "prompts", "resources", "resourceTemplates"])


def maybe_unsafe(source: str) -> bool:
    """Whether a digit run might be an integer beyond 2^53-1: the documented conservative test
    that sends a source to the exact path (also for the digits of 1.97e+22)."""
    return any(int(run) > 2**53 - 1 for run in re.findall("[0-9]{16,}", source))


class Writer:
    """Writes a value as JSON the way some server might: `rnd` picks whitespace, escapes,
    lexemes and duplicate keys (`odd` off: the way SDKs write it)."""

    def __init__(self, rnd: Any, odd: bool) -> None:
        self.rnd, self.odd = rnd, odd

    def maybe(self, p: float) -> bool:
        return self.odd and self.rnd.random() < p

    def gap(self) -> str:
        return self.rnd.choice([" ", "\n  ", "\t", "\r\n"]) if self.maybe(0.2) else ""

    def string(self, s: str) -> str:
        out = []
        for c in s:
            if self.maybe(0.15):
                code = f"{ord(c):04x}" if ord(c) < 0x10000 else None
                if code is not None:
                    out.append("\\u" + (code.upper() if self.maybe(0.5) else code))
                    continue
            if c == "/" and self.maybe(0.5):
                out.append("\\/")
                continue
            out.append(json.dumps(c, ensure_ascii=False)[1:-1])
        return '"' + "".join(out) + '"'

    def number(self, x: float) -> str:
        lexeme = repr(x)
        if self.maybe(0.3):
            lexeme = self.rnd.choice(
                [f"{x:E}", f"{x:.17g}", lexeme + "0" if "." in lexeme else lexeme]
            )
        return lexeme if math.isfinite(float(lexeme)) else repr(x)

    def write(self, v: Any) -> str:
        g = self.gap
        if isinstance(v, dict):
            parts = [f"{g()}{self.string(k)}{g()}:{g()}{self.write(x)}{g()}" for k, x in v.items()]
            if v and self.maybe(0.1):
                k = self.rnd.choice(list(v))
                parts.insert(0, f"{self.string(k)}:{self.write(self.rnd.choice([1, 'x', None]))}")
            return "{" + ",".join(parts) + "}"
        if isinstance(v, list):
            return "[" + ",".join(f"{g()}{self.write(x)}{g()}" for x in v) + "]"
        if isinstance(v, str):
            return self.string(v)
        if isinstance(v, float):
            return self.number(v)
        if isinstance(v, int) and not isinstance(v, bool) and v == 0 and self.maybe(0.1):
            return "-0"
        return json.dumps(v)


def page(rnd: Any, odd: bool, name: str, items: list[Any], fields: dict[str, Any]) -> str:
    w = Writer(rnd, odd)
    body = "[" + ",".join(w.write(i) for i in items) + "]"
    members = [f'"{name}":{body}', *(f"{w.string(k)}:{w.write(v)}" for k, v in fields.items())]
    if w.maybe(0.3):
        rnd.shuffle(members)
    if w.maybe(0.05):
        members.append("NaN" if w.maybe(0.5) else "1")
    return w.gap() + "{" + ",".join(members) + "}" + w.gap()


pages = st.tuples(
    st.randoms(use_true_random=False),
    st.booleans(),
    listing,
    st.lists(item, max_size=4, unique_by=lambda i: i["name"]),
    st.dictionaries(st.sampled_from(["nextCursor", "_meta", "ttlMs", "x/y"]), values, max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(pages)
def test_generated_pages_give_the_full_report(case: Any) -> None:
    rnd, odd, name, items, fields = case
    if name != "tools":  # the identity field of the other listings
        ident = {"prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate"}[name]
        items = [{ident: i.pop("name"), **i} for i in items]
    _quick_equals_full(page(rnd, odd, name, items, fields), must_be_quick=not odd)


def _quick_equals_full(source: str, must_be_quick: bool) -> None:
    """The quick report of `source` is the full path's, or None where the full path refuses
    it; `must_be_quick`: None is wrong unless the text may hold an unsafe integer."""
    with pytest.MonkeyPatch.context() as mp, _tmpfile(source) as path:
        try:
            expected = full_report(path, mp)
        except InputError:
            assert quick.hash_report(str(path), path.read_bytes()) is None
            return
        got = quick.hash_report(str(path), path.read_bytes())
        if must_be_quick:
            assert got is not None or maybe_unsafe(source), source
        if got is not None:
            assert got[0] == expected[0], source
            assert [f"{path}: {note}" for note in got[1]] == expected[1]


@settings(max_examples=150, deadline=None)
@given(st.lists(pages, min_size=2, max_size=4), st.booleans())
def test_generated_json_lines_give_the_full_report(cases: list[Any], rpc: bool) -> None:
    lines = []
    for n, (rnd, odd, name, items, fields) in enumerate(cases, 1):
        if name != "tools":
            ident = {"prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate"}[
                name
            ]
            items = [
                {ident: i["name"], **{k: v for k, v in i.items() if k != "name"}} for i in items
            ]
        text = page(rnd, odd, name, items, fields)
        lines.append(f'{{"jsonrpc":"2.0","id":{n},"result":{text}}}' if rpc else text)
    plain = not any(odd for _, odd, *_ in cases)
    _quick_equals_full(
        "\n".join(lines) + "\n", must_be_quick=plain and len({c[2] for c in cases}) == len(cases)
    )


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), values)
def test_strict_jcs_quick_path_equals_the_exact_path(rnd: Any, odd: bool, value: Any) -> None:
    source = Writer(rnd, odd).write(value).encode("utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(strict, "_orjson_jcs", lambda data, fh: None)
        try:
            expected: bytes | str = jcs_of(source, "x")
        except InputError as exc:
            expected = str(exc)
    try:
        got: bytes | str = jcs_of(source, "x")
    except InputError as exc:
        got = str(exc)
    assert got == expected, source
    if not odd and isinstance(value, dict) and isinstance(expected, bytes):
        text = source.decode()
        assert strict._orjson_jcs(source, io.BytesIO()) is not None or maybe_unsafe(text), source


class _tmpfile:
    """A file holding `text` for the length of a `with` (hypothesis cannot take `tmp_path`)."""

    def __init__(self, text: str) -> None:
        import tempfile

        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "page.json"
        self.path.write_text(text, encoding="utf-8", newline="")

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        self.dir.cleanup()


@pytest.mark.parametrize(
    ("data", "unsafe"),
    [
        (b'{"maximum":9007199254740991,"minimum":-9007199254740991}', False),  # zod's bounds
        (b'{"maximum":9007199254740992}', True),
        (b'{"id":"12345678901234567"}', True),  # in a string: only costs the exact path
        (b'{"n":' + b"7" * 60_000 + b"}", True),
        (b'{"n":123456789012345}', False),
        # 17-digit fractions are cut short before any run is read; what they hide is not
        (b'{"a":[0.84442185154802415,1.00000000000000002]}', False),
        (b'{"a":[0.84442185154802415,12345678901234567]}', True),
        (b'{"a":0.' + b"1" * 40 + b"}", False),  # a run after a point is a fraction's
        (b'{"a":12345678901234567.5,"b":1e12345678901234567}', False),
        (b'{"a":-12345678901234567}', True),
    ],
)
def test_unsafe_integers_are_found_by_value_not_by_length(data: bytes, unsafe: bool) -> None:
    from catalogaudit.model import has_unsafe_integer

    assert has_unsafe_integer(data) is unsafe
