"""The ``id3tree`` command line (also ``python -m id3tree``); :func:`main` runs it."""

from id3tree.cli.commands import main

__all__ = ["main"]
