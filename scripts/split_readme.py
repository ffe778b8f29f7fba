"""Move the long reference out of a README into docs/, section by section, verbatim.

    python scripts/split_readme.py LONG_README            # write docs/*.md, refresh README.md
    python scripts/split_readme.py LONG_README --check    # exit 1 if anything would change

LONG_README is a README that still holds the reference (as before issue 16, e.g.
`git show <rev>:README.md > /tmp/long.md`). Each `## ` section of it goes where `MAP` says:

- to a docs page, moved as written: only its headings go up one level (`## X` becomes the
  page's `# X`, `### Y` becomes `## Y`), so every page has one title;
- `README`: kept in the README; its text replaces the section of the same heading in
  README.md (so edits made to the long README's quickstart or verb table carry over);
- `None`: dropped, because another file now says it (named in `DROPPED`).

The README's own sections (the tour, the API, the links) are left alone. A `## ` heading the
map does not know is an error, so a section someone added is never lost: add it to `MAP`.
Headings inside code fences are text, not headings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Heading prefix (after `## `) -> destination: a path under the repository root, `README`,
#: or None (dropped). The first matching prefix wins.
MAP: tuple[tuple[str, str | None], ...] = (
    ("Quickstart", "README"),
    ("Commands", "README"),
    ("`catalogaudit snapshot`", "docs/snapshot.md"),
    ("`catalogaudit audit`", "docs/audit.md"),
    ("Canonical form and hashes", "docs/canonicalize.md"),
    ("`catalogaudit stability` and `catalogaudit diff`", "docs/diff.md"),
    ("Release gating", "docs/release-gating.md"),
    ("Rewriting a catalog", "docs/rewrite.md"),
    ("pre-commit hooks", "docs/pre-commit.md"),
    ("`catalogaudit serve`", "docs/serve.md"),
    ("`catalogaudit verify`", "docs/verify.md"),
    ("Development", None),
)
DROPPED = {"Development": "CONTRIBUTING.md and ARCHITECTURE.md"}
#: The text before the first `## ` (title and summary) stays in the README.
PREAMBLE = ""


def sections(text: str) -> list[tuple[str, str]]:
    """(heading, text) for the preamble ("") and each `## ` section, fences respected."""
    out: list[tuple[str, list[str]]] = [(PREAMBLE, [])]
    fence = False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fence = not fence
        if not fence and line.startswith("## "):
            out.append((line[3:].strip(), []))
        out[-1][1].append(line)
    return [(heading, "".join(lines)) for heading, lines in out]


def destination(heading: str) -> str | None:
    if heading == PREAMBLE:
        return "README"
    for prefix, where in MAP:
        if heading.startswith(prefix):
            return where
    raise SystemExit(f"error: no destination for the README section '## {heading}': add it to MAP")


def promoted(text: str) -> str:
    """The section with each heading one level up, code fences untouched."""
    out: list[str] = []
    fence = False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fence = not fence
        if not fence and line.startswith("##"):
            line = line[1:]
        out.append(line)
    return "".join(out)


def split(long_text: str, readme_text: str) -> dict[str, str]:
    """Every file's new text: the docs pages, and README.md with its kept sections refreshed."""
    pages: dict[str, list[str]] = {}
    kept: dict[str, str] = {}
    for heading, text in sections(long_text):
        where = destination(heading)
        if where == "README":
            kept[heading] = text
        elif where is not None:
            pages.setdefault(where, []).append(promoted(text))
    files = {path: "".join(parts).rstrip("\n") + "\n" for path, parts in pages.items()}
    current = sections(readme_text)
    missing = sorted(set(kept) - {h for h, _ in current})
    if missing:
        raise SystemExit(f"error: README.md has no section {missing} to keep")
    # NOTE: a kept section's text ends where the next heading starts; the README's own
    # blank line before its next section is the long README's, so the join stays exact.
    files["README.md"] = "".join(kept.get(h, text) for h, text in current)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("long_readme", type=Path, help="a README that holds the reference")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on changes")
    args = parser.parse_args(argv)
    readme = args.root / "README.md"
    files = split(args.long_readme.read_text(encoding="utf-8"), readme.read_text(encoding="utf-8"))
    changed = []
    for rel, text in sorted(files.items()):
        path = args.root / rel
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        changed.append(rel)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
    for heading, where in DROPPED.items():
        print(f"dropped '## {heading}': now in {where}", file=sys.stderr)
    verb = "would change" if args.check else "wrote"
    for rel in changed:
        print(f"{verb} {rel}", file=sys.stderr)
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
