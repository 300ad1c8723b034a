"""Looking at a game: the table, one kingdom large, the scores, the dominoes to come, the history, the rules,
and the statistics. Every answer is private to the person who asked."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from db.models import GameRecord
from db.ratings import FinishedGame as RatedGame
from db.ratings import SeatOutcome, compute_ratings, player_key
from engine import Game, action_from_dict
from i18n import format_number, translate, translate_plural
from i18n import messages as M
from render import clean_name, render_kingdom, render_remaining, render_table
from render.alt import kingdom_alt_text, kingdom_text, table_alt_text

from .common import GAME_NAMES, UserError, breakdown_text, clip, event_words, game_name, lang_of, safe
from .service import describe, names_and_colours
from .views import guarded, service_of

RULES = {
    "kingdomino": (M.RULES_KINGDOMINO,),
    "queendomino": (M.RULES_QUEENDOMINO,),
    "royal-wedding": (M.RULES_QUEENDOMINO, M.RULES_ROYAL_WEDDING),
}


def rules_text(kind: str, lang: str = "en") -> str:
    """The rules in short, in `lang`: Royal Wedding adds its paragraph to Queendomino's."""
    return "\n".join(translate(lang, msgid) for msgid in RULES.get(kind, RULES["kingdomino"]))


async def send_look(
    interaction: discord.Interaction,
    rec: GameRecord,
    what: str,
    *,
    viewer: int,
    player: str | None = None,
    as_text: bool = False,
) -> None:
    """Answer a look privately (the interaction is already deferred)."""
    game = rec.game
    if game is None:
        raise UserError(M.NOT_STARTED_LOOK)
    names, colours = names_and_colours(rec)
    service = service_of(interaction)
    lang = lang_of(interaction)  # a look is private: the viewer's language
    if what == "table":
        d = game.decision()
        png = await service.picture(rec.id, render_table, game, names, colours, d.player if d else None, lang=lang)
        alt = describe(table_alt_text, game, names, lang=lang)
        if png is None:
            await interaction.followup.send(clip(translate(lang, M.TABLE_NOT_DRAWN, alt=alt), 2000), ephemeral=True)
            return
        await interaction.followup.send(
            translate(lang, M.TABLE_NOW),
            file=discord.File(io.BytesIO(png), "table.png", description=alt or None),
            ephemeral=True,
        )
        return
    if what in ("replay", "chart"):
        files = await service.story_files(rec, game, replay=what == "replay", chart=what == "chart", lang=lang)
        wanted = [f for f in files if f.filename.endswith(".gif" if what == "replay" else ".png")]
        if not wanted:
            raise UserError(M.PICTURE_NOT_MADE)
        text = translate(lang, M.REPLAY_CAPTION if what == "replay" else M.CHART_CAPTION)
        await interaction.followup.send(text, file=wanted[0], ephemeral=True)
        return
    if what == "kingdom":
        who = player or str(viewer)
        try:
            index = game.kingdom_of(who)
        except KeyError:
            if player is not None:
                raise UserError(M.NOT_A_PLAYER) from None
            raise UserError(M.NOT_PLAYING_LOOK) from None
        k = game.kingdoms[index]
        owners = " & ".join(safe(names.get(p, p)) for p in k.players)
        total = game.scores()[index].total
        grid = kingdom_text(game, index, lang=lang)
        if as_text:  # for screen readers: the grid in words and letters, no picture
            head = translate_plural(lang, *M.KINGDOM_TITLE, abs(total), owners=owners)
            await interaction.followup.send(clip(f"{head}\n```\n{grid}\n```", 2000), ephemeral=True)
            return
        png = await service.picture(rec.id, render_kingdom, game, index, names, colours, lang=lang)
        alt = describe(kingdom_alt_text, game, index, names, lang=lang)
        files = [discord.File(io.BytesIO(png), "kingdom.png", description=alt or None)] if png else []
        await interaction.followup.send(
            clip(translate_plural(lang, *M.KINGDOM_HEAD, abs(total), owners=owners), 2000), files=files, ephemeral=True
        )
        return
    if what == "scores":
        title = translate(lang, M.FINAL_SCORES_TITLE if game.is_over else M.SCORES_SO_FAR_TITLE)
        text = title + "\n" + breakdown_text(game, rec.seats, lang)
        await interaction.followup.send(clip(text, 2000), ephemeral=True)
        return
    if what == "remaining":
        png = await service.picture(rec.id, render_remaining, game, lang=lang)
        unseen = len(game.unseen_dominoes())
        total = unseen + len(game.revealed)
        text = translate_plural(lang, *(M.UNSEEN_OF_OVER if game.is_over else M.UNSEEN_OF), unseen, total=total)
        files = [discord.File(io.BytesIO(png), "remaining.png", description=text)] if png else []
        await interaction.followup.send(text, files=files, ephemeral=True)
        return
    if what == "history":
        actions = await service.store.get_actions(rec.id, include_undone=False)
        lines = await asyncio.to_thread(history_lines, game, [a.action for a in actions], rec.seats, lang)
        text = "\n".join(lines[-30:]) or translate(lang, M.NO_MOVE_YET)
        await interaction.followup.send(clip(translate(lang, M.LAST_MOVES) + "\n" + text, 2000), ephemeral=True)
        return
    raise UserError(M.UNKNOWN_VIEW, view=repr(what))


def history_lines(game: Game, actions: list[dict], seats, lang: str = "en") -> list[str]:
    """The game told move by move, in the table's words: the game is replayed from its seed and its log."""
    replay = Game.new(game.config, game.seed)
    lines = []
    for n, data in enumerate(actions, 1):
        action = action_from_dict(data)
        events = replay.apply(action)
        said = [line for e in events if (line := event_words(e, replay, seats, lang)) is not None]
        if said:
            lines.append(f"{n}. " + " ".join(said))
    return lines


