"""Text made safe for LaTeX: every page id3tree writes for pdflatex escapes its labels here.

A label can be anything a CSV file holds: ``a|b``, ``50% off``, a name with a blank line in it,
``Ölçü``, ``α``, ``Привет``, ``東京`` or an emoji. :func:`latex_escape` turns each into plain
ASCII that pdflatex compiles in any document, with no package and no font beyond a plain
``article``:

* the characters LaTeX reads as commands (``\\ { } $ & % # _ ~ ^ < > |``) are written as text,
  and ``[ ]`` are braced (a row's ``\\\\`` would take them for its argument);
* line breaks, tabs and other spaces become one space; other control characters are shown as
  their code (``[U+0007]``), so two labels that differ only there still differ on paper;
* Latin letters keep their accents (``\\"{O}l\\c{c}\\"{u}``) and letters such as ``ß``, ``æ``,
  ``ø``, ``ł`` are LaTeX's own (``\\ss{}``);
* Greek letters are LaTeX's mathematical letters (``\\ensuremath{\\alpha}``);
* Cyrillic is transliterated (``Privet``), and so are kana and Hangul (by their Unicode names:
  ``ka``, ``han``);
* anything else is written as its code point (``[U+6771]``) or, for a symbol such as an emoji,
  its Unicode name (``[grinning face]``).

>>> latex_escape("50% of a_b & {c}")
'50\\\\% of a\\\\_b \\\\& \\\\{c\\\\}'
>>> latex_escape("a|b"), latex_escape("two\\n\\nlines")
('a\\\\textbar{}b', 'two  lines')
>>> latex_escape("Ölçü"), latex_escape("σ²")
('\\\\"{O}l\\\\c{c}\\\\"{u}', '\\\\ensuremath{\\\\sigma}\\\\textsuperscript{2}')
>>> latex_escape("Привет"), latex_escape("東")
('Privet', '{[}U+6771{]}')
"""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = ["latex_escape"]

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
    "[": "{[}",  # never read as the optional argument of a command before it (a row's \\)
    "]": "{]}",
}  # fmt: skip

# Combining accents LaTeX writes in its default (OT1) encoding, by their Unicode mark.
_ACCENTS = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u",
    "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0323": "d",
    "\u0327": "c", "\u0331": "b",
}  # fmt: skip

# Letters and signs with a LaTeX command of their own (or a plain transliteration).
_LETTERS = {
    "ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "œ": r"\oe{}", "Œ": r"\OE{}", "ø": r"\o{}",
    "Ø": r"\O{}", "ł": r"\l{}", "Ł": r"\L{}", "ı": r"\i{}",
    "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ŋ": "ng", "ħ": "h",
    "–": "--", "—": "---", "‘": "`", "’": "'", "‚": ",", "“": "``", "”": "''", "„": ",,",
    "«": r"\textless{}\textless{}", "»": r"\textgreater{}\textgreater{}", "…": r"\ldots{}",
    "•": r"\ensuremath{\bullet}", "·": r"\ensuremath{\cdot}", "°": r"\ensuremath{^\circ}",
    "×": r"\ensuremath{\times}", "÷": r"\ensuremath{\div}", "±": r"\ensuremath{\pm}", "−": "-",
    "≤": r"\ensuremath{\le}", "≥": r"\ensuremath{\ge}", "≠": r"\ensuremath{\ne}",
    "≈": r"\ensuremath{\approx}", "→": r"\ensuremath{\rightarrow}",
    "←": r"\ensuremath{\leftarrow}", "∞": r"\ensuremath{\infty}", "µ": r"\ensuremath{\mu}",
    "€": "EUR", "£": r"\ensuremath{\mathsterling}", "¥": "JPY", "©": "(c)",
    "§": r"\ensuremath{\S}", "¶": r"\ensuremath{\P}", "¿": "?`", "¡": "!`",
}  # fmt: skip

