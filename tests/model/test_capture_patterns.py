"""The text checks that let `model.capture.page_anomalies` skip walking a page find exactly
what their plain spelling finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import wiretypes


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789a \u0661\uff10"), max_size=60))
def test_the_sixteen_digit_pattern_finds_what_the_plain_spelling_finds(text: str) -> None:
    want = re.search(r"[0-9]{16}", text)
    got = wiretypes.SIXTEEN_DIGITS.search(text)
    assert (got and got.span()) == (want and want.span())


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("0123456789a \u0661\uff10\U0001f600\ud800\udc80é"), max_size=60
    )
)
def test_the_byte_test_of_sixteen_digits_answers_as_the_pattern(text: str) -> None:
    want = wiretypes.SIXTEEN_DIGITS.search(text) is not None
    assert wiretypes.has_sixteen_digits(text) == want
