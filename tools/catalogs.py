"""The message catalogs of id3tree's languages: extract the template, merge it into each
language's ``.po``, compile each ``.po`` into the ``.mo`` that :mod:`gettext` reads.

    python tools/catalogs.py extract      # id3tree/locale/id3tree.pot from the code
    python tools/catalogs.py update       # every .po gains the template's new messages
    python tools/catalogs.py init xx      # a new language: id3tree/locale/xx/LC_MESSAGES/id3tree.po
    python tools/catalogs.py compile      # every .po -> .mo
    python tools/catalogs.py all          # extract, update and compile

The template is extracted from the code, not written by hand: a message is the first argument
(a string) of ``L.line``, ``L.lines`` or ``L.gettext`` where ``L = current()`` (the language of
:mod:`id3tree.base.language`), the two words of ``L.words(counts, one, many)``, or the argument
of ``N_`` (a sentence made in English and translated where printed); the interactive pages'
scripts (``id3tree/render/assets/*.js``) add the first argument of each ``t("...")`` and the
words of each ``C.plural(n, "row")`` (read as :func:`id3tree.render.html.page_messages` reads
them, so the page asks for exactly the messages the catalog holds). The compiler writes the
GNU ``.mo`` format as CPython's ``Tools/i18n/msgfmt.py`` does (keys sorted, no hash table);
fuzzy entries and empty translations are left out, as msgfmt leaves them.
"""

from __future__ import annotations

import argparse
import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "id3tree"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "id3tree.pot"
CONVENTIONS = [("decimal mark", "."), ("list separator", ", ")]  # (context, message)
HEADER = (
    "Project-Id-Version: id3tree\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
    "Content-Transfer-Encoding: 8bit\n"
)


@dataclass
class Entry:
    msgid: str
    msgctxt: str | None = None
    plural: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    fuzzy: bool = False
    where: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid


# ---------------------------------------------------------------------------------------------
# extraction
# ---------------------------------------------------------------------------------------------
def _is_language(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "L"
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "current"
    )


def _strings(args: list[ast.expr]) -> list[str] | None:
    texts = [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return texts if len(texts) == len(args) else None


def _messages(call: ast.Call) -> Entry | None:
    func = call.func
    if isinstance(func, ast.Name) and func.id == "N_":
        texts = _strings(call.args[:1])
        return Entry(texts[0]) if texts else None
    if not (isinstance(func, ast.Attribute) and _is_language(func.value)):
        return None
    if func.attr in ("line", "lines", "gettext") and call.args:
        texts = _strings(call.args[:1])
        return Entry(texts[0]) if texts else None
    if func.attr == "words" and len(call.args) == 3:
        texts = _strings(call.args[1:])
        return Entry(texts[0], plural=texts[1], msgstr=["", ""]) if texts else None
    return None


def extract() -> list[Entry]:
    """Every message of the code, in the order of the modules and of their lines."""
    entries: dict[tuple[str | None, str], Entry] = {}
    for context, message in CONVENTIONS:
        entries[(context, message)] = Entry(message, msgctxt=context)
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            entry = isinstance(node, ast.Call) and _messages(node)
            if entry:
                found = entries.setdefault(entry.key, entry)
                if where not in found.where:
                    found.where.append(where)
    for entry in _script_messages():
        found = entries.setdefault(entry.key, entry)
        if entry.where[0] not in found.where:
            found.where.append(entry.where[0])
    return list(entries.values())


def _script_messages() -> list[Entry]:
    """The messages of the interactive pages' scripts (``t("...")`` and ``C.plural``)."""
    sys.path.insert(0, str(ROOT))
    try:
        from id3tree.render.html import page_messages
    finally:
        sys.path.remove(str(ROOT))
    where = "id3tree/render/assets"
    messages, plurals = page_messages()
    # a word after a count first: a heading of the same word ("node") reads its singular
    return [Entry(one, plural=many, msgstr=["", ""], where=[where]) for one, many in plurals] + [
        Entry(m, where=[where]) for m in messages
    ]


# ---------------------------------------------------------------------------------------------
# .po files
# ---------------------------------------------------------------------------------------------
def quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return '"' + escaped.replace("\n", "\\n") + '"'


def unquote(text: str) -> str:
    return ast.literal_eval(text)  # a C string as a Python one reads it: escapes, quotes


def write_po(entries: list[Entry], header: str = HEADER) -> str:
    out = ['msgid ""', f"msgstr {quote(header)}", ""]
    for e in entries:
        out += [f"#: {' '.join(e.where)}"] if e.where else []
        out += ["#, fuzzy"] if e.fuzzy else []
        out += [f"msgctxt {quote(e.msgctxt)}"] if e.msgctxt is not None else []
        out.append(f"msgid {quote(e.msgid)}")
        if e.plural is not None:
            out.append(f"msgid_plural {quote(e.plural)}")
            out += [f"msgstr[{i}] {quote(s)}" for i, s in enumerate(e.msgstr)]
        else:
            out.append(f"msgstr {quote(e.msgstr[0])}")
        out.append("")
    return "\n".join(out)


def read_po(text: str) -> tuple[str, list[Entry]]:
    """The header and the entries of a ``.po`` file."""
    entries, current, last, fuzzy, where = [], None, None, False, []

    def close():
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if current is not None and current.msgid is not None and last == "msgstr":
                close()
            fuzzy |= line.startswith("#,") and "fuzzy" in line
            where += line[2:].split() if line.startswith("#:") else []
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            value, keyword = unquote(line), last
            _append(current, keyword, value)
            continue
        value = unquote(rest)
        if keyword in ("msgctxt", "msgid") and (current is None or last in ("msgstr", None)):
            close()
            current = Entry(None, fuzzy=fuzzy, where=where, msgstr=[])  # type: ignore[arg-type]
            fuzzy, where = False, []
        if current is None:
            raise SyntaxError(f"line {number}: {raw!r} outside an entry")
        if keyword == "msgctxt":
            current.msgctxt = value
        elif keyword == "msgid":
            current.msgid = value
        elif keyword == "msgid_plural":
            current.plural = value
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            current.msgstr.append(value)
            keyword = "msgstr"
        else:
            raise SyntaxError(f"line {number}: cannot read {raw!r}")
        last = keyword if not keyword.startswith("msgstr") else "msgstr"
    close()
    header = next((e.msgstr[0] for e in entries if e.msgid == "" and e.msgctxt is None), "")
    return header, [e for e in entries if e.msgid != "" or e.msgctxt is not None]


def _append(entry: Entry | None, keyword: str | None, value: str) -> None:
    if entry is None or keyword is None:
        raise SyntaxError(f"a continued string {value!r} outside an entry")
    if keyword == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + value
    elif keyword == "msgid":
        entry.msgid += value
    elif keyword == "msgid_plural":
        entry.plural = (entry.plural or "") + value
    else:
        entry.msgstr[-1] += value


# ---------------------------------------------------------------------------------------------
# .mo files
# ---------------------------------------------------------------------------------------------
def compile_po(text: str) -> bytes:
    """The ``.mo`` of a ``.po`` file's text (msgfmt's layout: the keys sorted, no hash table)."""
    header, entries = read_po(text)
    messages = {b"": header.encode("utf-8")}
    for e in entries:
        if e.fuzzy or not all(e.msgstr):
            continue
        key = e.msgid if e.plural is None else f"{e.msgid}\0{e.plural}"
        if e.msgctxt is not None:
            key = f"{e.msgctxt}\x04{key}"
        messages[key.encode("utf-8")] = "\0".join(e.msgstr).encode("utf-8")
    keys = sorted(messages)
    ids, strs, offsets = b"", b"", []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(messages[k])))
        ids += k + b"\0"
        strs += messages[k] + b"\0"
    start = 7 * 4 + 16 * len(keys)  # the header, then the two tables of (length, offset)
    key_table, value_table = [], []
    for id_at, id_len, str_at, str_len in offsets:
        key_table += [id_len, start + id_at]
        value_table += [str_len, start + len(ids) + str_at]
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    tables = struct.pack(f"{len(key_table)}i", *key_table)
    tables += struct.pack(f"{len(value_table)}i", *value_table)
    return head + tables + ids + strs


