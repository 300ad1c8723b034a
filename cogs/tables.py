"""Discord's channels as the place the games are shown (`cogs.presenter.Tables`): the table message of each version,
with its pictures, words and controls; a lobby's message; the line that says a game was cancelled."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Any, Protocol

import discord

from db.models import GameRecord
from engine import Event, Game
from i18n import messages as M
from i18n import translate
from render import render_score_sheet, render_table_pictures
from render.alt import chart_alt_text, kingdoms_alt_text, replay_alt_text, sheet_alt_text, table_alt_text
from render.chart import render_score_chart
from render.replay import FILE_NAME as REPLAY_FILE_NAME

from . import pictures
from .common import NO_PINGS, pings, strip_controls
from .controls import lobby_view, table_view
from .decide import game_language
from .lobbytext import lobby_text
from .tabletext import describe, names_and_colours, table_content
from .words import UserError, game_name

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003  # Discord's error code for a deleted channel or thread


class Host(Protocol):
    """What Discord's tables need from the game service."""

    bot: Any
    board: object | None  # the web board's links, when the bot runs a board ("Open the board")
    story_at_end: bool  # the replay and the chart go with the final table

    async def abandon_channel(self, channel_id: int) -> list[int]: ...


class DiscordTables:
    """Posts and edits the games' messages in their Discord channels, for the presenter."""

    def __init__(self, host: Host) -> None:
        self.host = host

    @property
    def bot(self) -> Any:
        return self.host.bot

    async def table_files(self, rec: GameRecord, game: Game) -> tuple[list[discord.File], bool]:
        """The table's pictures (and, at the end, the score sheet and the story); False when the table's own picture
        could not be drawn (the text goes out alone, and says so)."""
        names, colours = names_and_colours(rec)
        d = game.decision()
        lang = game_language(rec)
        files = []
        # A Royal Wedding table comes as two pictures (render.table.splits), the kingdoms second.
        pngs = await pictures.draw(render_table_pictures, game, names, colours, d.player if d else None, lang=lang)
        if pngs:
            alts = (
                describe(table_alt_text, game, names, lang=lang),
                describe(kingdoms_alt_text, game, names, lang=lang),
            )
            for png, name, alt in zip(pngs, ("table.png", "kingdoms.png"), alts, strict=False):
                files.append(discord.File(io.BytesIO(png), filename=name, description=alt or None))
        if game.is_over:
            sheet = await pictures.draw(render_score_sheet, game, names, colours, lang=lang)
            if sheet is not None:
                alt = describe(sheet_alt_text, game, names, lang=lang)
                files.append(discord.File(io.BytesIO(sheet), filename="scores.png", description=alt or None))
            if self.host.story_at_end:
                files.extend(await story_files(rec, game))
        return files, bool(pngs)

    async def post_table(
        self, rec: GameRecord, game: Game, events: list[Event], *, note: str, ping: int | None
    ) -> int | None:
        """Send the table picture with the turn's words (the mention of `ping` notifies); take the controls off the
        previous table."""
        files, drawn = await self.table_files(rec, game)
        if not drawn:
            note = (note + "\n" if note else "") + translate(game_language(rec), M.PICTURE_FAILED)
        content = table_content(rec, game, events, note)
        board = self.host.board is not None  # "Open the board" (cogs.board answers it)
        message = await self._send(rec, content, files, table_view(rec, game, board=board), ping)
        await strip_controls(self.bot, rec.table_channel_id or rec.channel_id, rec.table_message_id)
        return message.id

    async def _send(
        self, rec: GameRecord, content: str, files: list[discord.File], view: discord.ui.View, ping: int | None
    ) -> discord.Message:
        channel = self.bot.get_partial_messageable(rec.channel_id)
        try:
            return await channel.send(content=content, files=files, view=view, allowed_mentions=pings(ping))
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                await self.host.abandon_channel(rec.channel_id)
                raise UserError("This channel no longer exists: its game has ended.") from None
            raise
        except discord.Forbidden:
            log.warning("Cannot post the table of game %s in channel %s: missing permissions", rec.id, rec.channel_id)
            raise UserError(
                "I cannot post the table in this channel: I need the Send Messages and Attach Files permissions "
                "(and Send Messages in Threads in a thread)."
            ) from None

    async def lobby_closed(self, rec: GameRecord, text: str) -> None:
        """Show on a lobby's message that it closed (`text`), without its controls."""
        if rec.table_message_id is None:
            return
        channel = self.bot.get_partial_messageable(rec.channel_id)
        await channel.get_partial_message(rec.table_message_id).edit(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )

    async def post_lobby(self, rec: GameRecord, note: str) -> int | None:
        """The lobby's message in its channel; a refusal says why it could not be posted."""
        channel = self.bot.get_partial_messageable(rec.channel_id)
        try:
            message = await channel.send(
                (note + "\n" if note else "") + lobby_text(rec), view=lobby_view(rec), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden):
                raise UserError(M.CANNOT_POST_TABLE, error=error.text or error.status) from None
            raise UserError(M.DISCORD_FAILED_LOBBY) from None
        return message.id

    async def show_lobby(self, rec: GameRecord) -> None:
        if rec.table_message_id is None:
            return
        channel = self.bot.get_partial_messageable(rec.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(rec.table_message_id).edit(
                content=lobby_text(rec), view=lobby_view(rec), allowed_mentions=NO_PINGS
            )

    async def cancelled(self, rec: GameRecord, by: int | None) -> None:
        lang = game_language(rec)
        who = f"<@{by}>" if by is not None else "?"
        channel = self.bot.get_partial_messageable(rec.channel_id)
        await channel.send(
            translate(lang, M.GAME_CANCELLED_PUBLIC, game=game_name(rec.kind, lang), game_id=rec.id, user=who),
            allowed_mentions=NO_PINGS,
        )
        await strip_controls(self.bot, rec.table_channel_id or rec.channel_id, rec.table_message_id)


async def story_files(
    rec: GameRecord,
    game: Game,
    *,
    replay: bool = True,
    chart: bool = True,
    lang: str | None = None,
    asker: pictures.Asker | None = None,
) -> list[discord.File]:
    """The game told again: the animated replay and the score chart, with their descriptions, in `lang` (a
    private look passes the viewer's language; by default the game's). Empty (logged) when they cannot be made;
    a game never waits on them. A look passes its `asker`: it waits behind the game's own pictures and may be
    refused with `pictures.PicturesBusy`. A finished game's are drawn once and kept (cogs/pictures.py)."""
    names, colours = names_and_colours(rec)
    log_data = [(p, a.to_dict()) for p, a in game.log]
    config = game.config.to_dict()
    lang = lang or game_language(rec)
    shown = (config, game.seed, log_data, names, colours, lang)
    options = {
        "on_disk": game.is_over,
        "priority": pictures.Priority.HEAVY if asker else pictures.Priority.STORY,
        "asker": asker,
        "lang": lang,
    }
    files = []
    if replay:
        key = pictures.picture_key(rec.id, "replay", *shown)
        gif = await pictures.kept(key, pictures.replay_gif, config, game.seed, log_data, names, colours, **options)
        if gif is not None:
            alt = await asyncio.to_thread(describe, replay_alt_text, game, names, lang=lang)
            files.append(discord.File(io.BytesIO(gif), filename=REPLAY_FILE_NAME, description=alt or None))
    if chart:
        key = pictures.picture_key(rec.id, "chart", *shown)
        png = await pictures.kept(key, render_score_chart, config, game.seed, log_data, names, colours, **options)
        if png is not None:
            alt = await asyncio.to_thread(describe, chart_alt_text, game, names, lang=lang)
            files.append(discord.File(io.BytesIO(png), filename="chart.png", description=alt or None))
    return files
