"""The spec rules (profile `spec`), declared once: id, name, severity, docs and check."""

from __future__ import annotations

from functools import cache, partial

from catalogaudit.model import RuleMeta, Severity
from catalogaudit.rules.base import Rule
from catalogaudit.rules.registry_cache import CACHE_RULES
from catalogaudit.rules.registry_fleet import FLEET_RULES
from catalogaudit.rules.serverjson import SERVER_JSON_RULES
from catalogaudit.rules.spec import items as spec_items
from catalogaudit.rules.spec import pages as spec_pages
from catalogaudit.rules.spec import schema as spec_schema
from catalogaudit.rules.spec import volatile as spec_volatile
from catalogaudit.rules.spec.common import SPEC
from catalogaudit.rules.unchecked import CAPTURE_RULES, CONTRACT_RULES, GROWTH_RULE

E, W, INF = Severity.ERROR, Severity.WARNING, Severity.INFO
TOOLS = f"{SPEC}/2025-11-25/server/tools"
TOOLS26 = f"{SPEC}/2026-07-28/server/tools"
BASIC = f"{SPEC}/2025-11-25/basic/index"
RESOURCES = f"{SPEC}/2025-11-25/server/resources"
CACHING = f"{SPEC}/2026-07-28/server/utilities/caching"
SCHEMA_REPO = "https://github.com/modelcontextprotocol/modelcontextprotocol/tree/main/schema"

