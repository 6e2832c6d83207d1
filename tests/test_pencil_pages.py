"""Every equation the teaching pages print holds by pencil, or is marked ``≈`` honestly.

This test reads the pages as a student would: it finds every printed equation (entropies written
out, H(S | A) as a weighted sum, gains, split information, gain ratios, the overall entropy of
each candidate threshold, midpoints, and weight × entropy in the tables), redoes it from the
numbers printed on its left, and checks the sign:

* ``=``: the printed operands, worked exactly and rounded half away from zero to the places of
  the printed result, give the printed result;
* ``≈``: they do not (else the page should say ``=``), and the printed result is within the
  rounding error of the operands (interval arithmetic: every decimal operand stands for any value
  that rounds to it), so ``≈`` hides no real error.

Its parser and arithmetic are its own (fractions, and logarithms to 60 digits with ``decimal``);
it shares no code with ``id3tree.base.pencil``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest

from id3tree import ID3Classifier
from id3tree.classroom.exercises import make_exercise, sheet_latex
from id3tree.datasets import load


# ---------------------------------------------------------------------------------------------
# numbers with their rounding interval
# ---------------------------------------------------------------------------------------------
def ln(x: Fraction) -> Fraction:
    with localcontext() as context:
        context.prec = 60
        return Fraction((Decimal(x.numerator) / Decimal(x.denominator)).ln())


def log2(x: Fraction) -> Fraction:
    with localcontext() as context:
        context.prec = 60
        return ln(x) / Fraction(Decimal(2).ln())


class Num:
    """A printed number: its value as printed (``at``) and every value it may stand for."""

    def __init__(self, at: Fraction, lo: Fraction | None = None, hi: Fraction | None = None):
        self.at, self.lo, self.hi = at, at if lo is None else lo, at if hi is None else hi

    @classmethod
    def printed(cls, text: str) -> Num:
        value = Fraction(text)
        if "." not in text:
            return cls(value)  # a count, or the 0 of a pure set: exact
        half = Fraction(1, 2 * 10 ** len(text.split(".")[1]))
        return cls(value, value - half, value + half)

    def _corners(self, other, op) -> Num:
        ends = [op(a, b) for a in (self.lo, self.hi) for b in (other.lo, other.hi)]
        return Num(op(self.at, other.at), min(ends), max(ends))

    def __add__(self, other):
        return Num(self.at + other.at, self.lo + other.lo, self.hi + other.hi)

    def __sub__(self, other):
        return Num(self.at - other.at, self.lo - other.hi, self.hi - other.lo)

    def __mul__(self, other):
        return self._corners(other, lambda a, b: a * b)

    def __truediv__(self, other):
        assert other.lo > 0
        return self._corners(other, lambda a, b: a / b)

    def __neg__(self):
        return Num(-self.at, -self.hi, -self.lo)

    def log2(self):
        assert self.lo > 0
        return Num(log2(self.at), log2(self.lo), log2(self.hi))

    def ln(self):  # (the pages of a tree in nats, log_base="e")
        assert self.lo > 0
        return Num(ln(self.at), ln(self.lo), ln(self.hi))


TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|(log2|ln)|([-+×/()]))")


class Parser:
    """expr := term (+|- term)*; term := unary ((×|/) unary | unary)*; unary := -unary | atom;
    atom := number | (expr) | log2(expr). A factor right after a factor multiplies it."""

    def __init__(self, text: str):
        self.tokens, position = [], 0
        text = text.strip()
        while position < len(text):
            match = TOKEN.match(text, position)
            if not match or match.end() == position:
                raise SyntaxError(f"cannot read {text[position:]!r} in {text!r}")
            self.tokens.append(match.group(1) or match.group(2) or match.group(3))
            position = match.end()
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected=None):
        token = self.peek()
        if expected is not None and token != expected:
            raise SyntaxError(f"expected {expected!r}, got {token!r}")
        self.i += 1
        return token

    def parse(self) -> Num:
        value = self.expr()
        if self.peek() is not None:
            raise SyntaxError(f"left over: {self.tokens[self.i :]}")
        return value

    def expr(self):
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self):
        value = self.unary()
        while True:
            token = self.peek()
            if token in ("×", "/"):
                self.take()
                value = value * self.unary() if token == "×" else value / self.unary()
            elif token in ("(", "log2", "ln") or (token and token[0].isdigit()):
                value = value * self.unary()  # (9/14) log2(9/14)
            else:
                return value

    def unary(self):
        if self.peek() == "-":
            self.take()
            return -self.unary()
        return self.atom()

    def atom(self):
        token = self.take()
        if token == "(":
            value = self.expr()
            self.take(")")
            return value
        if token in ("log2", "ln"):
            self.take("(")
            value = self.expr()
            self.take(")")
            return value.log2() if token == "log2" else value.ln()
        if token and token[0].isdigit():
            return Num.printed(token)
        raise SyntaxError(f"unexpected {token!r}")


def rounded(value: Fraction, places: int) -> Fraction:
    """Half away from zero."""
    scale = 10**places
    whole = (abs(value) * scale + Fraction(1, 2)).__floor__()
    return Fraction(whole if value >= 0 else -whole, scale)


NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
SIGNS = re.compile(r" (=|≈) ")


def check(equation: str) -> str | None:
    """Redo ``... = expr SIGN result``; None if it holds, else what is wrong. Raises
    SyntaxError if the expression cannot be read."""
    parts = SIGNS.split(equation.strip())
    result, sign, expression = parts[-1].strip(), parts[-2], parts[-3]
    value = Parser(expression).parse()
    places = len(result.split(".")[1]) if "." in result else 0
    exact = rounded(value.at, places) == Fraction(result)
    if sign == "=" and not exact:
        return f"{equation!r}: by pencil {float(value.at):.6f}, which does not round to {result}"
    if sign == "≈":
        if exact:
            return f"{equation!r}: by pencil it rounds to {result}; the page should say ="
        half = Fraction(1, 2 * 10**places)
        target = Fraction(result)
        if value.hi < target - half or value.lo > target + half:
            return f"{equation!r}: {result} is beyond the rounding error of the operands"
    return None


def is_equation(text: str) -> bool:
    """An equation with an expression worked out: a sign, an operator before it, a number after."""
    parts = SIGNS.split(text.strip())
    if len(parts) < 3 or not NUMBER.fullmatch(parts[-1].strip()):
        return False
    return bool(re.search(r"[-+×/]|log2|ln", parts[-3]))


# ---------------------------------------------------------------------------------------------
# finding the equations of a page
# ---------------------------------------------------------------------------------------------
def tex_to_plain(tex: str) -> str:
    text = re.sub(r"\\frac\{(\d+)\}\{(\d+)\}", r"(\1/\2)", tex)
    text = text.replace("\\log_2", " log2").replace("\\ln", " ln").replace("\\cdot", "×")
    text = text.replace("\\approx", "≈")
    return re.sub(r"\s+", " ", text).strip()


def cells(line: str, latex: bool) -> list[str]:
    if latex:
        return [c.strip() for c in line.rstrip().removesuffix("\\\\").split(" & ")]
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def table_products(lines: list[str], latex: bool, header: str = "weight") -> list[str]:
    """``weight × entropy SIGN product`` of every row of the branch tables (``header``: the
    first word of the last column's header, in the page's language)."""
    out, columns = [], None
    for line in lines:
        if line.strip() == "\\hline":
            continue
        row = cells(line, latex) if (" & " in line if latex else line.startswith("|")) else None
        if not row:
            columns = None
            continue
        if row[-1].startswith(header):
            columns = len(row)
            continue
        if columns and len(row) == columns and not set(row[0]) <= set("-:"):
            entropy, weight, product = (tex_to_plain(c.replace("$", "")) for c in row[-3:])
            if entropy != "0":
                sign, _, result = product.rpartition(" ")
                out.append(f"{weight} × {entropy} {sign or '='} {result}")
    return out


def equations(page: str, latex: bool, weight: str = "weight") -> list[str]:
    """Every equation printed on ``page`` (LaTeX, or Markdown with plain or TeX formulas)."""
    found = table_products(page.splitlines(), latex, weight)
    if latex or "$$" in page:
        pattern = r"\$\$(.+?)\$\$" if not latex else r"(?<!\\)\$(.+?)(?<!\\)\$"
        found += [tex_to_plain(m) for m in re.findall(pattern, page, re.S)]
        if not latex:  # the threshold tables' cells of Markdown with TeX formulas
            found += [tex_to_plain(m) for m in re.findall(r"(?<![\\$])\$([^$]+?)\$(?!\$)", page)]
    else:
        for line in page.splitlines():
            pieces = cells(line, False) if line.startswith("|") else [line]
            for piece in pieces:
                found += re.findall(
                    r"\(\d+(?:\.\d+)? \+ \d+(?:\.\d+)?\) / 2 [=≈] \d+(?:\.\d+)?", piece
                )
                if re.match(r"(H|Gain|SplitInfo|GainRatio)\(|\d", piece):
                    found.append(piece)
    return [e for e in found if is_equation(e)]


TRACE_EQUATION = re.compile(r"^[a-z ]*?((?:\d|\().*) ([=≈]) (\d+(?:\.\d+)?)$")


def trace_equations(page: str) -> list[str]:
    """Every equation of a printed trace: the pieces of its lines between commas that end with
    ``= number`` or ``≈ number`` after an expression of numbers (``weight 5/14 = 0.3571``,
    ``overall entropy 0.0000 + 0.3468 + 0.3468 ≈ 0.6935``, ``gain 0.9403 - 0.6935 ≈ 0.2467``)."""
    found = []
    for line in page.splitlines():
        for piece in line.strip().split(", "):
            match = TRACE_EQUATION.match(piece)
            if match:
                found.append(" ".join(match.groups()))
    return [e for e in found if is_equation(e)]


# ---------------------------------------------------------------------------------------------
# the pages
# ---------------------------------------------------------------------------------------------
class Made(Mapping):
    """A mapping whose keys are known before its values, which ``make`` (pairs) computes on the
    first look-up: collecting the tests (in every pytest-xdist worker, and in every command
    that collects the suite) fits no tree and writes no page."""

    def __init__(self, make: Callable[[], Iterable[tuple[str, object]]], keys: Iterable[str]):
        self.make, self.keys_before, self.made = make, list(keys), None

    def __getitem__(self, key: str):
        if self.made is None:
            self.made = dict(self.make())
            assert list(self.made) == self.keys_before  # the names said before are the ones made
        return self.made[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys_before)

    def __len__(self) -> int:
        return len(self.keys_before)


def _trees():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        X, y = load("play_tennis", return_X_y=True)
        yield "play_tennis", ID3Classifier().fit(X, y)
        yield "play_tennis_ratio", ID3Classifier(criterion="gain_ratio").fit(X, y)
        yield "play_tennis_nats", ID3Classifier(log_base="e").fit(X, y)
        X, y = load("iris", return_X_y=True)
        yield "iris", ID3Classifier().fit(X, y)
        yield "iris_nats_ratio", ID3Classifier(log_base="e", criterion="gain_ratio").fit(X, y)
        X, y = load("titanic", return_X_y=True)
        X = X.drop(columns=["Name", "Ticket", "Cabin", "PassengerId"])
        yield "titanic_depth3", ID3Classifier(max_depth=3).fit(X, y)


TREES = Made(_trees, "play_tennis play_tennis_ratio play_tennis_nats iris iris_nats_ratio "
             "titanic_depth3".split())  # fmt: skip
FORMS = ("markdown", "markdown_math", "latex", "decimals")
KINDS = ("categorical", "numeric", "mixed")


def pages():
    for name, tree in TREES.items():
        solution = tree.worked_solution()
        yield f"{name}/markdown", (str(solution), False)
        yield f"{name}/markdown_math", (solution.math(), False)
        yield f"{name}/latex", (str(tree.worked_solution(format="latex")), True)
        yield f"{name}/decimals", (str(tree.worked_solution(exact=False)), False)
    for kind in KINDS:
        for seed in range(5):
            exercise = make_exercise(kind, 12, seed)
            yield f"key/{kind}/{seed}/markdown", (str(exercise.solution), False)
            yield f"key/{kind}/{seed}/latex", (sheet_latex([exercise], answers=True), True)


PAGES = Made(pages, [f"{name}/{form}" for name in TREES for form in FORMS]
             + [f"key/{k}/{seed}/{f}" for k in KINDS for seed in range(5) for f in ("markdown", "latex")])  # fmt: skip


@pytest.mark.parametrize("name", PAGES)
def test_every_printed_equation_holds_by_pencil(name):
    page, latex = PAGES[name]
    found = equations(page, latex)
    assert len(found) >= 10, f"{name}: only {len(found)} equations found"
    problems = [p for p in map(check, found) if p]
    assert not problems, "\n".join(problems[:10])
    if "≈" in page or "\\approx" in page:
        assert page.count("marks a result worked from the unrounded numbers") == 1


def test_the_parser_finds_every_kind_of_equation_and_the_known_approximations():
    page = str(TREES["play_tennis"].worked_solution())
    found = equations(page, latex=False)
    # the Play Tennis root: 0.9403 - 0.6935 is 0.2468 by pencil, the exact 0.2467 is marked
    assert "Gain(S, Outlook) = 0.9403 - 0.6935 ≈ 0.2467" in found
    assert check("Gain(S, Outlook) = 0.9403 - 0.6935 ≈ 0.2467") is None
    assert check("Gain(S, Outlook) = 0.9403 - 0.6935 = 0.2467") is not None  # = would lie
    assert check("G = 0.9403 - 0.6935 ≈ 0.2468") is not None  # ≈ where = holds
    assert check("G = 0.9403 - 0.6935 ≈ 0.2500") is not None  # ≈ hiding a real error
    assert "7/14 × 0.5917 ≈ 0.2958" in found  # a weighted entropy of the table
    kinds = {
        "entropy": r"log2",
        "weighted sum": r"^H\(S \| ",
        "gain": r"^Gain\(",
        "product": r"^\d+/\d+ × [\d.]+ [=≈]",
    }
    for kind, pattern in kinds.items():
        assert any(re.search(pattern, e) for e in found), kind
    ratio = equations(str(TREES["play_tennis_ratio"].worked_solution()), latex=False)
    assert any(e.startswith("GainRatio(") for e in ratio)
    assert any(e.startswith("SplitInfo(") for e in ratio)
    iris = equations(str(TREES["iris"].worked_solution()), latex=False)
    assert any(e.startswith("(") and "/ 2" in e for e in iris)  # a midpoint
    assert sum(bool(re.match(r"^\d+/\d+ × [\d.]+ \+ ", e)) for e in iris) >= 10  # thresholds


def test_latex_and_markdown_print_the_same_equations():
    tree = TREES["titanic_depth3"]
    plain = equations(str(tree.worked_solution()), latex=False)
    latex = equations(str(tree.worked_solution(format="latex")), latex=True)
    result = [SIGNS.split(e)[-2:] for e in plain]
    assert sorted(map(tuple, result)) == sorted(tuple(SIGNS.split(e)[-2:]) for e in latex)


FITS = {
    "play_tennis": ("play_tennis", {}),
    "play_tennis_ratio": ("play_tennis", {"criterion": "gain_ratio"}),
    "iris": ("iris", {}),
    "titanic_depth3": ("titanic", {"max_depth": 3}),
    "play_tennis_nats": ("play_tennis", {"log_base": "e"}),
    "iris_nats_ratio": ("iris", {"log_base": "e", "criterion": "gain_ratio"}),
}


def _traces():
    """The printed trace (verbose=1 and verbose=2) of each tree, as the learner writes it."""
    import contextlib
    import io

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (data, params) in FITS.items():
            X, y = load(data, return_X_y=True)
            if data == "titanic":
                X = X.drop(columns=["Name", "Ticket", "Cabin", "PassengerId"])
            for verbose in (1, 2):
                printed = io.StringIO()
                with contextlib.redirect_stdout(printed):
                    ID3Classifier(verbose=verbose, **params).fit(X, y)
                yield f"{name}/verbose={verbose}", printed.getvalue()


TRACES = Made(_traces, [f"{name}/verbose={verbose}" for name in FITS for verbose in (1, 2)])


@pytest.mark.parametrize("name", TRACES)
def test_every_equation_of_the_printed_trace_holds_by_pencil(name):
    page = TRACES[name]
    found = trace_equations(page)
    n_branches = len(re.findall(r", weighted entropy ", page))
    n_candidates = len(re.findall(r"    overall entropy \d", page))
    ratios = len(re.findall(r", gain ratio ", page))
    # each branch: its weight and its weighted entropy; each candidate: its sum and its gain
    # (and its gain ratio); nothing left out
    assert len(found) == 2 * n_branches + 2 * n_candidates + ratios
    assert n_branches >= 10
    problems = [p for p in map(check, found) if p]
    assert not problems, "\n".join(problems[:10])
    if "≈" in page:
        assert page.count("marks a result worked from the unrounded numbers") == 1
        nats = "nats" in name
        assert page.startswith("Entropies and gains are in nats" if nats else "≈ marks")
        assert page.splitlines()[nats].startswith("≈ marks")


def test_the_trace_shows_seed_002s_gain_of_outlook_marked_as_a_pencil_sees_it():
    page = TRACES["play_tennis/verbose=1"]
    assert (
        "overall entropy 0.0000 + 0.3468 + 0.3468 ≈ 0.6935, gain 0.9403 - 0.6935 ≈ 0.2467" in page
    )
    assert check("0.0000 + 0.3468 + 0.3468 = 0.6935") is not None  # = would lie: 0.6936
    ratio = trace_equations(TRACES["play_tennis_ratio/verbose=1"])
    assert "0.2467 / 1.5774 = 0.1564" in ratio  # gain ratio as gain over split information
    kinds = [r"^\d+/\d+ [=≈]", r"^\d+/\d+ × [\d.]+ [=≈]", r" \+ .* [=≈]", r"^[\d.]+ - [\d.]+ [=≈]"]
    for kind in kinds:
        assert any(re.search(kind, e) for e in trace_equations(TRACES["iris/verbose=2"])), kind


# ---------------------------------------------------------------------------------------------
# the trace in Spanish and German: decimal commas, lists separated by "; "
# ---------------------------------------------------------------------------------------------
WORDS = {  # the words of the counted lines, as each language prints them
    "es": (", entropía ponderada ", "entropía total ", ", razón de ganancia "),
    "de": (", gewichtete Entropie ", "Gesamtentropie ", ", Gewinnverhältnis "),
}
SPOKEN_EQUATION = re.compile(r"^[^\d(]*?((?:\d|\().*) ([=≈]) (\d+(?:\.\d+)?)$")


def read_decimals(piece: str, decimal: str) -> str:
    """A piece of a line with its numbers written with a point (``0,9403`` is ``0.9403``)."""
    return re.sub(rf"(\d){re.escape(decimal)}(\d)", r"\1.\2", piece)


def spoken_equations(page: str, decimal: str) -> list[str]:
    """:func:`trace_equations` of a page in a language whose decimal mark is ``decimal``: its
    words are any words, its numbers read with that mark."""
    found = []
    for line in page.splitlines():
        for piece in line.strip().split(", "):
            match = SPOKEN_EQUATION.match(read_decimals(piece, decimal))
            if match:
                found.append(" ".join(match.groups()))
    return [e for e in found if is_equation(e)]


def _spoken_traces():
    import contextlib
    import io

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for code in WORDS:
            for name in SPOKEN_FITS:
                data, params = FITS[name]
                X, y = load(data, return_X_y=True)
                for verbose in (1, 2):
                    printed = io.StringIO()
                    with contextlib.redirect_stdout(printed):
                        ID3Classifier(verbose=verbose, language=code, **params).fit(X, y)
                    yield f"{code}/{name}/verbose={verbose}", printed.getvalue()


SPOKEN_FITS = ("play_tennis", "play_tennis_ratio", "iris")
SPOKEN = Made(_spoken_traces, [f"{code}/{name}/verbose={verbose}"
                               for code in WORDS for name in SPOKEN_FITS for verbose in (1, 2)])  # fmt: skip


@pytest.mark.parametrize("name", SPOKEN)
def test_every_equation_of_the_spanish_and_german_trace_holds_by_pencil(name):
    code, english = name.split("/", 1)[0], name.split("/", 1)[1]
    page = SPOKEN[name]
    found = spoken_equations(page, ",")
    weighted, overall, ratio = WORDS[code]
    n_branches = page.count(weighted)
    n_candidates = len(re.findall(rf"    {overall}\d", page))
    # each branch: its weight and its weighted entropy; each candidate: its sum and its gain
    # (and its gain ratio); nothing left out
    assert len(found) == 2 * n_branches + 2 * n_candidates + page.count(ratio)
    assert n_branches >= 10
    problems = [p for p in map(check, found) if p]
    assert not problems, "\n".join(problems[:10])
    # the same equations as the English trace, number for number and sign for sign
    assert found == trace_equations(TRACES[english])


# ---------------------------------------------------------------------------------------------
# the pages in another language: the same equations, with a decimal comma
# ---------------------------------------------------------------------------------------------
def with_points(page: str) -> str:
    """A page's decimal commas (``0,9710``, and ``0{,}9710`` in TeX) written as points."""
    return re.sub(r"(?<=\d)(?:\{,\}|,)(?=\d)", ".", page)


