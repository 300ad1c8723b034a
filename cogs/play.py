"""Playing by slash commands, for players who prefer typing: every option autocompletes only legal values.
The same moves go through the same service as the buttons."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import BribeDragon, Build, Claim, Place, Skip, Tax, building, cell_name, parse_cell
from engine.kingdom import parse_direction
from i18n import messages as M
from i18n import translate

from .common import UserError, clip, count, domino_words, lang_of, quote_typed
from .views import after_action, build_panel, guarded, service_of, show_panel


async def _legal(interaction: discord.Interaction, kind: type):
    """(game, decision, legal actions of `kind`) for the person typing; nothing unless it is their decision, so
    autocomplete only ever offers legal values."""
    try:
        rec = await service_of(interaction).active(interaction.channel_id, playing=True)  # type: ignore[arg-type]
    except UserError:
        return None, None, []
    game = rec.game
    d = game.decision() if game else None
    if d is None or d.player != str(interaction.user.id):
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
            raise UserError(
                f"{quote_typed(value)} is not something I can play ({len(value)} characters): pick one of the "
                "suggestions the command offers."
            )


def _choices(pairs, current: str) -> list[app_commands.Choice[str]]:
    current = (current or "").lower()
    out = [app_commands.Choice(name=name[:100], value=value) for name, value in pairs if current in name.lower()]
    return out[:25]


class PlayCog(commands.Cog):
    play = app_commands.Group(
        name="play", description="Take your turn by typing (the table's buttons do the same)", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _do(self, interaction: discord.Interaction, make_action) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            service = service_of(interaction)
            check_typed(interaction)
            rec = await service.active(interaction.channel_id, playing=True)  # type: ignore[arg-type]
            try:
                action = make_action(rec)
            except ValueError as error:  # unreadable input: say what is wrong, change nothing
                raise UserError(clip(str(error), 300)) from None
            # The version read here: if anything moved since (a deadline, an earlier command), refuse as stale.
            outcome = await service.play(rec.id, interaction.user.id, action, expected_version=rec.version)
            await after_action(interaction, rec.id, str(interaction.user.id), warning=outcome.warning)

        await guarded(interaction, work())

    @play.command(name="panel", description="Open your private turn panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await service_of(interaction).active(interaction.channel_id, playing=True)  # type: ignore[arg-type]
            if rec.seat_of(str(interaction.user.id)) is None:
                raise UserError(M.NOT_PLAYING)
            panel = await build_panel(rec, str(interaction.user.id), lang=lang_of(interaction))
            await show_panel(interaction, panel, edit=False)

        await guarded(interaction, work())

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

        await self._do(interaction, make)

    @claim.autocomplete("domino")
    async def claim_domino(self, interaction: discord.Interaction, current: str):
        game, _, claims = await _legal(interaction, Claim)
        rw = game is not None and game.config.game == "royal-wedding"
        return _choices([(domino_words(a.domino, with_box=rw), a.domino) for a in claims], current)

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
            r, c = parse_cell(cell)
            return Place(r, c, parse_direction(direction))

        await self._do(interaction, make)

    @place.autocomplete("cell")
    async def place_cell(self, interaction: discord.Interaction, current: str):
        _, _, places = await _legal(interaction, Place)
        pairs = []
        for r, c in sorted({(a.row, a.col) for a in places}):
            dirs = ", ".join(a.direction for a in places if (a.row, a.col) == (r, c))
            pairs.append((f"{cell_name(r, c)} (then {dirs})", cell_name(r, c)))
        return _choices(pairs, current)

    @place.autocomplete("direction")
    async def place_direction(self, interaction: discord.Interaction, current: str):
        _, _, places = await _legal(interaction, Place)
        try:
            r, c = parse_cell(str(interaction.namespace.cell or ""))
        except ValueError:
            return []
        return _choices([(a.direction, a.direction) for a in places if (a.row, a.col) == (r, c)], current)

    # -- tax ------------------------------------------------------------------------------------------------
    @play.command(name="tax", description="Send one or two knights onto the domino you just placed")
    @app_commands.describe(knights="Where the knights go, like E4 or E4 F4")
    async def tax(self, interaction: discord.Interaction, knights: app_commands.Range[str, 1, 16]) -> None:
        def make(rec):
            return Tax(tuple(parse_cell(w) for w in knights.replace(",", " ").split()))

        await self._do(interaction, make)

    @tax.autocomplete("knights")
    async def tax_knights(self, interaction: discord.Interaction, current: str):
        game, d, taxes = await _legal(interaction, Tax)
        pairs = []
        for a in taxes:
            coins = sum(game.tax_coins(d.kingdom, c) for c in a.cells)
            where = " ".join(cell_name(*c) for c in a.cells)
            pairs.append((f"{where} (+{count(coins, 'coin')})", where))
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
                raise UserError(
                    "Pick the building and the cell from the suggestions (e.g. building 3, cell E4)."
                ) from None
            return Build(slot, r, c)

        await self._do(interaction, make)

    @build.autocomplete("building")
    async def build_building(self, interaction: discord.Interaction, current: str):
        game, d, builds = await _legal(interaction, Build)
        pairs = []
        for s in sorted({a.slot for a in builds}):
            b = building(game.board[s])
            pairs.append((f"{b.name} — {count(game.cost_of(s, d.kingdom), 'coin')}: {b.effect_text()}", str(s)))
        return _choices(pairs, current)

    @build.autocomplete("cell")
    async def build_cell(self, interaction: discord.Interaction, current: str):
        _, _, builds = await _legal(interaction, Build)
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
                raise UserError("Pick the building to burn from the suggestions.") from None

        await self._do(interaction, make)

    @dragon.autocomplete("building")
    async def dragon_building(self, interaction: discord.Interaction, current: str):
        game, _, burns = await _legal(interaction, BribeDragon)
        return _choices([(building(game.board[a.slot]).name, str(a.slot)) for a in burns], current)

    @play.command(name="undo", description="Take back your last move, while nobody has acted after it")
    async def undo(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            service = service_of(interaction)
            rec = await service.active(interaction.channel_id, playing=True)  # type: ignore[arg-type]
            await service.undo(rec.id, interaction.user.id)
            rec = await service.get(rec.id)
            lang = lang_of(interaction)
            panel = await build_panel(rec, str(interaction.user.id), lang=lang)
            panel.content = f"↩️ {translate(lang, M.TAKEN_BACK)}\n{panel.content}"
            await show_panel(interaction, panel, edit=True)

        await guarded(interaction, work())

    @play.command(name="skip", description="Pass on the optional step at hand (tax, build or dragon)")
    async def skip(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, lambda rec: Skip())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
