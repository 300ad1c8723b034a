"""The lobby: create a game in this channel with its options, join and leave, computer seats, start, cancel,
rematch. One active game per channel (the database enforces it too)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from db.errors import ActiveGameExists, CorruptGame, SeatConflict, StaleVersion, WrongStatus
from db.models import GameRecord, GameStatus, Seat
from engine import GameConfig
from engine.ai import OFFERED_LEVELS
from engine.config import PLAYER_RANGE
from i18n import first_supported, translate, translate_plural
from i18n import messages as M
from i18n.commands import language_choices
from render import PLAYER_COLOURS, clean_name

from .checks import GAMES, LANGUAGES, checked, in_server, levels
from .common import (
    GAME_NAMES,
    NEEDED_PERMISSIONS,
    THREAD_TYPES,
    OfGame,
    UserError,
    config_refusal,
    game_name,
    safe,
    strip_controls,
)
from .context import Context, context_of
from .controls import rematch_button
from .decide import STALE, game_language
from .lobbytext import bot_name, lobby_text
from .mine import game_lines, page_text
from .views import guarded

log = logging.getLogger(__name__)
LEVELS = OFFERED_LEVELS  # the computer levels people choose from (engine/ai: the one list)
VARIANT_OPTIONS = {
    "dynasty": "Dynasty: three games, the highest sum wins",
    "middle-kingdom": "Middle Kingdom: +10 for a centred castle",
    "harmony": "Harmony: +5 for no discarded domino",
    "mighty-duel": "Mighty Duel: 2 players, 7x7, all dominoes",
    "three-player-four-dominoes": "3 players with lines of 4 (BGA)",
}


def hex_colour(index: int) -> str:
    r, g, b = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
    return f"#{r:02x}{g:02x}{b:02x}"


def next_colour(seats) -> str:
    used = {s.colour for s in seats}
    for i in range(len(PLAYER_COLOURS)):
        if hex_colour(i) not in used:
            return hex_colour(i)
    return hex_colour(len(seats))


def lobby_view(rec: GameRecord) -> discord.ui.View | None:
    if rec.status != GameStatus.LOBBY:
        return None
    lang = game_language(rec)
    view = discord.ui.View(timeout=None)
    for op, label, style in (
        ("join", M.BUTTON_JOIN, discord.ButtonStyle.primary),
        ("leave", M.BUTTON_LEAVE, discord.ButtonStyle.secondary),
        ("start", M.BUTTON_START, discord.ButtonStyle.success),
        ("cancel", M.BUTTON_CANCEL, discord.ButtonStyle.danger),
    ):
        context = "table" if label == M.BUTTON_CANCEL else None  # the table's Cancel, not the web board's
        view.add_item(LobbyButton(rec.id, op, label=translate(lang, label, context=context), style=style))
    view.add_item(ComputerSelect(rec.id, lang=lang))
    if rec.config.get("teams") and len(rec.seats) >= 2:
        view.add_item(SwapSelect(rec.id, rec.seats, lang=lang))
    return view


async def refresh_lobby(ctx: Context, rec: GameRecord, message_id: int | None = None) -> None:
    """Show the lobby's new state on its message (by default the game's recorded message)."""
    channel = ctx.interaction.client.get_partial_messageable(rec.channel_id)
    message_id = message_id or rec.table_message_id
    if message_id is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(message_id).edit(
            content=lobby_text(rec), view=lobby_view(rec), allowed_mentions=discord.AllowedMentions.none()
        )


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


def may_manage(ctx: Context, rec: GameRecord) -> bool:
    """The host, or a member who may manage the channel."""
    perms = getattr(ctx.interaction, "permissions", None)
    return ctx.user_id == rec.host_user_id or bool(perms and perms.manage_channels)


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
    """Create the lobby row and post its message in the channel (the interaction is deferred privately, so that
    every refusal stays private)."""
    interaction, service = ctx.interaction, ctx.service
    missing = missing_permissions(ctx)
    if missing:
        raise UserError(M.MISSING_PERMISSIONS, permissions=", ".join(missing))
    try:
        rec = await service.commits.open_lobby(
            channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
            host_user_id=interaction.user.id,
            kind=kind,
            config=options,
            seats=seats,
            seed=service.new_seed(),
            reminder_hours=reminder_hours,
            deadline_hours=deadline_hours,
        )
    except ActiveGameExists as error:
        link = ""
        existing = await service.store.get_active_game(interaction.channel_id)
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
    channel = interaction.client.get_partial_messageable(interaction.channel_id)  # type: ignore[arg-type]
    try:
        message = await channel.send(
            (note + "\n" if note else "") + lobby_text(rec),
            view=lobby_view(rec),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException as error:
        await service.commits.cancel(rec.id)  # an invisible lobby must not block the channel
        if isinstance(error, discord.Forbidden):
            raise UserError(M.CANNOT_POST_TABLE, error=error.text or error.status) from None
        raise UserError(M.DISCORD_FAILED_LOBBY) from None
    await service.commits.table_shown(rec, interaction.channel_id, message.id)
    await interaction.followup.send(translate(ctx.lang, M.TABLE_OPEN), ephemeral=True)
    return await service.get(rec.id)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:lobby:(?P<gid>\d+):(?P<op>[a-z]+)"):
    def __init__(self, gid: int, op: str, *, label: str = "", style=discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or op.title(), style=style, custom_id=f"kd:lobby:{gid}:{op}"))
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
        options = [
            discord.SelectOption(
                label=translate(lang, M.ADD_COMPUTER, level=translate(lang, M.LEVELS[level])), value=level
            )
            for level in LEVELS
        ] + [discord.SelectOption(label=translate(lang, M.REMOVE_COMPUTER), value="remove")]
        placeholder = translate(lang, M.COMPUTER_PLACEHOLDER)
        super().__init__(discord.ui.Select(custom_id=f"kd:cpu:{gid}", options=options, placeholder=placeholder))
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
        options = [
            discord.SelectOption(label=f"{i}. {s.display_name}"[:100], value=s.player_id)
            for i, s in enumerate(seats, 1)
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"kd:swap:{gid}",
                options=options or [discord.SelectOption(label="-")],
                min_values=min(2, len(options) or 1),
                max_values=min(2, len(options) or 1),
                placeholder=translate(lang, M.SWAP_PLACEHOLDER),
            )
        )
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        values = tuple((interaction.data or {}).get("values") or ())
        await guarded(ctx, lobby_action(ctx, self.gid, swap_seats(values)))


async def _refuse(text: str) -> None:
    raise UserError(text)


async def _refuse_unknown(op: str) -> None:
    raise UserError(M.UNKNOWN_LOBBY_ACTION, action=repr(op))


def swapped(seats: Sequence[Seat], pair: tuple[str, ...]) -> list[Seat]:
    """The seats with the two players of `pair` exchanged (refused, saying why, when they are not two seated)."""
    if len(pair) != 2 or pair[0] == pair[1]:
        raise UserError(M.PICK_TWO_SEATS)
    index = {s.player_id: i for i, s in enumerate(seats)}
    if not all(p in index for p in pair):
        raise UserError(M.PLAYER_LEFT_MEANWHILE)
    i, j = index[pair[0]], index[pair[1]]
    seats = list(seats)
    seats[i], seats[j] = seats[j], seats[i]
    return seats


LobbyAnswer = tuple[GameRecord, str] | None  # the lobby as changed and the private answer; None: answered already
Operation = Callable[[Context, GameRecord], Awaitable[LobbyAnswer]]


async def lobby_action(ctx: Context, gid: int, operation: Operation, *, deferred: bool = False) -> None:
    """Run one of the lobby's operations on game `gid` under its channel's lock, through the commit path; then show
    the lobby's new state on its message and answer the person privately (in their language)."""
    interaction = ctx.interaction
    if not deferred:
        await interaction.response.defer(ephemeral=True, thinking=True)
    service = ctx.service
    async with service.lock(await service.channel_of(gid)):
        ctx.rec = rec = await service.get(gid)
        try:
            answer = await operation(ctx, rec)
        except (StaleVersion, SeatConflict, WrongStatus):
            raise UserError(STALE) from None
    if answer is not None:
        rec, text = answer
        await refresh_lobby(ctx, rec)
        await interaction.followup.send(text, ephemeral=True)


