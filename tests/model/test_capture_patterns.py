"""The text check that lets `model.capture.page_anomalies` skip walking a page finds exactly
what the plain pattern finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import wiretypes


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("0123456789a \u0661\uff10\U0001f600\ud800\udc80é"), max_size=60
    )
)
def test_the_byte_test_of_sixteen_digits_answers_as_the_pattern(text: str) -> None:
    want = re.search("[0-9]{16}", text) is not None
    assert wiretypes.has_sixteen_digits(text) == want
