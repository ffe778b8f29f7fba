"""The install paths the README, the docs and the examples show (issue 34, item 3): every
moving Action tag is the major of the version series (`v0` while the version is 0.y.z), every
pinned tag and `rev:` is the current version, and nothing installs from a package index, where
catalogaudit has no entry yet."""

from __future__ import annotations

import re

from helpers import ROOT

from catalogaudit._version import __version__

PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "examples").glob("*.yml")),
]


def _text() -> list[tuple[str, str]]:
    return [(p.name, p.read_text(encoding="utf-8")) for p in PAGES]


def test_moving_tags_follow_the_version_series() -> None:
    major = __version__.split(".")[0]
    found = []
    for name, text in _text():
        for tag in re.findall(r"catalogaudit/catalogaudit@(v[0-9][0-9.]*)", text):
            found.append((name, tag))
            assert tag in (f"v{major}", f"v{__version__}"), (name, tag)
        for rev in re.findall(r"rev: (v[0-9][0-9.]*)", text):
            assert rev == f"v{__version__}", (name, rev)
    assert ("README.md", f"v{major}") in found, found


#: An install of the package by name (`pip install catalogaudit`, `pipx install "catalogaudit==1"`),
#: not from the repository (`catalogaudit @ git+...`) or a wheel file.
BY_NAME = re.compile(r"\binstall\s+(?:-\S+\s+)*[\"']?catalogaudit(?![\w/.-])(?!\s*@\s*git\+)")


def test_nothing_installs_from_a_package_index() -> None:
    for name, text in _text():
        assert not BY_NAME.search(text), name
    assert BY_NAME.search("python -m pip install catalogaudit")
    assert BY_NAME.search('pipx install "catalogaudit==0.1.0"')
    assert not BY_NAME.search('pip install "catalogaudit @ git+https://x/y@v0"')


def test_the_readme_has_an_install_section() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Install\n", 1)[1].split("\n## ", 1)[0]
    assert "pipx install" in section and "uv tool install" in section and ".whl" in section
    assert f"@v{__version__}" in section and "catalogaudit/catalogaudit@v0" in section
