"""The release as users get it (issue 19): the wheel and sdist built from this tree, their
metadata (SPDX license, classifiers, project URLs, the one version), `twine check --strict`,
and `pipx run --spec dist/catalogaudit-*.whl catalogaudit --version`."""

from __future__ import annotations

import email.parser
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers import PYTHON, ROOT

from catalogaudit._version import __version__

BIN = Path(PYTHON).parent
pytestmark = pytest.mark.slow_install


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel and the sdist, built with flit_core from the test extra, without isolation
    (no download of a build backend)."""
    out = tmp_path_factory.mktemp("dist")
    code = (
        "import sys; from flit_core import buildapi; "
        "print(buildapi.build_wheel(sys.argv[1])); print(buildapi.build_sdist(sys.argv[1]))"
    )
    proc = subprocess.run(
        [PYTHON, "-c", code, str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return out


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("catalogaudit-*.whl")
    return wheel


def _metadata(dist: Path) -> email.message.Message:
    with zipfile.ZipFile(_wheel(dist)) as zf:
        name = f"catalogaudit-{__version__}.dist-info/METADATA"
        return email.parser.Parser().parsestr(zf.read(name).decode("utf-8"))


def test_wheel_version_is_the_one_in_version_py(dist: Path) -> None:
    assert _wheel(dist).name == f"catalogaudit-{__version__}-py3-none-any.whl"
    assert _metadata(dist)["Version"] == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__), "tags are vX.Y.Z (docs/release.md)"


def test_wheel_reports_its_license(dist: Path) -> None:
    meta = _metadata(dist)
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta.get_all("License-File") == ["LICENSE"]
    with zipfile.ZipFile(_wheel(dist)) as zf:
        text = zf.read(f"catalogaudit-{__version__}.dist-info/licenses/LICENSE").decode()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert text == (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_wheel_classifiers_and_urls(dist: Path) -> None:
    meta = _metadata(dist)
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.10" in classifiers
    # PEP 639: with a License-Expression, no license classifier may be given.
    assert not [c for c in classifiers if c.startswith("License ::")]
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert urls["Source"] == "https://github.com/catalogaudit/catalogaudit"
    assert urls["Issues"] == "https://github.com/catalogaudit/catalogaudit/issues"
    assert meta["Requires-Python"] == ">=3.10"


def test_sdist_carries_the_license(dist: Path) -> None:
    (sdist,) = dist.glob("catalogaudit-*.tar.gz")
    with tarfile.open(sdist) as tf:
        names = tf.getnames()
    assert f"catalogaudit-{__version__}/LICENSE" in names
    assert f"catalogaudit-{__version__}/action.yml" in names
    assert not [n for n in names if "/node_modules/" in n]


def test_twine_check_strict(dist: Path) -> None:
    files = [str(p) for p in sorted(dist.iterdir())]
    proc = subprocess.run(
        [PYTHON, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2, proc.stdout


def test_pipx_runs_the_wheel(dist: Path, tmp_path: Path) -> None:
    """`pipx run --spec WHEEL catalogaudit --version`: a fresh venv of its own, the wheel's
    dependencies from the package index (as a user's pipx gets them)."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
    }
    proc = subprocess.run(
        [PYTHON, "-m", "pipx", "run", "--spec", str(_wheel(dist)), "catalogaudit", "--version"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == f"catalogaudit {__version__}"


def test_built_with_the_pinned_backend() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'requires = ["flit_core>=3.12,<5"]' in text
    assert 'license = "Apache-2.0"' in text
    assert sys.version_info >= (3, 10)
