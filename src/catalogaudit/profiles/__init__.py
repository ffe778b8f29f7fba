"""Client, gateway and LLM-API profiles as data (`data/*.json`, `profile.schema.json`).

- `load`: read and validate the profile files and the verification record;
- `resolve`: `ID[@VERSION]` to the rules that apply, and `run_profile` over a catalog;
- `evidence`: how each rule is known (verified at listing time by a recorded run, or sources);
- `summary`: the profile table; `describe`: one profile as plain data.
"""

from __future__ import annotations

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.profiles.describe import describe as describe_profile
    from catalogaudit.profiles.load import contains, load_all, raw_files
    from catalogaudit.profiles.resolve import resolve as resolve_profile
    from catalogaudit.profiles.resolve import rule_meta, run_profile, valid_ids, verified_text
    from catalogaudit.profiles.summary import ProfileSummary, profile_summaries

#: What other packages use, by the module that defines it (`face=name` where the names
#: differ), loaded on first use (PEP 562): importing the face costs nothing more.
_FROM = {
    "describe": "describe_profile=describe",
    "load": "contains load_all raw_files",
    "resolve": "resolve_profile=resolve rule_meta run_profile valid_ids verified_text",
    "summary": "ProfileSummary profile_summaries",
}


def __getattr__(name: str) -> object:
    for module, names in _FROM.items():
        for entry in names.split():
            face, _, attr = entry.partition("=")
            if face == name:
                from importlib import import_module

                value = getattr(import_module(f"{__name__}.{module}"), attr or name)
                globals()[name] = value
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ProfileSummary",
    "contains",
    "describe_profile",
    "load_all",
    "profile_summaries",
    "raw_files",
    "resolve_profile",
    "rule_meta",
    "run_profile",
    "valid_ids",
    "verified_text",
]
