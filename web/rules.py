"""The rules page: `GET /rules?game=<kind>&variants=a,b&players=n&teams=1&lang=xx&back=?game=12`, the rules of a game
(cogs/rulebook.py) as a page of its own in the reader's language, drawn with the board's pieces (the art's symbols in
it, as on the board) and the board's stylesheet. Short first: a summary that fits a phone's screen, then the whole
rules. Without `game`, a choice of the three games. Server-made HTML: no script, no inline style (the board's CSP).

`lang` (else the reader's language: web.people.lang_of), `variants`, `players` and `teams` come from the table the
page was opened from; `back` is that page's query, for the link back to it (inside Discord's Activity too)."""

from __future__ import annotations

import gzip
import html
import re
from functools import lru_cache

from aiohttp import web

from cogs.rulebook import (
    SETUP_COLUMNS,
    Item,
    RulesRefusal,
    Table,
    address,
    is_this_table,
    sections,
    setup_cells,
    setup_rows,
    table,
    table_facts,
    variant_name,
)
from engine.config import GAMES, PLAYER_RANGE
from i18n import LANGUAGES, resolve_locale, term, translate
from i18n import messages as M
from render.svg import sprite

from .people import lang_of
from .rulepictures import figure, item_picture, middle_figure

LANGUAGE_NAMES = {"en": "English", "cs": "Čeština", "es": "Español", "ro": "Română"}
BACK = re.compile(r"\?[A-Za-z0-9_.~%=&+-]{0,500}")  # the board's own query: `?game=12`, the Activity's frame_id...


class BadQuery(ValueError):
    def __init__(self, status: int, text) -> None:
        self.status, self.text = status, text  # text: lang -> the sentence


def read_query(request: web.Request) -> tuple[Table | None, str, str | None]:
    """(the table whose rules are asked, or None for the choice of games; the language; the query back), checked."""
    q = request.query
    lang = lang_of(request)
    if "lang" in q:
        chosen = resolve_locale(q["lang"], default=None)
        if chosen is None:
            names = ", ".join(LANGUAGES)
            raise BadQuery(400, lambda lang: translate(lang, M.WEB_BAD_LANGUAGE, languages=names))
        lang = chosen
    back = q.get("back")
    if back is not None and not BACK.fullmatch(back):
        raise BadQuery(400, lambda lang: translate(lang, M.WEB_BAD_FIELD, field="back", allowed="?game=12"))
    game = q.get("game")
    if not game:
        return None, lang, back
    variants = None
    if "variants" in q:
        variants = frozenset(v for v in q["variants"].split(",") if v)
    players = None
    if q.get("players"):
        low, high = PLAYER_RANGE.get(game, (2, 8))
        if not q["players"].isdigit() or not low <= int(q["players"]) <= high:
            allowed = f"{low}-{high}"
            raise BadQuery(400, lambda lang: translate(lang, M.WEB_BAD_FIELD, field="players", allowed=allowed))
        players = int(q["players"])
    teams = q.get("teams", "") in ("1", "true")
    try:
        return table(game, variants, players, teams), lang, back
    except RulesRefusal as refusal:
        raise BadQuery(400, refusal.text) from None


async def page(request: web.Request) -> web.Response:
    """The rules page (or the choice of games, with what was wrong when the query was)."""
    try:
        found, lang, back = read_query(request)
        status, problem = 200, None
    except BadQuery as bad:
        found, lang, back = None, lang_of(request), None
        status, problem = bad.status, bad.text(lang)
    body = rules_html(found, lang, back, problem).encode()
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding, Accept-Language, Cookie"}
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body, headers["Content-Encoding"] = gzip.compress(body, 6, mtime=0), "gzip"
    return web.Response(status=status, body=body, content_type="text/html", charset="utf-8", headers=headers)


# -- the page ---------------------------------------------------------------------------------------------------------
E = html.escape


def rules_html(t: Table | None, lang: str, back: str | None, problem: str | None = None) -> str:
    title = translate(lang, M.RULES_PAGE_TITLE, game=term(lang, t.game)) if t else translate(lang, M.WEB_RULES)
    main = choice(lang, problem) if t is None else body(t, lang)
    return chrome(title, lang, back, main, t)


def chrome(title: str, lang: str, back: str | None, main: str, t: Table | None) -> str:
    home = "./" + (back or "")
    name = translate(lang, M.RULES_BACK if back else M.WEB_BACK)
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">'
        f'<meta name="theme-color" content="#181c24"><title>{E(title)}</title>'
        '<link rel="icon" href="static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="static/board.css"><link rel="stylesheet" href="static/rules.css"></head>'
        f'<body class="rules-page">{sprite()}<header class="top">'
        f'<a id="home" href="{E(home)}" class="home" aria-label="{E(name)}" title="{E(name)}">'
        '<svg class="home-crown" viewBox="0 0 100 100" aria-hidden="true"><use href="#crown"/></svg></a>'
        f'<h1 id="title">{E(title)}</h1></header><main id="main" class="rules">{main}'
        f"{footer(t, lang, back)}</main></body></html>"
    )


def link(t: Table | None, lang: str | None, back: str | None) -> str:
    """The address of these rules in another language, or of another game's rules."""
    return address(t, lang, back)


