"""Parts of the written form rendered ahead (`snapshot.ahead`, `build.build_rendered`): the file
`write` makes from them is the bytes it makes without them, whatever the parts hold, and a
document changed after the rendering is written in place (issue 14: `snapshot --from`)."""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))
from test_fastpaths import WIRE_TEXT  # noqa: E402

from catalogaudit.intake import loader, static  # noqa: E402
from catalogaudit.model import jsonwire  # noqa: E402
from catalogaudit.model.protocol import parse_protocol  # noqa: E402
from catalogaudit.snapshot import ahead  # noqa: E402
from catalogaudit.snapshot import build as snap  # noqa: E402
from catalogaudit.verbs import fanout  # noqa: E402

ITEMS = ("listings", "tools", "items")
PAGES = ("wire", "pages", "tools")


def _written(doc: dict[str, Any], rendered: ahead.Rendered | None = None) -> bytes:
    fh = io.BytesIO()
    size = snap.write(doc, fh, rendered)  # type: ignore[arg-type]
    assert size == len(fh.getvalue())
    return fh.getvalue()


def _doc(items: list[Any], pages: list[Any]) -> dict[str, Any]:
    return {
        "a": 1,
        "listings": {"tools": {"items": items, "z": []}},
        "wire": {"pages": {"tools": pages}},
    }


def _rendered(doc: dict[str, Any]) -> ahead.Rendered:
    rendered = ahead.Rendered(io.BytesIO())  # type: ignore[arg-type]
    parts = {
        ITEMS: list(doc["listings"]["tools"]["items"]),
        PAGES: list(doc["wire"]["pages"]["tools"]),
    }
    rendered.keep(parts, rendered.render(parts))
    return rendered


@settings(max_examples=300, deadline=None)
@given(st.lists(WIRE_TEXT, max_size=4), st.lists(WIRE_TEXT, max_size=2))
def test_rendered_parts_give_the_bytes_written_in_place(items: list[str], pages: list[str]) -> None:
    # NOTE: lone surrogates, NaN, `1E3`, `-0`, duplicate keys, astral and U+E000 keys
    doc = _doc([jsonwire.loads(t) for t in items], pages)
    assert _written(doc, _rendered(doc)) == _written(doc)


@settings(max_examples=300, deadline=None)
@given(st.lists(WIRE_TEXT, min_size=2, max_size=5), st.data())
def test_a_list_rendered_in_two_parts_joins_to_the_bytes_written_in_place(
    items: list[str], data: st.DataObject
) -> None:
    doc = _doc([jsonwire.loads(t) for t in items], ["p"])
    values = list(doc["listings"]["tools"]["items"])
    cut = data.draw(st.integers(1, len(values) - 1))
    rendered = ahead.Rendered(io.BytesIO())  # type: ignore[arg-type]
    spans = rendered.render({ITEMS: values[:cut], PAGES: ["p"]})
    rendered.keep({ITEMS: values, PAGES: ["p"]}, spans, {ITEMS: rendered.tail(values[cut:], 3)})
    assert _written(doc, rendered) == _written(doc)


@settings(max_examples=200, deadline=None)
@given(WIRE_TEXT, st.integers(1, 70))
def test_the_writer_at_a_depth_writes_what_the_exact_writer_writes_there(
    text: str, depth: int
) -> None:
    value = jsonwire.loads(text)
    got: list[str] = []
    try:
        jsonwire.write_written(value, got.append, depth=depth)
    except RecursionError:  # pragma: no cover - hypothesis nests far less
        return
    exact = jsonwire.exact_dumps(value, sort_keys=True, indent=2, number=jsonwire._written_number)
    joined = "".join(got)
    if not jsonwire._SURROGATE.search(joined):  # kept raw: the callers run the exact writer
        # NOTE: a raw newline in the written form is layout (strings escape theirs)
        assert joined == exact.replace("\n", "\n" + "  " * depth)


def test_a_document_changed_after_rendering_is_written_in_place() -> None:
    doc = _doc([{"name": "a", "n": 1.50}, {"name": "b"}], ['{"tools":[]}'])
    rendered = _rendered(doc)
    doc["listings"]["tools"]["items"][1] = {"name": "c"}  # an item replaced
    assert _written(doc, rendered) == _written(doc)
    doc["wire"]["pages"]["tools"] = ["other"]  # a part replaced
    assert _written(doc, rendered) == _written(doc)
    assert rendered.view(doc)["listings"]["tools"]["items"] is doc["listings"]["tools"]["items"]


def test_a_spool_cut_short_is_not_copied() -> None:
    doc = _doc([{"name": "a" * 5000}], ["x" * 5000])
    rendered = _rendered(doc)
    assert rendered.spool is not None
    rendered.spool.truncate(100)
    assert rendered.view(doc) is doc
    assert _written(doc, rendered) == _written(doc)


def _capture(data: bytes) -> Any:
    loaded = loader.parse("in.json", data)
    return static.merge([("in.json", loaded)], parse_protocol("auto"))


def _big_page() -> bytes:
    prose = "d\u00e9 \U0001f600 " * 150
    schema = {"type": "object", "properties": {"n": {"maximum": 1.5, "minimum": 0}}}
    tools = [
        {"name": f"t{i:04}", "description": prose, "inputSchema": schema}
        for i in range(1400, 0, -1)
    ]
    text = json.dumps({"tools": tools, "nextCursor": None}, ensure_ascii=False)
    assert len(text) > snap.BIG
    # NOTE: lexemes the written form keeps: `1.50`, `-0`
    return text.replace('"maximum": 1.5', '"maximum": 1.50').replace(": 0}", ": -0}").encode()


def test_build_rendered_makes_the_document_build_makes_and_its_bytes() -> None:
    data = _big_page()
    want_doc = snap.build(_capture(data))
    want = _written(want_doc)
    ran: list[int] = []

    def inline(work: Any) -> Any:  # NOTE: the work runs when waited for, as without a fork
        ran.append(1)
        return work

    for beside in (inline, fanout.beside):
        with tempfile.TemporaryFile() as spool:
            doc, rendered = snap.build_rendered(
                _capture(data), wire=True, beside=beside, spool=spool
            )
            assert doc == want_doc
            assert rendered.parts  # the items and the page text were rendered ahead
            assert _written(doc, rendered) == want
    assert ran == [1]


def test_a_child_that_fails_leaves_the_work_to_this_process(monkeypatch: Any) -> None:
    data = _big_page()
    want = _written(snap.build(_capture(data)))
    monkeypatch.setattr(ahead.Rendered, "render", _dying(ahead.Rendered.render, os.getpid()))
    with tempfile.TemporaryFile() as spool:
        doc, rendered = snap.build_rendered(
            _capture(data), wire=True, beside=fanout.beside, spool=spool
        )
        assert rendered.parts  # rendered again here, over what the child left
        assert _written(doc, rendered) == want


def _dying(render: Any, parent: int) -> Any:
    """`render` that, in a forked child, writes half a part and dies."""

    def dying(self: Any, parts: Any) -> Any:
        if os.getpid() != parent:
            self.spool.write(b"half a part")
            self.spool.flush()
            os._exit(3)
        return render(self, parts)

    return dying


def test_a_small_catalog_is_not_rendered_ahead() -> None:
    data = b'{"tools": [{"name": "a"}]}'
    doc, rendered = snap.build_rendered(
        _capture(data), wire=True, beside=fanout.beside, spool=io.BytesIO()
    )
    assert not rendered.parts
    assert doc == snap.build(_capture(data))
