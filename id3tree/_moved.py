"""The import paths of id3tree 0.1, kept for one release: each old module is made when first
imported, and hands out its names from their new homes with a ``DeprecationWarning`` that says
where each name moved (``from id3tree.tracing import PrintTracer`` still works, and says
``id3tree.trace.tracers``)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

MOVED = {
    "compare": "teaching.compare",
    "contingency": "base.contingency",
    "diagnostics": "base.diagnostics",
    "exercises": "classroom.exercises",
    "fitting": "engine.fitting",
    "grading": "classroom.grading",
    "grow": "engine.grow",
    "growth_record": "engine.record",
    "grown_tree": "model.grown_tree",
    "latex": "base.latex",
    "node": "model.node base.words",
    "pencil": "base.pencil",
    "persistence": "io.persistence",
    "pickling": "io.pickling",
    "pruning": "engine.pruning",
    "routing": "engine.routing",
    "rule_simplification": "teaching.rule_simplification",
    "rules": "teaching.rules",
    "sorted_columns": "engine.sorted_columns",
    "splits": "engine.splits",
    "stopping": "engine.stopping",
    "trace_details": "trace.details",
    "trace_events": "trace.events",
    "trace_page": "trace.page",
    "trace_table": "trace.table",
    "tracing": "trace.tracers trace.lines trace.listener",
}
"""Old module (under ``id3tree.``) -> its new homes (a module split in two has two). A submodule
of a moved package moves with it (``id3tree.splits.weighted`` is ``id3tree.engine.splits.weighted``)."""

UNTIL = "0.3"


def new_homes(old: str) -> list[str]:
    """The new dotted paths of the old module ``old`` (``id3tree.x.y``): none if it did not move."""
    parts = old.split(".")
    if parts[0] != "id3tree" or len(parts) < 2 or parts[1] not in MOVED:
        return []
    return [".".join(["id3tree", home, *parts[2:]]) for home in MOVED[parts[1]].split()]


class _OldModule(types.ModuleType):
    """An old module: each name read from it comes from the new home, with a warning."""

    def __getattr__(self, name: str):
        if name.startswith("__"):  # (a module's own attributes are its own: no forwarding)
            raise AttributeError(name)
        homes = [importlib.import_module(home) for home in self.__dict__["_homes"]]
        owns = [home for home in homes if name in getattr(home, "__all__", ())]
        home = next(iter(owns + [home for home in homes if hasattr(home, name)]), homes[0])
        value = getattr(home, name)  # (AttributeError as the new module raises it)
        warnings.warn(
            f"{self.__name__}.{name} moved to {home.__name__}.{name}; the old path works until "
            f"id3tree {UNTIL}",
            DeprecationWarning,
            stacklevel=2,
        )
        return value

    def __dir__(self):
        return sorted(
            {n for home in self.__dict__["_homes"] for n in dir(importlib.import_module(home))}
        )


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old modules of :data:`MOVED` (and nothing else)."""

    def find_spec(self, fullname, path=None, target=None):
        homes = new_homes(fullname)
        spec = importlib.util.find_spec(homes[0]) if homes else None
        if spec is None:
            return None
        is_package = spec.submodule_search_locations is not None
        return importlib.util.spec_from_loader(fullname, self, is_package=is_package)

    def create_module(self, spec):
        module = _OldModule(spec.name, f"Moved to {', '.join(new_homes(spec.name))}.")
        module._homes = new_homes(spec.name)
        if spec.submodule_search_locations is not None:
            module.__path__ = []  # (a package, so that its old submodules import too)
        return module

    def exec_module(self, module):
        pass


def register() -> None:
    """Let the old paths import (once per process)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.append(_Finder())
