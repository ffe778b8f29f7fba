"""The package root is the public API: nothing below imports it, and no subpackage or module
of the root shares a name with it, so importing one never rebinds an API name (the import
system binds a subpackage on its parent: `tests/api/test_public_api.py` imports them all). The
`root-below` import contract covers the first half in `src/`.
"""

from __future__ import annotations

import ast

from helpers import ROOT

import catalogaudit

PACKAGE = ROOT / "src" / "catalogaudit"
ENTRIES = sorted(p.name.removesuffix(".py") for p in PACKAGE.iterdir() if p.name != "__pycache__")


def test_no_api_name_is_a_module_of_the_root() -> None:
    assert not set(catalogaudit.__all__) & set(ENTRIES)


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
