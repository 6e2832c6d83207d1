"""Telling the growth: the tracers and their events, the listener that keeps what they will be
told (details), the printed page, the events in reading order, and the trace as tables. Stands on
the engine, which never imports it."""

__all__: list[str] = []  # (its modules are the API)
