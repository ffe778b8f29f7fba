"""The house holds: packages by concern, small modules, no import cycle, a pure core.

The layer rule itself is import-linter's (`[tool.importlinter]` in pyproject.toml, run by
`.ci/run` and below); these tests add what its contracts cannot say.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

PACKAGE = ROOT / "src" / "catalogaudit"
#: Entries of the package root that are not concerns.
NOT_COUNTED = {"__init__.py", "__main__.py", "_version.py", "_faces.py", "py.typed", "__pycache__"}
#: The pure core and the vocabulary: no `open()` of their own (package data goes through
#: importlib.resources); their imports are checked by the `core-pure` contract.
CORE = ("auditing", "rules", "profiles", "diffing", "rewriting", "snapshots", "canonical", "model")
CORE_MODULES = ("walker.py", "errors.py")


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_package_root_lists_at_most_twenty_concerns() -> None:
    entries = sorted(p.name for p in PACKAGE.iterdir() if p.name not in NOT_COUNTED)
    assert len(entries) <= 20, entries
    flat = [e for e in entries if e.endswith(".py")]
    assert flat == ["errors.py", "walker.py"], "a new concern gets a package, not a flat module"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_exceeds_400_lines(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"{path.relative_to(PACKAGE)} has {lines} lines"


def test_every_package_has_a_face() -> None:
    for folder in sorted({p.parent for p in modules()}):
        assert (folder / "__init__.py").exists(), f"{folder.relative_to(PACKAGE)} is no package"


def _graph() -> dict[str, set[str]]:
    """Module -> the catalogaudit modules it imports, at module level or inside functions."""
    grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter (the lint extra)")
    graph = grimp.build_graph("catalogaudit", cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def test_the_module_import_graph_has_no_cycle() -> None:
    graph = _graph()
    state: dict[str, int] = {}  # 1 on the path, 2 done
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(graph.get(module, ())):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles[:10])


def test_the_cycle_check_can_fail(tmp_path: Path) -> None:
    """The graph the cycle test reads sees imports inside functions too."""
    grimp = pytest.importorskip("grimp")
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyc import b\n")
    (pkg / "b.py").write_text("def f():\n    from cyc import a\n")
    sys.path.insert(0, str(tmp_path))
    try:
        graph = grimp.build_graph("cyc", cache_dir=None)
    finally:
        sys.path.remove(str(tmp_path))
    assert "cyc.a" in graph.find_modules_directly_imported_by("cyc.b")


def _core_files() -> list[Path]:
    out = [p for name in CORE for p in (PACKAGE / name).rglob("*.py")]
    return sorted([*out, *(PACKAGE / m for m in CORE_MODULES)])


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_pure_core_opens_no_file(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        if node.func.id in ("open", "input", "print")
    ]
    assert not calls, f"{path.relative_to(PACKAGE)}: open/input/print at lines {calls}"


def test_import_linter_contracts_hold() -> None:
    exe = Path(sys.executable).parent / "lint-imports"
    if not exe.exists():
        if os.environ.get("CI"):
            pytest.fail("lint-imports missing: .ci/run installs the lint extra")
        pytest.skip("import-linter not installed (pip install -e '.[lint]')")
    proc = subprocess.run(
        [str(exe), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


@pytest.mark.parametrize(
    "module",
    [
        "catalogaudit.diffing.items",
        "catalogaudit.diffing.stability",
        "catalogaudit.rewriting.derive",
        "catalogaudit.auditing.engine",
        "catalogaudit.snapshots.rehash",
        "catalogaudit.profiles.resolve",
    ],
)
def test_importing_the_core_loads_no_edge(module: str) -> None:
    """Before the house, importing `diff`, `stability` or `rewrite` loaded the wire client."""
    code = (
        f"import sys, {module}\n"
        "edge = ('catalogaudit.wire', 'catalogaudit.intake', 'catalogaudit.serve',\n"
        "        'catalogaudit.verify', 'catalogaudit.verbs', 'httpx', 'subprocess', 'typer',\n"
        "        'rich')\n"
        "print(sorted(m for m in sys.modules if m.startswith(edge)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]", proc.stdout


def test_the_offline_audit_verb_loads_no_wire_client() -> None:
    """The pre-commit hook audits committed files on every commit: `verbs.audit` (which names
    the live capture's options) must not load the wire client until `--live` asks for it."""
    code = (
        "import sys, catalogaudit.verbs.audit\n"
        "print(sorted(m for m in sys.modules if m.startswith('catalogaudit.wire')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]", proc.stdout


def test_command_modules_keep_their_annotations_as_objects() -> None:
    """typer reads every command's annotations on every run; under `from __future__ import
    annotations` each is a string it evaluates again (most of building the command line)."""
    declaring = [p for p in (PACKAGE / "cli").glob("*.py") if ".command(" in p.read_text()]
    assert len(declaring) >= 10, declaring
    stringy = [
        p.name
        for p in declaring
        if any(
            isinstance(node, ast.ImportFrom)
            and node.module == "__future__"
            and any(a.name == "annotations" for a in node.names)
            for node in ast.parse(p.read_text(encoding="utf-8")).body
        )
    ]
    assert not stringy, f"string annotations in command modules: {stringy}"
