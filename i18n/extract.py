"""`python -m i18n extract`: find every translatable string and bring the catalogues up to date.

Three sources, each reproducible from the tree, each message with its translator notes (`#.` comments, see
i18n/notes.py: the code's `# Translators:` comments, the kind and limit of a registered label, what each placeholder
holds, the command or term a string belongs to):
1. marked calls in `i18n/messages.py`, `cogs/`, `render/` (and any other package listed in SCAN): `N_("…")`,
   `NP_("…", "…")`, `_(locale, "…")`, `t(locale, "…")`, `translate(locale, "…", context="…")`,
   `translate_plural(locale, "…", "…", n)`; only string literals are taken;
2. the game's terms (`i18n/terms.py`), each with its context `term:<key>`;
3. the slash commands as Discord will ask for them: the bot's extensions are loaded into a command tree and
   discord.py's own payload builder is run with a recording translator. Descriptions and choice names get the
   context `slash`, option names `slash-option`; command and group names are not translated (they stay English).

The catalogues keep their translations; new strings arrive untranslated (the tests then fail until someone
translates them), strings that are gone are dropped. `en.po` is filled with the English source itself.
"""

from __future__ import annotations

import ast
import asyncio
import io
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from .catalog import LANGUAGES, SOURCE, po_path, read_catalog, reload
from .commands import SAME_IN_EVERY_LANGUAGE, SLASH, SLASH_OPTION
from .notes import TAG, assigned_name, kinds_by_constant, placeholder_notes, slash_note, term_note
from .terms import ALL_TERMS

ROOT = Path(__file__).resolve().parent.parent
SCAN = ("i18n/messages.py", "cogs", "render")

# marker name -> (index of the msgid argument, index of the plural argument or None)
MARKERS: dict[str, tuple[int, int | None]] = {
    "N_": (0, None),
    "NP_": (0, 1),
    "_": (1, None),
    "t": (1, None),
    "translate": (1, None),
    "tn": (1, 2),
    "translate_plural": (1, 2),
}


@dataclass(frozen=True)
class Found:
    msgid: str
    plural: str | None
    context: str | None
    where: str
    notes: tuple[str, ...] = ()  # what the translator is told (the .po file's `#.` comments)


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class _Comments:
    """The comments of one source, by line: which line holds only a comment, and each line's comment text."""

    def __init__(self, text: str) -> None:
        self.text: dict[int, str] = {}
        self.alone: set[int] = set()
        lines = text.splitlines()
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                row = tok.start[0]
                self.text[row] = tok.string.lstrip("#").strip()
                if not lines[row - 1][: tok.start[1]].strip():
                    self.alone.add(row)

    def tagged(self, rows: Iterable[int]) -> list[str]:
        """From the first `Translators:` comment among `rows` on, the comments' text joined into one note."""
        words: list[str] = []
        for row in rows:
            comment = self.text.get(row)
            if comment is None:
                continue
            if words:
                words.append(comment)
            elif TAG.match(comment):
                words.append(TAG.sub("", comment))
        return [" ".join(w for w in words if w)] if words else []

    def above(self, line: int) -> list[str]:
        """The note in the block of comment-only lines just above `line`."""
        rows = []
        row = line - 1
        while row in self.alone:
            rows.append(row)
            row -= 1
        return self.tagged(sorted(rows))

    def trailing(self, first: int, last: int) -> list[str]:
        """Notes written after the code on the lines `first`..`last` (one per line)."""
        return [n for row in range(first, last + 1) if row not in self.alone for n in self.tagged([row])]


def _statements(tree: ast.AST) -> Iterator[tuple[ast.Call, list[ast.stmt]]]:
    """Every call with the statements that hold it, outermost first."""

    def walk(node: ast.AST, held: list[ast.stmt]) -> Iterator[tuple[ast.Call, list[ast.stmt]]]:
        for child in ast.iter_child_nodes(node):
            here = [*held, child] if isinstance(child, ast.stmt) else held
            if isinstance(child, ast.Call):
                yield child, here
            yield from walk(child, here)

    yield from walk(tree, [])


def _notes(comments: _Comments, call: ast.Call, statements: list[ast.stmt]) -> list[str]:
    notes: list[str] = []
    for line in [*(s.lineno for s in statements), call.lineno]:
        for note in comments.above(line):
            if note not in notes:
                notes.append(note)
    for note in comments.trailing(call.lineno, call.end_lineno or call.lineno):
        if note not in notes:
            notes.append(note)
    return notes


def scan_source(text: str, where: str) -> Iterator[Found]:
    """The marked strings of one Python source, each with the `Translators:` notes written beside it."""
    comments = _Comments(text)
    tree = ast.parse(text)
    kinds = kinds_by_constant(tree)
    for node, statements in _statements(tree):
        marker = MARKERS.get(_name(node.func) or "")
        if marker is None:
            continue
        i, j = marker
        msgid = _literal(node.args[i]) if len(node.args) > i else None
        if msgid is None:
            continue
        plural = _literal(node.args[j]) if j is not None and len(node.args) > j else None
        context = next((_literal(k.value) for k in node.keywords if k.arg == "context"), None)
        notes = _notes(comments, node, statements)
        notes += kinds.get(assigned_name(statements[0] if statements else None) or "", [])
        notes += placeholder_notes([msgid, *([plural] if plural else [])], notes)
        yield Found(msgid, plural, context, where, tuple(notes))


