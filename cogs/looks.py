"""The private looks at a game (the table, one kingdom, the scores, the dominoes to come, the history, the replay,
the chart and, for a finished game, the viewer's own review), shared by the `/look` commands and the table's look buttons. It builds no view and imports no cog
module that builds one, so both can import it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass

import discord

from db.models import GameRecord
from engine import Game, action_from_dict
from i18n import messages as M
from i18n import translate, translate_plural
from render import render_kingdom, render_remaining, render_table_pictures
from render.alt import kingdom_alt_text, kingdom_text, kingdoms_alt_text, table_alt_text

from . import pictures, reviews
from .context import Context
from .controls import history_view
from .service import GameService
from .tables import story_files
from .tabletext import describe, names_and_colours
from .words import UserError, breakdown_text, clip, economy_line, event_words, safe

# What each look costs: replays and charts are heavy pictures; the other pictures, and the history (the game played
# again), are light ones; the scores are words. Each is limited per member and per server (cogs/pictures.py).
LOOK_PRIORITIES = {
    "replay": pictures.Priority.HEAVY,
    "chart": pictures.Priority.HEAVY,
    "table": pictures.Priority.LOOK,
    "kingdom": pictures.Priority.LOOK,
    "remaining": pictures.Priority.LOOK,
    "history": pictures.Priority.LOOK,
    "review": pictures.Priority.REVIEW,
}


@contextlib.contextmanager
def look_place(ctx: Context, what: str) -> Iterator[None]:
    """Hold the asker's place for this look (take it before reading the game, so that a refusal costs nothing); a
    UserError "busy, try again in a minute" when the member, the server or the bot has too many looks at work."""
    asker = pictures.Asker(ctx.interaction.guild_id, ctx.user_id)
    try:
        with pictures.admitted(LOOK_PRIORITIES.get(what), asker):
            yield
    except pictures.PicturesBusy:
        raise UserError(M.PICTURES_BUSY) from None


@dataclass(frozen=True)
class Look:
    """What a look is asked for, and what every part of it reads: the game, who looks, in which language."""

    rec: GameRecord
    game: Game
    viewer: int
    player: str | None
    as_text: bool
    page: int
    edit: bool
    lang: str
    asker: pictures.Asker
    service: GameService

    @property
    def drawing(self) -> dict:
        """A look's picture: after the games' own, limited per member and per server."""
        return {"priority": pictures.Priority.LOOK, "asker": self.asker}


async def send_look(
    ctx: Context,
    rec: GameRecord,
    what: str,
    *,
    viewer: int,
    player: str | None = None,
    as_text: bool = False,
    page: int = 1,
    edit: bool = False,
) -> None:
    """Answer a look privately (the interaction is already deferred), in the viewer's language. The history shows
    page `page` (1: the newest moves), with buttons to the older and newer pages; `edit` puts it in place of the
    message clicked. Its pictures wait behind the games' own and are limited per member and per server: over the
    limit, the look answers that the bot is busy."""
    interaction = ctx.interaction
    with look_place(ctx, what):
        answer = LOOKS.get(what)
        if answer is None:
            raise UserError(M.UNKNOWN_VIEW, view=repr(what))
        if rec.game is None:
            raise UserError(M.NOT_STARTED_LOOK)
        asker = pictures.Asker(interaction.guild_id, interaction.user.id)
        look = Look(rec, rec.game, viewer, player, as_text, page, edit, ctx.lang, asker, ctx.service)
        await answer(interaction, look)


async def _look_table(interaction: discord.Interaction, look: Look) -> None:
    game, lang = look.game, look.lang
    names, colours = names_and_colours(look.rec)
    d = game.decision()
    # The same pictures as the channel's table: a Royal Wedding table is two (render.table.splits).
    pngs = await pictures.draw(
        render_table_pictures, game, names, colours, d.player if d else None, lang=lang, **look.drawing
    )
    alt = describe(table_alt_text, game, names, lang=lang)
    if not pngs:
        await interaction.followup.send(clip(translate(lang, M.TABLE_NOT_DRAWN, alt=alt), 2000), ephemeral=True)
        return
    alts = (alt, describe(kingdoms_alt_text, game, names, lang=lang))
    files = [
        discord.File(io.BytesIO(png), name, description=text or None)
        for png, name, text in zip(pngs, ("table.png", "kingdoms.png"), alts, strict=False)
    ]
    await interaction.followup.send(translate(lang, M.TABLE_NOW), files=files, ephemeral=True)


async def _look_story(interaction: discord.Interaction, look: Look, what: str) -> None:
    files = await story_files(
        look.rec, look.game, replay=what == "replay", chart=what == "chart", lang=look.lang, asker=look.asker
    )
    wanted = [f for f in files if f.filename.endswith(".gif" if what == "replay" else ".png")]
    if not wanted:
        raise UserError(M.PICTURE_NOT_MADE)
    text = translate(look.lang, M.REPLAY_CAPTION if what == "replay" else M.CHART_CAPTION)
    await interaction.followup.send(text, file=wanted[0], ephemeral=True)


async def _look_kingdom(interaction: discord.Interaction, look: Look) -> None:
    game, lang = look.game, look.lang
    names, colours = names_and_colours(look.rec)
    who = look.player or str(look.viewer)
    try:
        index = game.kingdom_of(who)
    except KeyError:
        if look.player is not None:
            raise UserError(M.NOT_A_PLAYER) from None
        raise UserError(M.NOT_PLAYING_LOOK) from None
    k = game.kingdoms[index]
    owners = " & ".join(safe(names.get(p, p)) for p in k.players)
    total = game.scores()[index].total
    if look.as_text:  # for screen readers: the grid in words and letters, no picture
        grid = kingdom_text(game, index, lang=lang)
        head = translate_plural(lang, *M.KINGDOM_TITLE, abs(total), owners=owners)
        await interaction.followup.send(clip(f"{head}\n```\n{grid}\n```", 2000), ephemeral=True)
        return
    png = await pictures.draw(render_kingdom, game, index, names, colours, lang=lang, **look.drawing)
    alt = describe(kingdom_alt_text, game, index, names, lang=lang)
    files = [discord.File(io.BytesIO(png), "kingdom.png", description=alt or None)] if png else []
    await interaction.followup.send(
        clip(translate_plural(lang, *M.KINGDOM_HEAD, abs(total), owners=owners), 2000), files=files, ephemeral=True
    )


async def _look_scores(interaction: discord.Interaction, look: Look) -> None:
    game, lang = look.game, look.lang
    title = translate(lang, M.FINAL_SCORES_TITLE if game.is_over else M.SCORES_SO_FAR_TITLE)
    text = title + "\n" + breakdown_text(game, look.rec.seats, lang)
    if economy := economy_line(game, look.rec.seats, lang):  # coins, knights, towers: here, not in every table post
        text += "\n" + economy
    await interaction.followup.send(clip(text, 2000), ephemeral=True)


async def _look_remaining(interaction: discord.Interaction, look: Look) -> None:
    game, lang = look.game, look.lang
    png = await pictures.draw(render_remaining, game, lang=lang, **look.drawing)
    unseen = len(game.unseen_dominoes())
    total = unseen + len(game.revealed)
    text = translate_plural(lang, *(M.UNSEEN_OF_OVER if game.is_over else M.UNSEEN_OF), unseen, total=total)
    files = [discord.File(io.BytesIO(png), "remaining.png", description=text)] if png else []
    await interaction.followup.send(text, files=files, ephemeral=True)


async def _look_history(interaction: discord.Interaction, look: Look) -> None:
    service, lang = look.service, look.lang
    actions = await service.store.get_actions(look.rec.id, include_undone=False)
    lines = await asyncio.to_thread(history_lines, look.game, [a.action for a in actions], look.rec.seats, lang)
    text, page, pages = history_page(lines, look.page, lang)
    view = history_view(look.rec.id, page, pages, lang) if pages > 1 else None
    if look.edit:
        await interaction.edit_original_response(content=text, view=view)
    else:
        await interaction.followup.send(text, ephemeral=True, **({"view": view} if view else {}))


async def _look_review(interaction: discord.Interaction, look: Look) -> None:
    """The viewer's own review of a finished game they played: kept, else started (it is posted in the channel
    when ready) with an answer that says so."""
    rec, game, lang = look.rec, look.game, look.lang
    if not game.is_over:
        raise UserError(M.REVIEW_NOT_OVER)
    player = str(look.viewer)
    if player not in reviews.reviewed_players(rec):
        raise UserError(M.REVIEW_NOT_YOURS)
    review = await reviews.review_of(rec, game, compute=False)
    if review is None:
        service = look.service
        pictures.current().background(reviews.post_review(service, rec.id), f"the review of game {rec.id}")
        await interaction.followup.send(translate(lang, M.REVIEW_WORKING), ephemeral=True)
        return
    text = await asyncio.to_thread(reviews.own_text, game, review, player, lang)
    files = []
    if review.worst(player, 1):
        png = await reviews.review_picture(rec, game, review, player, lang, look.asker)
        if png is None:
            raise UserError(M.REVIEW_NOT_MADE)
        files.append(discord.File(io.BytesIO(png), "review.png", description=text[:1000]))
    await interaction.followup.send(clip(text, 2000), files=files, ephemeral=True)


LOOKS: dict[str, Callable[[discord.Interaction, Look], Awaitable[None]]] = {
    "table": _look_table,
    "replay": functools.partial(_look_story, what="replay"),
    "chart": functools.partial(_look_story, what="chart"),
    "kingdom": _look_kingdom,
    "scores": _look_scores,
    "remaining": _look_remaining,
    "history": _look_history,
    "review": _look_review,
}


HISTORY_LIMIT = 2000  # a message's length
HEAD_ROOM = 120  # for the page's heading


def history_pages(lines: list[str], limit: int = HISTORY_LIMIT - HEAD_ROOM) -> list[tuple[int, int]]:
    """The history cut into pages from the newest move: (first, end) line indices of each page, page 1 the newest.
    Each page holds as many whole lines as fit in `limit` characters (at least one)."""
    pages: list[tuple[int, int]] = []
    end = len(lines)
    while end > 0:
        first, size = end, 0
        while first > 0 and (first == end or size + len(lines[first - 1]) + 1 <= limit):
            first -= 1
            size += len(lines[first]) + 1
        pages.append((first, end))
        end = first
    return pages


def history_page(lines: list[str], page: int, lang: str = "en") -> tuple[str, int, int]:
    """Page `page` of the history (1: the newest moves; beyond the last: the last), in the order they were played,
    under a heading saying which moves of how many; with the page shown and the number of pages."""
    pages = history_pages(lines)
    if not pages:
        return translate(lang, M.LAST_MOVES) + "\n" + translate(lang, M.NO_MOVE_YET), 1, 1
    page = min(max(page, 1), len(pages))
    first, end = pages[page - 1]
    head = translate(lang, M.HISTORY_HEAD, first=first + 1, last=end, total=len(lines), page=page, pages=len(pages))
    return clip(head + "\n" + "\n".join(lines[first:end]), HISTORY_LIMIT), page, len(pages)


def history_lines(game: Game, actions: list[dict], seats, lang: str = "en") -> list[str]:
    """The game told move by move, in the table's words, numbered without gaps (a step that says nothing, like a
    skip, is no move of its own): the game is replayed from its seed and its log (the undone actions left out)."""
    replay = Game.new(game.config, game.seed)
    lines = []
    for data in actions:
        action = action_from_dict(data)
        events = replay.apply(action)
        said = [line for e in events if (line := event_words(e, replay, seats, lang)) is not None]
        if said:
            lines.append(f"{len(lines) + 1}. " + " ".join(said))
    return lines
