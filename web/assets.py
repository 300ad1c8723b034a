"""The board's page and files as sent: the page with the shared art's symbols in it (render/svg.py: defined once, then
`<use>`d by the board), each file gzipped once when first asked for, and revalidated by its ETag."""

from __future__ import annotations

import functools
import gzip
import hashlib
import html
import re
from importlib import resources

from aiohttp import web

from i18n import messages as M
from i18n import translate
from render.svg import sprite

TYPES = {
    "index.html": "text/html",
    "board.js": "text/javascript",
    "board.css": "text/css",
    "rules.css": "text/css",
    "favicon.svg": "image/svg+xml",
}
ART_MARK = b"<!--art-->"  # where index.html takes the symbols


@functools.cache
def asset(name: str, lang: str = "en") -> tuple[bytes, bytes, str]:
    """(the file, gzipped, its ETag) of a file of web/static (`TYPES`); the page with the art's symbols in it, in
    the reader's language `lang` (made once per language)."""
    body = resources.files("web").joinpath("static").joinpath(name).read_bytes()
    if name == "index.html":
        body = in_language(body.replace(ART_MARK, sprite().encode()).decode(), lang).encode()
    return body, gzip.compress(body, 9, mtime=0), '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def in_language(page: str, lang: str) -> str:
    """The page as it reads before any script runs, in the reader's language: its `lang`, its title, the language
    menu's label, the home link's name, the rules link's and what it says without JavaScript."""
    words = {key: html.escape(translate(lang, msgid)) for key, msgid in PAGE_WORDS.items()}
    page = re.sub(r'<html lang="[^"]*"', f'<html lang="{lang}"', page, count=1)
    page = re.sub(r"<title>.*?</title>", f"<title>{words['title']}</title>", page, count=1)
    page = page.replace('id="lang-label">Language<', f'id="lang-label">{words["language"]}<')
    page = page.replace('class="home">', f'class="home" aria-label="{words["home"]}">', 1)
    page = page.replace('class="words">Rules<', f'class="words">{words["rules"]}<', 1)
    return re.sub(r"<noscript>.*?</noscript>", f"<noscript><p>{words['noscript']}</p></noscript>", page, flags=re.S)


PAGE_WORDS = {
    "title": M.WEB_APP_TITLE,
    "language": M.WEB_LANGUAGE,
    "home": M.WEB_BACK,
    "noscript": M.WEB_NOSCRIPT,
    "rules": M.WEB_RULES,  # the header's link to the rules (web/rules.py)
}


def respond(request: web.Request, name: str, lang: str = "en") -> web.Response:
    """A file of the board, gzipped when the browser takes it so; 304 when the browser has it already."""
    body, packed, etag = asset(name, lang if name == "index.html" else "en")
    headers = {"Cache-Control": "no-cache", "ETag": etag, "Vary": "Accept-Encoding"}
    if etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body, headers["Content-Encoding"] = packed, "gzip"
    charset = "utf-8" if name == "index.html" else None
    return web.Response(body=body, content_type=TYPES[name], charset=charset, headers=headers)