def _open(rec: GameRecord) -> int:
    """The lobby's number of seats; refused once it closed (started, cancelled)."""
    if rec.status != GameStatus.LOBBY:
        raise UserError(M.LOBBY_CLOSED)
    return int(rec.config.get("seats", PLAYER_RANGE[rec.kind][1]))


async def cancel_table(ctx: Context, rec: GameRecord) -> LobbyAnswer:
    """The host (or a member who manages the channel) cancels the game, in its lobby or in play."""
    if rec.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
        raise UserError(M.ALREADY_OVER)
    interaction = ctx.interaction
    if not may_manage(ctx, rec):
        raise UserError(M.ONLY_HOST_CANCEL)
    was_lobby = rec.status == GameStatus.LOBBY
    await ctx.service.commits.cancel(rec.id)
    ctx.service.notifier.turn_passed(rec.id, None)  # the turn buttons of its direct messages go
    rec = await ctx.service.get(rec.id)
    if was_lobby:
        await refresh_lobby(ctx, rec)
    await interaction.followup.send(translate(ctx.lang, M.GAME_CANCELLED_PRIVATE), ephemeral=True)
    channel = interaction.client.get_partial_messageable(rec.channel_id)
    lang = game_language(rec)
    game, user = game_name(rec.kind, lang), f"<@{interaction.user.id}>"
    await channel.send(
        translate(lang, M.GAME_CANCELLED_PUBLIC, game=game, game_id=rec.id, user=user),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await strip_controls(interaction.client, rec.channel_id, rec.table_message_id)
    return None


async def join_table(ctx: Context, rec: GameRecord) -> LobbyAnswer:
    """The person takes the next free seat."""
    size = _open(rec)
    if rec.seat_of(ctx.player):
        raise UserError(M.ALREADY_SEATED)
    await check_limits(ctx, hosting=False)
    if len(rec.seats) >= size:
        raise UserError(M.TABLE_FULL, size=size)
    user = ctx.interaction.user
    name = clean_name(getattr(user, "display_name", user.name))
    rec = await ctx.service.commits.join(rec, Seat.human(user.id, name, next_colour(rec.seats)))
    return rec, translate(ctx.lang, M.JOINED)


async def leave_table(ctx: Context, rec: GameRecord) -> LobbyAnswer:
    """The person leaves their seat (the host's role goes to the next person; the last person closes the table)."""
    _open(rec)
    if not rec.seat_of(ctx.player):
        raise UserError(M.NO_SEAT)
    people = [s for s in rec.seats if not s.is_computer and s.player_id != ctx.player]
    commits = ctx.service.commits
    if not people:  # a table needs a person: the last one to leave closes it
        await commits.cancel(rec.id, rec.version)
        rec = await ctx.service.get(rec.id)
        await refresh_lobby(ctx, rec)
        await ctx.interaction.followup.send(translate(ctx.lang, M.LEFT_CLOSED), ephemeral=True)
        return None
    rec = await commits.leave(rec, ctx.player)
    if ctx.user_id != rec.host_user_id:
        return rec, translate(ctx.lang, M.LEFT)
    assert people[0].user_id is not None
    rec = await commits.hand_host(rec, people[0].user_id)  # the host left: the next seated person hosts
    return rec, translate(ctx.lang, M.LEFT_NEW_HOST, host=f"<@{people[0].user_id}>")


def computer_seat(level: str) -> Operation:
    """The host adds a computer player of `level`, or ("remove") takes the last one away."""

    async def operation(ctx: Context, rec: GameRecord) -> LobbyAnswer:
        size = _open(rec)
        if ctx.user_id != rec.host_user_id:
            raise UserError(M.ONLY_HOST_COMPUTERS)
        seats = list(rec.seats)
        if level == "remove":
            cpus = [s for s in seats if s.is_computer]
            if not cpus:
                raise UserError(M.NO_COMPUTER)
            seats.remove(cpus[-1])
            text = translate(ctx.lang, M.SOMEONE_LEFT, name=safe(cpus[-1].display_name))
        else:
            if len(seats) >= size:
                raise UserError(M.TABLE_FULL, size=size)
            number = 1 + max((int(s.player_id.split(":")[1]) for s in seats if s.is_computer), default=0)
            seat = Seat.computer(number, level, bot_name(number, level, game_language(rec)), next_colour(seats))
            seats.append(seat)
            text = translate(ctx.lang, M.SOMEONE_JOINED, name=safe(seat.display_name))
        return await ctx.service.commits.reseat(rec, seats), text

    return operation


def swap_seats(pair: tuple[str, ...]) -> Operation:
    """The host exchanges two seats (how teams of two are arranged: partners sit side by side)."""

    async def operation(ctx: Context, rec: GameRecord) -> LobbyAnswer:
        _open(rec)
        if ctx.user_id != rec.host_user_id:
            raise UserError(M.ONLY_HOST_SEATS, host=f"<@{rec.host_user_id}>")
        rec = await ctx.service.commits.reseat(rec, swapped(rec.seats, pair))
        a, b = (next(s for s in rec.seats if s.player_id == p) for p in pair)
        return rec, translate(ctx.lang, M.SWAPPED, first=safe(a.display_name), second=safe(b.display_name))

    return operation


async def start_table(ctx: Context, rec: GameRecord) -> LobbyAnswer:
    """The host starts the game: the first table is posted."""
    _open(rec)
    if ctx.user_id != rec.host_user_id:
        raise UserError(M.ONLY_HOST_START, host=f"<@{rec.host_user_id}>")
    if rec.seat_of(ctx.player) is None:
        raise UserError(M.SEAT_FIRST)
    check_can_start(rec)
    lobby_message = rec.table_message_id
    result = await ctx.service.start(rec)
    await refresh_lobby(ctx, result.record, lobby_message)
    await ctx.interaction.followup.send(
        result.warning_in(ctx.lang) or translate(ctx.lang, M.GAME_STARTED), ephemeral=True
    )
    return None


# The lobby's buttons (and commands) by the name in their custom id.
BUTTONS: dict[str, Operation] = {"join": join_table, "leave": leave_table, "start": start_table, "cancel": cancel_table}


async def cancel_unreadable(ctx: Context) -> bool:
    """`/game cancel` on a game whose stored data cannot be read: the host or a member with Manage Channels closes
    it, which frees the channel. False when the channel's game reads fine (the ordinary cancel applies)."""
    interaction, service = ctx.interaction, ctx.service
    summary = await service.store.get_active_summary(interaction.channel_id)
    if summary is None:
        return False
    try:
        await service.store.get_game(summary.id)
        return False
    except CorruptGame:
        pass
    perms = getattr(interaction, "permissions", None)
    if interaction.user.id != summary.host_user_id and not (perms and perms.manage_channels):
        raise UserError(M.UNREADABLE_ONLY_HOST)
    await interaction.response.defer(ephemeral=True, thinking=True)
    service.stop_computers(summary.id)
    await service.commits.cancel(summary.id, reason="unreadable")
    log.warning("Game %s could not be read and was closed by user %s", summary.id, interaction.user.id)
    await interaction.followup.send(translate(ctx.lang, M.UNREADABLE_CLOSED, game_id=summary.id), ephemeral=True)
    return True


async def check_limits(ctx: Context, *, hosting: bool) -> None:
    """The server's limits per member: open lobbies hosted, and games sat at (lobby or in play)."""
    interaction = ctx.interaction
    if interaction.guild_id is None:
        return
    store = ctx.store
    limits = await store.get_guild_settings(interaction.guild_id)
    if hosting:
        hosted = await store.count_lobbies_hosted(interaction.guild_id, interaction.user.id)
        if hosted >= limits.max_lobbies_per_member:
            limit = limits.max_lobbies_per_member
            raise UserError(lambda lang: translate_plural(lang, *M.LIMIT_HOSTED, hosted, limit=limit))
    playing = await store.count_active_games_of(interaction.guild_id, interaction.user.id)
    if playing >= limits.max_games_per_member:
        limit = limits.max_games_per_member
        raise UserError(lambda lang: translate_plural(lang, *M.LIMIT_PLAYING, playing, limit=limit))


def check_can_start(rec: GameRecord) -> None:
    """Refuse, saying why, a table that cannot start as it is."""
    if not any(not s.is_computer for s in rec.seats):
        raise UserError(M.NEEDS_A_PERSON)
    players = tuple(s.player_id for s in rec.seats)
    teams = tuple(players[i : i + 2] for i in range(0, len(players), 2)) if rec.config.get("teams") else None
    try:
        GameConfig(rec.kind, players, frozenset(rec.config.get("variants", ())), teams)
    except ValueError as error:
        raise UserError(M.CANNOT_START, reason=str(error)) from None


def check_hours(**hours: float | None) -> None:
    """Refuse a reminder or deadline outside 0.5-720 hours (discord.py does not re-check declared ranges)."""
    for label, value in hours.items():
        if value is not None and not 0.5 <= value <= 720:
            raise UserError(  # the option as the reader's client names it
                lambda lang, label=label: translate(
                    lang, M.HOURS_RANGE, option=translate(lang, label, context="slash-option")
                )
            )


def check_table(kind: str, size: int, variants: list[str], *, teams: bool) -> None:
    """Check the options now with placeholder players, so an impossible table is refused at once."""
    placeholder = tuple(f"seat{i}" for i in range(size))
    team_pairs = tuple(placeholder[i : i + 2] for i in range(0, size, 2)) if teams else None
    try:
        GameConfig(kind, placeholder, frozenset(variants), team_pairs)
    except ValueError as error:
        raise UserError(
            lambda lang, e=error: translate(lang, M.TABLE_IMPOSSIBLE, reason=config_refusal(e, lang))
        ) from None


class RematchButton(OfGame, discord.ui.DynamicItem[discord.ui.Button], template=r"kd:rematch:(?P<gid>\d+)"):
    def __init__(self, gid: int, *, label: str = "Rematch") -> None:
        super().__init__(rematch_button(gid, label=label))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            service = ctx.service
            old = await service.get(self.gid)
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
            await check_limits(ctx, hosting=True)
            options = {
                "seats": len(old.seats),
                "variants": list(old.config.get("variants", ())),
                "teams": old.config.get("teams") is not None,
                "rematch_of": old.id,
            }
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
            check_hours(reminder_hours=reminder_hours, deadline_hours=deadline_hours)
            chosen = {
                "dynasty": dynasty,
                "middle-kingdom": middle_kingdom,
                "harmony": harmony,
                "mighty-duel": mighty_duel,
                "three-player-four-dominoes": three_player_four_dominoes,
            }
            variants = [name for name, on in chosen.items() if on]
            check_table(kind, size, variants, teams=teams)
            await check_limits(ctx, hosting=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            # The table's language: the option, else the default an admin set, else the server's language, else English.
            server_default = None
            if interaction.guild_id is not None:
                server_default = (await ctx.store.get_guild_settings(interaction.guild_id)).language
            # (An admin's explicit default comes before the server's locale, which Discord reports as en-US for
            # every server that is not a Community server.)
            table_lang = first_supported(chosen_language, server_default, getattr(interaction, "guild_locale", None))
            name = clean_name(getattr(interaction.user, "display_name", interaction.user.name))
            seats = [Seat.human(interaction.user.id, name, hex_colour(0))]
            for n in range(1, computers + 1):
                seats.append(Seat.computer(n, level, bot_name(n, level, table_lang), hex_colour(n)))
            await open_lobby(
                ctx,
                kind=kind,
                options={"seats": size, "variants": variants, "teams": teams, "language": table_lang},
                seats=seats,
                reminder_hours=reminder_hours,
                deadline_hours=deadline_hours,
            )

        await guarded(ctx, work())

    async def _op(self, ctx: Context, op: str) -> None:
        async def work():
            if op == "cancel" and await cancel_unreadable(ctx):
                return
            rec = await ctx.service.active(ctx.interaction.channel_id)  # type: ignore[arg-type]
            await lobby_action(ctx, rec.id, BUTTONS[op])

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
