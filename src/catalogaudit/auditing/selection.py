"""`--select` and `--ignore`: which findings a run keeps (flake8's rule: the most specific
pattern wins, and ignore wins a tie)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence

from catalogaudit.errors import UsageError
from catalogaudit.model import LISTINGS, Finding, RuleMeta, escape_pointer, pointer_tokens

#: What a subject pointer may start with: a listing, or the catalog and capture as a whole.
SUBJECT_KINDS = (*LISTINGS, "catalog", "capture")


def checked_selectors(
    patterns: Sequence[str], option: str, rules: Mapping[str, RuleMeta], profiles: Iterable[str]
) -> tuple[str, ...]:
    """The patterns of `--select`/`--ignore` as the engine matches them, or a usage error.

    A gate must not be switched off by a typo: a pattern that names no rule id (any case), id
    prefix, rule name (or dotted prefix), profile id or profile@version, and no subject pointer
    of a known kind, is refused with the closest names, as flake8 and ruff do. Rule ids are
    matched case-insensitively (`ca401` is `CA401`); profile ids and names exactly.
    """
    ids = {rule_id.upper(): rule_id for rule_id in rules}
    names = {m.name for m in rules.values()}
    known_profiles = set(profiles)
    out: list[str] = []
    for raw in patterns:
        pattern = raw.strip()
        if pattern.startswith("/"):
            kind = pointer_tokens(pattern)[0] if pattern != "/" else ""
            if kind not in SUBJECT_KINDS:
                raise UsageError(
                    f"{option} {raw!r}: a subject pointer starts with one of "
                    f"{', '.join('/' + k for k in SUBJECT_KINDS)}"
                )
            out.append(pattern)
            continue
        upper = pattern.upper()
        if upper in ids:
            out.append(ids[upper])
        elif upper and any(rule_id.startswith(upper) for rule_id in ids):
            out.append(upper)
        elif pattern in names or any(n.startswith(pattern + ".") for n in names):
            out.append(pattern)
        elif _profile_pattern(pattern, known_profiles):
            out.append(pattern)
        else:
            # NOTE: an id-shaped pattern (`XX-999`, `CA41`) is compared with rule ids only.
            looks_like_id = any(ch.isdigit() for ch in pattern) and "." not in pattern
            pool = list(rules) if looks_like_id else [*rules, *sorted(known_profiles), *names]
            raise UsageError(_unknown(raw, option, pool))
    return tuple(out)


def _profile_pattern(pattern: str, profiles: set[str]) -> bool:
    """`codex-app` or `codex-app@0.148.0a9` (an empty version names nothing)."""
    pid, at, version = pattern.partition("@")
    return pid in profiles and (not at or bool(version))


def _unknown(raw: str, option: str, candidates: list[str]) -> str:
    """The refusal, naming the closest rule id, profile or rule name."""
    by_upper = {c.upper(): c for c in candidates}
    close = difflib.get_close_matches(raw.upper(), list(by_upper), n=1, cutoff=0.0)
    hint = f"; did you mean {by_upper[close[0]]}?" if close else ""
    return (
        f"{option} {raw!r} names no rule, rule prefix, rule name, profile or subject pointer"
        f"{hint} (`catalogaudit rules` lists them)"
    )


def _matches(pattern: str, finding: Finding, meta: RuleMeta | None) -> int:
    """How specifically `pattern` names the finding (0: not at all; longer wins)."""
    rule = finding.rule_id
    if pattern == rule:
        return 1000
    if pattern.startswith("/"):
        # A subject pointer: /<kind>/<identity, RFC 6901 escaped><item pointer>.
        ident = escape_pointer(finding.identity or "")
        subject = f"/{finding.kind}/{ident}{finding.pointer}"
        if subject == pattern or subject.startswith(pattern.rstrip("/") + "/"):
            return len(pattern)
        return 0
    best = 0
    if rule.startswith(pattern):
        best = len(pattern)
    if meta is not None and (meta.name == pattern or meta.name.startswith(pattern + ".")):
        best = max(best, len(pattern))
    profile = finding.profile.split("@", 1)[0]
    if pattern in (finding.profile, profile):
        best = max(best, 1)
    return best


def selected(
    finding: Finding, metas: Mapping[str, RuleMeta], select: Iterable[str], ignore: Iterable[str]
) -> bool:
    """`--select`/`--ignore` by rule id, id prefix, rule name, profile or subject pointer
    (`/tools/add/inputSchema`); the longest match wins, and ignore wins a tie (flake8's
    decision rule)."""
    meta = metas.get(finding.rule_id)
    sel = max((_matches(p, finding, meta) for p in select), default=None)
    ign = max((_matches(p, finding, meta) for p in ignore), default=0)
    if sel is None:
        return ign == 0
    return sel > ign
