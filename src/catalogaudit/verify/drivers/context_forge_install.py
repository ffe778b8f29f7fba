"""Install ContextForge PyPI releases into cached virtual environments for `verify`.

Usage: `python -m catalogaudit.verify.drivers.context_forge_install [--root DIR] VERSION...`
(or run this file by path: it imports only the standard library, so `.ci/run` can start it
before catalogaudit itself is installed).

Each release goes into `<root>/<version>/` on the Python its line needs (`PYTHON_FROM`: 3.11,
3.12 from 1.0.8) with `uv pip install --exclude-newer`
set to that release's PyPI upload time: today's dependencies break old releases, and the
resolution of a release must not change from one day to the next. uv itself is installed from
PyPI at a pinned version into `<root>/.tools/`, and its download cache is shared by every
release, so several releases install in parallel at little more than the cost of one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

PACKAGE = "mcp-contextforge-gateway"
UV = "uv==0.13.8"
#: Written last into a release's directory: a directory without it is an interrupted install.
MARKER = ".catalogaudit-installed.json"
#: PyPI release -> the newest upload time of its files (https://pypi.org/pypi/PACKAGE/json),
#: pinned so an install resolves the same dependencies whenever it runs.
UPLOADED: dict[str, str] = {
    "0.1.0": "2025-06-07T09:24:34Z",
    "0.1.1": "2025-06-15T19:27:46Z",
    "0.2.0": "2025-06-24T12:17:52Z",
    "0.3.0": "2025-07-09T02:59:01Z",
    "0.3.1": "2025-07-11T03:26:52Z",
    "0.4.0": "2025-07-22T23:02:53Z",
    "0.5.0": "2025-08-05T23:48:15Z",
    "0.6.0": "2025-08-22T19:04:50Z",
    "0.7.0": "2025-09-17T05:11:02Z",
    "0.8.0": "2025-10-21T04:35:24Z",
    "0.9.0": "2025-12-16T19:56:10Z",
    "1.0.0b1": "2025-12-17T02:09:07Z",
    "1.0.0b2": "2026-01-24T17:30:56Z",
    "1.0.0rc1": "2026-02-18T20:23:09Z",
    "1.0.0": "2026-05-19T21:24:29Z",
    "1.0.1": "2026-05-19T21:28:02Z",
    "1.0.2": "2026-05-26T22:38:25Z",
    "1.0.3": "2026-06-10T10:56:16Z",
    "1.0.4": "2026-06-23T14:00:46Z",
    "1.0.5": "2026-07-07T11:46:14Z",
    "1.0.6": "2026-07-21T17:26:18Z",
    "1.0.7": "2026-08-05T19:08:52Z",
    "1.0.7.post20260921": "2026-09-21T17:50:49Z",
    "1.0.8": "2026-08-18T13:18:36Z",
    "1.0.9": "2026-09-01T15:03:49Z",
    "1.0.10": "2026-09-07T19:06:49Z",
    "1.0.11": "2026-09-28T15:57:54Z",
    "1.1.0": "2026-10-20T17:43:45Z",
}
#: Extra requirements a release needs beyond its own metadata (its pins were too loose).
EXTRA: dict[str, tuple[str, ...]] = {"1.0.7": ("mcp<2",), "1.0.7.post20260921": ("mcp<2",)}
#: The releases the differential suite verifies (installed when no version is named).
ORACLE = ("0.6.0", "0.9.0", "1.0.0b2", "1.0.0rc1", "1.0.0", "1.0.7", "1.0.7.post20260921")
#: Also installed by default: the lattice oracle drives a sample of its shapes live on them
#: (0.1.0 registers over HTTP+SSE, the only transport it speaks).
LATTICE_LIVE = ("0.1.0",)


def cache_root() -> Path:
    """`$XDG_CACHE_HOME/catalogaudit/context-forge` (default `~/.cache/...`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "catalogaudit" / "context-forge"


def install_command(versions: list[str] | tuple[str, ...]) -> str:
    """The command that installs these releases, for error messages."""
    return f"python -m catalogaudit.verify.drivers.context_forge_install {' '.join(versions)}"


def exclude_newer(version: str) -> str:
    """The `--exclude-newer` time of a release: one minute after its last upload."""
    at = datetime.strptime(UPLOADED[version], "%Y-%m-%dT%H:%M:%S%z") + timedelta(minutes=1)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


#: The first release of each interpreter line (IBM/mcp-context-forge CHANGELOG.md: 1.0.8 and
#: later require Python 3.12-3.13); earlier releases are verified on 3.11.
PYTHON_FROM = (((1, 0, 8), (3, 12)), ((0, 0, 0), (3, 11)))


def python_for(version: str) -> tuple[int, int]:
    """The Python (major, minor) a release is installed on."""
    release = tuple(int(part) for part in version.split(".")[:3] if part.isdigit())
    for first, python in PYTHON_FROM:
        if release >= first:
            return python
    return PYTHON_FROM[-1][1]


def interpreter(python: tuple[int, int]) -> str:
    """An interpreter of that line: `python3.X` on PATH, pyenv's build, or `python3` if it is."""
    name = f"python{python[0]}.{python[1]}"
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [
        shutil.which(name),
        *sorted(str(p) for p in pyenv.glob(f"{python[0]}.{python[1]}*/bin/{name}")),
    ]
    candidates.append(shutil.which("python3"))
    for found in candidates:
        if found is None:
            continue
        probe = subprocess.run(
            [found, "-c", f"import sys; print(sys.version_info[:2] == {python})"],
            capture_output=True,
            text=True,
        )
        if probe.stdout.strip() == "True":
            return found
    raise SystemExit(f"error: this ContextForge release installs on Python {name[6:]}; none found")


def uv(root: Path) -> str:
    """The pinned uv, installed from PyPI into `<root>/.tools/uv` on first use."""
    tools = root / ".tools" / "uv"
    exe = tools / "bin" / "uv"
    stamp = tools / "pinned.txt"
    if exe.exists() and stamp.exists() and stamp.read_text().strip() == UV:
        return str(exe)
    shutil.rmtree(tools, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True)
    pip = [str(tools / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "--disable-pip-version-check", UV], check=True)
    stamp.write_text(UV + "\n")
    return str(exe)


def installed(root: Path, version: str) -> bool:
    """Whether `<root>/<version>` holds a finished install of that release."""
    marker = root / version / MARKER
    try:
        found: object = json.loads(marker.read_text()).get("version")
        return found == version
    except (OSError, ValueError):
        return False


def install(root: Path, version: str, uv_exe: str) -> float:
    """Install one release (idempotent) on its Python line; the seconds it took."""
    if version not in UPLOADED:
        raise SystemExit(f"error: no pinned upload date for {PACKAGE} {version}")
    python = interpreter(python_for(version))
    start = time.monotonic()
    if installed(root, version):
        return 0.0
    venv = root / version
    shutil.rmtree(venv, ignore_errors=True)
    env = {**os.environ, "UV_CACHE_DIR": str(root / ".uv-cache"), "UV_NO_PROGRESS": "1"}
    env.pop("VIRTUAL_ENV", None)
    run = [uv_exe, "--quiet"]
    subprocess.run([*run, "venv", "--python", python, str(venv)], check=True, env=env)
    when = exclude_newer(version)
    reqs = [f"{PACKAGE}=={version}", *EXTRA.get(version, ())]
    pip = [*run, "pip", "install", "--python", str(venv / "bin" / "python")]
    subprocess.run([*pip, "--exclude-newer", when, *reqs], check=True, env=env)
    doc = {"version": version, "excludeNewer": when, "requirements": reqs, "uv": UV}
    (venv / MARKER).write_text(json.dumps(doc, indent=2) + "\n")
    return time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    """Install the named releases (default: the oracles'), in parallel."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=[*ORACLE, *LATTICE_LIVE])
    parser.add_argument("--root", type=Path, default=None, help="default: " + str(cache_root()))
    parser.add_argument("--jobs", type=int, default=len(ORACLE))
    args = parser.parse_args(argv)
    root: Path = args.root or cache_root()
    root.mkdir(parents=True, exist_ok=True)
    unknown = [v for v in args.versions if v not in UPLOADED]
    if unknown:
        known = ", ".join(UPLOADED)
        parser.error(f"no pinned upload date for {', '.join(unknown)}; known: {known}")
    start = time.monotonic()
    uv_exe = uv(root)
    failed = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {v: pool.submit(install, root, v, uv_exe) for v in args.versions}
        for version, future in futures.items():
            try:
                took = future.result()
            except subprocess.CalledProcessError as exc:
                failed += 1
                print(f"{PACKAGE} {version}: install failed (exit {exc.returncode})", flush=True)
                continue
            state = f"installed in {took:.1f}s" if took else "already installed"
            print(f"{PACKAGE} {version}: {state} ({root / version})", flush=True)
    print(f"context-forge installs: {time.monotonic() - start:.1f}s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
