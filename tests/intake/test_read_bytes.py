"""`intake.loader.read_bytes` reads a file sized by what it holds, not by the input bound: the
same bytes and the same refusal as reading up to the bound."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from catalogaudit.errors import InputError
from catalogaudit.intake import loader


@pytest.mark.parametrize("size", [0, 1, 999, 1000])
def test_a_file_up_to_the_bound_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    monkeypatch.setattr(loader, "MAX_INPUT", 1000)
    path = tmp_path / "f.json"
    path.write_bytes(b"7" * size)
    assert loader.read_bytes(str(path)) == b"7" * size


def test_a_file_over_the_bound_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_INPUT", 1000)
    path = tmp_path / "f.json"
    path.write_bytes(b"7" * 1001)
    with pytest.raises(InputError, match="larger than 1000 bytes"):
        loader.read_bytes(str(path))


@pytest.mark.parametrize("size", [5000, 100_001])
def test_a_fifo_is_read_to_its_end_or_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    """A FIFO's size says 0: the rest is read as a file that grew is."""
    monkeypatch.setattr(loader, "MAX_INPUT", 100_000)
    path = tmp_path / "fifo"
    os.mkfifo(path)

    def write() -> None:
        with open(path, "wb") as fh:
            fh.write(b"x" * size)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        if size > 100_000:
            with pytest.raises(InputError, match="larger than"):
                loader.read_bytes(str(path))
        else:
            assert loader.read_bytes(str(path)) == b"x" * size
    finally:
        writer.join(timeout=10)


def test_stdin_over_the_bound_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stdin is bounded as a file is (it was parsed cut short at the bound)."""
    import io
    import sys

    monkeypatch.setattr(loader, "MAX_INPUT", 1000)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"7" * 1001)))
    with pytest.raises(InputError, match="^<stdin>: larger than 1000 bytes$"):
        loader.read_bytes("-")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"7" * 1000)))
    assert loader.read_bytes("-") == b"7" * 1000
