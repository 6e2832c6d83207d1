"""The one place that decides who computes: numpy in memory, or an adapter such as Dask.

Every function of id3tree is written for data in memory (pandas, numpy, lists). A function that
can also take a collection too large for memory is marked :func:`dispatched`; an *adapter* (the
Dask one, :mod:`id3tree._dask`) registers itself here with the values it claims and its own
version of each dispatched function. A call whose arguments hold a value an adapter claims goes
to that adapter's version; every other call runs the function as written. So the core modules
never import an adapter (the adapter imports them), and adding one touches no core module.

>>> def claims(value):
...     return isinstance(value, range)
>>> def implementation(name):
...     return {f"{__name__}.halve": lambda x: "the range adapter"}[name]
>>> register(Adapter("ranges", claims, implementation))
>>> @dispatched
... def halve(x):
...     return x / 2
>>> halve(3), halve(range(4))
(1.5, 'the range adapter')
>>> unregister("ranges")
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Adapter:
    """A way of computing on collections that do not fit in memory."""

    name: str
    claims: Callable[[object], bool]
    """True for a value this adapter computes on (must not import the adapter's library)."""
    implementation: Callable[[str], Callable]
    """The adapter's version of the dispatched function of this qualified name."""


_ADAPTERS: list[Adapter] = []


def register(adapter: Adapter) -> None:
    """Add an adapter (a second registration under the same name replaces the first)."""
    unregister(adapter.name)
    _ADAPTERS.append(adapter)


def unregister(name: str) -> None:
    _ADAPTERS[:] = [a for a in _ADAPTERS if a.name != name]


def adapter_of(*values) -> Adapter | None:
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
    def dispatch(*args, **kwargs):
        adapter = adapter_of(*args, *kwargs.values()) if _ADAPTERS else None
        if adapter is None:
            return function(*args, **kwargs)
        return adapter.implementation(name)(*args, **kwargs)

    return dispatch