def footer(t: Table | None, lang: str, back: str | None) -> str:
    langs = "".join(
        f'<li><a href="{E(link(t, code, back))}" hreflang="{code}" lang="{code}">{name}</a></li>'
        for code, name in LANGUAGE_NAMES.items()
        if code != lang
    )
    out = f'<nav class="panel more" aria-labelledby="langs-h"><h2 id="langs-h">{E(translate(lang, M.RULES_OTHER_LANGUAGES))}</h2><ul>{langs}</ul></nav>'
    if t is not None:
        games = "".join(
            f'<li><a href="{E(link(Table(g), lang, back))}">{E(term(lang, g))}</a></li>' for g in GAMES if g != t.game
        )
        out += f'<nav class="panel more" aria-labelledby="games-h"><h2 id="games-h">{E(translate(lang, M.RULES_OTHER_GAMES))}</h2><ul>{games}</ul></nav>'
    return out


def choice(lang: str, problem: str | None) -> str:
    """The three games to choose from (and why the page asked, when a query was wrong)."""
    said = f'<p class="panel problem" role="alert">{E(problem)}</p>' if problem else ""
    pictures = {"kingdomino": "domino", "queendomino": "domino-town", "royal-wedding": "boxes"}
    games = "".join(
        f'<li><a class="game-choice" href="{E(link(Table(g), None, None))}">{item_picture(pictures[g])}'
        f"<b>{E(term(lang, g))}</b><span>{E(translate(lang, M.RULES_PLAYER_RANGE, low=PLAYER_RANGE[g][0], high=PLAYER_RANGE[g][1]))}</span></a></li>"
        for g in GAMES
    )
    return (
        f'{said}<section class="panel" aria-labelledby="choose-h"><h2 id="choose-h">{E(translate(lang, M.RULES_CHOOSE))}'
        f'</h2><ul class="games-choice">{games}</ul></section>'
    )


@lru_cache(maxsize=512)
def body(t: Table, lang: str) -> str:
    """The summary, the contents, then each section of the rules (made once per table and language)."""
    found = sections(t, lang)
    (_, summary_heading, summary), rest = found[0], found[1:]
    facts = "".join(f"<li>{E(f)}</li>" for f in table_facts(t, lang))
    label = M.RULES_AT_TABLE if t.players is not None or t.variants is not None else None
    facts_label = f'<span class="facts-label">{E(translate(lang, label))}</span>' if label else ""
    out = [
        f'<section class="panel summary" id="summary" aria-labelledby="summary-h"><h2 id="summary-h">{E(summary_heading)}'
        f'</h2><div class="facts">{facts_label}<ul>{facts}</ul></div><ul class="short">'
        + "".join(item(i, t, lang) for i in summary)
        + "</ul></section>"
    ]
    contents = "".join(f'<li><a href="#{key}">{E(heading)}</a></li>' for key, heading, _ in rest)
    out.append(
        f'<nav class="panel contents" aria-labelledby="contents-h"><h2 id="contents-h">'
        f"{E(translate(lang, M.RULES_CONTENTS))}</h2><ol>{contents}</ol></nav>"
    )
    for key, heading, items in rest:
        out.append(
            f'<section class="panel part" id="{key}" aria-labelledby="{key}-h"><h2 id="{key}-h">{E(heading)}</h2>'
        )
        out.append(blocks(items, t, lang))
        out.append("</section>")
    return "".join(out)


def blocks(items: list[Item], t: Table, lang: str) -> str:
    """A section's items: paragraphs, lists (gathered), numbered steps, the set-up table, pictures."""
    out: list[str] = []
    open_list = None
    for i in items:
        kind = "ol" if i.kind == "step" else "ul" if i.kind in ("li",) or i.kind.startswith("variant:") else None
        if kind != open_list:
            if open_list:
                out.append(f"</{open_list}>")
            if kind:
                out.append(f'<{kind} class="items">')
            open_list = kind
        if i.kind == "setup":
            out.append(setup_table(t, lang))
        elif i.kind == "figure":
            out.append(figure(i.picture or "", t, lang))
        elif kind:
            out.append(item(i, t, lang))
        else:
            out.append(f"<p>{E(i.text)}</p>")
    if open_list:
        out.append(f"</{open_list}>")
    return "".join(out)


def item(i: Item, t: Table, lang: str) -> str:
    if i.kind.startswith("variant:"):
        v = i.kind[8:]
        extra = middle_figure() if v == "middle-kingdom" else ""
        return f'<li class="variant" id="variant-{v}"><p><b>{E(variant_name(v, lang))}</b>: {E(i.text)}</p>{extra}</li>'
    picture = item_picture(i.picture)
    cls = ' class="with-pic"' if picture else ""
    return f"<li{cls}>{picture}<p>{E(i.text)}</p></li>"


def setup_table(t: Table, lang: str) -> str:
    head = "".join(f'<th scope="col">{E(translate(lang, M.RULES_SETUP_COLUMNS[c]))}</th>' for c in SETUP_COLUMNS)
    rows = []
    for row in setup_rows(t):
        first, *rest = setup_cells(row, t.game, lang)
        here = ' class="here"' if is_this_table(row, t) else ""
        cells = "".join(f"<td>{E(c)}</td>" for c in rest)
        rows.append(f'<tr{here}><th scope="row">{E(first)}</th>{cells}</tr>')
    return f'<div class="setup-wrap"><table class="setup"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
