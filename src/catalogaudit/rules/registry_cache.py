"""The cache rules of the spec profile (CA7xx: what makes a client's prompt cache miss),
declared as `rules/registry.py` declares the others."""

from __future__ import annotations

from catalogaudit.model import Severity
from catalogaudit.rules.base import Rule
from catalogaudit.rules.spec import pages as spec_pages
from catalogaudit.rules.spec import volatile as spec_volatile

E, W, INF = Severity.ERROR, Severity.WARNING, Severity.INFO

CACHE_RULES: tuple[Rule, ...] = (
    Rule(
        "CA701",
        "cache.volatile-content",
        W,
        "No per-start content in prose or schemas",
        "Clients put the catalog at the front of every LLM request; a timestamp, UUID, local "
        "port or pid in an item snapshot --runs saw change between starts, or the captured "
        "TZ/LANG/LC_* value that changes per machine, makes every request miss the prompt cache "
        "(dates: CA703; on one capture, which cannot tell, CA704). An example value "
        "('e.g., ...') is not flagged, nor text in an item snapshot --runs saw identical.",
        "Move volatile values out of descriptions and schemas.",
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools",
        spec_volatile.volatile_content,
        ("spec", "cache"),
    ),
    Rule(
        "CA703",
        "cache.volatile-date",
        INF,
        "No date that may change per start in prose",
        "A date alone in a description may be a release date (deliberate) or today's date "
        "(which misses the prompt cache every day); split from CA701.",
        "Keep a date only if it does not change between starts.",
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools",
        spec_volatile.volatile_dates,
        ("spec", "cache"),
    ),
    Rule(
        "CA704",
        "cache.maybe-volatile",
        INF,
        "No value in prose that one capture cannot tell from per-start content",
        "One capture cannot tell an example value written without 'e.g.' (a sample timestamp, "
        "UUID, local port or pid) from one that changes per start; snapshot --runs 3 restarts "
        "the server and shows which: an item whose bytes changed is reported by CA701, one that "
        "stayed identical by nothing. Info: a suspect, not a finding (split from CA701).",
        "Capture with `snapshot --runs 3`; if the value is an example, introduce it as one "
        "('e.g., ...').",
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools",
        spec_volatile.maybe_volatile,
        ("spec", "cache"),
    ),
    Rule(
        "CA702",
        "cache.unstable-runs",
        E,
        "The catalog is identical across restarts",
        "snapshot --runs saw different hashes between starts (the items that changed are "
        "named): prompt caches miss after every restart.",
        "Sort items, fix key order and remove volatile content; see `catalogaudit stability`.",
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools",
        spec_pages.instability,
        ("spec", "cache"),
    ),
)
