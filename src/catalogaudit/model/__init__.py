"""The vocabulary every layer shares; it imports nothing of ours but `errors`.

- `jsonwire`: wire-faithful JSON parsing (number lexemes, duplicate keys), JSON Pointers;
  `jsonwrite`: the served, canonical and written forms;
- `names`: the four listings, their methods, item identity, the prompt projection;
- `protocol`: revisions, `--protocol`/`--client-capabilities`, the negotiated `Session`;
- `capture`: pages, listings and captures as records, and the wire anomaly findings;
- `catalog`: the catalog under audit (`Catalog`, `Item`) over a snapshot document;
- `findings`: findings, rule metadata, reports and exit codes;
- `envelope`: the `$schema`/`formatVersion`/`kind` envelope of every JSON output;
- `validation`: jsonschema-rs validators that agree with python-jsonschema, and the plain
  values they read;
- `verify`: verify's observations, rows, runs, model views, and the ids that have a driver.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.model.capture import (
        Capture,
        Listing,
        Page,
        anomaly_findings,
        page_anomalies,
        unsafe_integers,
    )
    from catalogaudit.model.catalog import Catalog, Item
    from catalogaudit.model.envelope import envelope as with_envelope
    from catalogaudit.model.findings import (
        EXIT_ERROR,
        EXIT_FINDINGS,
        EXIT_OK,
        Finding,
        Location,
        MatrixBreak,
        MatrixRow,
        Report,
        RuleError,
        RuleEvidence,
        RuleMeta,
        Severity,
        normalize_excerpt,
    )
    from catalogaudit.model.fleet import (
        MANIFEST,
        Fleet,
        Server,
        file_names,
        fleet_id,
        parse_shard,
        shard_of,
    )
    from catalogaudit.model.inert import inert as inert_text
    from catalogaudit.model.inert import visible
    from catalogaudit.model.jsonwire import (
        Member,
        anomalies,
        decode_utf8,
        ended,
        escape_pointer,
        loads,
        object_members,
        parse_members,
        pointer_join,
        pointer_of,
        pointer_tokens,
        raw_decode,
    )
    from catalogaudit.model.jsonwrite import (
        canonical,
        canonical_utf8,
        compact,
        compact_utf8,
        dump_string,
        dumps,
        is_integer_lexeme,
        jcs_key,
        jcs_number,
        lexeme,
        utf16_order_may_differ,
        utf16_ordered,
        write_written,
        written,
    )
    from catalogaudit.model.names import (
        HASH_KINDS,
        IDENTITY,
        LISTINGS,
        METHODS,
        PROMPT_FIELDS,
        identity,
        identity_sort_key,
        result_note,
    )
    from catalogaudit.model.pieces import parse_written
    from catalogaudit.model.positions import Finder
    from catalogaudit.model.protocol import (
        CAPABILITY_OF,
        CLIENT_INFO,
        LATEST_LEGACY,
        LEGACY_VERSIONS,
        MODERN_VERSIONS,
        ProtocolChoice,
        Session,
        client_capabilities,
        parse_protocol,
    )
    from catalogaudit.model.validation import (
        CUT,
        MAX_DEPTH,
        META_FORMATS,
        NOT_PLAIN,
        meta_validator,
        plain,
        regex_guarded,
        stand_ins,
        surely_valid,
        validator,
    )
    from catalogaudit.model.validation import cut as cut_deep
    from catalogaudit.model.validation import depth as value_depth
    from catalogaudit.model.verify import (
        DEFAULT,
        DEFERRED,
        DRIVER_IDS,
        DROPPED,
        FAILED,
        INLINE,
        KEPT,
        NOT_CALLED,
        NOT_OFFERED,
        REACHED,
        REFUSED,
        SEARCH_OFF,
        Drift,
        Observation,
        PromptBytes,
        Row,
        ToolView,
        VerifyRun,
        ViewRow,
    )
    from catalogaudit.model.wiretext import array_items, join, members, replace_member
    from catalogaudit.model.wiretypes import (
        MAX_INPUT,
        MAX_INT_DIGITS,
        WireDecodeError,
        WireLimitError,
        WireObject,
        has_unsafe_integer,
    )

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "capture": "Capture Listing Page anomaly_findings page_anomalies unsafe_integers",
        "catalog": "Catalog Item",
        "envelope": "with_envelope=envelope",
        "fleet": "MANIFEST Fleet Server file_names fleet_id parse_shard shard_of",
        "findings": (
            "EXIT_ERROR EXIT_FINDINGS EXIT_OK Finding Location MatrixBreak MatrixRow "
            "Report RuleError RuleEvidence RuleMeta Severity normalize_excerpt"
        ),
        "inert": "inert_text=inert visible",
        "jsonwire": (
            "Member anomalies decode_utf8 ended escape_pointer loads object_members "
            "parse_members pointer_join pointer_of pointer_tokens raw_decode"
        ),
        "jsonwrite": (
            "canonical canonical_utf8 compact compact_utf8 dump_string dumps is_integer_lexeme "
            "jcs_key jcs_number lexeme utf16_order_may_differ utf16_ordered write_written written"
        ),
        "names": (
            "HASH_KINDS IDENTITY LISTINGS METHODS PROMPT_FIELDS identity identity_sort_key "
            "result_note"
        ),
        "pieces": "parse_written",
        "positions": "Finder",
        "protocol": (
            "CAPABILITY_OF CLIENT_INFO LATEST_LEGACY LEGACY_VERSIONS MODERN_VERSIONS "
            "ProtocolChoice Session client_capabilities parse_protocol"
        ),
        "validation": (
            "CUT MAX_DEPTH META_FORMATS NOT_PLAIN meta_validator plain regex_guarded stand_ins "
            "surely_valid validator cut_deep=cut value_depth=depth"
        ),
        "verify": (
            "DEFAULT DEFERRED DRIVER_IDS DROPPED Drift FAILED INLINE KEPT NOT_CALLED NOT_OFFERED "
            "Observation PromptBytes REACHED REFUSED Row SEARCH_OFF ToolView VerifyRun ViewRow"
        ),
        "wiretext": "array_items join members replace_member",
        "wiretypes": (
            "MAX_INPUT MAX_INT_DIGITS WireDecodeError WireLimitError WireObject has_unsafe_integer"
        ),
    },
)
