"""The live board from Discord: the table's "Open the board" button, `/play board` and the App Launcher.

Where the application has an Activity (Developer Portal: Activities; the application's flags then carry EMBEDDED,
or ACTIVITY=on), the board opens inside Discord in the channel: the interaction is answered with LAUNCH_ACTIVITY
and the page signs the person in through Discord (web/activity.py). Otherwise, with a public address for the board
(PUBLIC_URL), the person gets a personal link: signed, short-lived, for this game and their own seat (or to watch).
Without either, a private sentence says so; the pictures and panels are the game as before.

The App Launcher opens the same Activity through the application's Entry Point command (type PRIMARY_ENTRY_POINT,
handler DISCORD_LAUNCH_ACTIVITY: Discord launches it without asking the bot), which `ActivityTree.sync` keeps in the
global commands: Discord refuses a bulk overwrite that would drop it (error 50240)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from db.models import ACTIVE_STATUSES, GameRecord
from i18n import LANGUAGES, translate
from i18n import messages as M
from i18n.commands import DISCORD_LOCALES

from .common import OfGame
from .context import Context, context_of
from .controls import board_button
from .service import GameService
from .views import guarded
from .words import UserError

log = logging.getLogger(__name__)

EMBEDDED = 1 << 17  # the application flag of an app with Activities (discord.ApplicationFlags.embedded)
FLAGS_SECONDS = 300.0  # how long the application's flags are trusted before they are read again
PRIMARY_ENTRY_POINT = 4  # application command type
DISCORD_LAUNCH_ACTIVITY = 2  # entry point handler: Discord launches the Activity itself
ENTRY_POINT_NAME = "board"
_flags: weakref.WeakKeyDictionary[Any, tuple[float, bool]] = weakref.WeakKeyDictionary()


async def activity_on(bot: Any, *, fresh: bool = False) -> bool:
    """Whether the board opens inside Discord: the bot has a board with the Activity's sign-in (a client secret),
    and ACTIVITY=on, or auto with the application's EMBEDDED flag (read again every few minutes, or now: `fresh`)."""
    board = getattr(getattr(bot, "service", None), "board", None)
    settings = getattr(bot, "settings", None)
    mode = getattr(settings, "activity", "auto")
    if board is None or mode == "off" or not board.activity:
        return False
    if mode == "on":
        return True
    now = asyncio.get_running_loop().time()
    known = _flags.get(bot)
    if known is not None and now - known[0] < FLAGS_SECONDS and not fresh:
        return known[1]
    try:
        info = await bot.application_info()
    except discord.HTTPException as error:
        log.warning("The application's flags could not be read (%s): no Activity for now", error)
        return False
    embedded = bool(info.flags.value & EMBEDDED)
    if not fresh:  # a sync reads the flags for itself and leaves the clicks their own reading
        _flags[bot] = (now, embedded)
    return embedded


def seat_index(rec: GameRecord, user_id: int) -> int | None:
    return next((i for i, s in enumerate(rec.seats) if s.user_id == user_id), None)


def board_link(service: GameService, rec: GameRecord, user_id: int) -> str | None:
    """The person's own signed link to the game's board (their seat, or to watch); None without a board or a public
    address."""
    board = service.board
    return None if board is None else board.link(rec.id, user_id, seat_index(rec, user_id))


async def open_board(ctx: Context, gid: int | None = None) -> None:
    """Open the board of game `gid` (None: the channel's game) for the person: the Activity, else their link,
    else a sentence saying the board is not set up here."""
    interaction, lang, service = ctx.interaction, ctx.lang, ctx.service
    bot = interaction.client
    rec = await (service.games.get(gid) if gid is not None else service.games.active(interaction.channel_id))
    if rec.status not in ACTIVE_STATUSES:
        raise UserError(M.GAME_OVER_BUTTONS)
    if await activity_on(bot):
        await interaction.response.launch_activity()
        return
    link = board_link(service, rec, interaction.user.id)
    if link is None or service.board is None:
        await interaction.response.send_message(translate(lang, M.BOARD_UNAVAILABLE), ephemeral=True)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=translate(lang, M.BUTTON_BOARD), url=link, emoji="🗺️"))
    view.stop()
    minutes = service.board.link_minutes
    await interaction.response.send_message(translate(lang, M.BOARD_LINK, minutes=minutes), view=view, ephemeral=True)


class BoardButton(OfGame, discord.ui.DynamicItem[discord.ui.Button], template=r"kd:board:(?P<gid>\d+)"):
    """On the table: the live board of this game (inside Discord, or a personal link)."""

    def __init__(self, gid: int, *, label: str = "Open the board") -> None:
        super().__init__(board_button(gid, label=label))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        await guarded(ctx, open_board(ctx, self.gid))


def entry_point_payload() -> dict[str, Any]:
    """The Entry Point command (Discord's App Launcher opens the Activity with it), as Discord's
    ApplicationCommandCreateRequest describes it."""
    english = translate("en", M.BOARD_ENTRY_POINT)
    localized = {}
    for locale, lang in DISCORD_LOCALES.items():
        words = translate(lang, M.BOARD_ENTRY_POINT)[:100] if lang in LANGUAGES else english
        if words != english:
            localized[locale.value] = words
    return {
        "name": ENTRY_POINT_NAME,
        "description": english,
        "description_localizations": localized,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "integration_types": [0],
        "contexts": [0],
    }


class ActivityTree(app_commands.CommandTree):
    """The command tree: a global sync also carries the Entry Point command when the board opens inside Discord."""

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[app_commands.AppCommand]:
        if guild is not None or not await activity_on(self.client, fresh=True):
            return await super().sync(guild=guild)
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        commands_ = self._get_all_commands(guild=None)
        translator = self.translator
        if translator:
            payload = [await c.get_translated_payload(self, translator) for c in commands_]
        else:
            payload = [c.to_dict(self) for c in commands_]
        payload.append(entry_point_payload())
        try:
            data = await self._http.bulk_upsert_global_commands(self.client.application_id, payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                raise app_commands.CommandSyncFailure(error, commands_) from None
            raise
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]


class BoardCog(commands.Cog):
    """Answers the tables' "Open the board" (cogs.controls puts it there when the bot runs a board)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(BoardButton)
        if isinstance(getattr(self.bot, "dynamic_items", None), tuple):  # a click on a stale table: "out of date"
            self.bot.dynamic_items = (*self.bot.dynamic_items, BoardButton)  # type: ignore[attr-defined]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(BoardCog(bot))
