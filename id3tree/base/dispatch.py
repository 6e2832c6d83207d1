"""The one place that decides who computes: numpy in memory, or an adapter such as Dask.

Every function of id3tree is written for data in memory (pandas, numpy, lists). A function that
can also take a collection too large for memory is marked :func:`dispatched`; an *adapter* (the
Dask one, :mod:`id3tree.dask`) registers itself here with the values it claims and its own
version of each dispatched function. A call whose arguments hold a value an adapter claims goes
to that adapter's version; every other call runs the function as written. So the core modules
never import an adapter (the adapter imports them), and adding one touches no core module.

A public function checks its parameters (``bins``, ``method``, ...) before it hands the data to
a dispatched function, so the same parameter is refused with the same words whoever computes.

>>> def claims(value):
...     return isinstance(value, range)
>>> def implementation(name):
...     return {f"{__name__}.halve": lambda x: "the range adapter"}.get(name)
>>> register(Adapter("range", claims, implementation))
>>> @dispatched
... def halve(x):
...     return x / 2
>>> halve(3), halve(range(4))
(1.5, 'the range adapter')
>>> @dispatched
... def double(x):
...     return 2 * x
>>> double(range(4))
Traceback (most recent call last):
  ...
TypeError: double has no version for range input; pass the data in memory
>>> unregister("range")
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Adapter", "adapter_of", "DISPATCHED", "dispatched", "qualified_name", "register",
    "require_in_memory", "unregister",
]  # fmt: skip


@dataclass(frozen=True)
class Adapter:
    """A way of computing on collections that do not fit in memory."""

    name: str
    claims: Callable[[object], bool]
    """True for a value this adapter computes on (must not import the adapter's library)."""
    implementation: Callable[[str], Callable | None]
    """The adapter's version of the dispatched function of this qualified name (None: none)."""
    in_memory_hint: str = "pass the data in memory"
    """What to do instead, said when a claimed value reaches a function that needs memory."""


_ADAPTERS: list[Adapter] = []

DISPATCHED: dict[str, Callable] = {}
"""Every dispatched function made so far, by qualified name (the names adapters implement)."""


def register(adapter: Adapter) -> None:
    """Add an adapter (a second registration under the same name replaces the first)."""
    unregister(adapter.name)
    _ADAPTERS.append(adapter)


def unregister(name: str) -> None:
    _ADAPTERS[:] = [a for a in _ADAPTERS if a.name != name]


def adapter_of(*values: Any) -> Adapter | None:
    """The first registered adapter that claims one of the values, or None: numpy in memory."""
    for adapter in _ADAPTERS:
        if any(adapter.claims(value) for value in values):
            return adapter
    return None


def qualified_name(function: Callable) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def dispatched(function: Callable) -> Callable:
    """Mark a function an adapter may take over, for arguments the adapter claims."""
    name = qualified_name(function)

    @functools.wraps(function)
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        adapter = adapter_of(*args, *kwargs.values()) if _ADAPTERS else None
        if adapter is None:
            return function(*args, **kwargs)
        version = adapter.implementation(name)
        if version is None:
            raise TypeError(
                f"{function.__name__} has no version for {adapter.name} input; "
                f"{adapter.in_memory_hint}"
            )
        return version(*args, **kwargs)

    DISPATCHED[name] = dispatch
    return dispatch


def require_in_memory(value: Any, name: str) -> None:
    """Refuse a value an adapter claims, for a function that needs its data in memory: silently
    computing a collection larger than memory could exhaust it."""
    adapter = adapter_of(value) if _ADAPTERS else None
    if adapter is not None:
        raise TypeError(
            f"{name} is a {adapter.name} collection, but this function needs its data in "
            f"memory; {adapter.in_memory_hint}"
        )
