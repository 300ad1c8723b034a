"""Looking at a game: the table, one kingdom large, the scores, the dominoes to come, the history, the rules,
and the statistics. Every answer is private to the person who asked."""

from __future__ import annotations

import asyncio
import dataclasses

import discord
from discord import app_commands
from discord.ext import commands

from db.models import is_former_player
from db.ratings import FinishedGame as RatedGame
from db.ratings import SeatOutcome, compute_ratings, player_key
from i18n import format_number, translate, translate_plural
from i18n import messages as M
from render import clean_name

from .checks import GAMES, checked, in_server
from .context import Context, context_of
from .looks import look_place, send_look
from .reviews import resume_reviews
from .rulebook import Table, address, table_of
from .views import guarded
from .words import GAME_NAMES, UserError, clip, game_name, safe

RULES = {
    "kingdomino": (M.RULES_KINGDOMINO,),
    "queendomino": (M.RULES_QUEENDOMINO,),
    "royal-wedding": (M.RULES_QUEENDOMINO, M.RULES_ROYAL_WEDDING),
}


def rules_text(kind: str, lang: str = "en") -> str:
    """The rules in short, in `lang`: Royal Wedding adds its paragraph to Queendomino's."""
    return "\n".join(translate(lang, msgid) for msgid in RULES.get(kind, RULES["kingdomino"]))


def rules_link(service, table: Table, lang: str) -> discord.ui.View | None:
    """A link button to the whole rules of `table` on the board, in `lang`, when the board has a public address."""
    public = getattr(getattr(service, "board", None), "public_url", None)
    if not public:
        return None
    view = discord.ui.View(timeout=None)
    label = translate(lang, M.RULES_LINK_BUTTON)
    view.add_item(discord.ui.Button(label=label, url=public + address(table, lang), emoji="📖"))
    return view


