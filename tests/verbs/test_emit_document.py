"""`output.emit_document`: a document written in pieces reaches a file, a device or stdout whole
and only once its size was checked; a refused one leaves the old file as it was."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import BinaryIO

import pytest

from catalogaudit.errors import CatalogauditError
from catalogaudit.verbs import output

BODY = "é \U0001f600 {}\n".encode() * 1000


def _write(fh: BinaryIO) -> int:
    fh.write(b"a false start")
    fh.seek(0)
    fh.truncate()  # NOTE: as snapshot.build.write does when it meets a lone surrogate
    for at in range(0, len(BODY), 777):
        fh.write(BODY[at : at + 777])
    return len(BODY)


def _refuse(size: int) -> None:
    raise CatalogauditError(f"too big: {size}")


def test_a_file_gets_the_bytes(tmp_path: Path) -> None:
    sizes: list[int] = []
    out = tmp_path / "s.json"
    output.emit_document(str(out), _write, sizes.append)
    assert out.read_bytes() == BODY
    assert sizes == [len(BODY)]
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_a_refused_document_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    out.write_bytes(b"old")
    with pytest.raises(CatalogauditError, match="too big"):
        output.emit_document(str(out), _write, _refuse)
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_stdout_gets_the_bytes_only_once_checked(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    output.emit_document("-", _write, lambda _: None)
    assert capfdbinary.readouterr().out == BODY
    with pytest.raises(CatalogauditError):
        output.emit_document(None, _write, _refuse)
    assert capfdbinary.readouterr().out == b""


def test_a_device_is_written_in_place_after_the_check(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(CatalogauditError):
            output.emit_document(str(fifo), _write, _refuse)
        assert os.read(reader, 10) == b""  # nothing reached the device
        output.emit_document(os.devnull, _write, lambda _: None)
    finally:
        os.close(reader)
    assert fifo.exists()


def test_without_a_temporary_directory_the_document_waits_in_memory(
    monkeypatch: pytest.MonkeyPatch, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    def no_file() -> None:
        raise OSError(30, "Read-only file system")

    import tempfile  # NOTE: `verbs.output` imports it where a document is spooled

    monkeypatch.setattr(tempfile, "TemporaryFile", no_file)
    output.emit_document("-", _write, lambda _: None)
    assert capfdbinary.readouterr().out == BODY


@pytest.mark.parametrize("to_file", [True, False])
def test_snapshot_too_big_to_read_back_writes_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfdbinary: pytest.CaptureFixture[bytes],
    to_file: bool,
) -> None:
    from helpers import fixture

    from catalogaudit import model
    from catalogaudit.intake import loader  # NOTE: its read limit stays the real one
    from catalogaudit.verbs import snapshot as verb
    from catalogaudit.verbs.live import SnapshotOptions

    out = tmp_path / "s.json"
    assert loader.MAX_INPUT > 1000
    monkeypatch.setattr(model, "MAX_INPUT", 1000)  # the face, read where the size is checked
    src = str(fixture("bench", "tools100.json"))
    with pytest.raises(CatalogauditError, match="nothing written"):
        verb.snapshot(SnapshotOptions(static_inputs=(src,), output=str(out) if to_file else "-"))
    assert not out.exists()
    assert capfdbinary.readouterr().out == b""


def test_stdout_gets_utf8_whatever_its_encoding(tmp_path: Path) -> None:
    import subprocess
    import sys

    src = tmp_path / "tools.json"
    tool = {"name": "t", "description": "caf\u00e9 \U0001f600", "inputSchema": {"type": "object"}}
    src.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    run = [sys.executable, "-m", "catalogaudit", "snapshot", "--from", str(src), "-o"]
    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    got = subprocess.run([*run, "-"], capture_output=True, env=env, check=True).stdout
    subprocess.run([*run, str(tmp_path / "s.json")], capture_output=True, check=True)
    assert got == (tmp_path / "s.json").read_bytes()
    assert not got.isascii()  # NOTE: else any encoding would pass
