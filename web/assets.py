"""The board's page and files as sent: the page with the shared art's symbols in it (render/svg.py: defined once, then
`<use>`d by the board), each file gzipped once when first asked for, and revalidated by its ETag."""

from __future__ import annotations

import functools
import gzip
import hashlib
from importlib import resources

from aiohttp import web

from render.svg import sprite

TYPES = {
    "index.html": "text/html",
    "board.js": "text/javascript",
    "board.css": "text/css",
    "favicon.svg": "image/svg+xml",
}
ART_MARK = b"<!--art-->"  # where index.html takes the symbols


@functools.cache
def asset(name: str) -> tuple[bytes, bytes, str]:
    """(the file, gzipped, its ETag) of a file of web/static (`TYPES`); the page with the art's symbols in it."""
    body = resources.files("web").joinpath("static").joinpath(name).read_bytes()
    if name == "index.html":
        body = body.replace(ART_MARK, sprite().encode())
    return body, gzip.compress(body, 9, mtime=0), '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def respond(request: web.Request, name: str) -> web.Response:
    """A file of the board, gzipped when the browser takes it so; 304 when the browser has it already."""
    body, packed, etag = asset(name)
    headers = {"Cache-Control": "no-cache", "ETag": etag, "Vary": "Accept-Encoding"}
    if etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body, headers["Content-Encoding"] = packed, "gzip"
    charset = "utf-8" if name == "index.html" else None
    return web.Response(body=body, content_type=TYPES[name], charset=charset, headers=headers)
