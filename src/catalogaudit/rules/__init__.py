"""Rules: the spec rules (`spec/`, `CA` ids), the profile check vocabulary (`checks/`), what a
rule sees and returns (`base`), the registry of spec rules (`registry`) and the rules without a
check, capture findings and the rewrite's refusal (`unchecked`)."""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.rules.base import Context, Hit, Rule
    from catalogaudit.rules.checks import CHECKS, PARAMS
    from catalogaudit.rules.checks.names import TRANSFORMS
    from catalogaudit.rules.examples import of, why_none
    from catalogaudit.rules.registry import SPEC_RULES, spec_meta
    from catalogaudit.rules.registry_fleet import FLEET_RULES
    from catalogaudit.rules.serverjson import SERVER_JSON_RULES
    from catalogaudit.rules.serverjson import lint as lint_server_json
    from catalogaudit.rules.unchecked import CAPTURE_RULES, CONTRACT_RULES, GROWTH_RULE

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "base": "Context Hit Rule",
        "checks": "CHECKS PARAMS",
        "checks.names": "TRANSFORMS",
        "examples": "of why_none",
        "registry": "SPEC_RULES spec_meta",
        "registry_fleet": "FLEET_RULES",
        "serverjson": "SERVER_JSON_RULES lint_server_json=lint",
        "unchecked": "CAPTURE_RULES CONTRACT_RULES GROWTH_RULE",
    },
)


__all__ = [
    "CAPTURE_RULES",
    "CHECKS",
    "CONTRACT_RULES",
    "FLEET_RULES",
    "Context",
    "GROWTH_RULE",
    "Hit",
    "PARAMS",
    "Rule",
    "SERVER_JSON_RULES",
    "SPEC_RULES",
    "TRANSFORMS",
    "lint_server_json",
    "of",
    "spec_meta",
    "why_none",
]
