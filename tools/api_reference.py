"""The API reference's member lists, made from the public modules' ``__all__``.

Each page of ``docs/api/`` keeps its own words; the part between the two markers below is made
here, one directive per public name (and every public member of the learner and of ``Node``),
so that nothing public is left out and nothing internal is shown. ``tests/test_public_face.py``
fails when a page differs from what this makes.

    python tools/api_reference.py          # rewrite the pages
    python tools/api_reference.py --check  # exit 1 and name the pages that are out of date
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from pathlib import Path

API = Path(__file__).resolve().parents[1] / "docs" / "api"
BEGIN = "<!-- members: made from __all__ by tools/api_reference.py; edit the docstrings instead -->"
END = "<!-- end of the members -->"

PAGES = {
    "learner": [
        "id3tree.ID3Classifier",
        "id3tree.Node",
        "id3tree.textbook",
        "id3tree.io.onnx",
        "warnings",
    ],  # fmt: skip
    "information": ["id3tree.information"],
    "ranking": ["id3tree.ranking"],
    "stats": ["id3tree.stats"],
    "teaching": [
        "id3tree.teaching",
        "id3tree.classroom",
        "id3tree.classroom.exercises",
        "id3tree.classroom.grading",
        "id3tree.conventions",
    ],
    "datasets": ["id3tree.datasets"],
    "rendering": ["id3tree.render", "id3tree.trace.tracers"],
}
"""Page -> what it lists: a class (every public member), a module (every name of its
``__all__``) or ``warnings`` (the warnings the package's front door exports)."""

PUBLIC_MODULES = [
    "id3tree", "id3tree.textbook", "id3tree.information", "id3tree.ranking", "id3tree.stats",
    "id3tree.teaching", "id3tree.classroom", "id3tree.classroom.exercises",
    "id3tree.classroom.grading", "id3tree.conventions",
    "id3tree.datasets", "id3tree.render", "id3tree.trace.tracers",
]  # fmt: skip
"""The modules whose ``__all__`` is the public API: each of its names is on a page."""

SKLEARN_MEMBERS = {"set_fit_request", "set_score_request", "set_predict_request"}
"""Members scikit-learn adds to every estimator; its own docs explain them."""


def public_members(cls) -> list[str]:
    """The public methods and properties a class defines, in the order of its source, then
    those of the package's own classes it inherits (a mixin such as ``io.saving.Saving``)."""
    own = [k for k in cls.__mro__ if k.__module__.split(".")[0] == "id3tree"]
    found = []
    for k in own:
        names = [n for n in vars(k) if not n.startswith("_") and n not in SKLEARN_MEMBERS]
        found += sorted(set(names) - set(found), key=lambda n, k=k: (_line(k, n), n))
    return found


def _line(cls, name):
    member = inspect.getattr_static(cls, name)
    member = getattr(member, "fget", None) or getattr(member, "__func__", member)
    try:
        return inspect.getsourcelines(member)[1]
    except (TypeError, OSError):  # a dataclass field or a constant: after the methods
        return 10**9


def directive(path: str) -> str:
    """The autodoc directive of one public name (``module.name``)."""
    module, _, name = path.rpartition(".")
    value = getattr(importlib.import_module(module), name)
    if inspect.isclass(value):
        if issubclass(value, Warning):
            return f".. autoexception:: {path}"
        members = public_members(value)
        return f".. autoclass:: {path}" + (
            f"\n   :members: {', '.join(members)}" if members else ""
        )
    if callable(value):
        return f".. autofunction:: {path}"
    return f".. autodata:: {path}\n   :no-value:"


def listed(source: str) -> list[str]:
    """The public names ``source`` stands for (see :data:`PAGES`), as dotted paths."""
    if source == "warnings":
        import id3tree

        return [f"id3tree.{n}" for n in id3tree.__all__ if n.endswith("Warning")]
    module, _, name = source.rpartition(".")
    if module and inspect.isclass(getattr(importlib.import_module(module), name, None)):
        return [source]
    return [f"{source}.{n}" for n in importlib.import_module(source).__all__]


def members_of(page: str) -> str:
    blocks = [directive(path) for source in PAGES[page] for path in listed(source)]
    return "```{eval-rst}\n" + "\n\n".join(blocks) + "\n```"


def page_text(page: str) -> str:
    """The page as it should read: its own words, with the members made anew between the
    markers (added at the end when it has none)."""
    path = API / f"{page}.md"
    text = path.read_text(encoding="utf-8") if path.exists() else f"# {page}\n"
    members = f"{BEGIN}\n\n{members_of(page)}\n\n{END}"
    if BEGIN in text:
        before, rest = text.split(BEGIN, 1)
        return before + members + rest.split(END, 1)[1]
    return text.rstrip("\n") + "\n\n" + members + "\n"


def documented() -> set[str]:
    """Every dotted path the pages list."""
    return {path for page in PAGES for source in PAGES[page] for path in listed(source)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say which pages are stale")
    stale = []
    for page in PAGES:
        path, text = API / f"{page}.md", page_text(page)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(str(path.relative_to(API.parents[1])))
            if not parser.parse_args(argv).check:
                path.write_text(text, encoding="utf-8")
    if stale:
        print(
            ("out of date: " if parser.parse_args(argv).check else "rewrote: ") + ", ".join(stale)
        )
    return 1 if stale and parser.parse_args(argv).check else 0


if __name__ == "__main__":
    sys.exit(main())
