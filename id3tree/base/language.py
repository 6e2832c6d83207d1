"""The language a page is written in: its words from a message catalog, its numbers with the
language's decimal mark.

English is the code's own language and needs no catalog: every page writes it as it always
has. Another language is a gettext catalog, ``id3tree/locale/<code>/LC_MESSAGES/id3tree.mo``
(compiled from the ``.po`` beside it by ``tools/catalogs.py``), read by the standard library's
:mod:`gettext`; adding a language is adding one ``.po`` file (docs/translating.md). A message
is an English line with named fields, ``Node {number} [{path}]: ...``; its translation keeps the
same fields, in any order. Two messages of the catalog are not words but conventions: the
decimal mark (context ``decimal mark``, ``.``: ``,`` in Spanish and German) and the separator
of a list of numbers (context ``list separator``, ``, ``: ``; `` where the decimal mark is a
comma, so that ``No: 2,5; Yes: 9`` stays readable).

A page is written in the language that :func:`speaking` sets around it (the learner sets its
``language`` around each of its pages), read by :func:`current`.

>>> with speaking("es"):
...     current().gettext("root"), current().number("0.9403")
('raíz', '0,9403')
>>> current().code
'en'
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "current", "DECIMAL_MARK", "fields", "LANGUAGES", "Language", "language", "LIST_SEPARATOR",
    "LOCALE_DIR", "N_", "speaking", "speaks",
]  # fmt: skip

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs live: ``<code>/LC_MESSAGES/id3tree.po`` and its compiled ``.mo``."""

DOMAIN = "id3tree"
DECIMAL_MARK = "decimal mark"
"""The context of the catalog's message ``.``: the language's decimal mark."""
LIST_SEPARATOR = "list separator"
"""The context of the catalog's message ``, ``: what separates the numbers of a list."""


def _shipped() -> tuple[str, ...]:
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")}
    return ("en", *sorted(found - {"en"}))


LANGUAGES = _shipped()
"""The codes of the shipped languages, English first."""


def N_(message: str) -> str:
    """Marks ``message`` for the catalog (``tools/catalogs.py`` collects it) and gives it back
    untranslated: for words written in English first and translated where printed."""
    return message


def fields(message: str) -> list[str]:
    """The named fields of a message, in order: ``['h']`` for ``entropy {h}``."""
    return [name for _, name, _, _ in string.Formatter().parse(message) if name is not None]


class Language:
    """One language: its catalog (None for English, the code's own) and its decimal mark."""

    def __init__(self, code: str, catalog: gettext.NullTranslations | None) -> None:
        self.code, self.catalog = code, catalog
        self.english = catalog is None
        self.decimal = self.gettext(".", DECIMAL_MARK)
        self.separator = self.gettext(", ", LIST_SEPARATOR)

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def gettext(self, message: str, context: str | None = None) -> str:
        """``message`` in this language (the message itself where the catalog lacks it)."""
        if self.catalog is None:
            return message
        if context is not None:
            return self.catalog.pgettext(context, message)
        return self.catalog.gettext(message)

    def number(self, text: str) -> str:
        """A number written by the code (``0.9403``) with this language's decimal mark."""
        return text if self.decimal == "." else text.replace(".", self.decimal)

    def numbers(self, texts: Sequence[Any]) -> list[Any]:
        """:meth:`number` of each text of a column (None stays None)."""
        if self.decimal == ".":
            return texts if isinstance(texts, list) else list(texts)
        return [t if t is None else t.replace(".", self.decimal) for t in texts]

    def join(self, texts: Sequence[str]) -> str:
        """Items of a list that may hold numbers, joined by the language's separator."""
        return self.separator.join(texts)

    def line(self, message: str, **values: Any) -> str:
        """``message`` translated, its fields filled with ``values``."""
        return self.lines(message, **{k: [v] for k, v in values.items()})[0]

    def lines(self, message: str, **columns: Any) -> list[str]:
        """``message`` translated and filled once per row of ``columns`` (one sequence per
        field, all as long; a str stands for the same text in every row)."""
        template = _positional(self.gettext(message), tuple(columns))
        n = max((len(c) for c in columns.values() if not isinstance(c, str)), default=1)
        values = [[c] * n if isinstance(c, str) else c for c in columns.values()]
        return list(map(template.format, *values)) if values else [template.format()] * n

    def words(self, counts: Any, one: str, many: str) -> list[str]:
        """The word after each count (``sample`` or ``samples``), by the catalog's plural rule."""
        import numpy as np  # (here: the command line's help imports this module, not numpy)

        counts = np.asarray(counts)
        if self.catalog is None:
            return np.where(counts == 1, one, many).astype(object).tolist()
        distinct, where = np.unique(counts, return_inverse=True)
        written = [  # a sum of weights that is not whole takes the plural of 2
            self.catalog.ngettext(one, many, int(n) if float(n).is_integer() else 2)
            for n in distinct.tolist()
        ]
        return np.array(written, dtype=object)[where.ravel()].tolist()

    def phrase(self, text: str, messages: Sequence[str]) -> str:
        """``text``, an English sentence made from one of ``messages`` (its fields are numbers
        and parameter values), in this language: the fields are read back from ``text`` and
        written into the translation. A text made from none of them is left as it is."""
        if self.catalog is None:
            return text
        for message in messages:
            match = _pattern(message).fullmatch(text)
            if match:
                values = {k: self.number(v) for k, v in match.groupdict().items()}
                if "samples" in values:  # "5 samples": the count, then the word for it
                    n, _, _ = values["samples"].partition(" ")
                    count = float(n.replace(self.decimal, "."))
                    whole = int(count) if count.is_integer() else count
                    values["samples"] = f"{n} {self.words([whole], 'sample', 'samples')[0]}"
                return self.line(message, **values)
        return text


