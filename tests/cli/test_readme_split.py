"""scripts/split_readme.py, which moved the reference out of the README (issue 16), can redo
the move after others edit a long README: sections move verbatim (headings one level up),
kept sections carry their edits into the README, and an unknown section stops the move."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers import PYTHON, ROOT

SCRIPT = ROOT / "scripts" / "split_readme.py"

LONG = """# catalogaudit

Summary, edited.

## Quickstart

```sh
one command
```

## `catalogaudit serve`

Replays, edited.

```sh
# a comment, not a heading
## not a heading either
```

### Eras

Era text.

## Development

- gone to CONTRIBUTING.md
"""

SHORT = """# catalogaudit

Summary.

## Quickstart

```sh
one command
```

## A short tour

The README's own text.
"""


def run(root: Path, long: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, str(SCRIPT), str(long), "--root", str(root), *flags],
        capture_output=True,
        text=True,
        check=False,
    )


def test_sections_move_verbatim_and_kept_ones_carry_their_edits(tmp_path: Path) -> None:
    long = tmp_path / "long.md"
    long.write_text(LONG)
    (tmp_path / "README.md").write_text(SHORT)
    assert run(tmp_path, long, "--check").returncode == 1
    done = run(tmp_path, long)
    assert done.returncode == 0, done.stderr
    serve = (tmp_path / "docs" / "serve.md").read_text()
    assert serve == (
        "# `catalogaudit serve`\n\nReplays, edited.\n\n```sh\n# a comment, not a heading\n"
        "## not a heading either\n```\n\n## Eras\n\nEra text.\n"
    )
    readme = (tmp_path / "README.md").read_text()
    assert readme.startswith("# catalogaudit\n\nSummary, edited.\n\n## Quickstart\n")
    assert readme.endswith("## A short tour\n\nThe README's own text.\n")
    assert "gone to CONTRIBUTING" not in readme + serve
    assert run(tmp_path, long, "--check").returncode == 0  # idempotent


def test_an_unknown_section_stops_the_move(tmp_path: Path) -> None:
    long = tmp_path / "long.md"
    long.write_text(LONG + "\n## Hostile input\n\nNew text.\n")
    (tmp_path / "README.md").write_text(SHORT)
    done = run(tmp_path, long)
    assert done.returncode != 0
    assert "## Hostile input" in done.stderr and "MAP" in done.stderr
    assert not (tmp_path / "docs").exists()


def test_the_committed_docs_are_the_script_output_of_their_own_sections() -> None:
    """Rebuild a long README from the committed pages (headings one level down) and the
    README's kept sections: the script maps it back to exactly the committed files."""
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import split_readme as s
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    readme = (ROOT / "README.md").read_text()
    keeps = tuple(prefix for prefix, where in s.MAP if where == "README")
    kept = "".join(t for h, t in s.sections(readme) if h == "" or h.startswith(keeps))
    pages = []
    for _, where in s.MAP:
        if where and where != "README" and where not in pages:
            pages.append(where)
    demoted = []
    for where in pages:
        fence = False
        for line in (ROOT / where).read_text().splitlines(keepends=True):
            if line.lstrip().startswith("```"):
                fence = not fence
            demoted.append("#" + line if not fence and line.startswith("#") else line)
        demoted.append("\n")
    files = s.split(kept + "".join(demoted), readme)
    for rel, text in files.items():
        assert (ROOT / rel).read_text() == text, rel
