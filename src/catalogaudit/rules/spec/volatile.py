"""Spec rules over prose that changes per start or per machine (CA701, CA703, CA704), and
over prose that is not inert text (CA201: control and bidi characters).

Clients put the catalog at the front of every LLM request, so a value that changes between
starts (a timestamp, a UUID, a random port, a pid) or between machines (the host's time zone or
locale, which mcp-server-time writes into its descriptions) makes the prompt cache miss. Two
things clear a suspect: an example value ("e.g., '2024-01-15T14:30:25'") is not a clock, and
`snapshot --runs` with restarts that saw the item's bytes identical proves it stable per start
(each item by its own runs: another item that changed clears or condemns nothing). One capture
cannot tell an example written without "e.g." ("ISO 8601 format (2019-03-15T08:00:00Z)") from
a clock, so its hits are CA704's, info (a suspect: no gate but `--fail-on info` fails on
it), saying how to find out (`--runs`); CA701 (warning) is what runs saw change. Runs on one
machine prove nothing per machine: environment values stay CA701's on one capture too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from catalogaudit import walker
from catalogaudit.model import Catalog, Item
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.spec.common import hit, may_hold, strings
from catalogaudit.rules.spec.runs import Runs, runs_of

_LOCAL_HOST = r"(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)"


@dataclass(frozen=True)
class Volatile:
    """A pattern of text that changes per start."""

    pattern: re.Pattern[str]
    what: str
    #: How many "-" every match holds: a text with fewer is not searched (`str.count`).
    dashes: int = 0
    #: A test cheaper than the pattern that every text it matches passes (truthy; None: none).
    gate: Callable[[str], object] | None = None


def _local_host(text: str) -> bool:
    """Whether a text names a local host as `_LOCAL_HOST` does: "localhost" folded as the
    pattern folds (no letter of "localho" has another fold than its capital), or the others
    as written (digits and punctuation do not fold). `in` is a C search, cheaper than the
    pattern case-folded at every position."""
    return "127." in text or "[::1]" in text or "0.0.0.0" in text or "localho" in text.lower()


#: What changes per start, in the order a text is searched (CA701).
PER_START = (
    Volatile(
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
        ),
        "a timestamp",
        2,
    ),
    Volatile(
        re.compile(
            r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
        ),
        "a UUID",
        4,
    ),
    Volatile(
        re.compile(_LOCAL_HOST + r":\d{1,5}\b", re.IGNORECASE), "a local port", gate=_local_host
    ),
    Volatile(
        re.compile(r"\b(?:pid|process(?:[ _-]?id)?)\b[\s:=#]*\d{2,}\b", re.IGNORECASE),
        "a process id",
        # NOTE: the word alone, folded as the pattern folds ("pıd", "proceſs"): cheaper.
        gate=re.compile(r"p(?:id|rocess)", re.IGNORECASE).search,
    ),
)
#: A date alone (CA703, info: a release date in a description is often deliberate).
DATE = Volatile(
    re.compile(r"\b(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b"), "a date", 2
)
LOCAL_PORT = re.compile(r"^[a-z]+://" + _LOCAL_HOST + r":\d+", re.IGNORECASE)
#: Words that introduce an example value, right before it (quotes and brackets may sit between).
EXAMPLE = re.compile(
    r"(?:\be\.?\s?g\b\.?|\bi\.e\b\.?|\bfor (?:example|instance)|\bexamples?\b|\bsuch as|\blike)"
    r"[\s,:;'\"`(\[]*(?:[a-z][a-z0-9+.-]*://)?$",
    re.IGNORECASE,
)
#: Captured environment variables whose values real servers write into prose (per machine).
ENV_NAMES = ("TZ", "LANG")
ENV_PREFIX = "LC_"
#: Control characters (C0 but tab, LF and CR; DEL; C1) and the bidi controls of Unicode TR#9.
CONTROL = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def is_example(text: str, start: int) -> bool:
    """True when the match at `start` is introduced as an example ("e.g., '…'")."""
    return EXAMPLE.search(text[max(0, start - 40) : start]) is not None


def volatile_content(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA701: content that changed per start in an item `snapshot --runs` saw change
    (timestamps, UUIDs, local ports, pids in prose, a local port in a `$ref`), or that changes
    per machine (the captured TZ, LANG and LC_* values), on one capture too."""
    runs = runs_of(catalog)
    env = environment_values(catalog)
    if runs is None and not env:
        return  # one capture, no captured values: everything is CA704's (no second walk)
    for item in catalog.all_items():
        if runs is None:  # per start: CA704's; a text it flags is not searched per machine
            yield from _content(item, None, env, per_start=True, report=False)
        else:
            yield from _content(item, runs, env, per_start=runs.item_changed(item), report=True)