@lru_cache(maxsize=512)
def _positional(message: str, names: tuple[str, ...]) -> str:
    """``message`` with each named field written as the position of its name in ``names``."""
    pieces = []
    for literal, name, spec, conversion in string.Formatter().parse(message):
        pieces.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is not None:
            if name not in names:
                raise KeyError(f"the message {message!r} has a field {{{name}}} not given")
            tail = (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            pieces.append(f"{{{names.index(name)}{tail}}}")
    return "".join(pieces)


@lru_cache(maxsize=256)
def _pattern(message: str) -> re.Pattern[str]:
    """A regular expression that reads the fields of ``message`` back from its text."""
    parts = []
    for literal, name, _, _ in string.Formatter().parse(message):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P<{name}>.+?)")
    return re.compile("".join(parts), re.DOTALL)


@cache
def language(code: str = "en") -> Language:
    """The shipped language ``code`` (see :data:`LANGUAGES`); a ValueError names the others."""
    if not isinstance(code, str) or code not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(map(repr, LANGUAGES))}; got {code!r}")
    if code == "en":
        return Language("en", None)
    catalog = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[code])
    return Language(code, catalog)


_CURRENT: ContextVar[Language | None] = ContextVar("id3tree_language", default=None)


def current() -> Language:
    """The language the page being written is in (English unless :func:`speaking` says)."""
    return _CURRENT.get() or language("en")


@contextmanager
def speaking(code: str | Language | None) -> Iterator[Language]:
    """Write the pages made inside the ``with`` in ``code`` (None: the language around it; a
    :class:`Language` itself: that one, for a page written later in the language it was made
    in)."""
    if code is None:
        yield current()
        return
    token = _CURRENT.set(code if isinstance(code, Language) else language(code))
    try:
        yield current()
    finally:
        _CURRENT.reset(token)


_Class = TypeVar("_Class", bound=type)


def speaks(*methods: str) -> Callable[[_Class], _Class]:
    """A class decorator: each of ``methods`` writes its pages in the language of the
    instance's ``language`` attribute (English where it has none)."""

    def decorate(cls: _Class) -> _Class:
        for name in methods:
            setattr(cls, name, _spoken(getattr(cls, name)))
        return cls

    return decorate


def _spoken(method: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(method)
    def in_language(self: Any, *args: Any, **kwargs: Any) -> Any:
        with speaking(getattr(self, "language", "en")):
            return method(self, *args, **kwargs)

    return in_language
