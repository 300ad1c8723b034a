"""Showing a game on Discord: a `Result` of the game service becomes the table message in its channel.

The presenter posts the table (its words from `cogs.tabletext`, its pictures from `cogs.pictures`, its controls from
`cogs.controls`) once per version of the game, even with several processes, takes the controls off the previous
one, and hands the notifier whom to tell. It decides nothing about the game and writes the store only through the
commit path (which message shows which version).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

import discord

from db.models import GameRecord, GameStatus
from engine import Event, Game
from i18n import messages as M
from i18n import translate
from render import render_score_sheet, render_table_pictures
from render.alt import chart_alt_text, kingdoms_alt_text, replay_alt_text, sheet_alt_text, table_alt_text
from render.chart import render_score_chart
from render.replay import FILE_NAME as REPLAY_FILE_NAME

from . import pictures
from .common import UserError, pings, strip_controls
from .controls import table_view
from .decide import Result, game_language, turn_key
from .lobbytext import lobby_text
from .notifier import TurnNotice
from .tabletext import describe, names_and_colours, table_content

if TYPE_CHECKING:
    from .commit import Commits
    from .notifier import Notifier

log = logging.getLogger(__name__)

TABLE_LEASE_SECONDS = 120.0  # how long a process may take to post a table before another one may
UNKNOWN_CHANNEL = 10003  # Discord's error code for a deleted channel or thread


class Host(Protocol):
    """What the presenter needs from the game service (its seams: tests and the local board replace `post_table`)."""

    bot: discord.Client
    owner: str
    story_at_end: bool
    commits: Commits
    notifier: Notifier
    clock: Callable[[], datetime]

    async def post_table(self, rec: GameRecord, events: list[Event], *, note: str = "") -> discord.Message | None: ...

    async def abandon_channel(self, channel_id: int) -> list[int]: ...

    async def picture(self, game_id: int, render: Callable[..., object], *args: object, **kwargs: object) -> object: ...


class Presenter:
    """Posts the tables of the games of one bot process."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.notes: dict[int, list[str]] = {}  # per game: lines for its next table (the start, a deadline)

    def note(self, game_id: int, line: str) -> None:
        if line:
            self.notes.setdefault(game_id, []).append(line)

    def forget(self, game_id: int) -> None:
        """The game's table will not be posted for what it waited to say (it ended, or a move was taken back)."""
        self.notes.pop(game_id, None)
        self.host.commits.unshown.pop(game_id, None)

    def has_news(self, game_id: int) -> bool:
        return bool(self.host.commits.unshown.get(game_id) or self.notes.get(game_id))

    async def publish(self, result: Result, *, note: str = "") -> None:
        """Post the table with everything that happened since the last one: once per version of the game, even
        with several processes (the store hands the posting to one of them)."""
        host, commits = self.host, self.host.commits
        result.record = rec = await commits.get(result.record.id)
        if not await commits.store.claim_table_post(rec.id, rec.version, host.owner, TABLE_LEASE_SECONDS, host.clock()):
            return  # another process, or an earlier call, posts this version's table
        self.note(rec.id, note)
        events = commits.unshown.get(rec.id, [])
        try:
            await host.post_table(rec, events, note="\n".join(self.notes.get(rec.id, [])))
        except BaseException:
            await commits.store.release_table_post(rec.id, rec.version, host.owner)  # the next attempt may try
            raise
        self.forget(rec.id)
        result.table_posted = True

    async def publish_or_warn(self, result: Result, *, note: str = "") -> None:
        """`publish`, for a change that is saved whatever happens here (an undo): a failure becomes the result's
        warning (the repair pass posts the table later), never the answer instead of "done"."""
        try:
            await self.publish(result, note=note)
        except Exception as error:
            log.warning("Game %s: saved, but its table could not be posted: %s", result.record.id, error)

            def warning(lang: str, error=error) -> str:
                reason = error.text(lang) if isinstance(error, UserError) else translate(lang, M.TABLE_NOT_UPDATED)
                return f"⚠️ {reason}"

            result.warning = warning

    async def table_files(self, rec: GameRecord, game: Game) -> tuple[list[discord.File], bool]:
        """The table's pictures (and, at the end, the score sheet and the story); False when the table's own picture
        could not be drawn (the text goes out alone, and says so)."""
        names, colours = names_and_colours(rec)
        d = game.decision()
        lang = game_language(rec)
        files = []
        # A Royal Wedding table comes as two pictures (render.table.splits), the kingdoms second.
        pngs = await self.host.picture(
            rec.id, render_table_pictures, game, names, colours, d.player if d else None, lang=lang
        )
        if pngs:
            alts = (
                describe(table_alt_text, game, names, lang=lang),
                describe(kingdoms_alt_text, game, names, lang=lang),
            )
            for png, name, alt in zip(pngs, ("table.png", "kingdoms.png"), alts, strict=False):
                files.append(discord.File(io.BytesIO(png), filename=name, description=alt or None))
        if game.is_over:
            sheet = await self.host.picture(rec.id, render_score_sheet, game, names, colours, lang=lang)
            if sheet is not None:
                alt = describe(sheet_alt_text, game, names, lang=lang)
                files.append(discord.File(io.BytesIO(sheet), filename="scores.png", description=alt or None))
            if self.host.story_at_end:
                files.extend(await self.story_files(rec, game))
        return files, bool(pngs)

    async def post_table(self, rec: GameRecord, events: list[Event], *, note: str = "") -> discord.Message | None:
        """Send the table picture with the turn's words; take the controls off the previous table."""
        host = self.host
        game = rec.game
        assert game is not None
        files, drawn = await self.table_files(rec, game)
        if not drawn:
            note = (note + "\n" if note else "") + translate(game_language(rec), M.PICTURE_FAILED)
        content = table_content(rec, game, events, note)
        d = game.decision()
        to_act = rec.seat_of(d.player) if d else None
        user_id = to_act.user_id if to_act is not None else None
        key, now = turn_key(game), host.clock()
        ping = None
        if user_id is not None:
            settings = await host.commits.store.get_user_settings(user_id)
            ping = user_id if host.notifier.table_ping(rec.id, key, user_id, settings, now) else None
        board = getattr(host.bot, "board", None) is not None  # "Open the board" (cogs.board answers it)
        message = await self._send(rec, content, files, table_view(rec, game, board=board), ping)
        await strip_controls(host.bot, rec.table_channel_id or rec.channel_id, rec.table_message_id)
        await host.commits.table_shown(rec, rec.channel_id, message.id)
        if ping is not None:
            host.notifier.pinged(rec.id, key, ping, now)
        host.notifier.turn_passed(rec.id, None if game.is_over else key)
        if game.is_over:
            pictures.game_over(host, rec)  # the post-game review, worked out at low priority, posted once
        if user_id is not None:  # told outside the lock, by the person's choice (DM, quiet hours...)
            host.notifier.submit(TurnNotice(rec.id, key, user_id))
        return message

    async def _send(
        self, rec: GameRecord, content: str, files: list[discord.File], view: discord.ui.View, ping: int | None
    ) -> discord.Message:
        channel = self.host.bot.get_partial_messageable(rec.channel_id)
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

    async def story_files(
        self,
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

    async def lobby_closed(self, rec: GameRecord, text: str) -> None:
        """Show on a lobby's message that it closed (`text`), without its controls."""
        if rec.table_message_id is None:
            return
        channel = self.host.bot.get_partial_messageable(rec.channel_id)
        await channel.get_partial_message(rec.table_message_id).edit(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )

    async def lobby_changed(self, rec: GameRecord) -> None:
        """A lobby changed without a click on it (a seated person asked to be forgotten): its message says who sits
        there now, or that it is cancelled. A message that cannot be edited is left as it is (logged)."""
        if rec.table_message_id is None:
            return
        try:
            if rec.status != GameStatus.LOBBY:
                await self.lobby_closed(rec, translate(game_language(rec), M.LOBBY_CANCELLED))
                return
            channel = self.host.bot.get_partial_messageable(rec.channel_id)
            await channel.get_partial_message(rec.table_message_id).edit(
                content=lobby_text(rec), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:
            log.info("Lobby %s: its message could not be updated (%s)", rec.id, error)
