"""The cheap tests CA201, CA701 and CA703 run before their patterns never skip a text a pattern
matches: `str.isprintable` before CONTROL, and `_may_match` (an `in` scan of ASCII text, then
one pair of characters, then the shape of each pattern's core) before PER_START and DATE."""

from __future__ import annotations

import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from catalogaudit.rules.spec import volatile
from catalogaudit.rules.spec.volatile import CONTROL, DATE, PER_START

#: Characters the patterns are made of, their look-alikes, and other scripts' digits.
PIECES = st.sampled_from(
    [
        *"0123456789-:.T Zz+_#=/abcdefABCDEFxX\t\n",
        "\u0663",  # ARABIC-INDIC DIGIT THREE: a \d
        "\uff11",  # FULLWIDTH DIGIT ONE
        "\u0130",  # I WITH DOT ABOVE (case folding)
        "\u212a",  # KELVIN SIGN
        "pid",
        "PID",
        "process",
        "Process-ID",
        "localhost",
        "LocalHost",
        "localhoſt",
        "p\u0131d",  # DOTLESS I: "pid" folded
        "p\u0130D",
        "127.0.0.1",
        "[::1]",
        "0.0.0.0",
        "e.g. ",
        "2024-01-15",
        "2024-01-15T14:30:25Z",
        "123e4567-e89b-12d3-a456-426614174000",
        "é",
    ]
)
TEXTS = (
    st.lists(PIECES, max_size=12).map("".join)
    | st.text(max_size=40)
    | st.one_of([st.from_regex(v.pattern) for v in (*PER_START, DATE)])
)


def _plain_search(text: str, patterns: tuple[volatile.Volatile, ...]) -> object:
    """Every pattern, in order, every match: what `_first` answers without its gates."""
    for v in patterns:
        for match in v.pattern.finditer(text):
            if not volatile.is_example(text, match.start()):
                return match.group(0), v.what
    return None


def _exact(text: str) -> tuple[object, object]:
    return _plain_search(text, PER_START), _plain_search(text, (DATE,))


@settings(max_examples=3000, deadline=None)
@given(TEXTS)
@example("pid 12")
@example("x:8080")
@example("abcdefab-abcd-abcd-abcd-abcdefabcdef")
@example("pid 99")
@example("proce\u017fs id 12")
@example("P\u0130D: 42")
@example("LOCALHOST:8080 and pıd=12")
@example("\u0663\u0663\u0663\u0663-\u0663\u0663-\u0663\u0663")
def test_the_gate_never_hides_a_match(text: str) -> None:
    volatile._started.cache_clear()
    exact = _exact(text)
    if exact != (None, None):
        assert volatile._may_match(text)
    started = volatile._started(text)  # False: gated out
    assert (started or None, volatile._first(text, (DATE,))) == exact
    assert started is not False or exact == (None, None)


def test_every_control_character_is_unprintable() -> None:
    # NOTE: CA201 skips printable prose; this holds for every code point, so it skips no hit.
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if CONTROL.match(char):
            assert not char.isprintable(), f"U+{code:04X}"
