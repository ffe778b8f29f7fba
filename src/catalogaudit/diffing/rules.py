"""The `diff` rule table and the item classifiers: tools, prompts and their arguments, resources.

Kept apart from `diff.py` so the rules (what a change means) and the pipeline (which items to
look at) can each be read on their own. Every key that differs in an item is handled by exactly
one branch or falls back to a catch-all rule, so no change goes unreported.
"""

from __future__ import annotations

from typing import Any

from catalogaudit.diffing.schema import ABSENT, PROSE, Ctx, differing, ex, pair, schema
from catalogaudit.model import IDENTITY, PROMPT_FIELDS, escape_pointer, pointer_join

#: One rule per line: id, class, name, summary. Ids are stable and never reused; the table in
#: docs/diff-rules.md is checked against this one by the tests.
_TABLE = """
CA801 breaking      item-removed               A tool, prompt, resource or template was removed
CA802 breaking      item-renamed               An item was renamed (removed, similar one added)
CA803 breaking      template-variables-changed A resource template's variables changed
CA804 additive      item-added                 A tool, prompt, resource or template was added
CA805 breaking      allowlisted-item-gone      A removed or renamed item an --allowlist relies on
CA810 breaking      input-required-added       A new required input property
CA811 breaking      input-made-required        An existing input property became required
CA812 breaking      input-removed-closed       Input property removed; additionalProperties false
CA813 compatible    input-removed-open         Input property removed; extra properties allowed
CA814 additive      input-optional-added       A new optional input property
CA815 breaking      input-type-narrowed        An input type was narrowed
CA816 compatible    input-type-widened         An input type was widened
CA817 breaking      input-enum-narrowed        Input enum/const narrowed (values removed or added)
CA818 compatible    input-enum-widened         Input enum widened (values added, enum lifted)
CA819 breaking      input-constraint-tightened An input constraint was tightened
CA820 compatible    input-constraint-loosened  An input constraint was loosened
CA821 compatible    input-made-optional        An input property is no longer required
CA830 breaking      output-removed             An output property or the outputSchema was removed
CA831 breaking      output-changed             An output type, value set or constraint widened
CA832 additive      output-added               An output property or an outputSchema was added
CA833 compatible    output-narrowed            Output narrowed (tighter, fewer values, required)
CA834 breaking      output-made-optional       An output property is no longer required
CA840 unknown       composition-changed        A composed schema ($ref, anyOf, oneOf, ...) changed
CA841 unknown       definition-changed         A $defs/definitions entry (used via $ref) changed
CA842 unknown       schema-undecidable         A schema keyword that cannot be compared changed
CA845 breaking      argument-removed           A prompt argument was removed
CA846 breaking      argument-required          A prompt argument is new and required, or became so
CA847 additive      argument-optional-added    A new optional prompt argument
CA848 compatible    argument-made-optional     A prompt argument is no longer required
CA850 breaking      hint-toward-danger         A tool annotation hint flipped toward danger
CA851 compatible    hint-toward-safety         A hint flipped toward safety or only its default
CA852 breaking      task-required              A tool now requires task support (execution)
CA860 model-visible prose-changed              A description, title or name the model reads
CA861 model-visible prompt-bytes-changed       Prompt bytes changed, meaning did not
CA862 model-visible order-changed              Served order of items or prompt arguments changed
CA863 model-visible instructions-changed       Server instructions changed
CA864 model-visible input-schema-changed       Input schema changed with no contract effect
CA865 breaking      mime-type-changed          A resource or template mimeType changed
CA870 compatible    other-changed              A field outside the prompt projection changed
CA871 cosmetic      served-bytes-only          Served bytes changed outside the prompt projection
CA872 cosmetic      page-fields-changed        Page-level fields changed (ttlMs, _meta, ...)
CA873 cosmetic      hint-defaults-spelled      Hints written out at their spec default (per listing)
"""
#: Rule id -> (class, name, summary).
RULES: dict[str, tuple[str, str, str]] = {
    line[:5]: (line.split()[1], line.split()[2], line.split(maxsplit=3)[3])
    for line in _TABLE.strip().splitlines()
}

#: (default, value a flip toward danger goes to) per MCP ToolAnnotations (spec defaults).
HINTS: dict[str, tuple[bool, bool]] = {
    "readOnlyHint": (False, False),
    "destructiveHint": (True, True),
    "idempotentHint": (False, False),
    "openWorldHint": (True, True),
}


