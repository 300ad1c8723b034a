"""The post-game review on Discord (issue #31): for each person at a finished game's table, the decisions that cost
them most, the move the `hard` computer player would have made instead and how many points it was worth on average
(engine/ai/review.py), in words and as a picture each (render/review.py).

Where it goes: once, in the game's channel, as one message after the final table and score sheet, in the game's
language (the channel stays calm: one message, no ping, nothing else follows the end); privately with
`/look review`, in the reader's language, for any person who played the game.

How it is worked out: in the pictures' review lane (cogs/pictures.py: its own worker process at nice +15, after
every table, look and replay), then kept on disk with the game's other pictures, keyed by the game, its log, who
is reviewed, the review's effort and the engine's code: a restart works nothing out again. Posted once across
processes and restarts: the store's notification claim (`REVIEW_KIND`) is taken, and marked sent, just before the
message goes out. A bot that stopped before posting a review posts it at its next start (`resume_reviews`: the
games finished in the last `RESUME_HOURS`). The service's one call is `pictures.game_over(service, rec)`, after the
final table is posted, which calls `review_when_over` (registered when this module is imported)."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
from datetime import timedelta
from typing import Any

import discord

from db.models import GameRecord, GameStatus, is_former_player
from engine import Game
from engine.ai.review import REVIEW_BUDGET, REVIEW_PLAYOUTS, Review, ReviewItem
from i18n import messages as M
from i18n import translate
from render.review import ITEMS, action_words, points_words, render_review, round_words

from . import pictures
from .decide import game_language
from .tabletext import names_and_colours

log = logging.getLogger(__name__)

EFFORT: tuple[float, int] = (REVIEW_BUDGET, REVIEW_PLAYOUTS)  # hard's budget a decision, sampled endings
REVIEW_KIND = "review"  # the store's notification claim that says the review was posted
REVIEW_TURN_KEY = -31  # its turn key (a game has one review)
RESUME_HOURS = 24
RESUME_LIMIT = 20
MESSAGE_LIMIT = 2000


def reviewed_players(rec: GameRecord) -> list[str]:
    """The people at the table (a computer's moves get no review, nor a former player's), in seat order."""
    return [seat.player_id for seat in rec.seats if seat.user_id is not None and not is_former_player(seat.user_id)]


def _game_data(game: Game) -> tuple[dict, int, list]:
    return game.config.to_dict(), game.seed, [(p, a.to_dict()) for p, a in game.log]


def review_key(rec: GameRecord, game: Game) -> str:
    """The review's key in the pictures' cache: the game, its log, who is reviewed, the effort, the engine's code."""
    shown = json.dumps(
        [*_game_data(game), reviewed_players(rec), list(EFFORT), pictures.thinking_digest()],
        sort_keys=True,
        separators=(",", ":"),
    )
    return f"{int(rec.id)}-review-{hashlib.sha256(shown.encode()).hexdigest()[:32]}"


async def review_of(
    rec: GameRecord, game: Game, *, compute: bool = True, asker: pictures.Asker | None = None
) -> Review | None:
    """The game's review: kept, else worked out in the review lane (`compute`), else None."""
    key = review_key(rec, game)
    if not compute:
        data = await pictures.current().remembered(key)
    else:
        config, seed, log_data = _game_data(game)
        budget, playouts = EFFORT
        data = await pictures.kept(
            key, pictures.review_data, config, seed, log_data, reviewed_players(rec), budget, playouts,
            on_disk=True, priority=pictures.Priority.REVIEW, asker=asker,
        )  # fmt: skip
    return Review.from_dict(json.loads(data)) if data else None


async def review_picture(
    rec: GameRecord, game: Game, review: Review, player: str, lang: str, asker: pictures.Asker | None = None
) -> bytes | None:
    """`player`'s review picture in `lang`, drawn in the review lane and kept."""
    names, colours = names_and_colours(rec)
    config, seed, log_data = _game_data(game)
    data = review.to_dict()
    shown = (config, seed, log_data, data, player, names, colours, lang)
    key = pictures.picture_key(rec.id, "review-picture", *shown)
    return await pictures.kept(
        key, render_review, *shown[:5], names, colours, lang=lang, on_disk=True, priority=pictures.Priority.REVIEW,
        asker=asker,
    )  # fmt: skip


# -- words -------------------------------------------------------------------------------------------------------
def item_line(game: Game, item: ReviewItem, lang: str) -> str:
    """One decision in words: its round, the move made, the better one, and what it cost on average."""
    position = Game.replay(game.config, game.seed, game.log[: item.index])
    return translate(
        lang,
        M.REVIEW_LINE,
        when=round_words(lang, item.round),
        played=action_words(position, item.played, lang),
        better=action_words(position, item.better, lang),
        points=points_words(lang, item.points),
    )


