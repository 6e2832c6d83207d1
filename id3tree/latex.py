"""Text made safe for LaTeX: every page id3tree writes for pdflatex escapes its labels here."""

from __future__ import annotations

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


def latex_escape(text) -> str:
    """Text made safe for LaTeX (special characters escaped)."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))
