"""Ordered prose substitutions: the operators' grammar, parsed strictly and applied with bounds.

The grammar is the one of the GitLab MCP server's `GITLAB_MCP_DESCRIPTION_SUBSTITUTIONS`
(peer-tools.md 3b), so a configuration carries over unchanged: a comma-separated list of
`old=new` pairs; within a pair the first unescaped `=` splits old from new and later ones are
literal; a backslash escapes only `\\,`, `\\=` and `\\\\`; whitespace is significant; an empty
`new` deletes. Everything else is an error that names the pair, because a typo that is silently
absorbed ships a rewrite nobody wrote.

Applying is bounded so a rule cannot blow up a catalog that is put in front of every LLM
request: a rewritten string may not exceed `max(2 x input, input + 64)` UTF-8 bytes, each pair's
result length is computed from its occurrence count before the string is built, and a string
that would cross the ceiling is left exactly as written (the caller reports it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from catalogaudit.errors import UsageError
from catalogaudit.model import dump_string

#: Bounds, in UTF-8 bytes (issue 5): a configuration is a knob, not a program.
MAX_PAIRS = 32
MAX_SIDE_BYTES = 256
#: Growth ceiling of one string: max(GROWTH_FACTOR x input, input + GROWTH_SLACK) bytes.
GROWTH_FACTOR = 2
GROWTH_SLACK = 64

ENV_VAR = "CATALOGAUDIT_SUBSTITUTIONS"
_ESCAPABLE = (",", "=", "\\")


@dataclass(frozen=True)
class Pair:
    """One `old=new` rule, with its 1-based position and the text the operator wrote."""

    index: int
    old: str
    new: str
    #: The pair exactly as written (escapes included), for messages.
    written: str

    @property
    def label(self) -> str:
        """How messages name the pair: `pair 2 ";=\\\\,"` (JSON-quoted, so nothing is hidden)."""
        return f"pair {self.index} {dump_string(self.written)}"


@dataclass(frozen=True)
class Substitutions:
    """A parsed substitution list and the string it came from."""

    pairs: tuple[Pair, ...]
    text: str

    def as_list(self) -> list[dict[str, str]]:
        """Plain `[{"old": ..., "new": ...}]` for the snapshot's `derived` block and reports."""
        return [{"old": p.old, "new": p.new} for p in self.pairs]


def _fail(origin: str, index: int, written: str, why: str) -> UsageError:
    return UsageError(f"{origin}: pair {index} {dump_string(written)}: {why}")


def _nbytes(text: str) -> int:
    # NOTE: surrogatepass so a lone surrogate served by a hostile server is counted, not fatal.
    return len(text.encode("utf-8", "surrogatepass"))


def _split(text: str) -> list[str]:
    """Split on unescaped commas; a backslash always takes the next character with it here
    (unknown escapes are rejected per pair afterwards, so the message can show the whole pair)."""
    pairs: list[str] = []
    start = i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == ",":
            pairs.append(text[start:i])
            start = i + 1
        i += 1
    pairs.append(text[start:])
    return pairs


def _decode(written: str, origin: str, index: int) -> list[tuple[str, bool]]:
    """The characters of one pair, each with whether it was escaped."""
    chars: list[tuple[str, bool]] = []
    i = 0
    while i < len(written):
        ch = written[i]
        if ch != "\\":
            chars.append((ch, False))
            i += 1
            continue
        nxt = written[i + 1 : i + 2]
        if nxt not in _ESCAPABLE or not nxt:
            what = f"unknown escape {dump_string(ch + nxt)}" if nxt else "a lone \\ at the end"
            raise _fail(origin, index, written, f"{what} (only \\, \\= and \\\\ are escapes)")
        chars.append((nxt, True))
        i += 2
    return chars


def parse(text: str, origin: str = "--substitutions") -> Substitutions:
    """Parse a substitution list strictly; every error names the offending pair (1-based)."""
    if text == "":
        raise UsageError(f"{origin}: empty; give old=new pairs separated by commas")
    raw = _split(text)
    pairs: list[Pair] = []
    for index, written in enumerate(raw, 1):
        if not written:
            why = (
                "a trailing comma (nothing after the last comma)"
                if index == len(raw) and index > 1
                else "empty pair (two commas in a row, or a leading comma)"
            )
            raise _fail(origin, index, written, why)
        if index > MAX_PAIRS:
            raise _fail(origin, index, written, f"more than {MAX_PAIRS} pairs")
        chars = _decode(written, origin, index)
        split = next((k for k, (ch, esc) in enumerate(chars) if ch == "=" and not esc), None)
        if split is None:
            raise _fail(origin, index, written, "no unescaped '=' between old and new")
        old = "".join(ch for ch, _ in chars[:split])
        new = "".join(ch for ch, _ in chars[split + 1 :])
        if not old:
            raise _fail(origin, index, written, "empty old text (nothing to replace)")
        for side, value in (("old", old), ("new", new)):
            if any("\ud800" <= ch <= "\udfff" for ch in value):
                raise _fail(origin, index, written, f"{side} text is not valid UTF-8")
            size = _nbytes(value)
            if size > MAX_SIDE_BYTES:
                raise _fail(
                    origin,
                    index,
                    written,
                    f"{side} text is {size} bytes; at most {MAX_SIDE_BYTES} UTF-8 bytes per side",
                )
        pairs.append(Pair(index, old, new, written))
    return Substitutions(tuple(pairs), text)


