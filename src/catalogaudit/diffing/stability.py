"""Are several captures of one catalog the same, and what does a prompt cache pay when they differ?

Prompt caches key on bytes: a client that forwards a tools block whose bytes changed after a
restart re-sends everything from the first changed byte on at full price, even when the
meaning did not change. So every item and listing gets a verdict: `stable`, `bytes-only`
(served hash differs, canonical equal; the cause named) or `content` (canonical differs), the
JSON Pointers that changed, and an estimate of the prompt tokens re-sent uncached. Inputs,
matching and causes come from `compare`, shared with `diff`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from catalogaudit.canonical import count_tokens, prompt_projection, tokens_resent
from catalogaudit.diffing.bill import Prompts, bill, default_prices, prices_header
from catalogaudit.diffing.paths import changed_paths
from catalogaudit.diffing.sides import (
    ItemDelta,
    Key,
    Side,
    byte_causes,
    item_causes,
    keys,
    match,
)
from catalogaudit.model import (
    HASH_KINDS,
    LISTINGS,
    canonical,
    compact_utf8,
    dump_string,
    identity,
    identity_sort_key,
    jcs_key,
    pointer_join,
)
from catalogaudit.model import with_envelope as envelope

VERDICTS: tuple[str, ...] = ("stable", "bytes-only", "content")
#: Capture keys that describe the bookkeeping of the file, not how the catalog was captured.
CAPTURE_IGNORED = frozenset({"runs", "inputs"})
#: Capture keys that hold what the server said about itself (the rest is how we captured it).
SERVER_REPORTED = ("/serverInfo", "/serverCapabilities", "/instructions", "/supportedVersions")
TOKEN_METHOD = (
    "o200k_base tokens (counted offline) of the listing's prompt projection (items in served "
    "order and served key order, compact JSON) from the first token that differs to the end. "
    "Exact for OpenAI's tokenizer, an o200k estimate for Anthropic and Google (no offline "
    "tokenizer is published); each client's own view of the tools is priced under "
    "promptCache.providers. Everything a client sends after the tools block (system prompt, "
    "conversation) misses the cache too and is not counted. Without a wire section the count "
    "starts at the first changed item instead of the first changed byte."
)


# --- prompt cache --------------------------------------------------------------------------------


def _block(name: str, items: Sequence[Any]) -> bytes:
    return compact_utf8([prompt_projection(name, i) for i in items])


def _common_prefix(a: bytes, b: bytes) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # binary search on slice equality: C-speed compares, log(n) steps
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def prompt_cost(old: Side, new: Side, name: str, known: dict[bytes, int]) -> dict[str, Any]:
    """Bytes and estimated tokens of `new`'s listing block a cache holding `old`'s would miss
    (`known`: as for `canonical.count_tokens`)."""
    op = [h.get("prompt") for h in old.hashes(name)]
    np_ = [h.get("prompt") for h in new.hashes(name)]
    if op == np_:
        return {"bytes": 0, "tokens": 0}
    first = next((i for i, (a, b) in enumerate(zip(op, np_, strict=False)) if a != b), None)
    first = min(len(op), len(np_)) if first is None else first
    ow, nw = old.wire_items(name), new.wire_items(name)
    out: dict[str, Any] = {}
    if ow is not None and nw is not None:
        old_block, new_block = _block(name, ow), _block(name, nw)
        offset = _common_prefix(old_block, new_block)
        missed = len(new_block) - offset
        tokens = tokens_resent(old_block, new_block, known)
        out = {"exact": True, "cachedBytes": offset}
    else:
        rest = _block(name, new.served(name)[first:])
        missed, tokens = len(rest), count_tokens(rest, known)
        out = {"exact": False}
    out.update({"bytes": missed, "tokens": tokens})
    if first < len(np_):
        out["fromItem"] = identity(name, new.served(name)[first])
    return out


def text_cost(old: str | None, new: str | None, known: dict[bytes, int]) -> dict[str, Any]:
    """The same estimate for a model-visible string such as `instructions`."""
    a, b = (dump_string(s) if s is not None else "" for s in (old, new))
    if a == b:
        return {"bytes": 0, "tokens": 0}
    missed = len(b.encode()) - _common_prefix(a.encode(), b.encode())
    return {"bytes": missed, "tokens": tokens_resent(a, b, known)}


# --- capture blocks ------------------------------------------------------------------------------


def capture_differences(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Leaf-level differences between two capture blocks: pointer, old value, new value."""
    out: list[dict[str, Any]] = []

    def walk(a: Any, b: Any, at: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b), key=jcs_key):
                if at or k not in CAPTURE_IGNORED:
                    walk(a.get(k, _ABSENT), b.get(k, _ABSENT), pointer_join(at, k))
        elif _canon(a) != _canon(b):
            out.append({"key": at, "old": _show(a), "new": _show(b)})

    walk(old, new, "")
    return out


_ABSENT = object()


def _canon(value: Any) -> str:
    return "<absent>" if value is _ABSENT else canonical(value)


def _show(value: Any) -> Any:
    return None if value is _ABSENT else value


