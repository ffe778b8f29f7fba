"""`hash` and `canonicalize --jcs` with half of the elements' work in a forked process
(`canonical.halves`): the same report and bytes as one process, whatever the source, and
when the other process dies (issue 14)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_quick_hash import Writer, _tmpfile, page, pages, values

from catalogaudit.canonical import halves, quick, strict
from catalogaudit.errors import InputError
from catalogaudit.verbs import fanout

pytestmark = pytest.mark.skipif(not fanout._FORKS, reason="the work is shared only where forks are")


@pytest.fixture(autouse=True)
def small_is_shared(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every text shared, however small; the count of results that came from the other side."""
    taken: list[int] = []
    real_fill = halves.fill

    def counting(lists: list[list[Any]], got: list[Any]) -> bool:
        taken.append(len(got))
        return real_fill(lists, got)

    monkeypatch.setattr(halves, "SHARED", 0)
    monkeypatch.setattr(halves, "fill", counting)
    yield taken


def dying(work: Callable[[], Any]) -> Callable[[], Any]:
    """`fanout.beside`, with the other process killed before it answers."""
    parent = os.getpid()

    def killed() -> Any:
        if os.getpid() != parent:
            os._exit(3)
        return work()

    return fanout.beside(killed)


def jcs_or_error(source: bytes, beside: halves.Beside | None) -> bytes | str:
    try:
        return strict.strict_jcs(source, "x", beside)
    except InputError as exc:
        return str(exc)


@settings(max_examples=150, deadline=None)
@given(pages)
def test_hash_shared_is_the_one_process_report(case: Any) -> None:
    source = page(*case)
    with _tmpfile(source) as path:
        data = path.read_bytes()
        alone = quick.hash_report(str(path), data)
        assert quick.hash_report(str(path), data, fanout.beside) == alone, source
        assert quick.hash_report(str(path), data, dying) == alone, source


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), values)
def test_jcs_shared_is_the_one_process_bytes(rnd: Any, odd: bool, value: Any) -> None:
    source = Writer(rnd, odd).write(value).encode("utf-8")
    alone = jcs_or_error(source, None)
    assert jcs_or_error(source, fanout.beside) == alone, source
    assert jcs_or_error(source, dying) == alone, source


def test_the_second_half_comes_from_the_other_process(small_is_shared: list[int]) -> None:
    items = ",".join(f'{{"name":"t{i}","description":"{"x" * 50}","n":{i}.5}}' for i in range(40))
    source = f'{{"tools":[{items}],"nextCursor":"c"}}'
    starts = [i for i in range(len(source)) if source.startswith('{"name"', i)]
    past = sum(1 for i in starts if i >= len(source) // 2)
    assert 0 < past < 40
    with _tmpfile(source) as path:
        shared = quick.hash_report(str(path), path.read_bytes(), fanout.beside)
        assert small_is_shared[-1] == past  # the items that start past the midpoint
        alone = quick.hash_report(str(path), path.read_bytes())
    assert shared is not None and shared == alone
    assert small_is_shared[-1] == 0
    jcs = strict.strict_jcs(source.encode(), "x", fanout.beside)
    assert small_is_shared[-1] == past
    assert jcs == strict.strict_jcs(source.encode(), "x")


def test_fill_puts_the_other_results_in_order_and_refuses_a_count_that_differs() -> None:
    theirs = halves.THEIRS
    lists = [[1, theirs], [theirs, 4]]
    assert halves.fill(lists, [2, 3]) and lists == [[1, 2], [3, 4]]
    assert not halves.fill([[theirs, theirs]], [1])
    assert not halves.fill([[1]], [2])
