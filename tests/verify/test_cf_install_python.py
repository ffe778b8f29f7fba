"""The ContextForge installer puts each release on the Python its line needs (issue 13, item 3).

IBM/mcp-context-forge CHANGELOG.md: 1.0.8 and later require Python 3.12-3.13; the releases
verified here (up to 1.0.7.post20260921) run on 3.11. The interpreters are the real ones of this
machine (pyenv's builds on the development machines and CI), found and asked for their version.
"""

from __future__ import annotations

import subprocess

import pytest

from catalogaudit.verify.drivers import context_forge_install as cfi


@pytest.mark.parametrize(
    ("version", "python"),
    [
        ("0.6.0", (3, 11)),
        ("1.0.7", (3, 11)),
        ("1.0.7.post20260921", (3, 11)),
        ("1.0.8", (3, 12)),
        ("1.0.11", (3, 12)),
    ],
)
def test_each_release_line_has_its_python(version: str, python: tuple[int, int]) -> None:
    assert cfi.python_for(version) == python


@pytest.mark.parametrize("python", [(3, 11), (3, 12)])
def test_the_interpreter_found_is_of_that_line(python: tuple[int, int]) -> None:
    try:
        exe = cfi.interpreter(python)
    except SystemExit as exc:
        pytest.skip(str(exc))  # a machine without that Python: the installer says so itself
    out = subprocess.run(
        [exe, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True, text=True
    )
    assert tuple(int(x) for x in out.stdout.split()) == python


def test_every_pinned_release_has_a_python_line() -> None:
    assert {cfi.python_for(v) for v in cfi.UPLOADED} <= {(3, 11), (3, 12)}
