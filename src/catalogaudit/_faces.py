"""The lazy exports of the package faces (PEP 562): a face names the module of each name it
exports, and that module is imported on the first use of the name, so importing a face (or
any module of its package) costs no more than the modules used."""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # NOTE: not `typing`'s, as in the package root: faces load before it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def lazy(face: dict[str, Any], homes: dict[str, str]) -> Callable[[str], object]:
    """The module `__getattr__` of the face whose `globals()` is `face`, whose `__all__` it
    sets to the exports. `homes`: each module (relative to the package) with its exports,
    space-separated; `face=name` exports `name` as `face`, where `name` is also a module of
    the package (importing that module would rebind the name on the package)."""
    package = face["__name__"]
    where = {}
    for module, names in homes.items():
        for entry in names.split():
            export, _, attr = entry.partition("=")
            where[export] = (module, attr or export)
    face["__all__"] = sorted(where)

    def __getattr__(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attr = where[name]
        value = face[name] = getattr(import_module(f"{package}.{module}"), attr)
        return value

    return __getattr__