def player_lines(game: Game, review: Review, player: str, who: str, lang: str, count: int) -> list[str]:
    worst = review.worst(player, count)
    if not worst:
        return [translate(lang, M.REVIEW_CLEAN, player=who)]
    return [translate(lang, M.REVIEW_PLAYER, player=who)] + [f"- {item_line(game, i, lang)}" for i in worst]


def channel_text(rec: GameRecord, game: Game, review: Review, lang: str) -> str:
    """The channel's message: every person's costliest decisions, as many a person as fit in one message."""
    for count in range(ITEMS, 0, -1):
        lines = [translate(lang, M.REVIEW_TITLE)]
        for seat in rec.seats:
            if seat.user_id is not None:
                lines += player_lines(game, review, seat.player_id, f"<@{seat.user_id}>", lang, count)
        lines.append(translate(lang, M.REVIEW_MORE))
        content = "\n".join(lines)
        if len(content) <= MESSAGE_LIMIT:
            return content
    return content[: MESSAGE_LIMIT - 1] + "…"


def own_text(game: Game, review: Review, player: str, lang: str) -> str:
    """A person's own review, privately: their costliest decisions."""
    worst = review.worst(player, ITEMS)
    if not worst:
        return translate(lang, M.PIC_REVIEW_NONE)
    lines = [translate(lang, M.REVIEW_YOURS_TITLE)] + [f"- {item_line(game, i, lang)}" for i in worst]
    return "\n".join(lines)[:MESSAGE_LIMIT]


def picture_alt(rec: GameRecord, game: Game, review: Review, player: str, lang: str) -> str:
    """A review picture's description: whose it is, then its decisions in words (no markup)."""
    names, _ = names_and_colours(rec)
    lines = [item_line(game, item, lang) for item in review.worst(player, ITEMS)]
    return f"{names.get(player, player)}: " + " · ".join(lines)


# -- posting -----------------------------------------------------------------------------------------------------
def review_when_over(service: Any, rec: GameRecord) -> None:
    """After a finished game's final table: work out its review at low priority, then post it in its channel,
    once. Returns at once (nothing here waits on the review); does nothing when the pool works in the bot's own
    threads (`pictures.PicturePool.reviews_at_end`) or nobody at the table is a person."""
    pool = pictures.current()
    if not pool.reviews_at_end or not reviewed_players(rec) or rec.game is None or not rec.game.is_over:
        return
    pool.background(post_review(service, rec.id), f"the review of game {rec.id}")


pictures.when_game_over(review_when_over)


async def post_review(service: Any, game_id: int) -> bool:
    """Work out (or read) the game's review and post it in its channel unless it already was; True if posted."""
    rec = await service.games.get(game_id)
    game = rec.game
    if game is None or not game.is_over:
        return False
    review = await review_of(rec, game)
    if review is None:
        log.warning("Game %s: its review could not be worked out", game_id)
        return False
    lang = game_language(rec)
    files = []
    for player in reviewed_players(rec):
        if review.worst(player, 1):
            png = await review_picture(rec, game, review, player, lang)
            if png is not None:
                alt = await asyncio.to_thread(picture_alt, rec, game, review, player, lang)
                files.append(discord.File(io.BytesIO(png), f"review-{len(files) + 1}.png", description=alt[:1000]))
    content = await asyncio.to_thread(channel_text, rec, game, review, lang)
    store = service.store
    if not await store.claim_notification(rec.id, REVIEW_TURN_KEY, 0, REVIEW_KIND, owner=service.owner, sent=True):
        return False  # posted already (by this process before a restart, or by another)
    channel = service.bot.get_partial_messageable(rec.channel_id)
    try:
        await channel.send(content=content, files=files, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:  # no permission, channel gone, Discord failing: logged, not retried
        log.warning("Game %s: its review could not be posted in channel %s: %s", game_id, rec.channel_id, error)
        return False
    return True


async def resume_reviews(service: Any) -> int:
    """At start: the reviews of the games finished in the last `RESUME_HOURS`, in servers this process serves,
    that were not posted (the bot stopped first), worked out (or read from the cache) and posted. Returns how many
    games were looked at."""
    pool = pictures.current()
    if not pool.reviews_at_end:
        return 0
    since = service.clock() - timedelta(hours=RESUME_HOURS)
    summaries = await service.store.list_games(statuses=[GameStatus.FINISHED], limit=RESUME_LIMIT)
    bot = service.bot
    recent = [
        s for s in summaries if s.updated_at >= since and (s.guild_id is None or bot.get_guild(s.guild_id) is not None)
    ]
    for summary in recent:
        pool.background(post_review(service, summary.id), f"the review of game {summary.id}")
    return len(recent)
