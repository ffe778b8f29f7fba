"""Rules: the spec rules (`spec/`, `CA` ids), the profile check vocabulary (`checks/`), what a
rule sees and returns (`base`), the registry of spec rules (`registry`) and the rules without a
check, capture findings and the rewrite's refusal (`unchecked`)."""

__all__ = ["base", "checks", "registry", "spec", "unchecked"]
