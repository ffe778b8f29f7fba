"""Shell completion of the open-looking value sets that are in fact closed: profile ids, rule
ids (spec, profile and diff rules). The command line asks here, never the core itself."""

from __future__ import annotations


def profile_ids(incomplete: str) -> list[str]:
    """Profile ids starting with what was typed (`--profile`, `profiles ID`, `verify`)."""
    from catalogaudit.profiles import valid_ids

    return [i for i in valid_ids() if i.startswith(incomplete)]


def client_ids(incomplete: str) -> list[str]:
    """The clients `verify --client` drives, starting with what was typed."""
    from catalogaudit.model import DRIVER_IDS

    return [i for i in DRIVER_IDS if i.startswith(incomplete)]


def rule_ids(incomplete: str) -> list[str]:
    """Rule ids starting with what was typed, any case (`rule ID`)."""
    from catalogaudit.diffing import RULES
    from catalogaudit.profiles import rule_meta
    from catalogaudit.rules import spec_meta

    ids = dict.fromkeys([*spec_meta(), *(m.id for m in rule_meta()), *RULES])
    return [i for i in ids if i.upper().startswith(incomplete.upper())]


def selectors(incomplete: str) -> list[str]:
    """What `--select` and `--ignore` take that can be listed: rule ids and profile ids."""
    return [*rule_ids(incomplete), *profile_ids(incomplete)]


__all__ = ["client_ids", "profile_ids", "rule_ids", "selectors"]