def compare_item(ctx: Ctx, old: Any, new: Any) -> None:
    """Classify every difference between two versions of one item."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        ctx.add("CA870", "", f"item changed: {pair(old, new)}", True)
        return
    in_prompt = PROMPT_FIELDS[ctx.listing]
    for key in differing(old, new):
        at, o, n = pointer_join("", key), old.get(key, ABSENT), new.get(key, ABSENT)
        before, prompt = len(ctx.found), key in in_prompt
        if key == IDENTITY[ctx.listing]:
            continue
        if prompt and key in ("name", "title", "description"):
            ctx.add("CA860", at, f"{key} changed: {pair(o, n)}", True)
        elif key == "inputSchema" and ctx.listing == "tools":
            schema(ctx, o, n, at, "in")
        elif key == "outputSchema" and ctx.listing == "tools":
            if o is ABSENT or n is ABSENT:
                rule = "CA832" if o is ABSENT else "CA830"
                ctx.add(rule, at, "outputSchema " + ("added" if o is ABSENT else "removed"), False)
            else:
                schema(ctx, o, n, at, "out")
        elif key == "annotations" and ctx.listing == "tools":
            _hints(ctx, o if isinstance(o, dict) else {}, n if isinstance(n, dict) else {})
        elif key == "execution" and ctx.listing == "tools":
            task = [v.get("taskSupport", ABSENT) if isinstance(v, dict) else ABSENT for v in (o, n)]
            if task[1] == "required" and task[0] != "required":
                ctx.add(
                    "CA852", at + "/taskSupport", f"taskSupport {pair(task[0], 'required')}", False
                )
        elif key == "arguments" and ctx.listing == "prompts":
            _arguments(ctx, o, n)
        elif key == "mimeType" and o is not ABSENT and n is not ABSENT:
            ctx.add("CA865", at, f"mimeType changed: {pair(o, n)}", True)
        if len(ctx.found) == before:
            rule = "CA864" if prompt else "CA870"
            ctx.add(rule, at, f"{key} changed: {pair(o, n)}", prompt)


def _hints(ctx: Ctx, old: dict[str, Any], new: dict[str, Any]) -> None:
    def eff(ann: dict[str, Any], hint: str) -> bool:
        value = ann.get(hint)
        return value if isinstance(value, bool) else HINTS[hint][0]

    for key in differing(old, new):
        at = "/annotations/" + escape_pointer(key)
        o, n = old.get(key, ABSENT), new.get(key, ABSENT)
        if key not in HINTS:
            ctx.add("CA870", at, f"annotations.{key} changed: {pair(o, n)}", False)
            continue
        was, now = eff(old, key), eff(new, key)
        gated = key in ("destructiveHint", "idempotentHint") and eff(new, "readOnlyHint")
        danger = was != now and now == HINTS[key][1] and not gated
        rule = "CA850" if danger else "CA851"
        note = "" if was != now else f" (effective value stays {str(now).lower()})"
        if gated and was != now:
            note = " (readOnlyHint is true, so this hint has no meaning)"
        ctx.add(rule, at, f"{key} {ex(o)} -> {ex(n)}{note}", False)


def _arguments(ctx: Ctx, old: Any, new: Any) -> None:
    def named(args: Any) -> dict[str, tuple[int, dict[str, Any]]]:
        out: dict[str, tuple[int, dict[str, Any]]] = {}
        for i, a in enumerate(args if isinstance(args, list) else []):
            if isinstance(a, dict) and isinstance(a.get("name"), str):
                out.setdefault(a["name"], (i, a))
        return out

    om, nm = named(None if old is ABSENT else old), named(None if new is ABSENT else new)
    for arg, (i, _) in om.items():
        if arg not in nm:
            ctx.add("CA845", f"/arguments/{i}", f"argument {ex(arg)} removed", True)
    for arg, (j, a) in nm.items():
        at = f"/arguments/{j}"
        req = a.get("required") is True
        if arg not in om:
            rule = "CA846" if req else "CA847"
            ctx.add(rule, at, f"{'required' if req else 'optional'} argument {ex(arg)} added", True)
            continue
        prev = om[arg][1]
        for key in differing(prev, a):
            if key == "required":
                was = prev.get("required") is True
                if was != req:
                    rule = "CA846" if req else "CA848"
                    ctx.add(
                        rule,
                        at + "/required",
                        f"argument {ex(arg)} "
                        + ("became required" if req else "is no longer required"),
                        True,
                    )
                    continue
            ctx.add(
                "CA860" if key in PROSE else "CA864",
                f"{at}/{escape_pointer(key)}",
                f"argument {ex(arg)} {key} changed",
                True,
            )
    common = [a for a in om if a in nm]
    if common != [a for a in nm if a in om]:
        ctx.add("CA862", "/arguments", "order of prompt arguments changed", True)