def escape(text: str) -> str:
    """One side of a pair written in the grammar (the inverse of parsing it)."""
    return text.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")


def format_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    """A substitution string that parses back to exactly these (old, new) pairs."""
    return ",".join(f"{escape(old)}={escape(new)}" for old, new in pairs)


def ceiling(size: int) -> int:
    """The largest rewritten size, in bytes, allowed for a string of `size` bytes."""
    return max(GROWTH_FACTOR * size, size + GROWTH_SLACK)


@dataclass(frozen=True)
class Applied:
    """The outcome for one string: the text to keep and, when refused, the pair that crossed."""

    text: str
    crossed: Pair | None = None
    #: Size the crossing pair would have produced, and the ceiling it crossed (bytes).
    would_be: int = 0
    limit: int = 0


def apply(subs: Substitutions, text: str) -> Applied:
    """Apply every pair in order, each to the previous one's output, replacing leftmost
    non-overlapping occurrences (`str.replace` semantics). The size of each step is computed
    from the occurrence count first, so a runaway rule is refused before it allocates."""
    size = _nbytes(text)
    limit = ceiling(size)
    current, current_size = text, size
    for pair in subs.pairs:
        count = current.count(pair.old)
        if not count:
            continue
        after = current_size + count * (_nbytes(pair.new) - _nbytes(pair.old))
        if after > limit:
            return Applied(text, pair, after, limit)
        current = current.replace(pair.old, pair.new)
        current_size = after
    return Applied(current)


# --- suggestions --------------------------------------------------------------------------------

#: Replacements proposed for substrings enforcers refuse (compat-rules.md CF-DESC-001: the
#: ContextForge lists; the workaround column says "and", "or"). Longer patterns first, so
#: `&&` is handled before any rule for `&` could split it.
SHELLISH: tuple[tuple[str, str], ...] = (
    ("&&", "and"),
    ("||", "or"),
    ("$(", "$ ("),
    (";", ","),
    ("|", "/"),
    ("`", ""),  # a code span keeps its text; a quote would be HTML-escaped by old releases
    ("> ", ">"),
    ("< ", "<"),
)

#: ASCII stand-ins for the non-ASCII characters real descriptions use most.
ASCII_FOLD: dict[str, str] = {
    "\u2014": "-",
    "\u2013": "-",
    "\u2011": "-",
    "\u2212": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u00ab": '"',
    "\u00bb": '"',
    "\u2026": "...",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2192": "->",
    "\u2190": "<-",
    "\u21d2": "=>",
    "\u00d7": "x",
    "\u2264": "<=",
    "\u2265": ">=",
    "\u2260": "!=",
    "\u2022": "-",
    "\u00b7": "-",
    "\u00a9": "(c)",
    "\u00ae": "(R)",
    "\u2122": "(TM)",
}


def shellish_candidates(texts: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs for the refused substrings present in any of `texts`, in a safe order."""
    return [(old, new) for old, new in SHELLISH if any(old in t for t in texts)]


def ascii_candidates(texts: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs that make `texts` pure ASCII: a known stand-in (`×` -> `x`), else the NFKD letters
    without accents (`é` -> `e`), else deletion of a symbol (an emoji has no ASCII spelling).

    A letter or digit of any script is never deleted (`万` has no ASCII spelling, and deleting
    it changes what the text says): `unspellable` names them, for a rewrite by hand.
    """
    seen: dict[str, str] = {}
    for text in texts:
        for ch in text:
            if ord(ch) < 0x80 or ch in seen:
                continue
            if ch in ASCII_FOLD:
                seen[ch] = ASCII_FOLD[ch]
                continue
            ascii_part = _ascii_spelling(ch)
            if ascii_part or not _is_wording(ch):
                seen[ch] = ascii_part
    return sorted(seen.items())


def unspellable(texts: Sequence[str]) -> list[str]:
    """The letters and digits of `texts` that have no ASCII spelling, in first-seen order."""
    out: dict[str, None] = {}
    for text in texts:
        for ch in text:
            if ord(ch) >= 0x80 and ch not in ASCII_FOLD and _is_wording(ch):
                if not _ascii_spelling(ch):
                    out[ch] = None
    return list(out)


def _ascii_spelling(ch: str) -> str:
    """The printable ASCII left of `ch` after NFKD (`é` -> `e`; `万` -> nothing)."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 0x80 and c.isprintable()
    )


def _is_wording(ch: str) -> bool:
    """A letter or a digit (Unicode categories L* and N*): part of what the text says."""
    return unicodedata.category(ch)[0] in "LN"


def resolve(
    explicit: str | None, environ: Mapping[str, str] | None, *, env_flag: str = ""
) -> Substitutions | None:
    """The substitutions a run uses: `--substitutions` wins; else `CATALOGAUDIT_SUBSTITUTIONS`
    when the verb reads the environment (`environ` given). `env_flag` names the option that asked
    for the variable, which then must be set."""
    if explicit is not None:
        return parse(explicit, "--substitutions")
    if environ is None:
        return None
    value = environ.get(ENV_VAR)
    if value is None:
        if env_flag:
            raise UsageError(f"{env_flag}: {ENV_VAR} is not set")
        return None
    return parse(value, ENV_VAR)
