"""Rules: the spec rules (`spec/`, `CA` ids), the profile check vocabulary (`checks/`), what a
rule sees and returns (`base`) and the registry of spec rules (`registry`)."""

__all__ = ["base", "checks", "registry", "spec"]
