"""Derived catalogs: prose rewritten by substitutions, profile fixes applied, re-audited.

- `substitutions`: the ordered `old=new` list and its parser;
- `derive`: the rewritten snapshot, its changes and refusals, before/after outcome;
- `live`: one served list or call result rewritten the same way, and which fixes a client
  needs;
- `suggest`: a substitution list proven to clear the prose findings (`audit --suggest`).
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.rewriting.derive import (
        FIXES,
        GROWTH_RULE,
        PROFILE_FIXES,
        add_refusals,
        audit_rewritten,
        check_fixes,
        compare,
    )
    from catalogaudit.rewriting.derive import derive as derive_catalog
    from catalogaudit.rewriting.live import (
        PageRewrite,
        client_profiles,
        needed_fixes,
        rewrite_answer,
        rewrite_result,
    )
    from catalogaudit.rewriting.substitutions import ENV_VAR, Substitutions, parse, resolve
    from catalogaudit.rewriting.suggest import Suggestion
    from catalogaudit.rewriting.suggest import suggest as suggest_substitutions

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "derive": (
            "FIXES GROWTH_RULE PROFILE_FIXES add_refusals audit_rewritten check_fixes compare "
            "derive_catalog=derive"
        ),
        "live": "PageRewrite client_profiles needed_fixes rewrite_answer rewrite_result",
        "substitutions": "ENV_VAR Substitutions parse resolve",
        "suggest": "Suggestion suggest_substitutions=suggest",
    },
)


__all__ = [
    "ENV_VAR",
    "FIXES",
    "GROWTH_RULE",
    "PROFILE_FIXES",
    "PageRewrite",
    "Substitutions",
    "Suggestion",
    "add_refusals",
    "audit_rewritten",
    "check_fixes",
    "client_profiles",
    "compare",
    "derive_catalog",
    "needed_fixes",
    "parse",
    "resolve",
    "rewrite_answer",
    "rewrite_result",
    "suggest_substitutions",
]