# ---------------------------------------------------------------------------------------------
# the commands
# ---------------------------------------------------------------------------------------------
def po_files() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/id3tree.po"))


def template_text() -> str:
    return write_po(extract())


def merged(po_text: str, template: list[Entry]) -> str:
    """A language's ``.po`` with the template's messages in the template's order: its own
    translations kept, new messages untranslated, messages the code no longer has dropped."""
    header, entries = read_po(po_text)
    known = {e.key: e for e in entries}
    out = []
    for t in template:
        own = known.get(t.key)
        kept = own.msgstr if own and (own.plural is None) == (t.plural is None) else None
        out.append(Entry(t.msgid, t.msgctxt, t.plural, kept or list(t.msgstr), where=t.where))
    return write_po(out, header)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["extract", "update", "init", "compile", "all"])
    parser.add_argument("language", nargs="?", help="the code of the new language (init)")
    args = parser.parse_args(argv)
    if args.command in ("extract", "all"):
        TEMPLATE.write_text(template_text(), encoding="utf-8")
        print(f"wrote {TEMPLATE.relative_to(ROOT)}")
    if args.command == "init":
        if not args.language or not args.language.replace("_", "").isalpha():
            parser.error("init needs the code of the language, such as fr or pt_BR")
        path = LOCALE / args.language / "LC_MESSAGES" / "id3tree.po"
        if path.exists():
            parser.error(f"{path.relative_to(ROOT)} exists already; use update")
        path.parent.mkdir(parents=True)
        header = HEADER + f"Language: {args.language}\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
        path.write_text(merged(write_po([], header), extract()), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}: translate its msgstr lines, then compile")
    if args.command in ("update", "all"):
        template = extract()
        for path in po_files():
            path.write_text(merged(path.read_text(encoding="utf-8"), template), encoding="utf-8")
            print(f"updated {path.relative_to(ROOT)}")
    if args.command in ("compile", "all"):
        for path in po_files():
            path.with_suffix(".mo").write_bytes(compile_po(path.read_text(encoding="utf-8")))
            print(f"compiled {path.with_suffix('.mo').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
