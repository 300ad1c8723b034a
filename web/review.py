"""The post-game review on the board (issue #31): when a game is over, the board's "Review" section shows the decisions
that cost a person most, the move the `hard` computer player would have made and what it was worth on average, in
words and as a picture, in the reader's language.

Who sees what: a seated person sees their own review; a watcher with no seat sees every person's (the channel's
message shows them all to everyone alike). Computers get no review (`cogs.reviews.reviewed_players`).

Nothing here works anything out a second time: the review and its pictures are Discord's own (cogs/reviews.py:
`review_of`, `review_picture`, `item_line`, `picture_alt`), kept in the pictures' cache and worked out in the
pictures' review lane. A finished game's review is started once per game in this process (`reviews.post_review`, as
`/look review` does: it also posts the review in the game's channel when nobody has yet), unless it is kept already;
every request after that reads the cache or waits for that one piece of work. A review picture is drawn once per
person and language (`pictures.kept` joins a drawing under way). The page asks again, waiting longer each time, until
the answer is `ready`.

A review that could not be made (its worker died, the lane timed out; logged) is `failed`, with the seconds until it
is tried again (`retry`): asked for after `RETRY_AFTER` seconds, it is started once more, at most `ATTEMPTS` times
in all; after that `retry` is null, and the page stops asking."""

from __future__ import annotations

import asyncio
import struct
import time
from collections import OrderedDict
from typing import Any

from cogs import pictures, reviews
from cogs.tabletext import names_and_colours
from db.models import GameRecord
from engine.ai.review import Review
from i18n import messages as M
from i18n import translate
from render.review import ITEMS

from .view import plain

KEPT = 256  # games (and pictures) whose work this process remembers starting
RETRY_AFTER = 60.0  # seconds a review that could not be made waits before it is started again
ATTEMPTS = 3  # times a game's review is started here before the board says it could not be made, for good


def shown_players(rec: GameRecord, viewers: tuple[int, ...]) -> list[str]:
    """Whose review this reader sees: their own seats' (the people among them), or every person's for a watcher."""
    people = reviews.reviewed_players(rec)
    mine = [s.player_id for s in rec.seats if s.user_id is not None and s.user_id in viewers]
    return [p for p in people if p in mine] if mine else people


def png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's width and height from its header (None when it is not a PNG)."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", data[16:24])