def capture_warning(old: Side, new: Side) -> dict[str, Any] | None:
    """A warning when two capture blocks differ, naming the keys (how captured vs what said)."""
    if not (old.capture_known and new.capture_known):
        return None
    diffs = capture_differences(old.capture, new.capture)
    if not diffs:
        return None
    how = [d["key"] for d in diffs if not d["key"].startswith(SERVER_REPORTED)]
    said = [d["key"] for d in diffs if d["key"].startswith(SERVER_REPORTED)]
    parts = []
    if how:
        parts.append("captured differently (" + ", ".join(how) + ")")
    if said:
        parts.append("the server describes itself differently (" + ", ".join(said) + ")")
    message = (
        f"the capture blocks of {old.label} and {new.label} differ: {'; '.join(parts)}; "
        "'the server changed' and 'it was captured differently' cannot be told apart"
    )
    return {
        "kind": "capture-differs",
        "inputs": [old.label, new.label],
        "message": message,
        "differences": diffs,
    }


# --- the report ----------------------------------------------------------------------------------


def _worst(*verdicts: str) -> str:
    return max(verdicts, key=VERDICTS.index)


def report(
    sides: Sequence[Side],
    notes: Sequence[str] = (),
    prompts: Prompts | None = None,
    prices: tuple[Mapping[str, Any], str] | None = None,
) -> dict[str, Any]:
    """The stability report over inputs (input 1 is the baseline every other is compared with).

    `prompts`: each client's predicted prompt per input (`verify.client_prompts`);
    `prices`: price data and where it came from (default: the built-in data)."""
    base, others = sides[0], list(sides[1:])
    known: dict[bytes, int] = {}  # token counts of text parts, shared by every count below
    warnings = [w for s in others if (w := capture_warning(base, s)) is not None]
    listings = {name: _listing(base, others, name, known) for name in LISTINGS}
    instr = [s.label for s in others if s.instructions != base.instructions]
    per_input = {
        s.label: sum(listings[n]["promptCache"]["perInput"][s.label] for n in LISTINGS)
        + text_cost(base.instructions, s.instructions, known)["tokens"]
        for s in others
    }
    worst = max(per_input.items(), key=lambda kv: kv[1], default=("", 0))
    verdict = _worst("stable", *(rec["verdict"] for rec in listings.values()))
    if instr:
        verdict = "content"
    return envelope(
        "stability",
        {
            "inputs": [s.label for s in sides],
            "baseline": base.label,
            "verdict": verdict,
            "stable": verdict == "stable",
            "instructions": {"verdict": "content" if instr else "stable", "inputs": instr},
            "listings": listings,
            "promptCache": {
                "tokens": worst[1],
                "worstInput": worst[0] or None,
                "perInput": per_input,
                "method": TOKEN_METHOD,
                **billed(base, per_input, prompts or _no_prompts, prices, known),
            },
            "warnings": warnings,
            "notes": list(notes),
        },
    )


def _no_prompts(client: str) -> dict[str, Any]:
    return {}


def model_visible(old: Side, new: Side) -> bool:
    """Whether any byte a client forwards may differ between two sides: a listing's served
    or prompt hashes, or the instructions (equal served bytes are equal prompt bytes for
    every client, whatever it rewrites)."""

    def kinds(side: Side, name: str) -> tuple[Any, Any]:
        hashes = side.record(name).get("hashes") or {}
        return hashes.get("served"), hashes.get("prompt")

    return old.instructions != new.instructions or any(
        kinds(old, n) != kinds(new, n) for n in LISTINGS
    )


def prompt_bill(
    sides: Sequence[Side],
    prompts: Prompts,
    prices: tuple[Mapping[str, Any], str] | None = None,
) -> dict[str, Any]:
    """The report's `promptCache` alone (for `diff` and `snapshot --runs`): tokens re-sent
    against input 1 over every listing and the instructions, and the bill."""
    base = sides[0]
    known: dict[bytes, int] = {}  # token counts of text parts, shared by every count below
    per_input = {
        s.label: sum(prompt_cost(base, s, name, known)["tokens"] for name in LISTINGS)
        + text_cost(base.instructions, s.instructions, known)["tokens"]
        for s in sides[1:]
    }
    worst = max(per_input.items(), key=lambda kv: kv[1], default=("", 0))
    return {
        "tokens": worst[1],
        "worstInput": worst[0] or None,
        "perInput": per_input,
        "method": TOKEN_METHOD,
        **billed(base, per_input, prompts, prices, known),
    }


def billed(
    base: Side,
    per_input: Mapping[str, int],
    prompts: Prompts,
    prices: tuple[Mapping[str, Any], str] | None,
    known: dict[bytes, int],
) -> dict[str, Any]:
    """`providers` (the bill, `diffing.bill`) and `prices` (their date and sources), priced
    on each client's prompt, else on the served prompt projection of `base` (`known`: as
    for `canonical.count_tokens`)."""
    data, source = prices if prices is not None else (default_prices(), "built-in")

    def served() -> int:
        items = base.wire_items("tools") or base.served("tools")
        return count_tokens(_block("tools", items), known)

    rows = bill(prompts, (served, per_input), data, known)
    return {"providers": rows, "prices": prices_header(data, source)}


