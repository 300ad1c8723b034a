"""Playing by slash commands, for players who prefer typing: every option autocompletes only legal values.
The same moves go through the same service as the buttons."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import BribeDragon, Build, Claim, Place, Skip, Tax, cell_name, parse_cell
from engine.kingdom import parse_direction
from i18n import messages as M
from i18n import translate, translate_plural

from .board import open_board
from .context import Context, context_of
from .views import after_action, after_undo, build_panel, guarded, show_panel
from .words import UserError, building_name, direction_word, domino_words, effect_words, quote_typed


async def _legal(ctx: Context, kind: type):
    """(game, decision, legal actions of `kind`) for the person typing; nothing unless it is their decision, so
    autocomplete only ever offers legal values."""
    try:
        rec = await ctx.service.games.active(ctx.interaction.channel_id, playing=True)  # type: ignore[arg-type]
    except UserError:
        return None, None, []
    game = rec.game
    d = game.decision() if game else None
    if d is None or d.player != ctx.player:
        return None, None, []
    return game, d, [a for a in game.legal_actions() if isinstance(a, kind)]


TYPED_LIMIT = 32  # longer than any legal value: a domino, a cell, a direction, knights, a slot


def _typed_values(options) -> list[str]:
    values = []
    for option in options or ():
        if isinstance(option.get("value"), str):
            values.append(option["value"])
        values += _typed_values(option.get("options"))
    return values


def check_typed(interaction: discord.Interaction) -> None:
    """Refuse typed values longer than any legal one (Discord's client limits them, a modified one may not),
    quoting only their start."""
    for value in _typed_values((interaction.data or {}).get("options")):
        if len(value) > TYPED_LIMIT:
            raise UserError(M.TYPED_TOO_LONG, typed=quote_typed(value), length=len(value))


def typed_cell(text: str) -> tuple[int, int]:
    """A typed cell (`E4`), or a refusal in the reader's language saying how to write one."""
    try:
        return parse_cell(text)
    except ValueError:
        raise UserError(M.BAD_CELL, typed=quote_typed(text)) from None


def _choices(pairs, current: str) -> list[app_commands.Choice[str]]:
    current = (current or "").lower()
    # What is typed matches the words shown (in the reader's language) or the value itself (`right`, `E4`).
    out = [
        app_commands.Choice(name=name[:100], value=value)
        for name, value in pairs
        if current in name.lower() or current in value.lower()
    ]
    return out[:25]


class PlayCog(commands.Cog):
    play = app_commands.Group(
        name="play", description="Take your turn by typing (the table's buttons do the same)", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _do(self, ctx: Context, make_action) -> None:
        interaction = ctx.interaction

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            check_typed(interaction)
            rec = await ctx.service.games.active(interaction.channel_id, playing=True)  # type: ignore[arg-type]
            try:
                action = make_action(rec)
            except ValueError:  # unreadable input (the commands say which part where they can): change nothing
                raise UserError(M.UNREADABLE_TYPED) from None
            # The version read here: if anything moved since (a deadline, an earlier command), refuse as stale.
            result = await ctx.service.play(rec.id, ctx.user_id, action, expected_version=rec.version)
            await after_action(ctx, rec.id, warning=result.warning_in(ctx.lang), computers_wait=result.computers_wait)

        await guarded(ctx, work())

    @play.command(name="board", description="Open the live board of this channel's game (inside Discord or a link)")
    async def board(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        await guarded(ctx, open_board(ctx))

    @play.command(name="panel", description="Open your private turn panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await ctx.service.games.active(interaction.channel_id, playing=True)  # type: ignore[arg-type]
            if rec.seat_of(ctx.player) is None:
                raise UserError(M.NOT_PLAYING)
            panel = await build_panel(rec, ctx.player, lang=ctx.lang)
            await show_panel(interaction, panel, edit=False)

        await guarded(ctx, work())

    # -- claim ------------------------------------------------------------------------------------------------
    @play.command(name="claim", description="Put your king on a free domino")
    @app_commands.describe(domino="A free domino (number)")
    async def claim(self, interaction: discord.Interaction, domino: app_commands.Range[str, 1, 12]) -> None:
        def make(rec):
            game = rec.game
            text = domino.strip().upper()
            free = [a.domino for a in game.legal_actions() if isinstance(a, Claim)]
            for d in free:
                if text in (d, d[1:]):
                    return Claim(d)
            return Claim(text if text[:1] in "KQ" else f"{game.setup.boxes[0]}{text}")

        await self._do(context_of(interaction), make)

    @claim.autocomplete("domino")
    async def claim_domino(self, interaction: discord.Interaction, current: str):
        ctx = context_of(interaction)
        game, _, claims = await _legal(ctx, Claim)
        rw = game is not None and game.config.game == "royal-wedding"
        lang = ctx.lang
        return _choices([(domino_words(a.domino, with_box=rw, lang=lang), a.domino) for a in claims], current)

    # -- place ------------------------------------------------------------------------------------------------
    @play.command(
        name="place", description="Place your domino: the cell of its first square, then the direction of the second"
    )
    @app_commands.describe(cell="Cell of the first square, like E4", direction="Where the second square goes")
    async def place(
        self,
        interaction: discord.Interaction,
        cell: app_commands.Range[str, 1, 8],
        direction: app_commands.Range[str, 1, 10],
    ) -> None:
        def make(rec):
            r, c = typed_cell(cell)
            try:
                way = parse_direction(direction)
            except ValueError:
                raise UserError(M.REFUSALS["bad_direction"], direction=quote_typed(direction)) from None
            return Place(r, c, way)

        await self._do(context_of(interaction), make)

    @place.autocomplete("cell")
    async def place_cell(self, interaction: discord.Interaction, current: str):
        ctx = context_of(interaction)
        _, _, places = await _legal(ctx, Place)
        lang = ctx.lang
        pairs = []
        for r, c in sorted({(a.row, a.col) for a in places}):
            dirs = ", ".join(direction_word(a.direction, lang) for a in places if (a.row, a.col) == (r, c))
            pairs.append((translate(lang, M.CELL_THEN, cell=cell_name(r, c), directions=dirs), cell_name(r, c)))
        return _choices(pairs, current)

    @place.autocomplete("direction")
    async def place_direction(self, interaction: discord.Interaction, current: str):
        ctx = context_of(interaction)
        _, _, places = await _legal(ctx, Place)
        try:
            r, c = parse_cell(str(interaction.namespace.cell or ""))
        except ValueError:
            return []
        lang = ctx.lang
        ways = [a.direction for a in places if (a.row, a.col) == (r, c)]
        return _choices([(direction_word(way, lang), way) for way in ways], current)

    # -- tax ------------------------------------------------------------------------------------------------
    @play.command(name="tax", description="Send one or two knights onto the domino you just placed")
    @app_commands.describe(knights="Where the knights go, like E4 or E4 F4")
    async def tax(self, interaction: discord.Interaction, knights: app_commands.Range[str, 1, 16]) -> None:
        def make(rec):
            return Tax(tuple(typed_cell(w) for w in knights.replace(",", " ").split()))

        await self._do(context_of(interaction), make)

    @tax.autocomplete("knights")
    async def tax_knights(self, interaction: discord.Interaction, current: str):
        ctx = context_of(interaction)
        game, d, taxes = await _legal(ctx, Tax)
        lang = ctx.lang
        pairs = []
        for a in taxes:
            coins = sum(game.tax_coins(d.kingdom, c) for c in a.cells)
            where = " ".join(cell_name(*c) for c in a.cells)
            pairs.append((translate_plural(lang, *M.TAX_CHOICE, coins, cells=where), where))
        return _choices(pairs, current)

    # -- build ----------------------------------------------------------------------------------------------
    @play.command(name="build", description="Buy a building from the builders' board and put it on a town square")
    @app_commands.describe(building="A building you can afford", cell="A free town square of yours, like E4")
    async def build(
        self,
        interaction: discord.Interaction,
        building: app_commands.Range[str, 1, 4],
        cell: app_commands.Range[str, 1, 8],
    ) -> None:
        def make(rec):
            try:
                slot = int(building)
                r, c = parse_cell(cell)
            except ValueError:
                raise UserError(M.PICK_FROM_SUGGESTIONS) from None
            return Build(slot, r, c)

        await self._do(context_of(interaction), make)

    @build.autocomplete("building")
    async def build_building(self, interaction: discord.Interaction, current: str):
        ctx = context_of(interaction)
        game, d, builds = await _legal(ctx, Build)
        lang = ctx.lang
        pairs = []
        for s in sorted({a.slot for a in builds}):
            b = game.board[s]
            name, effect = building_name(b, lang), effect_words(b, lang)
            cost = game.cost_of(s, d.kingdom)
            pairs.append((translate_plural(lang, *M.BUILD_CHOICE, cost, building=name, effect=effect), str(s)))
        return _choices(pairs, current)

    @build.autocomplete("cell")
    async def build_cell(self, interaction: discord.Interaction, current: str):
        ctx = context_of(interaction)
        _, _, builds = await _legal(ctx, Build)
        cells = sorted({(a.row, a.col) for a in builds})
        return _choices([(cell_name(r, c), cell_name(r, c)) for r, c in cells], current)

    # -- dragon and skip ------------------------------------------------------------------------------------
    @play.command(name="dragon", description="Pay 1 coin: the dragon burns a building of the builders' board")
    @app_commands.describe(building="The building to burn")
    async def dragon(self, interaction: discord.Interaction, building: app_commands.Range[str, 1, 4]) -> None:
        def make(rec):
            try:
                return BribeDragon(int(building))
            except ValueError:
                raise UserError(M.PICK_BURN_SUGGESTIONS) from None

        await self._do(context_of(interaction), make)

    @dragon.autocomplete("building")
    async def dragon_building(self, interaction: discord.Interaction, current: str):
        ctx = context_of(interaction)
        game, _, burns = await _legal(ctx, BribeDragon)
        lang = ctx.lang
        return _choices([(building_name(game.board[a.slot], lang), str(a.slot)) for a in burns], current)

    @play.command(name="undo", description="Take back your last move, while nobody has acted after it")
    async def undo(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await ctx.service.games.active(interaction.channel_id, playing=True)  # type: ignore[arg-type]
            outcome = await ctx.service.undo(rec.id, interaction.user.id)
            # the warning: the table could not be posted; the undo is done all the same
            await after_undo(ctx, rec.id, outcome.warning_in(ctx.lang))

        await guarded(ctx, work())

    @play.command(name="skip", description="Pass on the optional step at hand (tax, build or dragon)")
    async def skip(self, interaction: discord.Interaction) -> None:
        await self._do(context_of(interaction), lambda rec: Skip())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
