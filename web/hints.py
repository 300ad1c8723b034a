"""A hint on the board ("Show me a good move", issue #46): the move the `hard` computer player would make at the
reader's decision and what it gains on average (engine/ai/hint.py), where the table allows it (`view.hints_allowed`:
a table opened with hints, which every person who sat down agreed to and which is then not rated, or a local table
where every other seat is a computer); refused, saying why, elsewhere.

What it is worked out from: `game.view()`, what the player sees (the hidden order of the lines to come and of the
building stack replaced by a fixed arrangement), sent to the pictures' review lane (cogs/pictures.py: its own worker
process at nice +15, after everything else), never worked out in the bot's own process; one at a time per person
(the lane's limits). The page asks (`POST api/games/<id>/hint` with the version it shows) and asks again, waiting a
little longer each time, until the answer is `ready`; the work for a position is started once however often it is
asked for."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from typing import Any

from aiohttp import web

from cogs import pictures
from db.models import GameRecord, GameStatus
from engine import Game
from engine.ai.hint import HINT_BUDGET, HINT_PLAYOUTS, HINT_RIVALS, Hint, hint_data
from i18n import format_number, translate
from i18n import messages as M
from render.review import action_words, points_words

from .errors import Declined
from .tables import posted, watched
from .view import hints_allowed, plain

EFFORT: tuple[float, int, int] = (HINT_BUDGET, HINT_PLAYOUTS, HINT_RIVALS)  # hard's budget, playouts, other moves
KEPT = 256  # positions whose hint this process remembers starting
BUSY = "busy"  # a hint not started: the person's other work in the lane holds its place
EVEN = 0.1  # a gain under this many points on average is "about as good as another move"


def refusal(rec: GameRecord, viewers: tuple[int, ...], version: int) -> str | None:
    """Why the reader may not have a hint now (a message id), or None: the game is in play, it is one of their
    seats' turn, the table allows hints, and the page shows the game's current version."""
    game = rec.game
    if rec.status != GameStatus.PLAYING or game is None or game.decision() is None:
        return M.WEB_HINT_NOT_PLAYING
    d = game.decision()
    assert d is not None
    seat = rec.seat_of(d.player)
    if seat is None or seat.user_id is None or seat.user_id not in viewers:
        return M.WEB_HINT_NOT_YOUR_TURN
    if not hints_allowed(rec, viewers):
        return M.WEB_HINT_OFF
    if version != rec.version:
        return M.STALE
    return None


def hint_key(rec: GameRecord, state: dict) -> str:
    """The hint's key in the pictures' cache: the game, what the player sees, the effort and the engine's code."""
    shown = json.dumps([state, list(EFFORT), pictures.thinking_digest()], sort_keys=True, separators=(",", ":"))
    return f"{int(rec.id)}-hint-{hashlib.sha256(shown.encode()).hexdigest()[:32]}"


def shown(game: Game, hint: Hint, lang: str) -> dict:
    """The hint as the page marks it: hard's move (its action, for the marks), in words, and what it gains."""
    move = plain(action_words(game, hint.action, lang))
    line = translate(lang, M.WEB_HINT_MOVE, move=move)
    score = format_number(lang, hint.mean, decimals=1)
    if hint.compared and hint.gain >= EVEN:
        gain = translate(lang, M.WEB_HINT_GAIN, score=score, points=points_words(lang, hint.gain))
    elif hint.compared:
        gain = translate(lang, M.WEB_HINT_EVEN, score=score)
    else:
        gain = translate(lang, M.WEB_HINT_ONLY, score=score)
    return {"kind": hint.kind, "action": hint.action.to_dict(), "move": move, "line": line, "gain": gain}


class BoardHints:
    """The hints the board works out: each position's started once here."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self._work: OrderedDict[tuple[int, int, str], asyncio.Task] = OrderedDict()

    async def hint(self, request: web.Request) -> web.Response:
        """The reader's hint at their decision: pending (ask again) until it is worked out, then ready."""
        board = self.board
        gid, lang, _, version = await posted(board, request)
        rec, session = await watched(board, request, gid, lang)
        viewers = session.for_game(gid)
        why = refusal(rec, viewers, version)
        if why is not None:
            raise Declined(translate(lang, why))
        game = rec.game
        assert game is not None
        d = game.decision()
        assert d is not None
        user = rec.seat_of(d.player).user_id  # type: ignore[union-attr]
        task = self._started(rec, user)  # type: ignore[arg-type]
        if not task.done():
            return web.json_response({"ok": True, "status": "pending", "text": translate(lang, M.WEB_HINT_WORKING)})
        hint = task.result() if not task.cancelled() and task.exception() is None else None  # (logged by the pool)
        if hint == BUSY:
            self._work.pop((rec.id, rec.version, d.player), None)  # asked again later, it starts again
            raise Declined(translate(lang, M.WEB_HINT_BUSY))
        if not isinstance(hint, Hint):
            return web.json_response({"ok": True, "status": "failed", "text": translate(lang, M.WEB_HINT_FAILED)})
        answer = {"ok": True, "status": "ready", "version": rec.version, "hint": shown(game, hint, lang)}
        return web.json_response(answer, headers={"Cache-Control": "no-store"})

    def _started(self, rec: GameRecord, user: int) -> asyncio.Task:
        game = rec.game
        assert game is not None
        d = game.decision()
        assert d is not None
        key = (rec.id, rec.version, d.player)
        task = self._work.get(key)
        if task is None or task.cancelled():
            pool = pictures.current()
            task = self._work[key] = pool.background(self._work_out(rec, user), f"hint {key}")
            while len(self._work) > KEPT:
                oldest = next(iter(self._work))
                if not self._work[oldest].done():
                    break
                del self._work[oldest]
        self._work.move_to_end(key)
        return task

    @staticmethod
    async def _work_out(rec: GameRecord, user: int) -> Hint | str | None:
        """The hint worked out in the review lane from what the player sees (`game.view()`); None when it could not
        be (logged by the pool); `BUSY` when the person has another hint or review at work (the lane's limits)."""
        game = rec.game
        assert game is not None
        state = await asyncio.to_thread(lambda: game.view().to_dict())
        asker = pictures.Asker(rec.guild_id, user)
        try:
            data = await pictures.kept(
                hint_key(rec, state), hint_data, state, *EFFORT, on_disk=False, priority=pictures.Priority.REVIEW,
                asker=asker,
            )  # fmt: skip
        except pictures.PicturesBusy:
            return BUSY
        return Hint.from_dict(json.loads(data)) if data else None


__all__ = ["EFFORT", "BoardHints", "hint_key", "refusal", "shown"]
