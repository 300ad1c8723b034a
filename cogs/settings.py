"""Settings: how each person is told it is their turn (`/settings notify`), and a server's limits
(`/settings server`, for members with Manage Server). Both are kept in the store and survive restarts. What the bot
keeps about a person, and forgetting them: `/settings my-data` and `/settings forget-me` (cogs/privacy.py)."""

from __future__ import annotations

import dataclasses
import re

import discord
from discord import app_commands
from discord.ext import commands

from db.models import GuildSettings, UserSettings
from i18n import N_, translate
from i18n import messages as M
from i18n.commands import LANGUAGE_NAMES, language_choices

from .checks import LANGUAGES, checked, time_zone
from .context import context_of
from .privacy import ask_forget, send_my_data
from .views import guarded
from .words import UserError, quote_typed

NOTIFY = {
    "channel": "a mention in the game's channel",
    "dm": "a direct message with the link and the button",
    "both": "both a mention and a direct message",
}
# Translators: /settings server (private): the server's limits, after a change. {lobbies}, {games}: numbers; {hours}:
# like 24 or 0.5.
SERVER_LIMITS = N_(
    "In this server, open tables one member may host at once: {lobbies}; games one member may sit at at once: "
    "{games}; a table nobody starts closes after {hours} h."
)
# Translators: /settings server (private): the language new tables speak. {language}: its own name (Čeština,
# Español...).
SERVER_LANGUAGE = N_("New tables speak {language} unless /game new chooses another language.")
# Translators: /settings server (private): new tables speak the server's language. /game new is a command: keep it.
SERVER_LANGUAGE_DEFAULT = N_(
    "New tables speak the server's language (English when Discord gives none of ours) unless /game new chooses one."
)
TIME = re.compile(r"^([01]?\d|2[0-3])[:.h]([0-5]\d)$")


def minutes(text: str) -> int:
    """`22:30` as minutes after midnight; refused, saying how to write it, otherwise."""
    match = TIME.match(text.strip())
    if not match:
        raise UserError(M.NOT_A_TIME, typed=quote_typed(text))
    return int(match.group(1)) * 60 + int(match.group(2))


def clock(value: int | None) -> str:
    return "—" if value is None else f"{value // 60:02d}:{value % 60:02d}"


def notify_text(s: UserSettings, lang: str = "en") -> str:
    """How the person is told it is their turn, and their quiet hours: one whole sentence per case."""
    if s.quiet_start is None:
        return translate(lang, M.NOTIFY_NO_QUIET[s.notify])
    zone = s.timezone or "UTC"
    return translate(lang, M.NOTIFY_QUIET[s.notify], start=clock(s.quiet_start), end=clock(s.quiet_end), zone=zone)


