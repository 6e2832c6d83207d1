"""Only public in public: what ``dir(id3tree)`` offers, every module's ``__all__``, the API
reference made from them, every import the README and the docs show, and the import paths of
0.1, which still work for one release and say where each name moved."""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
import warnings
from pathlib import Path

import pytest

import id3tree
from id3tree import _moved

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import api_reference  # noqa: E402

MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for p in (ROOT / "id3tree").rglob("*.py")
)
PUBLIC_LOOKING = [m for m in MODULES if not any(part.startswith("_") for part in m.split("."))]


def test_dir_of_the_package_shows_the_public_names_only():
    assert dir(id3tree) == sorted(id3tree.__all__ + ["__version__"])
    assert not {"engine", "trace", "base", "learner", "dask"} & set(dir(id3tree))


@pytest.mark.parametrize("name", PUBLIC_LOOKING)
def test_every_public_module_says_what_is_public(name):
    module = importlib.import_module(name)
    assert isinstance(getattr(module, "__all__", None), list), f"{name} has no __all__"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it does not have: {missing}"


def test_the_api_reference_is_made_from_all():
    """The pages' member lists are what tools/api_reference.py makes from ``__all__`` (run it
    after adding a public name), and every public name of the public modules is listed."""
    stale = [page for page in api_reference.PAGES if not _page_is_current(page)]
    assert not stale, f"run tools/api_reference.py: {stale} are out of date"
    documented = {_object(path) for path in api_reference.documented()}
    for name in api_reference.PUBLIC_MODULES:
        module = importlib.import_module(name)
        left_out = [n for n in module.__all__ if id(getattr(module, n)) not in documented]
        assert not left_out, f"{name}: {left_out} are public but not in the API reference"


def _page_is_current(page: str) -> bool:
    path = api_reference.API / f"{page}.md"
    return path.read_text(encoding="utf-8") == api_reference.page_text(page)


def _object(path: str) -> int:
    module, _, name = path.rpartition(".")
    return id(getattr(importlib.import_module(module), name))


def test_the_learner_page_lists_every_public_member():
    text = (api_reference.API / "learner.md").read_text(encoding="utf-8")
    members = re.search(r"autoclass:: id3tree.ID3Classifier\n   :members: (.*)", text).group(1)
    for name in ("fit", "prune", "score", "to_rules", "compare", "candidate_table", "trace_"):
        assert name in members.split(", "), name
    assert "kept_branches" not in "".join(p.read_text() for p in api_reference.API.glob("*.md"))


# ---------------------------------------------------------------------------------------------
# every import the README and the docs show works as written, without a warning
# ---------------------------------------------------------------------------------------------
def shown_texts() -> dict[str, str]:
    texts = {p.name: p.read_text(encoding="utf-8") for p in [ROOT / "README.md"]}
    texts |= {f"docs/{p.relative_to(ROOT / 'docs')}": p.read_text() for p in _docs_pages()}
    texts["CONTRIBUTING.md"] = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for notebook in sorted((ROOT / "tutorials").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        texts[f"tutorials/{notebook.name}"] = "\n".join(code)
    return texts


def _docs_pages():
    return [p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts]


IMPORT = re.compile(
    r"^\s*(?:>>> |\.\.\. )?((?:from id3tree[\w.]* import [^\n#]+)|(?:import id3tree[\w.]*))", re.M
)


def shown_imports() -> list[tuple[str, str]]:
    found = []
    for where, text in shown_texts().items():
        for statement in IMPORT.findall(text):
            statement = statement.strip().rstrip("`").rstrip()
            if statement.endswith("("):  # a wrapped import: read it whole
                start = text.index(statement)
                statement = text[start : text.index(")", start) + 1]
            found.append((where, statement))
    return found


@pytest.mark.parametrize(("where", "statement"), shown_imports())
def test_every_import_shown_works(where, statement):
    ast.parse(statement)  # a statement, whole
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the new paths, not the old
        exec(statement, {})


def test_every_name_in_the_readmes_table_of_modules_is_there():
    """The README's table of modules names what each module offers: every name in a row that
    starts with a module is that module's (or a method of the fitted tree)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(id3tree[\w.]*)`( \([a-z]+\))? \| (.*) \|$", text, re.M)
    assert len(rows) >= 6
    for module_name, note, cell in rows:
        if note == " (command)":
            continue
        module = importlib.import_module(module_name)
        for name in re.findall(r"`([A-Za-z_]\w*)(?:\(.*?\))?`", cell):
            assert any(hasattr(m, name) for m in (module, id3tree, id3tree.ID3Classifier)), (
                f"the README says {module_name} has {name}"
            )


# ---------------------------------------------------------------------------------------------
# the import paths of 0.1
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_import_path_works_and_says_where_the_name_moved(old):
    new = importlib.import_module(_moved.new_homes(f"id3tree.{old}")[0])
    name = next(n for n in new.__all__ if not n.isupper()) if new.__all__ else None
    if name is None:  # a folder's face: its names are its modules'
        return
    with pytest.warns(DeprecationWarning, match=rf"{new.__name__}\.{name}"):
        value = getattr(importlib.import_module(f"id3tree.{old}"), name)
    assert value is getattr(new, name)


def test_old_paths_of_split_modules_and_old_pickles_still_load():
    import pickle

    with pytest.warns(DeprecationWarning, match="id3tree.trace.lines.DECIMALS"):
        from id3tree.tracing import DECIMALS  # (now in trace/lines.py)
    with pytest.warns(DeprecationWarning, match="id3tree.base.words.format_number"):
        from id3tree.node import format_number
    assert DECIMALS == 4 and format_number(2.5) == "2.5"
    from id3tree.model.node import Node

    with pytest.warns(DeprecationWarning):  # a pickle of 0.1 names the class by its old path
        assert pickle.loads(b"cid3tree.node\nNode\n.") is Node
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("id3tree.no_such_module")
