"""The lobby: create a game in this channel with its options, join and leave, computer seats, start, cancel,
rematch. One active game per channel (the database enforces it too)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from db.errors import ActiveGameExists
from db.models import GameRecord, GameStatus, Seat
from engine.ai import OFFERED_LEVELS
from engine.config import PLAYER_RANGE
from i18n import first_supported, translate, translate_plural
from i18n import messages as M
from i18n.commands import language_choices
from render import clean_name

from . import lobbyrules as rules
from .checks import GAMES, LANGUAGES, checked, in_server, levels
from .common import NEEDED_PERMISSIONS, THREAD_TYPES, OfGame
from .context import Context, context_of
from .controls import computer_select, lobby_button, rematch_button, swap_select
from .decide import game_language
from .lobbydoor import LobbyChange, Person
from .mine import game_lines, page_text
from .views import guarded
from .words import GAME_NAMES, UserError, game_name

log = logging.getLogger(__name__)
LEVELS = OFFERED_LEVELS  # the computer levels people choose from (engine/ai: the one list)


def missing_permissions(ctx: Context) -> list[str]:
    """What the bot lacks to run a game here (in a thread, Send Messages in Threads replaces Send Messages)."""
    interaction = ctx.interaction
    perms = interaction.app_permissions
    needed = dict(NEEDED_PERMISSIONS)
    if getattr(interaction.channel, "type", None) in THREAD_TYPES:
        del needed["send_messages"]
        needed["send_messages_in_threads"] = "Send Messages in Threads"
    lang = ctx.lang
    return [translate(lang, M.PERMISSIONS[attr]) for attr in needed if not getattr(perms, attr)]


def person(ctx: Context) -> Person:
    """The person who clicked or typed, as the lobby's door knows them: their name for a seat, and whether they may
    manage the channel (cancel another's table)."""
    user = ctx.interaction.user
    perms = getattr(ctx.interaction, "permissions", None)
    name = clean_name(getattr(user, "display_name", user.name))
    return Person(user.id, name, manages=bool(perms and perms.manage_channels))


async def open_lobby(
    ctx: Context,
    *,
    kind: str,
    options: dict,
    seats: list[Seat],
    reminder_hours: float | None,
    deadline_hours: float | None,
    note: str = "",
) -> GameRecord:
    """Open the lobby through the door (which posts its message in the channel); the interaction is deferred
    privately, so that every refusal stays private."""
    interaction, service = ctx.interaction, ctx.service
    missing = missing_permissions(ctx)
    if missing:
        raise UserError(M.MISSING_PERMISSIONS, permissions=", ".join(missing))
    try:
        rec = await service.open_table(
            channel_id=interaction.channel_id,  # type: ignore[arg-type]
            guild_id=interaction.guild_id,
            host=person(ctx),
            kind=kind,
            options=options,
            seats=seats,
            reminder_hours=reminder_hours,
            deadline_hours=deadline_hours,
            note=note,
        )
    except ActiveGameExists as error:
        link = ""
        existing = await service.store.get_active_game(interaction.channel_id)  # type: ignore[arg-type]
        if existing and existing.table_message_id and interaction.guild_id:
            link = f" (https://discord.com/channels/{interaction.guild_id}/{existing.channel_id}/{existing.table_message_id})"
        game_id, status = error.existing_game_id, str(error.existing_status)
        raise UserError(
            lambda lang: translate(
                lang,
                M.CHANNEL_HAS_GAME,
                game_id=game_id,
                status=translate(lang, M.GAME_STATUS[status]) if status in M.GAME_STATUS else status,
                link=link,
            )
        ) from None
    await interaction.followup.send(translate(ctx.lang, M.TABLE_OPEN), ephemeral=True)
    return rec


Operation = Callable[[Context, int], Awaitable[LobbyChange]]


async def lobby_action(ctx: Context, gid: int, operation: Operation, *, deferred: bool = False) -> None:
    """Run one of the lobby's operations on game `gid` through the door (which takes its lock, saves through the
    commit path and shows the lobby's new state); then answer the person privately, in their language."""
    interaction = ctx.interaction
    if not deferred:
        await interaction.response.defer(ephemeral=True, thinking=True)
    change = await operation(ctx, gid)
    ctx.rec = change.record
    await interaction.followup.send(change.said(ctx.lang), ephemeral=True)


async def join_table(ctx: Context, gid: int) -> LobbyChange:
    return await ctx.service.join(gid, person(ctx))


async def leave_table(ctx: Context, gid: int) -> LobbyChange:
    return await ctx.service.leave(gid, person(ctx))


async def start_table(ctx: Context, gid: int) -> LobbyChange:
    return await ctx.service.start_table(gid, ctx.user_id)


async def cancel_table(ctx: Context, gid: int) -> LobbyChange:
    return await ctx.service.cancel_table(gid, person(ctx))


def computer_seat(level: str) -> Operation:
    """The host adds a computer player of `level`, or ("remove") takes the last one away."""

    async def operation(ctx: Context, gid: int) -> LobbyChange:
        if level == "remove":
            return await ctx.service.remove_computer(gid, ctx.user_id)
        return await ctx.service.add_computer(gid, ctx.user_id, level)

    return operation


def swap_seats(pair: tuple[str, ...]) -> Operation:
    """The host exchanges two seats (how teams of two are arranged: partners sit side by side)."""

    async def operation(ctx: Context, gid: int) -> LobbyChange:
        return await ctx.service.swap_seats(gid, ctx.user_id, pair)

    return operation


# The lobby's buttons (and commands) by the name in their custom id.
BUTTONS: dict[str, Operation] = {"join": join_table, "leave": leave_table, "start": start_table, "cancel": cancel_table}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:lobby:(?P<gid>\d+):(?P<op>[a-z]+)"):
    def __init__(self, gid: int, op: str, *, label: str = "", style=discord.ButtonStyle.secondary) -> None:
        super().__init__(lobby_button(gid, op, label=label, style=style))
        self.gid, self.op = gid, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        operation = BUTTONS.get(self.op)
        if operation is None:
            await guarded(ctx, _refuse_unknown(self.op))
            return
        await guarded(ctx, lobby_action(ctx, self.gid, operation))


class ComputerSelect(OfGame, discord.ui.DynamicItem[discord.ui.Select], template=r"kd:cpu:(?P<gid>\d+)"):
    def __init__(self, gid: int, *, lang: str = "en") -> None:
        super().__init__(computer_select(gid, lang=lang))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1 or values[0] not in (*LEVELS, "remove"):
            await guarded(ctx, _refuse(M.PICK_MENU_CHOICE))
            return
        await guarded(ctx, lobby_action(ctx, self.gid, computer_seat(values[0])))


class SwapSelect(OfGame, discord.ui.DynamicItem[discord.ui.Select], template=r"kd:swap:(?P<gid>\d+)"):
    """Two seats to swap (host only): how teams of two are arranged, since partners sit side by side."""

    def __init__(self, gid: int, seats=(), *, lang: str = "en") -> None:
        super().__init__(swap_select(gid, seats, lang=lang))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        values = tuple((interaction.data or {}).get("values") or ())
        await guarded(ctx, lobby_action(ctx, self.gid, swap_seats(values)))


async def _refuse(text: str) -> None:
    raise UserError(text)


async def _refuse_unknown(op: str) -> None:
    raise UserError(M.UNKNOWN_LOBBY_ACTION, action=repr(op))


class RematchButton(OfGame, discord.ui.DynamicItem[discord.ui.Button], template=r"kd:rematch:(?P<gid>\d+)"):
    def __init__(self, gid: int, *, label: str = "Rematch") -> None:
        super().__init__(rematch_button(gid, label=label))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            service = ctx.service
            old = await service.games.get(self.gid)
            me = ctx.player
            current = await service.store.get_active_game(old.channel_id)
            if old.seat_of(me) is None:  # the button is the players'; someone who watched may Join its table
                rematch = current is not None and current.config.get("rematch_of") == old.id
                raise UserError(
                    M.REMATCH_WATCHER if rematch and current.status == GameStatus.LOBBY else M.REMATCH_ONLY_PLAYERS
                )
            if current is not None:
                if current.config.get("rematch_of") != old.id or current.status != GameStatus.LOBBY:
                    raise UserError(M.REMATCH_OTHER_GAME)
                if current.seat_of(me) is not None:
                    raise UserError(M.REMATCH_SEATED)
                await lobby_action(ctx, current.id, join_table, deferred=True)
                return
            newest = await service.store.list_games(channel_id=old.channel_id, limit=1)
            if newest and newest[0].id != old.id:  # a later game (the rematch, or another one) came since
                raise UserError(M.REMATCH_USED)
            options = {
                "seats": len(old.seats),
                "variants": list(old.config.get("variants", ())),
                "teams": old.config.get("teams") is not None,
                "rematch_of": old.id,
            }
            if old.config.get("hints"):
                options["hints"] = True
            if old.config.get("language"):
                options["language"] = old.config["language"]
            # The person who asked, and the computer players; the others take their seat by clicking too.
            seats = [
                Seat(s.player_id, s.display_name, s.user_id, s.colour, s.cpu_level)
                for s in old.seats
                if s.is_computer or s.player_id == me
            ]
            await open_lobby(
                ctx,
                kind=old.kind,
                options=options,
                seats=seats,
                reminder_hours=old.reminder_hours,
                deadline_hours=old.deadline_hours,
                note=translate(game_language(old), M.REMATCH_OPEN, game_id=old.id),
            )

        await guarded(ctx, work())


class LobbyCog(commands.Cog):
    game = app_commands.Group(
        name="game", description="Create, join, start or cancel the game in this channel", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.service.abandon_channel(payload.thread_id)  # type: ignore[attr-defined]

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.service.abandon_channel(channel.id)  # type: ignore[attr-defined]

    @game.command(name="new", description="Open a table for a new game in this channel")
    @app_commands.describe(
        game="Which game",
        players="How many seats (Kingdomino and Queendomino 2-4, Royal Wedding 3-8)",
        dynasty="Play three games; the highest sum wins",
        middle_kingdom="+10 points for a castle in the centre",
        harmony="+5 points for no discarded domino",
        mighty_duel="Kingdomino for 2 on 7x7 with all dominoes",
        three_player_four_dominoes="Kingdomino for 3 with lines of 4 (BGA rule)",
        teams="Royal Wedding in teams of two (6 or 8 players)",
        hints="Anyone may ask the web board for a good move; the game is then not rated",
        computers="Computer players to seat right away",
        computer_level="How strong those computer players are",
        reminder_hours="Remind the player to act after this many hours",
        deadline_hours="After this many hours a computer plays for an absent player",
        language="The table's language (default: the server's)",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=v, value=k) for k, v in GAME_NAMES.items()],
        computer_level=[app_commands.Choice(name=level, value=level) for level in LEVELS],
        language=language_choices(),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 2, 8] | None = None,
        dynasty: bool = False,
        middle_kingdom: bool = False,
        harmony: bool = False,
        mighty_duel: bool = False,
        three_player_four_dominoes: bool = False,
        teams: bool = False,
        hints: bool = False,
        computers: app_commands.Range[int, 0, 7] = 0,
        computer_level: str | None = None,
        reminder_hours: app_commands.Range[float, 0.5, 720.0] | None = None,
        deadline_hours: app_commands.Range[float, 1.0, 720.0] | None = None,
        language: str | None = None,
    ) -> None:
        ctx = context_of(interaction)

        async def work():
            in_server(interaction)
            kind = checked(game, GAMES, "game")
            level = checked(computer_level, levels(LEVELS), "computer_level") or "medium"
            chosen_language = checked(language, LANGUAGES, "language")
            low, high = PLAYER_RANGE[kind]
            size = players if players is not None else (2 if mighty_duel else 3 if three_player_four_dominoes else high)
            if not low <= size <= high:  # discord.py does not re-check declared ranges
                raise UserError(
                    lambda lang: translate(
                        lang, M.PLAYER_RANGE, game=game_name(kind, lang), low=low, high=high, size=size
                    )
                )
            if computers < 0 or computers >= size:
                raise UserError(lambda lang: translate_plural(lang, *M.COMPUTERS_AT_MOST, size - 1))
            rules.check_hours(reminder_hours=reminder_hours, deadline_hours=deadline_hours)
            chosen = {
                "dynasty": dynasty,
                "middle-kingdom": middle_kingdom,
                "harmony": harmony,
                "mighty-duel": mighty_duel,
                "three-player-four-dominoes": three_player_four_dominoes,
            }
            variants = [name for name, on in chosen.items() if on]
            rules.check_table(kind, size, variants, teams=teams)
            await ctx.service.check_limits(interaction.guild_id, interaction.user.id, hosting=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            # The table's language: the option, else the default an admin set, else the server's language, else English.
            server_default = None
            if interaction.guild_id is not None:
                server_default = (await ctx.store.get_guild_settings(interaction.guild_id)).language
            # (An admin's explicit default comes before the server's locale, which Discord reports as en-US for
            # every server that is not a Community server.)
            table_lang = first_supported(chosen_language, server_default, getattr(interaction, "guild_locale", None))
            name = clean_name(getattr(interaction.user, "display_name", interaction.user.name))
            seats = [Seat.human(interaction.user.id, name, rules.hex_colour(0))]
            for n in range(1, computers + 1):
                seats.append(Seat.computer(n, level, rules.bot_name(n, level, table_lang), rules.hex_colour(n)))
            options = {"seats": size, "variants": variants, "teams": teams, "language": table_lang}
            if hints:  # everyone who joins sees it on the lobby's message, so everyone at the table agrees
                options["hints"] = True
            await open_lobby(
                ctx,
                kind=kind,
                options=options,
                seats=seats,
                reminder_hours=reminder_hours,
                deadline_hours=deadline_hours,
            )

        await guarded(ctx, work())

    async def _op(self, ctx: Context, op: str) -> None:
        async def work():
            channel_id = ctx.interaction.channel_id
            if op == "cancel":
                await ctx.interaction.response.defer(ephemeral=True, thinking=True)
                closed = await ctx.service.close_unreadable(channel_id, person(ctx))  # type: ignore[arg-type]
                if closed is not None:
                    text = translate(ctx.lang, M.UNREADABLE_CLOSED, game_id=closed)
                    await ctx.interaction.followup.send(text, ephemeral=True)
                    return
            rec = await ctx.service.games.active(channel_id)  # type: ignore[arg-type]
            await lobby_action(ctx, rec.id, BUTTONS[op], deferred=op == "cancel")

        await guarded(ctx, work())

    @game.command(name="mine", description="Your games in this server: where it is your turn, with links")
    @app_commands.describe(page="Which page, when you have many games")
    async def mine(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100] = 1) -> None:
        ctx = context_of(interaction)

        async def work():
            guild_id = in_server(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            lang = ctx.lang
            lines = await game_lines(ctx.service, interaction.user.id, guild_id, lang)
            text = (
                page_text(lines, page, translate(lang, M.MINE_TITLE), lang) if lines else translate(lang, M.MINE_NONE)
            )
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

        await guarded(ctx, work())

    @game.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._op(context_of(interaction), "join")

    @game.command(name="leave", description="Leave the table in this channel before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._op(context_of(interaction), "leave")

    @game.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._op(context_of(interaction), "start")

    @game.command(name="cancel", description="Cancel the game in this channel (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._op(context_of(interaction), "cancel")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LobbyCog(bot))
