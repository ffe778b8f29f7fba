"""Report paths relative to the repository (SARIF `artifactLocation`, annotation `file=`,
JUnit `file`): pure functions of the labels, the root and the current directory, which
`verbs.repository` finds."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Repository:
    """What repository-relative paths need (found by `verbs.output.repository`): the root and
    the current directory (absolute POSIX paths), and each file label's input as given."""

    root: str
    cwd: str
    specs: Mapping[str, str] = field(default_factory=dict)


def repository_path(spec: str, repo: Repository) -> tuple[str, str | None]:
    """(path, outside directory) of an input for SARIF and annotations.

    `git:REF:PATH` is PATH (git reads it from the repository root); a file path is resolved
    against the current directory and normalised (`./x`, `sub/../x`), then made relative to
    the root; a file outside the root is (its name, its directory), for `uriBaseId`. Pure:
    nothing is read from the disk (symbolic links are not followed).
    """
    if spec.startswith("git:") and spec.count(":") >= 2:
        path = spec.split(":", 2)[2]
        if path.startswith("./") or path.startswith("../"):  # git: relative to the cwd
            path = posixpath.relpath(posixpath.join(repo.cwd, path), repo.root)
        return posixpath.normpath(path).lstrip("/"), None
    full = posixpath.normpath(posixpath.join(repo.cwd, spec.replace("\\", "/")))
    inside = posixpath.relpath(full, repo.root)
    if inside == ".." or inside.startswith("../"):
        return posixpath.basename(full), posixpath.dirname(full)
    return inside, None


def report_path(label: str, repo: Repository | None) -> str:
    """A file label as a report names it: the repository path, or the full path of a file
    outside the repository (GitHub cannot annotate it; the log and the XML still say which)."""
    if repo is None or label in ("-", "<stdin>", "<live>"):
        return label
    path, outside = repository_path(repo.specs.get(label, label), repo)
    return path if outside is None else f"{outside}/{path}"
