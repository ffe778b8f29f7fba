"""The substitution grammar (GitLab MCP server's, strictly) and the growth bound."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalogaudit.errors import UsageError
from catalogaudit.rewriting.substitutions import (
    ENV_VAR,
    Substitutions,
    apply,
    ascii_candidates,
    ceiling,
    format_pairs,
    parse,
    resolve,
    shellish_candidates,
)

E_ACUTE = "\u00e9"


def pairs(text: str) -> list[tuple[str, str]]:
    return [(p.old, p.new) for p in parse(text).pairs]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (";=\\,", [(";", ",")]),
        ("a=b", [("a", "b")]),
        ("a=b=c", [("a", "b=c")]),  # the first unescaped = splits; later ones are literal
        ("a\\=b=c", [("a=b", "c")]),
        ("\\==eq", [("=", "eq")]),
        ("a=", [("a", "")]),  # empty new deletes
        (" ; = ", [(" ; ", " ")]),  # whitespace is significant
        (" ; = \\, ", [(" ; ", " , ")]),
        ("\\\\=/", [("\\", "/")]),
        ("x=y,y=z", [("x", "y"), ("y", "z")]),
        ("é=e,\u2014=-", [("é", "e"), ("\u2014", "-")]),
        ("a\\,b=c\\\\d", [("a,b", "c\\d")]),
    ],
)
def test_grammar(text: str, expected: list[tuple[str, str]]) -> None:
    assert pairs(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "--substitutions: empty; give old=new pairs separated by commas"),
        ("a=b,", '--substitutions: pair 2 "": a trailing comma (nothing after the last comma)'),
        (
            ",a=b",
            '--substitutions: pair 1 "": empty pair (two commas in a row, or a leading comma)',
        ),
        (
            "a=b,,c=d",
            '--substitutions: pair 2 "": empty pair (two commas in a row, or a leading comma)',
        ),
        (",", '--substitutions: pair 1 "": empty pair (two commas in a row, or a leading comma)'),
        ("=x", '--substitutions: pair 1 "=x": empty old text (nothing to replace)'),
        ("a=b,=", '--substitutions: pair 2 "=": empty old text (nothing to replace)'),
        ("abc", "--substitutions: pair 1 \"abc\": no unescaped '=' between old and new"),
        ("a\\=b", "--substitutions: pair 1 \"a\\\\=b\": no unescaped '=' between old and new"),
        (
            "a=b,c\\n=d",
            '--substitutions: pair 2 "c\\\\n=d": unknown escape "\\\\n" '
            "(only \\, \\= and \\\\ are escapes)",
        ),
        (
            "\\t=x",
            '--substitutions: pair 1 "\\\\t=x": unknown escape "\\\\t" '
            "(only \\, \\= and \\\\ are escapes)",
        ),
        (
            "a=b\\",
            '--substitutions: pair 1 "a=b\\\\": a lone \\ at the end '
            "(only \\, \\= and \\\\ are escapes)",
        ),
        (
            "x" * 257 + "=y",
            f'--substitutions: pair 1 "{"x" * 257}=y": old text is 257 bytes; '
            "at most 256 UTF-8 bytes per side",
        ),
        (
            "a=" + E_ACUTE * 129,
            f'--substitutions: pair 1 "a={E_ACUTE * 129}": new text is 258 bytes; '
            "at most 256 UTF-8 bytes per side",
        ),
        (
            ",".join(f"k{i}=v" for i in range(33)),
            '--substitutions: pair 33 "k32=v": more than 32 pairs',
        ),
        ("a\udcff=b", '--substitutions: pair 1 "a\\udcff=b": old text is not valid UTF-8'),
    ],
)
def test_malformed_lists_get_precise_errors(text: str, message: str) -> None:
    with pytest.raises(UsageError) as info:
        parse(text)
    assert str(info.value) == message
    assert "\n" not in str(info.value)


def test_bounds_are_inclusive() -> None:
    assert len(parse(",".join(f"k{i}=v" for i in range(32))).pairs) == 32
    assert pairs("x" * 256 + "=" + "\u00e9" * 128) == [("x" * 256, "\u00e9" * 128)]


def test_origin_names_the_environment_variable() -> None:
    with pytest.raises(UsageError, match=f"^{ENV_VAR}: pair 1"):
        resolve(None, {ENV_VAR: "nope"})


def test_resolve_precedence() -> None:
    env = {ENV_VAR: "a=b"}
    assert resolve(None, None) is None
    assert resolve(None, {}) is None
    got = resolve(None, env)
    assert got is not None and got.text == "a=b"
    explicit = resolve("c=d", env)
    assert explicit is not None and explicit.text == "c=d"
    with pytest.raises(
        UsageError, match="--substitutions-from-env: CATALOGAUDIT_SUBSTITUTIONS is not set"
    ):
        resolve(None, {}, env_flag="--substitutions-from-env")


def test_pairs_apply_in_order_leftmost_non_overlapping() -> None:
    subs = parse("aa=b,b=c")
    # "aaa": leftmost non-overlapping gives "ba", then b->c on the previous output
    assert apply(subs, "aaa").text == "ca"
    assert apply(parse(";=\\,"), "a; b; c").text == "a, b, c"
    assert apply(parse(" ;=;"), "x ; y").text == "x; y"


def test_growth_bound_refuses_a_multiplying_rule() -> None:
    subs = parse("a=aaaaaaaaaa")
    text = "a" * 100  # 100 bytes -> 1000 bytes; ceiling is 200
    out = apply(subs, text)
    assert out.text == text
    assert out.crossed is not None and out.crossed.index == 1
    assert (out.would_be, out.limit) == (1000, 200)


def test_growth_bound_names_the_first_pair_that_crossed() -> None:
    subs = parse("x=y,a=aaa,b=bbbbbbbbbbbbbbbbbbbbb")
    text = "a" * 40 + "b" * 40  # 80 bytes, ceiling 160: pair 2 gives 160 (ok), pair 3 crosses
    out = apply(subs, text)
    assert out.crossed is not None and out.crossed.index == 3
    assert out.text == text


def test_growth_ceiling_small_strings_get_slack() -> None:
    assert ceiling(0) == 64
    assert ceiling(10) == 74
    assert ceiling(64) == 128
    assert ceiling(100) == 200
    # one byte may grow to 65 (1 + 64), not 66
    assert apply(parse("a=" + "x" * 66), "a").crossed is not None
    assert apply(parse("a=" + "x" * 65), "a").text == "x" * 65


def test_an_intermediate_crossing_refuses_even_if_a_later_pair_shrinks() -> None:
    out = apply(parse("a=" + "x" * 100 + ",x="), "a")
    assert out.text == "a" and out.crossed is not None and out.crossed.index == 1


def test_the_bound_counts_utf8_bytes() -> None:
    # 10 one-byte chars -> 10 three-byte chars: 30 bytes <= 74
    assert apply(parse(";=\u2014"), ";" * 10).text == "\u2014" * 10
    # 40 -> 120 bytes: over max(80, 104)
    assert apply(parse(";=\u2014"), ";" * 40).crossed is not None


SIDES = st.text(alphabet=st.sampled_from("ab,=\\ ;x\u00e9"), max_size=8)


@given(st.lists(st.tuples(SIDES.filter(bool), SIDES), min_size=1, max_size=6))
def test_format_pairs_round_trips(raw: list[tuple[str, str]]) -> None:
    assert pairs(format_pairs(raw)) == raw


@given(st.text(max_size=40), st.lists(st.tuples(SIDES.filter(bool), SIDES), min_size=1, max_size=4))
def test_apply_equals_sequential_replace_or_refuses(text: str, raw: list[tuple[str, str]]) -> None:
    subs: Substitutions = parse(format_pairs(raw))
    out = apply(subs, text)
    expected = text
    for old, new in raw:
        expected = expected.replace(old, new)
    if out.crossed is None:
        assert out.text == expected
        assert len(out.text.encode()) <= ceiling(len(text.encode()))
    else:
        assert out.text == text


def test_candidates() -> None:
    assert shellish_candidates(["a && b; c"]) == [("&&", "and"), (";", ",")]
    assert shellish_candidates(["plain"]) == []
    assert ascii_candidates(["na\u00efve \u2014 \u2192 \U0001f600"]) == [
        ("\u00ef", "i"),
        ("\u2014", "-"),
        ("\u2192", "->"),
        ("\U0001f600", ""),
    ]