class LookCog(commands.Cog):
    stats = app_commands.Group(
        name="stats", description="This server's finished games: statistics and ratings", guild_only=True
    )
    look = app_commands.Group(
        name="look", description="Look at the game in this channel (only you see the answer)", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._resumed: bool | None = None  # False: at start, looking for reviews to post; True: done

    async def _look(self, ctx: Context, what: str, player: str | None = None, *, as_text: bool = False) -> None:
        interaction = ctx.interaction

        async def work():
            with look_place(ctx, what):  # a refusal answers at once, before the game is read
                await interaction.response.defer(ephemeral=True, thinking=True)
                rec = await ctx.service.games.latest(interaction.channel_id)  # type: ignore[arg-type]
                await send_look(ctx, rec, what, viewer=interaction.user.id, player=player, as_text=as_text)

        await guarded(ctx, work())

    @look.command(name="table", description="The whole table: lines, builders' board and every kingdom")
    async def table(self, interaction: discord.Interaction) -> None:
        await self._look(context_of(interaction), "table")

    @look.command(name="kingdom", description="One kingdom, large, with cell names")
    @app_commands.describe(
        player="Whose kingdom (default: yours)", text="In text (a grid of letters and crowns), for screen readers"
    )
    async def kingdom(
        self, interaction: discord.Interaction, player: discord.User | None = None, text: bool = False
    ) -> None:
        await self._look(context_of(interaction), "kingdom", str(player.id) if player else None, as_text=text)

    @look.command(name="replay", description="The game so far as an animated picture, turn by turn")
    async def replay(self, interaction: discord.Interaction) -> None:
        await self._look(context_of(interaction), "replay")

    @look.command(name="chart", description="Every kingdom's score, round by round")
    async def chart(self, interaction: discord.Interaction) -> None:
        await self._look(context_of(interaction), "chart")

    @look.command(name="review", description="A finished game you played: your costliest decisions, and better moves")
    async def review(self, interaction: discord.Interaction) -> None:
        await self._look(context_of(interaction), "review")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once a process: post the reviews of the games that finished while it was stopped (cogs/reviews.py)."""
        if self._resumed is None:
            self._resumed = False
            await resume_reviews(self.bot.service)  # type: ignore[attr-defined]
            self._resumed = True  # the reviews it found are at work

    @look.command(name="scores", description="The score breakdown so far")
    async def scores(self, interaction: discord.Interaction) -> None:
        await self._look(context_of(interaction), "scores")

    @look.command(name="remaining", description="The dominoes still to come: terrains and crowns")
    async def remaining(self, interaction: discord.Interaction) -> None:
        await self._look(context_of(interaction), "remaining")

    @look.command(name="history", description="The moves of the game, the newest first, in pages")
    @app_commands.describe(page="Which page (1: the newest moves)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await ctx.service.games.latest(interaction.channel_id)  # type: ignore[arg-type]
            await send_look(ctx, rec, "history", viewer=interaction.user.id, page=page)

        await guarded(ctx, work())

    @app_commands.command(name="rules", description="A short summary of the rules of the game in this channel")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    @app_commands.choices(game=[app_commands.Choice(name=v, value=k) for k, v in GAME_NAMES.items()])
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        ctx = context_of(interaction)

        async def work():
            kind = checked(game, GAMES, "game")
            table = Table(kind) if kind else None
            if kind is None and interaction.channel_id is not None:
                try:  # the channel's game, or the one that just ended there
                    rec = await ctx.service.games.latest(interaction.channel_id)
                    kind, table = rec.kind, table_of(rec.kind, rec.config, rec.game is not None)
                except UserError:
                    kind = None
            kind = kind or "kingdomino"
            link = rules_link(ctx.service, table or Table(kind), ctx.lang)
            extra = {"view": link} if link else {}
            await interaction.response.send_message(rules_text(kind, ctx.lang), ephemeral=True, **extra)

        await guarded(ctx, work())

    @stats.command(name="leaderboard", description="This server's ratings per game; computer levels too")
    @app_commands.describe(game="Which game (default: the one in this channel, else Kingdomino)")
    @app_commands.choices(game=[app_commands.Choice(name=v, value=k) for k, v in GAME_NAMES.items()])
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        ctx = context_of(interaction)

        async def work():
            guild_id = in_server(interaction)
            kind = checked(game, GAMES, "game")
            await interaction.response.defer(ephemeral=True, thinking=True)
            service = ctx.service
            if kind is None:
                try:
                    kind = (await service.games.latest(interaction.channel_id)).kind  # type: ignore[arg-type]
                except UserError:
                    kind = "kingdomino"
            finished = await service.store.finished_results(guild_id, kind)
            ratings = await asyncio.to_thread(compute_ratings, leaderboard_games(finished))
            names = {}
            await interaction.followup.send(
                clip(leaderboard_text(kind, ratings.get(kind, []), names, lang=ctx.lang), 2000),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await guarded(ctx, work())

    @stats.command(name="players", description="Finished games: played, wins, average and best score")
    @app_commands.describe(player="Whose statistics (default: every player of this server)")
    async def players(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        ctx = context_of(interaction)

        async def work():
            guild_id = in_server(interaction)  # never across servers
            store = ctx.store
            lang = ctx.lang

            def numbers(r) -> dict:
                return {
                    "game": game_name(r.kind, lang),
                    "played": r.games_played,
                    "wins": r.wins,
                    "average": format_number(lang, r.average_score, decimals=1),
                    "best": r.best_score,
                }

            if player is not None:
                rows = await store.user_stats(player.id, guild_id=guild_id)
                title = translate(lang, M.STATS_PLAYER_TITLE, name=safe(clean_name(player.display_name)))
                lines = [translate(lang, M.STATS_LINE, **numbers(r)) for r in rows]
            else:
                rows = await store.guild_stats(guild_id)
                title = translate(lang, M.STATS_SERVER_TITLE)
                lines = [
                    translate(lang, M.STATS_SERVER_LINE, player=f"<@{r.user_id}>", **numbers(r)) for r in rows[:30]
                ]
            text = title + "\n" + ("\n".join(lines) if lines else translate(lang, M.NO_FINISHED_GAME))
            await interaction.response.send_message(
                clip(text, 2000), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

        await guarded(ctx, work())


def leaderboard_games(finished) -> list[RatedGame]:
    """The store's finished games as the ratings read them: people by user id, computers by level. A game played
    with hints (a table option everyone at it agreed to: the board showed hard's moves) is not rated."""
    games = []
    for f in finished:
        if f.config.get("hints"):
            continue
        seats = tuple(
            SeatOutcome(player_key(seat), seat.team, seat.score, seat.won) for seat in f.seats if seat.score is not None
        )
        if len(seats) >= 2:
            games.append(RatedGame(f.kind, seats))
    return games


def shown_rows(rows):
    """The ladder without the former players (people who asked to be forgotten: their entry is erased), ranked
    again. They still count in the computation, so everyone else's rating is what it was."""
    kept = [row for row in rows if not is_former_player(row.player)]
    ranked = []
    for i, row in enumerate(kept):
        rank = ranked[-1].rank if ranked and ranked[-1].ordinal == row.ordinal else i + 1
        ranked.append(dataclasses.replace(row, rank=rank))
    return ranked


def leaderboard_text(kind: str, rows, names: dict[str, str], limit: int = 20, *, lang: str = "en") -> str:
    lines = [translate(lang, M.LEADERBOARD_TITLE, game=game_name(kind, lang))]
    for row in shown_rows(rows)[:limit]:
        if row.is_computer:
            level = row.player.split(":", 1)[1]
            who = "🤖 " + (translate(lang, M.LEVELS[level]) if level in M.LEVELS else level)
        else:
            who = f"<@{row.player}>"
        rating = format_number(lang, row.ordinal, decimals=1)
        lines.append(
            translate_plural(
                lang, *M.LEADERBOARD_LINE, row.games, rank=row.rank, player=who, rating=rating, wins=row.wins
            )
        )
    if len(lines) == 1:
        lines.append(translate(lang, M.NO_FINISHED_GAME))
    return "\n".join(lines)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LookCog(bot))
