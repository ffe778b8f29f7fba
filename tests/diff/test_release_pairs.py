"""`diff` and `stability` verdicts on captures of published servers (fixtures/real-servers/
verdicts/): equivalent spellings are no change, proved widenings are widenings, a rename to
another naming convention is one rename, and identical listings of an unstable run are stable."""

from __future__ import annotations

from functools import cache
from typing import Any

from helpers import cli, fixture

VERDICTS = fixture("real-servers", "verdicts")


@cache
def changes(old: str, new: str) -> tuple[dict[str, Any], ...]:
    result = cli(
        "diff", f"{old}.snapshot.json", f"{new}.snapshot.json", "--format", "json", cwd=VERDICTS
    )
    assert result.code in (0, 1), str(result)
    return tuple(result.json()["changes"])


def at(found: tuple[dict[str, Any], ...], ident: str, pointer: str) -> list[dict[str, Any]]:
    return [c for c in found if c["identity"] == ident and c["pointer"] == pointer]


MONGO = ("mongodb-mcp-server-0.2.0", "mongodb-mcp-server-3.0.4")
#: Where mongodb-mcp-server 3.0.4 (Zod 4) writes `{}` for 0.2.0's (Zod 3) `true`.
ZOD_OPEN = [
    ("count", "/inputSchema/properties/query/additionalProperties"),
    ("delete-many", "/inputSchema/properties/filter/additionalProperties"),
    ("find", "/inputSchema/properties/filter/additionalProperties"),
    ("find", "/inputSchema/properties/projection/additionalProperties"),
    ("insert-many", "/inputSchema/properties/documents/items/additionalProperties"),
    ("update-many", "/inputSchema/properties/filter/additionalProperties"),
    ("update-many", "/inputSchema/properties/update/additionalProperties"),
]


def test_additional_properties_true_to_empty_schema_is_no_change() -> None:
    found = changes(*MONGO)
    for ident, pointer in ZOD_OPEN:
        assert at(found, ident, pointer) == [], (ident, pointer)
    # nor an empty `properties` dropped, nor `propertyNames: {type: string}` added (every
    # property name is a string)
    assert at(found, "find", "/inputSchema/properties/sort/properties") == []
    assert [c for c in found if "propertyNames" in c["pointer"]] == []
    assert not [
        c for c in found if c["class"] == "unknown" and "additionalProperties" in c["pointer"]
    ]


def test_a_proved_narrowing_inside_an_open_schema_is_still_breaking() -> None:
    # find.sort: additionalProperties {} -> anyOf [1, -1, "asc", ...]: values of sort keys
    # accepted by 0.2.0 are rejected by 3.0.4, and that is proved, not "unknown"
    got = at(changes(*MONGO), "find", "/inputSchema/properties/sort/additionalProperties")
    assert [(c["ruleId"], c["class"]) for c in got] == [("CA815", "breaking")]


ADO = ("azure-devops-mcp-2.2.2", "azure-devops-mcp-2.9.0")


def test_string_to_any_of_string_or_array_is_a_widened_input() -> None:
    found = changes(*ADO)
    for ident in ("repo_search_commits", "search_code"):
        got = at(found, ident, "/inputSchema/properties/project")
        assert [(c["ruleId"], c["class"]) for c in got] == [("CA816", "compatible")], got
        assert "widened" in got[0]["message"]
    assert not [c for c in found if c["ruleId"] in ("CA840", "CA842")]


def test_a_type_change_is_one_change_not_one_per_keyword_of_the_new_type() -> None:
    # author: string -> array of strings; `items` only constrains arrays, which 2.2.2 never
    # accepted: the type change says it all
    found = changes(*ADO)
    author = [c for c in found if c["pointer"].startswith("/inputSchema/properties/author/")]
    assert [
        (c["ruleId"], c["pointer"])
        for c in author
        if c["identity"] == "repo_search_commits" and c["ruleId"] != "CA860"
    ] == [("CA815", "/inputSchema/properties/author/type")]


def test_a_rename_to_another_separator_is_one_rename() -> None:
    found = changes("tavily-mcp-0.2.12", "tavily-mcp-0.2.15")
    renames = {(c["oldIdentity"], c["identity"]) for c in found if c["ruleId"] == "CA802"}
    assert ("tavily-search", "tavily_search") in renames
    assert ("tavily-extract", "tavily_extract") in renames
    assert not [c for c in found if c["ruleId"] in ("CA801", "CA804")]
    search = next(c for c in found if c["ruleId"] == "CA802" and c["identity"] == "tavily_search")
    assert "case and separators" in search["message"]


def test_listings_identical_in_every_run_are_stable_when_another_listing_differs() -> None:
    # mcp-atlassian 0.23.1 writes a Python set into four tools' `fields` default, in an order
    # that changes per start; its empty prompts and resources listings are byte-identical
    result = cli(
        "stability",
        "mcp-atlassian-0.23.1-runs3.snapshot.json",
        "--format",
        "json",
        cwd=VERDICTS,
    )
    assert result.code == 1, str(result)
    listings = result.json()["listings"]
    assert listings["tools"]["verdict"] == "content"
    for name in ("prompts", "resources", "resourceTemplates"):
        assert listings[name]["verdict"] == "stable", (name, listings[name])
        assert listings[name]["causes"] == []
