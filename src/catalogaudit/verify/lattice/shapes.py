"""Every shape of the lattice, in a fixed order with stable ids (`tool.name/missing`).

Ids read `<part>.<field>/<variant>`: the part (`tool`, `tool.annotations`, `prompt.argument`,
`tools.page`, ...), the field, and what was done to it. Modern-era shapes end in `@modern`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from catalogaudit.verify.lattice import schemas
from catalogaudit.verify.lattice.base import ERAS, MISSING, Raw, Shape, base_pages, locate, make

#: A JSON type -> a sample value of it (`integer` fields get `number` as a fraction).
SAMPLES: dict[str, Any] = {"string": "x", "number": 3, "boolean": True, "array": [], "object": {}}
EMPTY: dict[str, Any] = {"string": "", "array": [], "object": {}}

#: (part, pointer of the part inside the subject's page, listing, required fields, fields)
PARTS: list[tuple[str, str, str, tuple[str, ...], dict[str, str]]] = [
    (
        "tool",
        "/tools/1",
        "tools",
        ("name", "inputSchema"),
        {
            "name": "string",
            "title": "string",
            "description": "string",
            "inputSchema": "object",
            "outputSchema": "object",
            "annotations": "object",
            "icons": "array",
            "_meta": "object",
        },
    ),
    (
        "tool.annotations",
        "/tools/1/annotations",
        "tools",
        (),
        {
            "title": "string",
            "readOnlyHint": "boolean",
            "destructiveHint": "boolean",
            "idempotentHint": "boolean",
            "openWorldHint": "boolean",
        },
    ),
    (
        "tool.icon",
        "/tools/1/icons/0",
        "tools",
        ("src",),
        {"src": "string", "mimeType": "string", "sizes": "array", "theme": "string"},
    ),
    (
        "prompt",
        "/prompts/1",
        "prompts",
        ("name",),
        {
            "name": "string",
            "title": "string",
            "description": "string",
            "arguments": "array",
            "icons": "array",
            "_meta": "object",
        },
    ),
    (
        "prompt.argument",
        "/prompts/1/arguments/0",
        "prompts",
        ("name",),
        {"name": "string", "title": "string", "description": "string", "required": "boolean"},
    ),
    (
        "resource",
        "/resources/1",
        "resources",
        ("uri", "name"),
        {
            "uri": "string",
            "name": "string",
            "title": "string",
            "description": "string",
            "mimeType": "string",
            "size": "integer",
            "annotations": "object",
            "icons": "array",
            "_meta": "object",
        },
    ),
    (
        "resource.annotations",
        "/resources/1/annotations",
        "resources",
        (),
        {"audience": "array", "priority": "number", "lastModified": "string"},
    ),
    (
        "template",
        "/resourceTemplates/1",
        "resourceTemplates",
        ("uriTemplate", "name"),
        {
            "uriTemplate": "string",
            "name": "string",
            "title": "string",
            "description": "string",
            "mimeType": "string",
            "annotations": "object",
            "icons": "array",
            "_meta": "object",
        },
    ),
]


def _variants(kind: str) -> list[tuple[str, Any]]:
    """What a field of this JSON type is replaced with: missing, null, every other type,
    empty; integers also a fraction and a negative."""
    out: list[tuple[str, Any]] = [("missing", MISSING), ("null", None)]
    own = "number" if kind == "integer" else kind
    out += [(t, v) for t, v in SAMPLES.items() if t != own]
    if kind in EMPTY:
        out.append(("empty", EMPTY[kind]))
    if kind == "integer":
        out += [("fraction", Raw("1.5")), ("negative", -1)]
    return out


def _field_shapes(era: str) -> Iterator[Shape]:
    base = base_pages(era)
    for part, at, listing, required, fields in PARTS:
        node, _ = locate(base[listing][0], f"{at}/x".strip("/").split("/"))
        for name, kind in fields.items():
            for variant, value in _variants(kind):
                if variant == "missing" and name not in node:
                    continue  # absent from the base already
                word = "required" if name in required else "optional"
                yield make(
                    era,
                    f"{part}.{name}/{variant}",
                    listing,
                    f"{at}/{name}",
                    value,
                    f"{word} {kind} field {name}: {variant}",
                )
        yield make(era, f"{part}/extra-member", listing, f"{at}/x-extra", "x", "an unknown member")


def _envelope_shapes(era: str) -> Iterator[Shape]:
    fields = {"nextCursor": "string", "_meta": "object"}
    if era == "modern":
        fields.update(resultType="string", ttlMs="integer", cacheScope="string")
    for listing in ("tools", "prompts", "resources", "resourceTemplates"):
        for name, kind in fields.items():
            for variant, value in _variants(kind):
                if variant == "missing" and name in ("nextCursor", "_meta"):
                    continue  # absent from the base already
                yield make(
                    era,
                    f"{listing}.page.{name}/{variant}",
                    listing,
                    f"/{name}",
                    value,
                    f"list result member {name}: {variant}",
                )
        yield make(era, f"{listing}.page/extra-member", listing, "/x-extra", 1, "unknown member")
    if era == "modern":
        for name, value in (
            ("resultType", "input_required"),
            ("ttlMs", Raw("0.0")),
            ("ttlMs", 86400001),
            ("cacheScope", "shared"),
            ("cacheScope", "PUBLIC"),
        ):
            yield make(
                era,
                f"tools.page.{name}/value-{str(value).replace('.', '_')}",
                "tools",
                f"/{name}",
                value,
                f"list result member {name}: {value}",
            )


def _values(era: str) -> Iterator[Shape]:
    """Values a rule or a client names: boundaries, lexemes, enumerations."""

    def one(sid: str, listing: str, path: str, value: Any, defect: str) -> Shape:
        return make(era, sid, listing, path, value, defect)

    for n in (1, 63, 64, 65, 127, 128, 129, 255, 256):
        yield one(f"tool.name/length-{n}", "tools", "/tools/1/name", "n" * n, f"name of {n}")
    # Qualified mcp__<server>__<tool> boundaries for the drivers' server names.
    for server in ("c0", "catalog-0"):
        room = 64 - len(f"mcp__{server}__")
        for n in (room - 1, room, room + 1, room + 64):
            yield one(
                f"tool.name/qualified-{server}-{n}",
                "tools",
                "/tools/1/name",
                "q" * n,
                f"name of {n}: mcp__{server}__ + name around 64/128",
            )
    for ch in (".", "-", " ", "/", ":", "é"):
        code = f"u{ord(ch):04x}"
        yield one(f"tool.name/char-{code}", "tools", "/tools/1/name", f"a{ch}b", "a character")
    yield one("tool.name/duplicate", "tools", "/tools/1/name", "ok", "the other tool's name")
    for listing, part in (("tools", "tool"), ("prompts", "prompt"), ("resources", "resource")):
        for n in (1023, 1024, 1025, 2047, 2048, 2049, 8191, 8192, 8193):
            yield one(
                f"{part}.description/length-{n}",
                listing,
                f"/{listing}/1/description",
                "d" * n,
                f"description of {n}",
            )
    for lexeme in ("0", "1", "1.0", "0.5", "1e0", "0.6", "2", "-1", "1E-1"):
        yield one(
            f"resource.annotations.priority/lexeme-{lexeme}",
            "resources",
            "/resources/1/annotations/priority",
            Raw(lexeme),
            f"priority {lexeme}",
        )
    for sid, aud in (
        ("user-assistant", ["user", "assistant"]),
        ("unknown-role", ["robot"]),
        ("role-string", "user"),
        ("duplicate", ["user", "user"]),
        ("number-item", [1]),
    ):
        yield one(
            f"resource.annotations.audience/{sid}",
            "resources",
            "/resources/1/annotations/audience",
            aud,
            f"audience {aud!r}",
        )
    for sid, value in (("light", "light"), ("dark", "dark"), ("other", "sepia")):
        yield one(f"tool.icon.theme/{sid}", "tools", "/tools/1/icons/0/theme", value, "theme")
    yield one(
        "tool.icon.sizes/size-string", "tools", "/tools/1/icons/0/sizes", "48x48", "sizes str"
    )
    yield one(
        "tool.icon.src/data-uri",
        "tools",
        "/tools/1/icons/0/src",
        "data:image/png;base64,iVBORw0KGgo=",
        "a data: URI",
    )
    for sid, value in (
        ("relative", "subject"),
        ("no-scheme", "//host/x"),
        ("spaces", "file:///a b"),
    ):
        yield one(f"resource.uri/{sid}", "resources", "/resources/1/uri", value, "uri form")
    for sid, value in (
        ("no-variable", "file:///subject"),
        ("plus", "file:///{+path}"),
        ("unclosed", "file:///{id"),
    ):
        yield one(
            f"template.uriTemplate/{sid}",
            "resourceTemplates",
            "/resourceTemplates/1/uriTemplate",
            value,
            "uriTemplate form",
        )
    yield one("resource.mimeType/no-slash", "resources", "/resources/1/mimeType", "text", "mime")
    yield one(
        "resource.annotations.lastModified/not-a-date",
        "resources",
        "/resources/1/annotations/lastModified",
        "yesterday",
        "not ISO 8601",
    )
    sizes: list[tuple[str, Any]] = [("zero", 0), ("huge", 2**53 + 1), ("float-lexeme", Raw("12.0"))]
    for sid, size in sizes:
        yield one(f"resource.size/{sid}", "resources", "/resources/1/size", size, "size")
    metas: list[tuple[str, Any]] = [
        ("reserved-key", {"io.modelcontextprotocol/x": 1}),
        ("number-array", [1]),
    ]
    for sid, meta in metas:
        yield one(f"tool._meta/{sid}", "tools", "/tools/1/_meta", meta, "_meta form")


def _counts(era: str) -> Iterator[Shape]:
    """Tool counts around each client's limit (the OpenAI API's 128; 40 and 100 where
    clients cap them), made by appending tools after the base two."""
    for n in (0, 39, 40, 41, 99, 100, 101, 127, 128, 129):
        pages = base_pages(era)
        tools = pages["tools"][0]["tools"]
        if n < len(tools):
            del tools[n:]
        for i in range(len(tools), n):
            tools.append({"name": f"t{i:03d}", "inputSchema": {"type": "object"}})
        suffix = "" if era == "legacy" else "@modern"
        yield Shape(f"tools.count/{n}{suffix}", era, "/tools/0/tools", f"{n} tools", pages)


def _pagination(era: str) -> Iterator[Shape]:
    """The tool list on two pages, the first page's nextCursor in several forms."""
    suffix = "" if era == "legacy" else "@modern"
    for sid, cursor in (("string", "page-2"), ("empty", ""), ("number", 2)):
        pages = base_pages(era)
        first = pages["tools"][0]
        second = {**copy.deepcopy(first), "tools": [first["tools"].pop()]}
        first["nextCursor"] = cursor
        pages["tools"].append(second)
        yield Shape(f"tools.pages/two-cursor-{sid}{suffix}", era, "/tools", "two pages", pages)


KINDS: tuple[Callable[[str], Iterator[Shape]], ...] = (
    _field_shapes,
    _envelope_shapes,
    _values,
    schemas.shapes,
    _counts,
    _pagination,
)


def shapes(eras: tuple[str, ...] = ERAS) -> list[Shape]:
    """Every shape, base first per era (`base`, `base@modern`), then by kind, in fixed order."""
    out: list[Shape] = []
    for era in eras:
        out.append(
            Shape("base" + ("" if era == "legacy" else "@modern"), era, "", "none", base_pages(era))
        )
        for kind in KINDS:
            out.extend(kind(era))
    return out