def python_files(root: Path = ROOT, scan: Iterable[str] = SCAN) -> Iterator[Path]:
    for entry in scan:
        path = root / entry
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(p for p in path.rglob("*.py") if ".venv" not in p.parts)


def marked_strings(root: Path = ROOT) -> list[Found]:
    found = []
    for path in python_files(root):
        found.extend(scan_source(path.read_text(encoding="utf-8"), str(path.relative_to(root))))
    return found


def term_strings() -> list[Found]:
    return [Found(t.singular, t.plural, t.context, "i18n/terms.py", (term_note(t),)) for t in ALL_TERMS]


# -- slash commands ------------------------------------------------------------------------------------------------
async def _slash_strings_async(extensions: Iterable[str]) -> list[Found]:
    import discord
    from discord import app_commands
    from discord.app_commands import TranslationContextLocation as Loc
    from discord.ext import commands

    seen: dict[tuple[str, str, str, str | None], list[str]] = {}  # (string, context, where, option) -> commands
    parameter: list = [None]  # the option whose choices come next (discord.py asks for them after it)

    def record(string: str, ctx: str, context) -> None:
        data, where = context.data, context.location.name
        if context.location in (Loc.parameter_name, Loc.parameter_description):
            command, option = data.command.qualified_name, data.name
        elif context.location == Loc.choice_name and parameter[0] is not None:
            command, option = parameter[0].command.qualified_name, parameter[0].name
        else:
            command, option = getattr(data, "qualified_name", "?"), None
        commands = seen.setdefault((string, ctx, where, option), [])
        if command not in commands:
            commands.append(command)

    class Recorder(app_commands.Translator):
        async def translate(self, string, locale, context):
            if context.location in (Loc.parameter_name, Loc.parameter_description):
                parameter[0] = context.data
            if locale != discord.Locale.czech:  # every string is asked once per locale: record one pass
                return None
            if context.location in (Loc.command_name, Loc.group_name):
                return None
            if string.message in SAME_IN_EVERY_LANGUAGE:
                return None
            record(string.message, SLASH_OPTION if context.location == Loc.parameter_name else SLASH, context)
            return None

    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none(), help_command=None)
    for extension in extensions:
        await bot.load_extension(extension)
    recorder = Recorder()
    for command in bot.tree.get_commands():
        await command.get_translated_payload(bot.tree, recorder)  # type: ignore[arg-type]
    for extension in list(bot.extensions):
        await bot.unload_extension(extension)
    return [
        Found(string, None, ctx, f"slash/{where}", (slash_note(where, ", /".join(commands), option, None),))
        for (string, ctx, where, option), commands in seen.items()
    ]


def bot_extensions() -> tuple[str, ...]:
    from cogs import EXTENSIONS

    return EXTENSIONS


def slash_strings(extensions: Iterable[str] | None = None) -> list[Found]:
    """Every description, option name and choice name of the bot's slash commands, as discord.py sends them."""
    return asyncio.run(_slash_strings_async(extensions if extensions is not None else bot_extensions()))


# -- catalogues ----------------------------------------------------------------------------------------------------
def template(found: Iterable[Found]) -> Catalog:
    """The catalogue template (what a .pot file would hold), in the order found, duplicates merged."""
    pot = Catalog(locale=None, domain="messages", project="kingdomino-bot", fuzzy=False)
    for f in found:
        msgid = (f.msgid, f.plural) if f.plural is not None else f.msgid
        existing = pot.get(f.msgid, context=f.context)
        if existing is not None:
            if (f.where, None) not in existing.locations:
                existing.locations.append((f.where, None))
            existing.auto_comments.extend(n for n in f.notes if n not in existing.auto_comments)
            continue
        pot.add(msgid, context=f.context, locations=[(f.where, None)], auto_comments=list(f.notes))
    return pot


def everything(extensions: Iterable[str] | None = None) -> list[Found]:
    return [*term_strings(), *marked_strings(), *slash_strings(extensions)]


def update_catalogs(found: list[Found], languages: Iterable[str] = LANGUAGES) -> dict[str, tuple[int, int]]:
    """Merge the template into each language's .po file; returns {lang: (messages, untranslated)}."""
    report = {}
    for lang in languages:
        pot = template(found)  # a fresh one each time: Babel's update shares the template's message objects
        path = po_path(lang)
        catalog = read_catalog(lang) if path.exists() else Catalog(locale=lang, domain="messages")
        created = catalog.creation_date  # kept, so that an extraction with nothing new changes nothing
        catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
        catalog.creation_date = created
        for m in catalog:
            m.flags.discard("fuzzy")
            if lang == SOURCE and m.id:
                m.string = m.id
        catalog.fuzzy = False
        catalog.project, catalog.version = "kingdomino-bot", "1"
        catalog.copyright_holder = "the kingdomino-bot contributors"
        catalog.msgid_bugs_address = ""
        catalog.last_translator = "the kingdomino-bot contributors"
        catalog.language_team = "the kingdomino-bot contributors"
        with path.open("wb") as f:
            write_po(f, catalog, width=120, ignore_obsolete=True, include_previous=False, sort_output=False)
        untranslated = sum(1 for m in catalog if m.id and not _complete(m.string))
        report[lang] = (sum(1 for m in catalog if m.id), untranslated)
    reload()
    return report


def _complete(string) -> bool:
    if isinstance(string, tuple | list):
        return all(string)
    return bool(string)
