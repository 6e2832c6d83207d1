"""Sphinx configuration of the id3tree documentation.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (warnings are errors).

* The API pages come from the numpydoc docstrings (autodoc with napoleon).
* The tutorials are the notebooks of ``tutorials/``, copied here at build time and shown with
  the outputs they are stored with: the test suite runs each once and checks that what it
  prints is what is stored (``python tutorials/store_outputs.py`` stores them again), so the
  build does not run them a second time. The pages' own code cells (``docs/*.md``) run.
* Every ``docs/*.md`` page is picked up by the index.
* Mathematics is written out as MathML by docutils when the page is built, so the site needs
  no MathJax and no network: it works offline, as a course site on a closed network must.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from docutils import nodes

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

project = "id3tree"
author = "The id3tree developers"
copyright = "the id3tree developers"

extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

html_theme = "furo"
html_title = "id3tree"
html_static_path: list[str] = []
html_math_renderer = "mathml"

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
nb_execution_mode = "force"
nb_execution_excludepatterns = ["tutorials/*"]  # shown as stored (and checked by the suite)
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_render_markdown_format = "myst"
nb_merge_streams = True
nb_ipywidgets_js: dict = {}  # no widget scripts from a CDN

autodoc_member_order = "bysource"
autodoc_typehints = "none"
autodoc_default_options = {
    # scikit-learn adds these request methods to every estimator; its own docs explain them
    "exclude-members": "set_fit_request,set_score_request,set_predict_request,"
    "set_predict_proba_request,set_transform_request,get_metadata_routing,set_output",
}
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_ivar = True
napoleon_use_param = False  # types stay words: "of shape (n_samples, n_features)" links nowhere
napoleon_use_rtype = False
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type"]

# The tutorials live in tutorials/ at the top of the project; the site shows copies.
_TUTORIALS = DOCS / "tutorials"
if _TUTORIALS.exists():
    shutil.rmtree(_TUTORIALS)
_TUTORIALS.mkdir()
for notebook in sorted((ROOT / "tutorials").glob("*.ipynb")):
    shutil.copy2(notebook, _TUTORIALS / notebook.name)


# ---------------------------------------------------------------------------------------------
# MathML: LaTeX turned into MathML by docutils while the page is built (browsers draw MathML)
# ---------------------------------------------------------------------------------------------
def _mathml(tex: str, block: bool) -> str:
    from docutils.utils.math import latex2mathml

    try:
        return latex2mathml.tex2mathml(tex, as_block=block)
    except Exception:  # a command docutils does not know: show the LaTeX itself
        from html import escape

        tag = "pre" if block else "code"
        return f'<{tag} class="tex">{escape(tex)}</{tag}>'


def _visit_math(self, node):
    self.body.append(_mathml(node.astext(), block=False))
    raise nodes.SkipNode


def _visit_displaymath(self, node):
    if node.get("number"):
        self.body.append(f'<span class="eqno">({node["number"]})</span>')
    self.body.append(_mathml(node.astext(), block=True))
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("mathml", (_visit_math, None), (_visit_displaymath, None))
