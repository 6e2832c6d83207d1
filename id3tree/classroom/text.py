"""What a student or a roster names, made safe for each place it is written.

A name, a file name or an answer can hold anything: a newline that would forge a row, an escape
code that clears the terminal, bytes that are not UTF-8, ``<script>``, or ``=HYPERLINK(...)``
that a spreadsheet would run. Each writer of the classroom passes them through one function:

>>> printable("Zoé\\n\\x1b[2J")                  # a terminal, a text table: one line, visible
'Zoé\\\\n\\\\x1b[2J'
>>> markdown_text("<script>alert(1)</script>")   # a handout in Markdown: shown, never run
'&lt;script&gt;alert\\\\(1\\\\)&lt;/script&gt;'
>>> csv_cell("=HYPERLINK(1)"), csv_cell("Alice")  # a CSV cell: never a formula
("'=HYPERLINK(1)", 'Alice')
>>> shown("0.5" + "x" * 100, limit=8)            # a student's answer quoted in feedback
"'0.5xxxxx…'"
"""

from __future__ import annotations

import re

__all__ = ["csv_cell", "markdown_text", "printable", "shown"]

_KEPT = {"\u200c", "\u200d"}  # the zero-width (non-)joiners some scripts spell names with
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}
_MARKDOWN = {ch: "\\" + ch for ch in "\\`*_{}[]()#+-.!|~$"} | {
    "<": "&lt;", ">": "&gt;", "&": "&amp;",
}  # fmt: skip
_FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as the start of a formula
_NUMBER_LIKE = re.compile(r"[+-]?[0-9][0-9.,eE/+-]*")
SHOWN_LENGTH = 60
"""How much of a student's answer the feedback quotes (the rest is cut, marked ``…``)."""


def printable(text: object) -> str:
    """``text`` on one line with every invisible or line-breaking character written as an
    escape (``\\n``, ``\\x1b``, ``\\u202e``; a byte of a file name that is not UTF-8 as
    ``\\xff``), and ``\\`` as ``\\\\``, so that what is shown is what is there."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    text = str(text)
    if text.isprintable() and "\\" not in text:
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (os.fsdecode's escape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch.isprintable() or ch in _KEPT:
            out.append(ch)
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        else:
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


def markdown_text(text: object) -> str:
    """``text`` as it reads inside a Markdown paragraph or heading: :func:`printable`, then
    every character Markdown or HTML would act on escaped (no tag, link, image or emphasis)."""
    return "".join(_MARKDOWN.get(ch, ch) for ch in printable(text))


def csv_cell(text: object) -> str:
    """A text cell of a CSV file a spreadsheet will open: :func:`printable`, and a cell that
    starts with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage return) prefixed with ``'``,
    as OWASP recommends against CSV injection, so that it reads as text, never as a formula."""
    text = printable(text)
    return "'" + text if text.startswith(_FORMULA) else text


def shown(value: object, limit: int = SHOWN_LENGTH) -> str:
    """A student's answer quoted in feedback: a number as it is, text quoted with its invisible
    characters escaped, and anything longer than ``limit`` characters cut."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= limit else text[:limit] + "…"
    if isinstance(value, str) and len(value) <= 30 and _NUMBER_LIKE.fullmatch(value.strip()):
        return value.strip()  # (a number written as text reads as the number)
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "…")  # (repr escapes)
    return f"a {type(value).__name__}"