def _listing(
    base: Side, others: Sequence[Side], name: str, known: dict[bytes, int]
) -> dict[str, Any]:
    items: dict[Key, dict[str, Any]] = {k: _entry(k) for k in keys(name, base.served(name))}
    causes: dict[str, list[str]] = {}
    agree = dict.fromkeys((*HASH_KINDS, "pageFields"), True)
    per_input: dict[str, int] = {}
    best: dict[str, Any] = {"bytes": 0, "tokens": 0}
    page_paths: set[str] = set()
    page_verdict = "stable"
    for side in others:
        deltas, order_changed = match(base, side, name)
        for d in deltas:
            _merge_item(items.setdefault(d.key, _entry(d.key)), base, side, name, d)
        old_h, new_h = base.record(name).get("hashes") or {}, side.record(name).get("hashes") or {}
        for kind in agree:
            agree[kind] = agree[kind] and old_h.get(kind) == new_h.get(kind)
        if order_changed:
            causes.setdefault("item order", []).append(side.label)
        if base.record(name).get("status") != side.record(name).get("status"):
            causes.setdefault("listing status", []).append(side.label)
        pv, paths = _page_fields(base, side, name)
        if pv != "stable":
            causes.setdefault("page fields", []).append(side.label)
            page_verdict, page_paths = _worst(page_verdict, pv), page_paths | set(paths)
        hashes_equal = old_h == new_h and not order_changed
        texts = side.page_texts(name)
        if hashes_equal and texts and base.page_texts(name) != texts:
            causes.setdefault("escaping/whitespace", []).append(side.label)
        cost = prompt_cost(base, side, name, known)
        per_input[side.label] = cost["tokens"]
        if cost["tokens"] > best["tokens"]:
            best = {**cost, "input": side.label}
    lost = _dict(base.lost_agreement.get(name))
    if base.lost_runs and not all(lost.values()):
        causes["differed at capture (pages not kept)"] = list(base.lost_runs)
        bytes_only = lost.get("canonical") is not False and not all(
            lost.get(k, True) for k in ("served", "prompt")
        )  # only page fields differed: their kind is not known, so say content
        lost_verdict = "bytes-only" if bytes_only else "content"
        agree = {k: agree[k] and lost.get(k, True) is True for k in agree}
    else:
        lost_verdict = "stable"
    entries = sorted(items.values(), key=lambda e: identity_sort_key(e["identity"], 0))
    verdict = _worst(lost_verdict, page_verdict, *(e["verdict"] for e in entries))
    if causes.keys() & {"item order", "escaping/whitespace"}:
        verdict = _worst(verdict, "bytes-only")
    if "listing status" in causes:
        verdict = "content"
    return {
        "status": base.record(name).get("status", "absent"),
        "verdict": verdict,
        "hashesAgree": agree,
        "causes": [{"cause": c, "inputs": labels} for c, labels in sorted(causes.items())],
        "items": entries,
        "pageFields": {"verdict": page_verdict, "paths": sorted(page_paths)},
        "promptCache": {**best, "perInput": per_input},
    }


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _entry(key: Key) -> dict[str, Any]:
    return {
        "identity": key[0],
        "occurrence": key[1],
        "verdict": "stable",
        "promptChanged": False,
        "causes": [],
        "paths": [],
        "inputs": [],
    }


def _merge_item(entry: dict[str, Any], base: Side, side: Side, name: str, d: ItemDelta) -> None:
    verdict = d.verdict
    if verdict == "stable":
        return
    entry["inputs"].append(side.label)
    entry["promptChanged"] = entry["promptChanged"] or d.prompt_changed
    if verdict in ("added", "removed"):
        entry["verdict"] = "content"
        what = "missing in" if verdict == "removed" else "only in"
        _add(entry["causes"], {"cause": f"item {what} {side.label}", "pointer": ""})
        _add(entry["paths"], "")
        return
    entry["verdict"] = _worst(entry["verdict"], verdict)
    causes = item_causes(base, side, name, d)
    for cause in causes:
        _add(entry["causes"], cause)
    if verdict == "content":
        _add(entry["causes"], {"cause": "content", "pointer": ""})
    paths = changed_paths(d.old, d.new) if verdict == "content" else [c["pointer"] for c in causes]
    for path in paths:
        _add(entry["paths"], path)


def _add(values: list[Any], value: Any) -> None:
    if value not in values:
        values.append(value)
        values.sort(key=lambda v: canonical(v))


def _page_fields(base: Side, side: Side, name: str) -> tuple[str, list[str]]:
    old = [p.get("fields") for p in base.record(name).get("pages") or [] if isinstance(p, dict)]
    new = [p.get("fields") for p in side.record(name).get("pages") or [] if isinstance(p, dict)]
    old_hash = (base.record(name).get("hashes") or {}).get("pageFields")
    new_hash = (side.record(name).get("hashes") or {}).get("pageFields")
    if canonical(old) != canonical(new):
        return "content", changed_paths(old, new)
    if old_hash != new_hash:
        return "bytes-only", [p for _, p in byte_causes(old, new)]
    return "stable", []