class BoardReviews:
    """The reviews the board shows: each game's started once here, each picture drawn once per person and language."""

    def __init__(self, service: Any, *, clock=time.monotonic) -> None:
        self.service = service
        self.clock = clock
        self._work: OrderedDict[int, asyncio.Task] = OrderedDict()
        self._drawn: OrderedDict[tuple[int, str, str], asyncio.Task] = OrderedDict()
        self._failed: dict[int, tuple[int, float]] = {}  # game -> (its reviews that ended unmade, when the last did)

    @staticmethod
    def _held(tasks: OrderedDict, key: Any, start) -> asyncio.Task:
        """The task kept under `key`, else the one `start()` makes (a cancelled one, from a pool since replaced, is
        made again); the oldest finished ones are let go."""
        task = tasks.get(key)
        if task is None or task.cancelled():
            task = tasks[key] = start()
            while len(tasks) > KEPT:
                oldest = next(iter(tasks))
                if not tasks[oldest].done():
                    break
                del tasks[oldest]
        tasks.move_to_end(key)
        return task

    def _started(self, rec: GameRecord) -> asyncio.Task:
        pool = pictures.current()
        return self._held(
            self._work, rec.id, lambda: pool.background(reviews.post_review(self.service, rec.id), f"review {rec.id}")
        )

    def _picture(self, rec: GameRecord, review: Review, player: str, lang: str) -> asyncio.Task:
        async def draw() -> tuple[int, int] | None:
            png = await reviews.review_picture(rec, rec.game, review, player, lang)  # type: ignore[arg-type]
            return png_size(png) if png is not None else None

        pool = pictures.current()
        key = (rec.id, player, lang)
        return self._held(self._drawn, key, lambda: pool.background(draw(), f"review picture {key}"))

    async def answer(self, rec: GameRecord, viewers: tuple[int, ...], lang: str) -> dict:
        """The review as the board shows it to this reader: `status` pending (with a sentence saying so), failed,
        none (no person at the table) or ready, with each shown person's lines, picture address and description."""
        game = rec.game
        assert game is not None and game.is_over
        players = shown_players(rec, viewers)
        if not players:
            return {"status": "none", "players": []}
        review = await reviews.review_of(rec, game, compute=False)
        if review is None:
            work = self._started(rec)
            if work.done():  # it ended and nothing was kept: the review could not be made (logged)
                retry = self._retry_in(rec)
                if retry is None or retry > 0:
                    return {"status": "failed", "text": translate(lang, M.REVIEW_NOT_MADE), "retry": retry}
                del self._work[rec.id]
                self._started(rec)
            return {"status": "pending", "text": translate(lang, M.WEB_REVIEW_WORKING)}
        drawn = {p: self._picture(rec, review, p, lang) for p in players if review.worst(p, 1)}
        if not all(task.done() for task in drawn.values()):
            return {"status": "pending", "text": translate(lang, M.WEB_REVIEW_DRAWING)}
        sizes = {p: task.result() for p, task in drawn.items() if not task.cancelled() and task.result() is not None}
        entries = await asyncio.to_thread(self._entries, rec, review, players, viewers, lang, sizes)
        seated = any(e["you"] for e in entries)
        intro = translate(lang, M.REVIEW_YOURS_TITLE if seated else M.REVIEW_TITLE)
        return {"status": "ready", "intro": plain(intro), "players": entries}

    def _retry_in(self, rec: GameRecord) -> float | None:
        """Seconds until the game's unmade review may be started again (0: now), None when it was tried enough."""
        now = self.clock()
        failures, since = self._failed.get(rec.id, (0, None))
        if since is None:  # this attempt's end, seen for the first time
            failures, since = failures + 1, now
            self._failed[rec.id] = (failures, since)
            while len(self._failed) > KEPT:
                del self._failed[next(iter(self._failed))]
        if failures >= ATTEMPTS:
            return None
        left = RETRY_AFTER - (now - since)
        if left <= 0:
            self._failed[rec.id] = (failures, None)  # the next attempt, under way
            return 0.0
        return left

    @staticmethod
    def _entries(rec: GameRecord, review: Review, players: list[str], viewers: tuple[int, ...], lang: str, sizes):
        game = rec.game
        assert game is not None
        names, _ = names_and_colours(rec)
        mine = {s.player_id for s in rec.seats if s.user_id is not None and s.user_id in viewers}
        out = []
        for player in players:
            worst = review.worst(player, ITEMS)
            size = sizes.get(player)
            entry = {
                "player": player,
                "name": names.get(player, player),
                "you": player in mine,
                "lines": [plain(reviews.item_line(game, item, lang)) for item in worst],
                "clean": None if worst else translate(lang, M.PIC_REVIEW_NONE),
                "picture": None,
            }
            if size is not None:
                entry["picture"] = f"api/games/{rec.id}/review/{player}.png?l={lang}"
                entry["width"], entry["height"] = size
                entry["alt"] = plain(reviews.picture_alt(rec, game, review, player, lang))
            out.append(entry)
        return out

    async def picture(self, rec: GameRecord, viewers: tuple[int, ...], player: str, lang: str) -> bytes | None:
        """`player`'s review picture in `lang` for this reader: None unless they may see it (`shown_players`) and the
        review is kept; drawn once (read from the cache after that)."""
        game = rec.game
        if game is None or not game.is_over or player not in shown_players(rec, viewers):
            return None
        review = await reviews.review_of(rec, game, compute=False)
        if review is None or not review.worst(player, 1):
            return None
        return await reviews.review_picture(rec, game, review, player, lang)


__all__ = ["BoardReviews", "png_size", "shown_players"]
