"""A game's board: its state, the moves and the undo of the browser's seated people (each the same call to the game
service as a click in Discord), and, once it is over, the post-game review."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Any, NamedTuple, TypeVar

from aiohttp import web

from cogs.words import UserError
from db.errors import StoreError
from db.models import GameRecord
from engine import action_from_dict
from engine.actions import Skip
from i18n import messages as M
from i18n import translate

from .auth import Session
from .errors import Declined, Refusal
from .people import lang_of
from .review import shown_players

T = TypeVar("T")


async def even_if_gone(work: Awaitable[T]) -> T:
    """`work` carried to its end even when the request that asked for it is cancelled (its page closed): a move
    decided is saved and shown whole, never cut off between its save and its table."""
    task = asyncio.ensure_future(work)
    return await asyncio.shield(task)


class Posted(NamedTuple):
    """A move or lobby request on a game: which game, the reader's language, its checked body, and the version the
    page showed (each refused with a 400 saying why when missing or malformed)."""

    gid: int
    lang: str
    body: dict
    version: int


async def posted(board: Any, request: web.Request) -> Posted:
    gid, lang = board.game_id(request), lang_of(request)
    body = await board.body(request)
    return Posted(gid, lang, body, version_of(body, lang))


async def watched(board: Any, request: web.Request, gid: int, lang: str) -> tuple[GameRecord, Session]:
    """The game `gid` as the board last read it, and the reader's session: refused (404) when there is no such
    game, and (403) unless the reader may watch it."""
    try:
        rec = (await board.snapshots.snapshot(gid)).record
    except UserError as error:
        raise Refusal(404, error.text(lang)) from None
    session = board.people.session(request)
    if not board.people.may_watch(session, rec):
        raise Refusal(403, translate(lang, M.WEB_NOT_YOURS))
    return rec, session


def version_of(body: dict, lang: str) -> int:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Refusal(400, translate(lang, M.WEB_NEED_VERSION))
    return version


class Tables:
    """The endpoints of a game at a board: its state, acting, undoing, its review."""

    def __init__(self, board: Any) -> None:
        self.board = board

    async def state(self, request: web.Request) -> web.Response:
        board = self.board
        _, text = await board.snapshots.view(board.game_id(request), board.people.reader(request))
        return web.Response(text=text, content_type="application/json", headers={"Cache-Control": "no-store"})

    def acting_user(self, request: web.Request, rec: GameRecord) -> int:
        """Which of the browser's people acts: the one whose turn it is, else any seated one (the service then
        says whose turn it is); refused when none of them has a seat."""
        users = self.board.people.session(request).for_game(rec.id)
        seated = [s.user_id for s in rec.seats if s.user_id is not None and s.user_id in users]
        if not seated or not self.board.people.may_watch(self.board.people.session(request), rec):
            raise Declined(translate(lang_of(request), M.WEB_NOT_SEATED))
        d = rec.game.decision() if rec.game is not None else None
        if d is not None:
            seat = rec.seat_of(d.player)
            if seat is not None and seat.user_id in seated:
                return seat.user_id
        return seated[0]

    async def act(self, request: web.Request) -> web.Response:
        board = self.board
        started = time.perf_counter()
        gid, lang, body, version = await posted(board, request)
        try:
            action = action_from_dict(body.get("action"))  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
            raise Refusal(400, translate(lang, M.WEB_BAD_ACTION)) from None
        through = body.get("through", not isinstance(action, Skip)) is True
        service = board.service
        try:
            rec = await service.games.get(gid)
            user = self.acting_user(request, rec)
            play = service.play(gid, user, action, expected_version=version, through_optional=through)
            outcome = await even_if_gone(play)
        except UserError as error:
            raise Declined(error.text(lang)) from None
        except StoreError as error:
            raise Refusal(503, str(error)) from None
        board.metrics.moves.labels(source="board").inc()
        board.metrics.click_to_table.observe(time.perf_counter() - started)
        return web.json_response(
            {
                "ok": True,
                "version": outcome.record.version,
                "warning": outcome.warning_in(lang),
                "posted": outcome.table_posted,
            }
        )

    async def undo(self, request: web.Request) -> web.Response:
        board = self.board
        gid, lang, _, version = await posted(board, request)
        try:
            rec = await board.service.games.get(gid)
            if rec.version != version:
                raise UserError(M.STALE)
            user = self.acting_user(request, rec)
            seated = [s.user_id for s in rec.seats if s.user_id in board.people.session(request).for_game(gid)]
            last = await self._last_person(gid, seated)
            outcome = await even_if_gone(board.service.undo(gid, last if last is not None else user))
        except UserError as error:
            raise Declined(error.text(lang)) from None
        return web.json_response({"ok": True, "version": outcome.record.version})

    async def play_now(self, request: web.Request) -> web.Response:
        """A seated person lets the computer players waiting for a possible undo play now (as Discord's "Computers,
        play now"): `{"ok": true, "waiting": false}` when they were not waiting (they play already)."""
        board = self.board
        gid = board.game_id(request)
        lang = lang_of(request)
        await board.body(request)
        try:
            rec = await board.service.games.get(gid)
        except UserError as error:
            raise Declined(error.text(lang)) from None
        self.acting_user(request, rec)  # refused unless the browser has a seat at the table
        return web.json_response({"ok": True, "waiting": board.service.play_now(gid)})

    async def _last_person(self, gid: int, seated: list[int | None]) -> int | None:
        """Of the browser's seated people, the one who acted last (whose action an undo takes back)."""
        for record in reversed(await self.board.service.store.get_actions(gid, include_undone=False)):
            if record.user_id is not None:
                return record.user_id if record.user_id in seated else None
        return None

    # -- the post-game review (web/review.py) ---------------------------------------------------------------------
    async def finished_game(self, request: web.Request) -> tuple[GameRecord, tuple[int, ...], str]:
        """The finished game of the request, its reader's people in it and language; refused unless the reader may
        watch the game, and while it is not over."""
        gid, lang = self.board.game_id(request), lang_of(request)
        rec, session = await watched(self.board, request, gid, lang)
        if rec.game is None or not rec.game.is_over:
            raise Refusal(409, translate(lang, M.REVIEW_NOT_OVER))
        return rec, session.for_game(gid), lang

    async def review(self, request: web.Request) -> web.Response:
        """The reader's review of a finished game: pending (ask again later) until it is worked out and drawn."""
        rec, viewers, lang = await self.finished_game(request)
        answer = await self.board.reviews.answer(rec, viewers, lang)
        return web.json_response(answer, headers={"Cache-Control": "no-store"})

    async def review_picture(self, request: web.Request) -> web.Response:
        """A person's review picture (PNG), for a reader who may see that person's review."""
        rec, viewers, lang = await self.finished_game(request)
        player = request.match_info["player"]
        if player not in shown_players(rec, viewers):
            raise Refusal(403, translate(lang, M.WEB_REVIEW_NOT_YOURS))
        png = await self.board.reviews.picture(rec, viewers, player, lang)
        if png is None:
            raise Refusal(404, translate(lang, M.WEB_REVIEW_NO_PICTURE))
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=3600"})
