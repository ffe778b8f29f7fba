"""Honest faces: a package's `__init__` exports what other packages use, and every import
across packages goes through it (`from catalogaudit.model import Finding`, never
`catalogaudit.model.findings`), so a package's inside can change without its users.

A face loads its modules on first use (PEP 562), so importing it costs what importing the
modules used costs; its `TYPE_CHECKING` imports are the same names for the type checker.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from helpers import ROOT

PACKAGE = ROOT / "src" / "catalogaudit"
FACES = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.is_dir() or path.with_suffix(".py").exists()


def _reaches_inside(path: Path) -> list[str]:
    """The imports of `path` that reach into another package than its own."""
    parts = path.relative_to(PACKAGE).parts
    own = parts[0] if len(parts) > 1 else None
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            dotted = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            dotted = [a.name for a in node.names]
        else:
            continue
        for name in dotted:
            words = name.split(".")
            if words[0] == "catalogaudit" and len(words) > 2 and words[1] != own:
                if (PACKAGE / words[1]).is_dir() and _is_module(name):
                    bad.append(f"{node.lineno}: {name}")
    return bad


@pytest.mark.parametrize(
    "path",
    sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_imports_across_packages_go_through_the_face(path: Path) -> None:
    bad = _reaches_inside(path)
    assert not bad, f"import these names from the package itself: {bad}"


def test_the_check_sees_a_module_reached_inside(tmp_path: Path) -> None:
    inside = PACKAGE / "verbs" / "audit.py"
    assert _reaches_inside(inside) == []
    probe = PACKAGE / "verbs" / "_probe_faces.py"
    probe.write_text(
        "from catalogaudit.model.findings import Finding\nfrom catalogaudit.model import names\n"
    )
    try:
        assert _reaches_inside(probe) == [
            "1: catalogaudit.model.findings",
            "2: catalogaudit.model.names",
        ]
    finally:
        probe.unlink()


@pytest.mark.parametrize("face", FACES)
def test_a_face_exports_what_it_names(face: str) -> None:
    """Each name of `__all__` resolves to its home module's object; the type checker's
    imports name the same; no export is named as a module of the package (importing that
    module would rebind the name on the package)."""
    module = importlib.import_module(f"catalogaudit.{face}")
    tree = ast.parse((PACKAGE / face / "__init__.py").read_text(encoding="utf-8"))
    typed = {
        a.asname or a.name: (node.module, a.name)
        for branch in tree.body
        if isinstance(branch, ast.If) and getattr(branch.test, "id", "") == "TYPE_CHECKING"
        for node in branch.body
        if isinstance(node, ast.ImportFrom)
        and f"{node.module}.".startswith(f"catalogaudit.{face}.")
        for a in node.names
    }
    exported = list(getattr(module, "__all__", ()))
    assert set(typed) <= set(exported)
    for name in exported:
        assert not _is_module(f"catalogaudit.{face}.{name}"), name
        value = getattr(module, name)
        if name in typed:
            home, attr = typed[name]
            assert value is getattr(importlib.import_module(str(home)), attr), name
