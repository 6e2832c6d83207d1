"""What a fitted tree's saving and loading methods are: the model file (JSON), the export to ONNX
and the pickle, gathered in one mixin that :class:`~id3tree.learner.ID3Classifier` inherits, so
that the learner's module holds the learning and each file format keeps its own module
(:mod:`~id3tree.io.persistence`, :mod:`~id3tree.io.onnx`, :mod:`~id3tree.io.pickling`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from sklearn.utils.validation import check_is_fitted

from id3tree.io import persistence
from id3tree.io.pickling import pickled_state, restore_tree

__all__ = ["Saving"]

_Model = TypeVar("_Model", bound="Saving")


class Saving:
    """The saving and loading methods of a fitted tree (mixed into ``ID3Classifier``, before
    scikit-learn's classes, whose pickling it extends)."""

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to predict again, as plain JSON-ready Python objects."""
        check_is_fitted(self, "_tree")
        return persistence.model_to_dict(self)

    def to_json(self, path: Any = None) -> str | None:
        """The model as JSON text; written to ``path`` (and None returned) if given."""
        text = json.dumps(self.to_dict(), indent=None, separators=(",", ":"), allow_nan=False)
        if path is None:
            return text
        Path(path).write_text(text, encoding="utf-8")
        return None

    def to_onnx(self, *, name: str = "id3tree") -> Any:
        """The tree as an ONNX model (``onnx.ModelProto``) that onnxruntime runs as ``predict`` and
        ``predict_proba``; its input is :func:`id3tree.io.onnx.onnx_inputs` of the rows (see
        :mod:`id3tree.io.onnx`; needs the ``onnx`` extra)."""
        from id3tree.io.onnx import to_onnx

        return to_onnx(self, name=name)

    @classmethod
    def from_dict(cls: type[_Model], d: dict[str, Any]) -> _Model:
        """Rebuild a fitted model from :meth:`to_dict` output."""
        model: _Model = persistence.model_from_dict(cls, d)
        return model

    @classmethod
    def from_json(cls: type[_Model], s_or_path: Any) -> _Model:
        """Rebuild a fitted model from JSON text or a path to a JSON file."""
        return cls.from_dict(persistence.read_json(s_or_path))

    def __getstate__(self) -> dict[str, Any]:
        return pickled_state(dict(super().__getstate__()))  # type: ignore[misc]

    def __setstate__(self, state: dict[str, Any]) -> None:
        flat = state.pop("_flat_tree", None)  # written by versions that pickled the Nodes
        super().__setstate__(state)  # type: ignore[misc]
        restore_tree(self, state, flat)
