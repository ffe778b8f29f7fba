"""Client, gateway and LLM-API profiles as data (`data/*.json`, `profile.schema.json`).

- `load`: read and validate the profile files and the verification record (`schema`: their
  schema checks);
- `resolve`: `ID[@VERSION]` to the rules that apply, and `run_profile` over a catalog;
- `evidence`: how each rule is known (verified at listing time by a recorded run, or sources);
- `summary`: the profile table; `describe`: one profile as plain data.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.profiles.describe import describe as describe_profile
    from catalogaudit.profiles.load import contains, load_all, raw_files
    from catalogaudit.profiles.resolve import (
        applicable,
        bound_params,
        rule_meta,
        run_profile,
        valid_ids,
        verified_text,
    )
    from catalogaudit.profiles.resolve import resolve as resolve_profile
    from catalogaudit.profiles.summary import ProfileSummary, profile_summaries

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "describe": "describe_profile=describe",
        "load": "contains load_all raw_files",
        "resolve": (
            "resolve_profile=resolve applicable bound_params rule_meta run_profile valid_ids "
            "verified_text"
        ),
        "summary": "ProfileSummary profile_summaries",
    },
)


__all__ = [
    "ProfileSummary",
    "applicable",
    "bound_params",
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
