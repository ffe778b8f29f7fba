"""The text checks that let `model.capture.page_anomalies` skip walking a page find exactly
what the plain pattern finds, and what the decoded text holds."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import capture, wiretypes


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("0123456789a \u0661\uff10\U0001f600\ud800\udc80é"), max_size=60
    )
)
def test_the_byte_test_of_sixteen_digits_answers_as_the_pattern(text: str) -> None:
    want = re.search("[0-9]{16}", text) is not None
    assert wiretypes.has_sixteen_digits(text) == want


#: Pieces of a JSON string's text: surrogate escapes (either case), escaped backslashes, other
#: escapes, a letter.
PIECES = st.sampled_from(
    ["\\ud83d", "\\uD83D", "\\ude00", "\\uDE00", "\\udbff", "\\udc00", "\\\\", "\\u00e9", '\\"']
    + ["u", "d83d", "a"]
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(PIECES, max_size=8))
def test_the_text_test_of_lone_surrogates_answers_as_the_decoded_string(pieces: list[str]) -> None:
    text = '"' + "".join(pieces) + '"'
    decoded = json.loads(text)
    assert capture._lone_surrogate_escape(text) == bool(re.search("[\ud800-\udfff]", decoded))
