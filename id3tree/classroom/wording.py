"""The words of the marks' feedback that more than one marker writes: the steps an answer can
be and their kinds, and the pieces of a sentence about an answer, each in the language around it
(:func:`~id3tree.base.language.speaking`; the grader sets the grade's language around the
marking), numbers with the language's decimal mark.

>>> from id3tree.base.language import speaking
>>> with speaking("de"):
...     step_in_language("overall entropy of Hours <= 4.5"), not_given(0.5)
('Gesamtentropie von Hours <= 4,5', ', nicht 0,5')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from id3tree.base import pencil
from id3tree.base.language import N_, current
from id3tree.base.words import format_number
from id3tree.classroom.text import shown

__all__ = [
    "fixed", "kind_of", "KINDS", "not_a_mapping", "not_given", "nothing", "step_in_language",
    "split_words", "STEPS", "UNKNOWN", "written",
]  # fmt: skip

STEPS = (
    N_("H({name})"), N_("overall entropy of {feature} <= {threshold}"),
    N_("best threshold of {feature}"), N_("Gain(S, {feature})"), N_("feature at the root"),
    N_("split of {name}"), N_("threshold of {name}"), N_("prediction of {name}"),
)  # fmt: skip
"""The steps an answer can be, in English with their fields: a
:class:`~id3tree.classroom.grading.Check`'s ``step`` is
one of them, written in the grade's language (the names of the rows, such as
``S_{Outlook=Rain}``, and the numbers in it with the language's decimal mark)."""

KINDS = (
    ("entropy", "H(", N_("the entropy of S")),
    ("thresholds", "overall entropy of", N_("the overall entropy of a cut")),
    ("thresholds", "best threshold", N_("the best threshold")),
    ("gains", "Gain(", N_("a gain at the root")),
    ("root", "feature at the root", N_("the feature at the root")),
    ("tree", "H(", N_("the entropy of a node")),
    ("tree", "split of", N_("the split of a node")),
    ("tree", "threshold of", N_("the threshold of a node")),
    ("tree", "prediction of", N_("the prediction of a leaf")),
)
"""(task, how the English step starts, the kind of step it is): a
:class:`~id3tree.classroom.grading.Check`'s ``kind``."""

UNKNOWN = {  # (whole sentences, so that a language can make them agree)
    "feature": N_("{where}: {key} is not a feature of this exercise; ignored"),
    "question": N_("{where}: {key} is not a question of this exercise; ignored"),
    "key of a node": N_("{where}: {key} is not a key of a node of this exercise; ignored"),
}
"""What :meth:`~id3tree.classroom.grading.Marker.unknown` notes, by what the key should be."""


def kind_of(task: str, step: str, tasks: Mapping[str, str]) -> str:
    """The kind of the step ``step`` (in English) of ``task``: ``the split of a node`` (a step
    of no kind: what ``tasks`` says of its task)."""
    for of, prefix, kind in KINDS:
        if task == of and step.startswith(prefix):
            return kind
    return tasks.get(task, task)


_STEP_PATTERNS = [  # what a step written from each message looks like: its fields as groups
    (m, re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+)", re.escape(m)), re.DOTALL)) for m in STEPS
]


def step_in_language(step: str) -> str:
    """``step`` (in English, one of :data:`STEPS`) in the language around it; its fields are
    kept as they are, but a threshold, which takes the decimal mark."""
    L = current()
    if L.english:
        return step
    for message, pattern in _STEP_PATTERNS:
        found = pattern.fullmatch(step)
        if found:
            fields = found.groupdict()
            if "threshold" in fields:
                fields["threshold"] = L.number(fields["threshold"])
            return L.line(message, **fields)
    return step


def not_given(given: object) -> str:
    """``, not 0.5`` after a right value, or nothing when there was no answer (a number the
    answers hold as a number with the language's decimal mark; text as the student wrote it)."""
    if given is None:
        return ""
    L = current()
    number = isinstance(given, (int, float)) and not isinstance(given, bool)
    return L.line(", not {given}", given=L.number(shown(given)) if number else shown(given))


def not_a_mapping(what: str, value: object) -> str:
    """``gains should be a mapping (a JSON object), got a list``, in the language around it."""
    if value is None:
        return current().line("{what} should be a mapping (a JSON object), got nothing", what=what)
    return current().line(
        "{what} should be a mapping (a JSON object), got a {kind}",
        what=what, kind=type(value).__name__,
    )  # fmt: skip


def nothing(given: object, bad: Exception) -> str:
    """Why an answer could not be read: nothing was given, or what was wrong with it."""
    return current().gettext("nothing was given") if given is None else str(bad)


def fixed(value: float) -> str:
    """A number as the pencil writes it (four decimals), with the language's decimal mark."""
    return current().number(pencil.fixed(value))


def split_words(table: Any) -> str:
    """A split in words (``Outlook``, ``Hours <= 4.5``), its threshold with the decimal mark."""
    if table.kind == "numeric" and table.threshold is not None:
        return f"{table.feature} <= {written(table.threshold)}"
    return table.feature


def written(value: float) -> str:
    """A threshold as people write it (``2.45``), with the language's decimal mark."""
    return current().number(format_number(value))