def maybe_volatile(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA704: on one capture, what CA701 reports per start once runs saw the item change: a
    suspect, worded with the way to find out (`--runs`)."""
    if runs_of(catalog) is None:
        for item in catalog.all_items():
            yield from _content(item, None, {}, per_start=True, report=True)


def _content(
    item: Item, runs: Runs | None, env: dict[str, str], *, per_start: bool, report: bool
) -> Iterator[Hit]:
    """One item's per-start hits (when `report`; searched when `per_start`) and per-machine
    hits (of `env`, in the texts without a per-start value)."""
    for visit in walker.visits(item.listing, item.value):
        text = visit.text
        match = _started(text) if per_start else None
        if match:
            if report:
                yield _hit(item, visit.pointer, match[0], match[1], _per_start(runs))
        elif env:  # no captured values: no generator per visit for nothing
            yield from _per_machine(item, visit.pointer, text, env)
    if not (per_start and report) or item.listing != "tools" or not isinstance(item.value, dict):
        return
    for key in ("inputSchema", "outputSchema"):
        schema = item.value.get(key)
        if not may_hold(schema, "$ref", item):
            continue  # no `$ref` member, so no pointer ends in /$ref
        for text, at in strings(schema, "/" + key):
            if at.endswith("/$ref") and LOCAL_PORT.match(text):
                why = f"$ref {quote(text)} embeds a local port that may change {_per_start(runs)}"
                yield hit(item, at, why, text)


def volatile_dates(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA703: a date alone in prose (no timestamp or UUID beside it), which may change."""
    runs = runs_of(catalog)
    for item in catalog.all_items():
        if runs is not None and not runs.item_changed(item):
            continue
        for visit in walker.visits(item.listing, item.value):
            if _started(visit.text) is None:  # NOTE: False (most prose): no pattern can match
                match = _first(visit.text, (DATE,))
                if match:
                    yield _hit(item, visit.pointer, match[0], match[1], _per_start(runs))


def control_characters(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA201: control or bidi characters in prose: a terminal, log or model reads them as
    commands (BEL, ESC) or as reordering (U+202E shows text other than what is sent)."""
    for item in catalog.all_items():
        for visit in walker.visits(item.listing, item.value):
            if visit.text.isprintable():
                continue  # NOTE: every CONTROL character is unprintable; a C scan, not sre
            found = _controls(visit.text)
            if found:
                why, text = f"{visit.key} contains {found}", visit.text
                yield hit(item, visit.pointer, why, _around(text), offending=text)
    text = catalog.instructions or ""
    found = _controls(text)
    if found:
        yield Hit(
            None,
            "/capture/instructions",
            f"server instructions contain {found}",
            excerpt=_around(text),
            offending=text,
        )


def _controls(text: str) -> str:
    """The distinct control characters of a text, named as U+XXXX, or ""."""
    if CONTROL.search(text) is None:
        return ""  # nearly all prose: one scan, no list, no join
    chars = dict.fromkeys(CONTROL.findall(text))
    return ", ".join(f"U+{ord(c):04X}" for c in chars)


def _around(text: str) -> str:
    """Up to 40 characters of text from shortly before its first control character."""
    match = CONTROL.search(text)
    start = max(0, match.start() - 10) if match else 0
    return text[start : start + 40]


def _per_start(runs: Runs | None) -> str:
    """When a per-start value may change, and what is known of it."""
    if runs is None:
        return (
            "between starts (one capture cannot tell it from an example value: "
            "`snapshot --runs 3` shows whether it does)"
        )
    return f"between starts (this item's served bytes changed across the {runs.count} runs)"


def environment_values(catalog: Catalog) -> dict[str, str]:
    """The TZ, LANG and LC_* values the capture recorded, value -> variable (3+ characters,
    so `C` or `en` alone never matches)."""
    server = catalog.capture.get("server")
    env = server.get("environment") if isinstance(server, dict) else None
    values = env.get("values") if isinstance(env, dict) else None
    if not isinstance(values, dict):
        return {}
    return {
        value: name
        for name, value in sorted(values.items())
        if (name in ENV_NAMES or name.startswith(ENV_PREFIX))
        and isinstance(value, str)
        and len(value) >= 3
    }


#: What every match of PER_START and DATE contains: a digit or hex digit before "-"
#: (timestamps, dates, UUIDs), ":" before a digit (local ports), or two digits (pids).
#: Most prose has none: a scan for a pair of characters (led by a character class, which sre
#: skips to) is much faster than the patterns, case-folded, at every position.
_PAIR = re.compile(r"[\da-fA-F:][\d-]")
#: What every match contains, narrower: four (hex) digits, "-" and two (timestamps, dates,
#: UUIDs), ":" before a digit (local ports), or the word a pid pattern starts with (folded as
#: that pattern folds). Asked only of the few texts with a pair ("UTF-8", "RFC 8785").
_SHAPE = re.compile(r"[\da-fA-F]{4}-[\da-fA-F]{2}|:\d|(?i:p(?:id|rocess))")
_ASCII_DIGITS = tuple("0123456789")


def _may_match(text: str) -> bool:
    """Whether any PER_START or DATE pattern could match.

    NOTE: an ASCII text's digits are 0-9, and without a digit only a UUID of letters can
    match, which holds four "-": so nearly all prose is answered by `in` and `count` (C
    searches) before any pattern runs."""
    if text.isascii():
        for digit in _ASCII_DIGITS:
            if digit in text:
                break
        else:
            if text.count("-") < 4:
                return False
    return _PAIR.search(text) is not None and _SHAPE.search(text) is not None


@lru_cache(maxsize=1 << 16)
def _started(text: str) -> tuple[str, str] | Literal[False] | None:
    """The first per-start value of a text (`_first` of PER_START), None when it has none, or
    False when no pattern, not even DATE, can match (`_may_match`); kept: CA701 or CA704 and
    CA703 ask it of the same texts."""
    return _first(text, PER_START) if _may_match(text) else False


def _first(text: str, patterns: tuple[Volatile, ...]) -> tuple[str, str] | None:
    """The first (match, what) of the patterns in text (`_may_match`) not an example value."""
    dashes = text.count("-")
    for volatile in patterns:
        if dashes < volatile.dashes or volatile.gate is not None and not volatile.gate(text):
            continue  # NOTE: "e.g. 2026-07-28T12:00:00Z" is not scanned for a UUID, a port
        for match in volatile.pattern.finditer(text):
            if not is_example(text, match.start()):
                return match.group(0), volatile.what
    return None


def _per_machine(item: Item, pointer: str, text: str, env: dict[str, str]) -> Iterator[Hit]:
    for value, name in env.items():
        if re.search(r"(?<![\w/])" + re.escape(value) + r"(?![\w/])", text):
            yield _hit(item, pointer, value, f"the captured {name} value", "between machines")
            return


def _hit(item: Item, pointer: str, found: str, what: str, when: str) -> Hit:
    return hit(
        item, pointer, f"text contains {what} ({quote(found)}) that may change {when}", found
    )