SPEC_RULES: tuple[Rule, ...] = (
    Rule(
        "CA101",
        "tools.name-format",
        W,
        "Tool names are 1-128 characters of A-Z a-z 0-9 _ - .",
        "The spec (2025-11-25 on) says tool names SHOULD be 1 to 128 ASCII letters, digits, "
        "underscore, hyphen or dot; LLM APIs and clients reject or rewrite others.",
        "Rename the tool using only [A-Za-z0-9._-], at most 128 characters.",
        f"{TOOLS}#tool-names",
        spec_schema.tool_names,
        ("spec", "tools"),
    ),
    Rule(
        "CA103",
        "tools.name-format-early",
        INF,
        "Tool names fit the 2025-11-25 rule in earlier sessions too",
        "Before 2025-11-25 the spec had no tool-name rule; a name outside 1-128 of "
        "[A-Za-z0-9._-] still meets clients and LLM APIs that apply it (split from CA101).",
        "Rename the tool using only [A-Za-z0-9._-], at most 128 characters.",
        f"{TOOLS}#tool-names",
        partial(spec_schema.tool_names, early=True),
        ("spec", "tools"),
    ),
    Rule(
        "CA102",
        "catalog.duplicate-identity",
        E,
        "Items of one listing have unique identities",
        "Two tools (or prompts) with one name, or two resources (templates) with one URI: "
        "clients keep one of them, which one is undefined.",
        "Give every tool and prompt a unique name and every resource a unique URI.",
        f"{TOOLS}#tool-names",
        spec_schema.duplicates,
        ("spec", "tools", "prompts", "resources"),
    ),
    Rule(
        "CA401",
        "schema.input-object",
        E,
        "inputSchema is an object whose root type is object",
        'Every revision requires inputSchema with type "object" at the root. Claude Code, '
        "opencode, Gemini CLI and both official SDK clients drop the whole tool list for one "
        "such tool.",
        'Use {"type": "object", "properties": {...}}; for no parameters '
        '{"type": "object", "additionalProperties": false}.',
        f"{TOOLS}#tool",
        spec_schema.input_schema_object,
        ("spec", "schema"),
    ),
    Rule(
        "CA402",
        "schema.output-object",
        E,
        "outputSchema is object-rooted before 2026-07-28",
        '2025-06-18 and 2025-11-25 restrict outputSchema to type "object" at the root.',
        "Wrap the output in an object property, or negotiate 2026-07-28.",
        f"{TOOLS}#output-schema",
        spec_schema.output_schema_object,
        ("spec", "schema"),
    ),
    Rule(
        "CA403",
        "schema.dialect-valid",
        E,
        "Schemas are valid for their JSON Schema dialect",
        "Schemas MUST be valid for their dialect ($schema; 2020-12 by default from 2025-11-25, "
        "draft-07 assumed before); clients validating with a meta-schema reject the tool.",
        "Fix the keyword the meta-schema rejects, or declare the dialect you wrote.",
        f"{SPEC}/2025-11-25/basic/index#json-schema-usage",
        spec_schema.dialect_valid,
        ("spec", "schema"),
    ),
    Rule(
        "CA407",
        "schema.dialect-unknown",
        W,
        "Schemas declare a JSON Schema dialect that can be checked",
        "A $schema naming a dialect no validator here knows cannot be checked by CA403; clients "
        "that validate with a meta-schema may reject it (split from CA403).",
        "Declare draft-07 or 2020-12 (the default from 2025-11-25), or leave $schema out.",
        f"{SPEC}/2025-11-25/basic/index#json-schema-usage",
        spec_schema.dialect_known,
        ("spec", "schema"),
    ),
    Rule(
        "CA404",
        "schema.required-declared",
        W,
        "required names only declared properties",
        "A required property missing from properties can never be described to the model.",
        "Add the property to properties or drop it from required.",
        "https://json-schema.org/draft/2020-12/json-schema-validation#name-required",
        spec_schema.required_declared,
        ("spec", "schema"),
    ),
    Rule(
        "CA405",
        "schema.network-ref",
        W,
        "$ref does not point at the network",
        "Before 2026-07-28 a network $ref is unresolvable offline (in 2026-07-28 sessions it is "
        "CA408, an error).",
        "Inline the referenced schema under $defs and use a local #/$defs/... reference.",
        f"{SPEC}/2026-07-28/basic/index#json-schema-usage",
        spec_schema.network_refs,
        ("spec", "schema"),
    ),
    Rule(
        "CA408",
        "schema.network-ref-modern",
        E,
        "$ref does not point at the network (2026-07-28)",
        "2026-07-28: clients MUST NOT auto-dereference a network $ref, so the schema it points "
        "at is never seen (split from CA405).",
        "Inline the referenced schema under $defs and use a local #/$defs/... reference.",
        f"{SPEC}/2026-07-28/basic/index#json-schema-usage",
        partial(spec_schema.network_refs, modern=True),
        ("spec", "schema"),
    ),
    Rule(
        "CA406",
        "schema.x-mcp-header",
        E,
        "x-mcp-header annotations follow the 2026-07-28 rules",
        "An x-mcp-header must be an RFC 9110 token, unique case-insensitively, on a string, "
        "integer or boolean property reachable through properties only; HTTP clients MUST "
        "drop tools that break this.",
        "Fix or remove the x-mcp-header annotation.",
        f"{TOOLS26}#x-mcp-header",
        spec_schema.x_mcp_header,
        ("spec", "schema"),
    ),
    Rule(
        "CA201",
        "prose.control-characters",
        W,
        "Prose holds no control or bidi characters",
        "A C0/C1 control (BEL, ESC) acts on the terminal or log that prints the text, and a bidi "
        "control (U+202E) makes the shown text differ from what the model reads; neither is "
        "prose. Tab, newline and carriage return are allowed.",
        "Remove the control and bidi characters from the text.",
        "https://www.unicode.org/reports/tr9/",
        spec_volatile.control_characters,
        ("spec", "prose"),
    ),
    Rule(
        "CA301",
        "annotations.priority-range",
        E,
        "priority is a number within [0, 1]",
        "annotations.priority is a number from 0 to 1; Claude Code and both SDK clients drop "
        "the whole resource list for one value outside.",
        "Write a number between 0 and 1.",
        f"{RESOURCES}#annotations",
        spec_items.priority,
        ("spec", "resources"),
    ),
    Rule(
        "CA302",
        "annotations.audience",
        E,
        'audience holds only "user" and "assistant"',
        "annotations.audience is an array of Role values.",
        'Use "user" and/or "assistant".',
        f"{RESOURCES}#annotations",
        spec_items.audience,
        ("spec", "resources"),
    ),
    Rule(
        "CA304",
        "annotations.audience-repeated",
        INF,
        "audience lists each role once",
        "A role listed twice in annotations.audience says nothing more (split from CA302).",
        "List each of user and assistant at most once.",
        f"{RESOURCES}#annotations",
        partial(spec_items.audience, repeated=True),
        ("spec", "resources"),
    ),
    Rule(
        "CA303",
        "annotations.last-modified",
        W,
        "lastModified is an ISO 8601 timestamp (checked as RFC 3339)",
        "annotations.lastModified SHOULD be ISO 8601, e.g. 2025-01-12T15:00:58Z; checked as "
        "RFC 3339 date-time or full-date, the profile the example uses, the same on every Python.",
        "Write the timestamp as RFC 3339, e.g. 2025-01-12T15:00:58Z.",
        f"{RESOURCES}#annotations",
        spec_items.last_modified,
        ("spec", "resources"),
    ),
    Rule(
        "CA601",
        "items.icons",
        E,
        "Icon sources use a safe scheme, valid sizes and theme",
        "Consumers MUST reject unsafe icon schemes (http and a non-image mimeType are CA604).",
        "Serve icons over https (or inline as data:) with sizes like 48x48.",
        f"{BASIC}#icons",
        spec_items.icons,
        ("spec",),
    ),
    Rule(
        "CA602",
        "items.meta-keys",
        E,
        "_meta keys follow the naming rules",
        "_meta keys are an optional DNS-label prefix and a name (keys under the reserved "
        "prefixes are CA605).",
        "Use your own reverse-DNS prefix, e.g. com.example/key.",
        f"{BASIC}#meta",
        spec_items.meta_keys,
        ("spec",),
    ),
    Rule(
        "CA603",
        "items.revision-fields",
        INF,
        "Fields belong to the negotiated revision",
        "Fields newer than the negotiated revision are unknown to its clients (fields it "
        "removed are CA606).",
        "Negotiate the revision that defines the field, or leave it out.",
        f"{SPEC}/2025-11-25/changelog",
        spec_items.revision_fields,
        ("spec",),
    ),
    Rule(
        "CA604",
        "items.icons-advice",
        W,
        "Icons are served over https with an image mimeType",
        "Consumers should accept only https and data icon sources, and an icon's mimeType is an "
        "image type (split from CA601, whose cases consumers must reject).",
        "Serve icons over https (or inline as data:) and give an image/* mimeType.",
        f"{BASIC}#icons",
        partial(spec_items.icons, advice=True),
        ("spec",),
    ),
    Rule(
        "CA605",
        "items.meta-reserved",
        W,
        "_meta keys stay out of the reserved prefixes",
        "_meta prefixes whose second label is modelcontextprotocol or mcp are reserved for the "
        "spec; a key there that the spec does not define may clash later (split from CA602).",
        "Use your own reverse-DNS prefix, e.g. com.example/key.",
        f"{BASIC}#meta",
        spec_items.meta_reserved,
        ("spec",),
    ),
    Rule(
        "CA606",
        "items.removed-fields",
        W,
        "Fields the negotiated revision removed are not served",
        "Fields removed in the negotiated revision (execution in 2026-07-28) are ignored by its "
        "clients (split from CA603).",
        "Drop the field for sessions of the revision that removed it.",
        f"{SPEC}/2025-11-25/changelog",
        partial(spec_items.revision_fields, removed=True),
        ("spec",),
    ),
    Rule(
        "CA610",
        "pages.mcp-schema",
        E,
        "Pages validate against the official MCP JSON Schema",
        "Each list result is validated against the schema.json of its negotiated revision.",
        "Fix the field the schema rejects.",
        SCHEMA_REPO,
        spec_pages.mcp_schema_valid,
        ("spec",),
    ),
    Rule(
        "CA611",
        "pages.cache-fields",
        E,
        "2026-07-28 pages carry resultType, ttlMs, cacheScope",
        '2026-07-28 list results MUST carry resultType "complete", an integer ttlMs >= 0 and '
        "cacheScope public or private, the same on every page; the Python SDK client fails "
        "every list call without them.",
        "Return resultType, ttlMs and cacheScope on every page.",
        CACHING,
        spec_pages.page_fields,
        ("spec",),
    ),
    Rule(
        "CA612",
        "pages.legacy-cache-fields",
        INF,
        "pages before 2026-07-28 carry no 2026-07-28 cache fields",
        "resultType, ttlMs and cacheScope arrived in 2026-07-28; on a page of an earlier revision "
        "no client reads them, so the cache hints they give have no effect.",
        "Omit resultType, ttlMs and cacheScope from pages of revisions before 2026-07-28.",
        CACHING,
        spec_pages.legacy_page_fields,
        ("spec",),
    ),
    *CACHE_RULES,
)


def spec_meta() -> dict[str, RuleMeta]:
    """RuleMeta for every spec, capture, rewrite and contract rule, by id (a new dict of the
    same frozen records: the audit asks twice per catalog, 500 files a thousand times)."""
    return dict(_spec_meta())


@cache
def _spec_meta() -> dict[str, RuleMeta]:
    out = {
        r.id: RuleMeta(r.id, r.name, r.severity, r.summary, r.description, r.hint, r.source)
        for r in SPEC_RULES
    }
    for rule_id, (severity, name, summary) in CAPTURE_RULES.items():
        out[rule_id] = RuleMeta(
            rule_id,
            name,
            severity,
            summary,
            summary,
            "",
            "https://modelcontextprotocol.io/specification/2025-11-25",
        )
    out[GROWTH_RULE.id] = GROWTH_RULE
    out.update(CONTRACT_RULES)
    out.update(FLEET_RULES)
    out.update(SERVER_JSON_RULES)
    return out
