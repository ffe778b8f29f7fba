"""The package root is the public API: nothing below imports it, and no code reaches a
subpackage through a name the API also uses (`audit`, `diff`, `snapshot`, `rewrite`).

The root keeps its functions when those subpackages are imported (`catalogaudit._Root`), so
`from catalogaudit import audit` is the function and `import catalogaudit.audit.engine as e`
would walk into it. The `root-below` import contract covers the first half in `src/`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import ROOT

import catalogaudit

PACKAGE = ROOT / "src" / "catalogaudit"
SHADOWED = sorted(n for n in catalogaudit.__all__ if (PACKAGE / n / "__init__.py").exists())


def python_files() -> list[Path]:
    roots = [ROOT / d for d in ("src", "tests", "scripts", "bench")]
    return sorted(
        p
        for r in roots
        if r.exists()
        for p in r.rglob("*.py")
        if "node_modules" not in p.parts and "__pycache__" not in p.parts
        # the API's own tests use the public names, as users do
        if p.parent != ROOT / "tests" / "api"
    )


def test_the_shadowed_names_are_the_known_four() -> None:
    assert SHADOWED == ["audit", "diff", "rewrite", "snapshot"]


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_code_reaches_a_subpackage_through_an_api_name(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "catalogaudit" and not node.level:
            bad += [node.lineno for a in node.names if a.name in SHADOWED]
        if isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if a.asname and len(parts) > 2 and parts[0] == "catalogaudit":
                    bad += [node.lineno] if parts[1] in SHADOWED else []
    assert not bad, f"{path.relative_to(ROOT)}: lines {bad} (import catalogaudit.X.Y instead)"


def test_no_module_of_the_package_imports_the_root() -> None:
    """Modules take the version from `catalogaudit._version`: the root imports the API."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "catalogaudit":
                names = [a.name for a in node.names]
                if any(
                    not (PACKAGE / n).is_dir() and not (PACKAGE / f"{n}.py").exists() for n in names
                ):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if isinstance(node, ast.Import) and any(a.name == "catalogaudit" for a in node.names):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not offenders, offenders