class SettingsCog(commands.Cog):
    settings = app_commands.Group(name="settings", description="How you are told it is your turn; server limits")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @settings.command(name="notify", description="How you are told it is your turn, and quiet hours for reminders")
    @app_commands.describe(
        how="Mention in the channel, a direct message, or both",
        quiet_from="Start of your quiet hours, like 22:30 (reminders wait until they end)",
        quiet_to="End of your quiet hours, like 07:00",
        timezone="Your time zone, like Europe/Prague (default UTC)",
        clear_quiet_hours="Remove your quiet hours",
    )
    @app_commands.choices(how=[app_commands.Choice(name=v, value=k) for k, v in NOTIFY.items()])
    async def notify(
        self,
        interaction: discord.Interaction,
        how: str | None = None,
        quiet_from: app_commands.Range[str, 1, 8] | None = None,
        quiet_to: app_commands.Range[str, 1, 8] | None = None,
        timezone: app_commands.Range[str, 1, 64] | None = None,
        clear_quiet_hours: bool = False,
    ) -> None:
        ctx = context_of(interaction)

        async def work():
            store = ctx.store
            current = await store.get_user_settings(interaction.user.id)
            changes: dict = {}
            if how is not None:
                if how not in NOTIFY:  # any value can be sent, not only the choices
                    raise UserError(M.PICK_HOW)
                changes["notify"] = how
            if (quiet_from is None) != (quiet_to is None):
                raise UserError(M.QUIET_BOTH_ENDS)
            if quiet_from is not None and quiet_to is not None:
                start, end = minutes(quiet_from), minutes(quiet_to)
                if start == end:
                    raise UserError(M.QUIET_DIFFER)
                changes |= {"quiet_start": start, "quiet_end": end}
            if clear_quiet_hours:
                changes |= {"quiet_start": None, "quiet_end": None}
            if timezone is not None:
                changes["timezone"] = time_zone(timezone)
            try:
                new = dataclasses.replace(current, **changes)
            except ValueError:  # the only value not checked above: the time zone
                raise UserError(M.UNKNOWN_TIMEZONE, zone=quote_typed(timezone or "")) from None
            if changes:
                await store.set_user_settings(new)
            await interaction.response.send_message(notify_text(new, ctx.lang), ephemeral=True)

        await guarded(ctx, work())

    @settings.command(name="server", description="This server's limits per member (Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        lobbies_per_member="Open tables one member may host at once",
        games_per_member="Games one member may sit at at once (tables and games in play)",
        lobby_expiry_hours="A table nobody starts closes after this many hours",
        language="The language of new tables, when /game new does not choose one",
    )
    @app_commands.choices(language=language_choices())
    async def server(
        self,
        interaction: discord.Interaction,
        lobbies_per_member: app_commands.Range[int, 1, 50] | None = None,
        games_per_member: app_commands.Range[int, 1, 200] | None = None,
        lobby_expiry_hours: app_commands.Range[float, 0.5, 720.0] | None = None,
        language: str | None = None,
    ) -> None:
        ctx = context_of(interaction)

        async def work():
            if interaction.guild_id is None:
                raise UserError(M.SERVER_SETTINGS_IN_SERVER)
            table_language = checked(language, LANGUAGES, "language")
            perms = getattr(interaction, "permissions", None)
            changes = {
                k: v
                for k, v in (
                    ("max_lobbies_per_member", lobbies_per_member),
                    ("max_games_per_member", games_per_member),
                    ("lobby_expiry_hours", lobby_expiry_hours),
                    ("language", table_language),
                )
                if v is not None
            }
            if changes and not (perms and perms.manage_guild):
                raise UserError(M.ONLY_MANAGE_SERVER)
            for value, low, high in (
                (lobbies_per_member, 1, 50),
                (games_per_member, 1, 200),
                (lobby_expiry_hours, 0.5, 720),
            ):
                if value is not None and not low <= value <= high:  # discord.py does not re-check declared ranges
                    raise UserError(M.SERVER_LIMIT_RANGES)
            store = ctx.store
            current = await store.get_guild_settings(interaction.guild_id)
            try:
                new: GuildSettings = dataclasses.replace(current, **changes)
            except ValueError:
                raise UserError(M.SERVER_LIMIT_RANGES) from None
            if changes:
                await store.set_guild_settings(new)
            lang = ctx.lang
            table_language = LANGUAGE_NAMES.get(new.language or "", "")
            text = translate(
                lang,
                SERVER_LIMITS,
                lobbies=new.max_lobbies_per_member,
                games=new.max_games_per_member,
                hours=f"{new.lobby_expiry_hours:g}",
            )
            if table_language:
                text += "\n" + translate(lang, SERVER_LANGUAGE, language=table_language)
            else:
                text += "\n" + translate(lang, SERVER_LANGUAGE_DEFAULT)
            await interaction.response.send_message(text, ephemeral=True)

        await guarded(ctx, work())

    @settings.command(name="my-data", description="A private file of everything the bot keeps about you")
    async def my_data(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        await guarded(ctx, send_my_data(ctx))

    @settings.command(name="forget-me", description="Erase what the bot keeps about you (it asks first)")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        await guarded(ctx, ask_forget(ctx))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