def spoken_pages():
    for code in ("es", "de"):
        for name in ("play_tennis_ratio", "iris"):
            tree = TREES[name]
            english = {
                "markdown": str(tree.worked_solution()),
                "latex": str(tree.worked_solution(format="latex")),
            }
            tree.language = code
            try:
                solution = tree.worked_solution()
                yield f"{code}/{name}/markdown", (str(solution), False, english["markdown"])
                yield f"{code}/{name}/markdown_math", (solution.math(), False, None)
                latex = str(tree.worked_solution(format="latex"))
                yield f"{code}/{name}/latex", (latex, True, english["latex"])
                rounded = str(tree.worked_solution(exact=False))
                yield f"{code}/{name}/decimals", (rounded, False, None)
            finally:
                tree.language = "en"
    for code, kind in SPOKEN_KEYS:  # exercise keys, with their tree
        english, spoken = (make_exercise(kind, 12, 1, language=c) for c in ("en", code))
        yield f"{code}/key/{kind}", (str(spoken.solution), False, str(english.solution))
        latex = sheet_latex([spoken], answers=True)
        yield f"{code}/key/{kind}/latex", (latex, True, sheet_latex([english], answers=True))


SPOKEN_KEYS = (("es", "numeric"), ("de", "mixed"))
SOLUTIONS = Made(spoken_pages, [f"{code}/{name}/{form}" for code in ("es", "de")
                                for name in ("play_tennis_ratio", "iris") for form in FORMS]
                 + [f"{code}/key/{kind}{latex}" for code, kind in SPOKEN_KEYS for latex in ("", "/latex")])  # fmt: skip


@pytest.mark.parametrize("where", SOLUTIONS)
def test_a_worked_solution_in_another_language_holds_by_pencil(where):
    code, name = where.split("/", 1)
    page, latex, english = SOLUTIONS[where]
    from id3tree.base.language import language
    from id3tree.base.pencil import LEGEND

    L = language(code)
    assert "weight" not in page and "Decision" not in page and "samples" not in page
    words = page.replace("C4.5", "").replace("{0.5ex}", "")  # a name, LaTeX's paragraph skip
    assert not re.search(r"\d\.\d", words)  # every decimal mark a comma
    found = equations(with_points(page), latex, L.gettext("weight"))
    assert len(found) >= 10, f"{name}: only {len(found)} equations found"
    problems = [p for p in map(check, found) if p]
    assert not problems, "\n".join(problems[:10])
    if english is not None:  # the English page's equations: the same numbers, the same signs
        theirs = equations(english, latex)
        assert [SIGNS.split(e)[-3:] for e in found] == [SIGNS.split(e)[-3:] for e in theirs]
    if "≈" in page:
        assert page.count(L.gettext(LEGEND)[:30]) == 1