class LookCog(commands.Cog):
    stats = app_commands.Group(
        name="stats", description="This server's finished games: statistics and ratings", guild_only=True
    )
    look = app_commands.Group(
        name="look", description="Look at the game in this channel (only you see the answer)", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _look(
        self, interaction: discord.Interaction, what: str, player: str | None = None, *, as_text: bool = False
    ) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await service_of(interaction).latest(interaction.channel_id)  # type: ignore[arg-type]
            await send_look(interaction, rec, what, viewer=interaction.user.id, player=player, as_text=as_text)

        await guarded(interaction, work())

    @look.command(name="table", description="The whole table: lines, builders' board and every kingdom")
    async def table(self, interaction: discord.Interaction) -> None:
        await self._look(interaction, "table")

    @look.command(name="kingdom", description="One kingdom, large, with cell names")
    @app_commands.describe(
        player="Whose kingdom (default: yours)", text="In text (a grid of letters and crowns), for screen readers"
    )
    async def kingdom(
        self, interaction: discord.Interaction, player: discord.User | None = None, text: bool = False
    ) -> None:
        await self._look(interaction, "kingdom", str(player.id) if player else None, as_text=text)

    @look.command(name="replay", description="The game so far as an animated picture, turn by turn")
    async def replay(self, interaction: discord.Interaction) -> None:
        await self._look(interaction, "replay")

    @look.command(name="chart", description="Every kingdom's score, round by round")
    async def chart(self, interaction: discord.Interaction) -> None:
        await self._look(interaction, "chart")

    @look.command(name="scores", description="The score breakdown so far")
    async def scores(self, interaction: discord.Interaction) -> None:
        await self._look(interaction, "scores")

    @look.command(name="remaining", description="The dominoes still to come: terrains and crowns")
    async def remaining(self, interaction: discord.Interaction) -> None:
        await self._look(interaction, "remaining")

    @look.command(name="history", description="The last moves of the game")
    async def history(self, interaction: discord.Interaction) -> None:
        await self._look(interaction, "history")

    @app_commands.command(name="rules", description="A short summary of the rules of the game in this channel")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    @app_commands.choices(game=[app_commands.Choice(name=v, value=k) for k, v in GAME_NAMES.items()])
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        async def work():
            kind = game.value if game else None
            if kind is None and interaction.channel_id is not None:
                try:  # the channel's game, or the one that just ended there
                    kind = (await service_of(interaction).latest(interaction.channel_id)).kind
                except UserError:
                    kind = None
            kind = kind or "kingdomino"
            await interaction.response.send_message(rules_text(kind, lang_of(interaction)), ephemeral=True)

        await guarded(interaction, work())

    @stats.command(name="leaderboard", description="This server's ratings per game; computer levels too")
    @app_commands.describe(game="Which game (default: the one in this channel, else Kingdomino)")
    @app_commands.choices(game=[app_commands.Choice(name=v, value=k) for k, v in GAME_NAMES.items()])
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            service = service_of(interaction)
            kind = game.value if game else None
            if kind is None:
                try:
                    kind = (await service.latest(interaction.channel_id)).kind  # type: ignore[arg-type]
                except UserError:
                    kind = "kingdomino"
            finished = await service.store.finished_results(interaction.guild_id, kind)  # type: ignore[arg-type]
            ratings = await asyncio.to_thread(compute_ratings, leaderboard_games(finished))
            names = {}
            await interaction.followup.send(
                clip(leaderboard_text(kind, ratings.get(kind, []), names, lang=lang_of(interaction)), 2000),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await guarded(interaction, work())

    @stats.command(name="players", description="Finished games: played, wins, average and best score")
    @app_commands.describe(player="Whose statistics (default: every player of this server)")
    async def players(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def work():
            store = service_of(interaction).store
            lang = lang_of(interaction)

            def numbers(r) -> dict:
                return {
                    "game": game_name(r.kind, lang),
                    "played": r.games_played,
                    "wins": r.wins,
                    "average": format_number(lang, r.average_score, decimals=1),
                    "best": r.best_score,
                }

            if player is not None:
                rows = await store.user_stats(player.id, guild_id=interaction.guild_id)
                title = translate(lang, M.STATS_PLAYER_TITLE, name=safe(clean_name(player.display_name)))
                lines = [translate(lang, M.STATS_LINE, **numbers(r)) for r in rows]
            else:
                if interaction.guild_id is None:
                    raise UserError(M.STATS_PER_SERVER)
                rows = await store.guild_stats(interaction.guild_id)
                title = translate(lang, M.STATS_SERVER_TITLE)
                lines = [
                    translate(lang, M.STATS_SERVER_LINE, player=f"<@{r.user_id}>", **numbers(r)) for r in rows[:30]
                ]
            text = title + "\n" + ("\n".join(lines) if lines else translate(lang, M.NO_FINISHED_GAME))
            await interaction.response.send_message(
                clip(text, 2000), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

        await guarded(interaction, work())


def leaderboard_games(finished) -> list[RatedGame]:
    """The store's finished games as the ratings read them: people by user id, computers by level."""
    games = []
    for f in finished:
        seats = tuple(
            SeatOutcome(player_key(seat), seat.team, seat.score, seat.won) for seat in f.seats if seat.score is not None
        )
        if len(seats) >= 2:
            games.append(RatedGame(f.kind, seats))
    return games


def leaderboard_text(kind: str, rows, names: dict[str, str], limit: int = 20, *, lang: str = "en") -> str:
    lines = [translate(lang, M.LEADERBOARD_TITLE, game=game_name(kind, lang))]
    for row in rows[:limit]:
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