_GREEK = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi o pi rho varsigma "
    "sigma tau upsilon phi chi psi omega"
).split()
_GREEK_UPPER = {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi"}
_GREEK_UPPER |= {"Omega"}
_GREEK_AS_LATIN = {"alpha": "A", "beta": "B", "epsilon": "E", "zeta": "Z", "eta": "H"}
_GREEK_AS_LATIN |= {"iota": "I", "kappa": "K", "mu": "M", "nu": "N", "o": "O", "rho": "P"}
_GREEK_AS_LATIN |= {"tau": "T", "chi": "X"}

_CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ",
        "a b v g d e e zh z i i k l m n o p r s t u f kh ts ch sh shch - y - e yu ya i yi ye g".split(),
        strict=True,
    )
)


def _greek(ch: str) -> str | None:
    """LaTeX's mathematical letter for a Greek letter (accents dropped), or None."""
    base = unicodedata.normalize("NFD", ch)[0]
    if not "\u0391" <= base <= "\u03c9" or base in "\u03a2":
        return None
    upper = base <= "\u03a9"
    name = _GREEK[ord(base.lower()) - 0x3B1]
    if upper:
        capital = name.capitalize()
        if capital in _GREEK_UPPER:
            return rf"\ensuremath{{\{capital}}}"
        return _GREEK_AS_LATIN.get(name, capital[0])
    return "o" if name == "o" else rf"\ensuremath{{\{name}}}"


def _cyrillic(ch: str) -> str | None:
    latin = _CYRILLIC.get(ch.lower())
    if latin is None:
        return None
    latin = "" if latin == "-" else latin
    return latin.capitalize() if ch != ch.lower() else latin


def _by_name(ch: str) -> str:
    """Kana and Hangul by the sound their Unicode name gives; anything else by its code or,
    for a symbol, its name."""
    name = unicodedata.name(ch, "")
    for script in ("HIRAGANA LETTER ", "KATAKANA LETTER ", "HANGUL SYLLABLE "):
        if name.startswith(script) and name[len(script) :].isalpha():
            return name[len(script) :].lower()
    if unicodedata.category(ch).startswith("S") and name:
        return "{[}" + latex_escape(name.lower()) + "{]}"
    return f"{{[}}U+{ord(ch):04X}{{]}}"


def _accented(ch: str) -> str | None:
    """A Latin letter with accents LaTeX can set (``é`` -> ``\\'{e}``), or None."""
    parts = unicodedata.normalize("NFD", ch)
    base, marks = parts[0], parts[1:]
    if not marks or not base.isascii() or not base.isalpha():
        return None
    out = r"\i{}" if base == "i" and marks[0] in _ACCENTS else base
    for mark in marks:
        if mark in _ACCENTS:  # a mark LaTeX cannot set (an ogonek) is left out
            out = f"\\{_ACCENTS[mark]}{{{out}}}"
    return out


def _one(ch: str) -> str:
    """One character of a label, as LaTeX."""
    if ch in _LATEX_SPECIAL:
        return _LATEX_SPECIAL[ch]
    if ch.isascii() and ch.isprintable():
        return ch
    if ch.isspace():
        return " "
    if ch in _LETTERS:
        return _LETTERS[ch]
    category = unicodedata.category(ch)
    if category == "Cf":  # invisible formatting (a zero-width joiner, a byte-order mark)
        return ""
    if category.startswith("C"):
        return f"{{[}}U+{ord(ch):04X}{{]}}"
    for write in (_accented, _greek, _cyrillic):
        written = write(ch)
        if written is not None:
            return written
    decomposition = unicodedata.decomposition(ch)
    plain = unicodedata.normalize("NFKC", ch)
    if plain != ch and plain.isascii() and plain.isprintable():
        if decomposition.startswith("<super>"):
            return rf"\textsuperscript{{{latex_escape(plain)}}}"
        if decomposition.startswith("<sub>"):
            return rf"\ensuremath{{_{{\textrm{{{latex_escape(plain)}}}}}}}"
        return latex_escape(plain)
    return _by_name(ch)


def latex_escape(text: Any) -> str:
    """``text`` as LaTeX that pdflatex sets as it reads, in plain ASCII (see the module)."""
    return "".join(map(_one, unicodedata.normalize("NFC", str(text))))
