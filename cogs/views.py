"""Buttons and selects. Each is a dynamic item whose custom_id carries the game, the version (or turn) it was made
for and the choice, so every control keeps working after a restart and an out-of-date one says so."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from dataclasses import dataclass, field

import discord

from db.models import GameRecord, GameStatus
from engine import Build, Claim, Game, Place, Skip, Tax, building, cell_name, domino, parse_action
from render import render_kingdom

from .common import UserError, building_words, count, decision_words, domino_words, seat_name
from .service import STALE, GameService, names_and_colours, turn_key

log = logging.getLogger(__name__)

ARROWS = {"up": "↑", "right": "→", "down": "↓", "left": "←"}
SORRY = "Sorry, something went wrong on my side; it has been logged. Look at the latest table before trying again."


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


async def answer_error(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def guarded(interaction: discord.Interaction, work) -> None:
    """Run a handler: refusals are answered privately, surprises logged and answered with an apology."""
    try:
        await work
    except UserError as error:
        await answer_error(interaction, str(error))
    except Exception:
        log.exception("Interaction %s failed", interaction.data)
        with contextlib.suppress(discord.HTTPException):
            await answer_error(interaction, SORRY)


# -- the panel a player uses to take a turn -------------------------------------------------------------------
@dataclass
class Panel:
    content: str
    png: bytes | None = None
    filename: str = "kingdom.png"
    items: list[discord.ui.Item] = field(default_factory=list)

    def view(self) -> discord.ui.View | None:
        if not self.items:
            return None
        view = discord.ui.View(timeout=None)
        for item in self.items:
            view.add_item(item)
        return view

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(self.png), filename=self.filename)] if self.png else []


async def kingdom_png(rec: GameRecord, game: Game, kingdom: int, **options) -> bytes:
    names, colours = names_and_colours(rec)
    return await asyncio.to_thread(render_kingdom, game, kingdom, names, colours, **options)


def placement_gain(game: Game, kingdom: int, action: Place) -> int:
    """How many points placing this way adds to the kingdom's score right now."""
    before = game.scores()[kingdom].total
    trial = game.clone()
    trial.apply(action)
    return trial.scores()[kingdom].total - before


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


async def build_panel(rec: GameRecord, player: str, *, cell: tuple[int, int] | None = None) -> Panel:
    """The private panel for `player`'s current decision (or a refusal)."""
    game = rec.game
    if rec.status != GameStatus.PLAYING or game is None or game.is_over:
        return Panel("This game is not being played any more.")
    d = game.decision()
    assert d is not None
    if d.player != player:
        return Panel(f"It's {seat_name(rec.seats, d.player)}'s turn: they must {decision_words(game, d)}.")
    gid, ver = rec.id, rec.version
    rw = game.config.game == "royal-wedding"
    head = f"**Your turn** — {decision_words(game, d)}."
    if d.kind in ("first_claim", "claim"):
        items = [
            ActionButton(gid, ver, a, label=f"{domino_words(a.domino, with_box=rw)}", style=discord.ButtonStyle.primary)
            for a in game.legal_actions()
            if isinstance(a, Claim)
        ]
        line = "first line" if d.kind == "first_claim" else "next line"
        png = await kingdom_png(rec, game, d.kingdom)
        return Panel(f"{head}\nPick a free domino of the {line} (number and squares shown).", png, items=items)
    if d.kind == "place":
        placements = [a for a in game.legal_actions() if isinstance(a, Place)]
        dom = domino(d.domino)  # type: ignore[arg-type]
        if cell is not None:
            choices = [a for a in placements if (a.row, a.col) == cell]
            if not choices:
                return Panel(f"{head}\n{cell_name(*cell)} has no legal placement: pick another cell.")
            items = []
            for a in choices:
                gain = placement_gain(game, d.kingdom, a)
                label = f"{ARROWS[a.direction]} {a.direction} ({_signed(gain)} pts)"
                items.append(DirectionButton(gid, ver, a, label=label))
            items.append(OpenPanelButton(gid, ver, label="Back"))
            png = await kingdom_png(rec, game, d.kingdom, legal_spots=[cell])
            return Panel(
                f"{head}\nFirst square {dom.squares[0].text} on **{cell_name(*cell)}**: which way does the second "
                f"square ({dom.squares[1].text}) go?",
                png,
                items=items,
            )
        cells = sorted({(a.row, a.col) for a in placements})
        items = []
        for i in range(0, len(cells), 25):
            chunk = cells[i : i + 25]
            options = []
            for r, c in chunk:
                dirs = [a.direction for a in placements if (a.row, a.col) == (r, c)]
                options.append(
                    discord.SelectOption(label=cell_name(r, c), value=f"{r},{c}", description="then " + ", ".join(dirs))
                )
            placeholder = f"Cell for {dom.squares[0].text} ({cell_name(*chunk[0])} to {cell_name(*chunk[-1])})"
            items.append(CellSelect(gid, ver, i // 25, options=options, placeholder=placeholder[:150]))
            if len(items) == 4:
                break
        png = await kingdom_png(rec, game, d.kingdom, legal_spots=cells)
        return Panel(
            f"{head}\nPick the cell of the first square ({dom.squares[0].text}); the marked cells are legal. "
            f"Then you choose the direction and see a preview.",
            png,
            items=items,
        )
    k = game.kingdoms[d.kingdom]
    if d.kind == "tax":
        items = []
        for a in game.legal_actions():
            if isinstance(a, Tax):
                coins = sum(game.tax_coins(d.kingdom, c) for c in a.cells)
                where = "both squares" if len(a.cells) == 2 else cell_name(*a.cells[0])
                label = f"Knight{'s' if len(a.cells) == 2 else ''} on {where}: +{count(coins, 'coin')}"
                items.append(ActionButton(gid, ver, a, label=label, style=discord.ButtonStyle.primary))
        items.append(ActionButton(gid, ver, Skip(), label="Skip tax"))
        return Panel(
            f"{head}\nYou have {count(k.knights_reserve, 'knight')} in reserve and {count(k.coins, 'coin')}. A knight stays where "
            "it goes and collects one coin per square of its territory, plus building bonuses.",
            items=items,
        )
    if d.kind == "build":
        slots = sorted({a.slot for a in game.legal_actions() if isinstance(a, Build)})
        options = [
            discord.SelectOption(
                label=f"{building(game.board[s]).name} — {count(game.cost_of(s, d.kingdom), 'coin')}"[:100],  # type: ignore[arg-type]
                value=str(s),
                description=building(game.board[s]).effect_text()[:100],  # type: ignore[arg-type]
            )
            for s in slots
        ]
        items = [BuildSelect(gid, ver, options=options, placeholder="Choose a building you can afford")]
        items.append(ActionButton(gid, ver, Skip(), label="Skip building"))
        return Panel(f"{head}\nYou have {count(k.coins, 'coin')}.", items=items)
    if d.kind == "dragon":
        items = [
            ActionButton(gid, ver, a, label=f"Burn {building(game.board[a.slot]).name}"[:80])  # type: ignore[arg-type]
            for a in game.legal_actions()
            if not isinstance(a, Skip)
        ]
        items.append(ActionButton(gid, ver, Skip(), label="Skip the dragon", style=discord.ButtonStyle.primary))
        return Panel(
            f"{head}\nFor 1 coin the dragon burns a building of the builders' board (once a round). "
            f"You have {count(k.coins, 'coin')}.",
            items=items[:25],
        )
    return Panel(head)  # pragma: no cover


async def build_site_panel(rec: GameRecord, player: str, slot: int) -> Panel:
    """After choosing a building: where to put it."""
    game = rec.game
    assert game is not None
    d = game.decision()
    if d is None or d.player != player or d.kind != "build":
        return Panel(STALE)
    cells = sorted({(a.row, a.col) for a in game.legal_actions() if isinstance(a, Build) and a.slot == slot})
    if not cells:
        return Panel("You cannot build that one now: choose another building or skip.")
    items: list[discord.ui.Item] = [
        ActionButton(rec.id, rec.version, Build(slot, r, c), label=f"Build on {cell_name(r, c)}") for r, c in cells[:23]
    ]
    items.append(OpenPanelButton(rec.id, rec.version, label="Back"))
    items.append(ActionButton(rec.id, rec.version, Skip(), label="Skip building"))
    png = await kingdom_png(rec, game, d.kingdom, legal_spots=cells)
    name = building_words(game.board[slot])  # type: ignore[arg-type]
    return Panel(
        f"Build the **{name}** for {count(game.cost_of(slot, d.kingdom), 'coin')} on which town square?",
        png,
        items=items,
    )


async def show_panel(interaction: discord.Interaction, panel: Panel, *, edit: bool) -> None:
    """Show a panel privately: a new ephemeral message, or in place of the panel clicked."""
    view = panel.view()
    if edit:
        await interaction.edit_original_response(
            content=panel.content, attachments=panel.files(), view=view or discord.ui.View()
        )
    else:
        kwargs = {"view": view} if view else {}
        await interaction.followup.send(panel.content, files=panel.files(), ephemeral=True, **kwargs)


async def after_action(interaction: discord.Interaction, gid: int, player: str, *, warning: str | None = None) -> None:
    """After a move: the next step of the same turn, or a short confirmation; a warning (the move is saved but
    something after it failed) heads the panel, privately."""
    rec = await service_of(interaction).get(gid)
    game = rec.game
    d = game.decision() if game else None
    if d is not None and d.player == player and rec.status == GameStatus.PLAYING:
        panel = await build_panel(rec, player)
    elif warning:
        panel = Panel("")
    else:
        panel = Panel("Done ✔ — the table is updated in the channel.")
    if warning:
        panel.content = f"⚠️ {warning}\n{panel.content}".rstrip()
    await show_panel(interaction, panel, edit=True)


async def do_action(interaction: discord.Interaction, gid: int, ver: int, action) -> None:
    await interaction.response.defer()
    outcome = await service_of(interaction).play(gid, interaction.user.id, action, expected_version=ver)
    await after_action(interaction, gid, str(interaction.user.id), warning=outcome.warning)


# -- dynamic items ------------------------------------------------------------------------------------------
class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:do:(?P<gid>\d+):(?P<ver>\d+):(?P<act>.+)"):
    """Applies one action (its text form is in the custom_id)."""

    def __init__(self, gid: int, ver: int, action, *, label: str = "OK", style=discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=f"kd:do:{gid}:{ver}:{action.text}"))
        self.gid, self.ver, self.action = gid, ver, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), parse_action(match["act"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, do_action(interaction, self.gid, self.ver, self.action))


class DirectionButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"kd:dir:(?P<gid>\d+):(?P<ver>\d+):(?P<act>.+)"
):
    """Shows the preview of one placement with Confirm and Back."""

    def __init__(self, gid: int, ver: int, action: Place, *, label: str = "Preview") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.primary, custom_id=f"kd:dir:{gid}:{ver}:{action.text}"
            )
        )
        self.gid, self.ver, self.action = gid, ver, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), parse_action(match["act"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer()
            rec = await service_of(interaction).at_version(self.gid, self.ver)
            game = rec.game
            d = game.decision()
            if d is None or d.player != str(interaction.user.id) or d.kind != "place":
                raise UserError(STALE)
            gain = placement_gain(game, d.kingdom, self.action)
            png = await kingdom_png(rec, game, d.kingdom, preview=(d.domino, self.action.placement))
            r, c = self.action.row, self.action.col
            panel = Panel(
                f"Preview: domino {domino_words(d.domino)} with its first square on {cell_name(r, c)} and the second "
                f"{self.action.direction}: **{_signed(gain)} points** now. Confirm?",
                png,
                items=[
                    ActionButton(self.gid, self.ver, self.action, label="Confirm", style=discord.ButtonStyle.success),
                    CellBackButton(self.gid, self.ver, r, c),
                ],
            )
            await show_panel(interaction, panel, edit=True)

        await guarded(interaction, work())


class CellSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"kd:cell:(?P<gid>\d+):(?P<ver>\d+):(?P<part>\d+)"
):
    def __init__(self, gid: int, ver: int, part: int, *, options=(), placeholder: str = "Cell") -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"kd:cell:{gid}:{ver}:{part}",
                options=list(options) or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.gid, self.ver = gid, ver

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer()
            values = (interaction.data or {}).get("values") or []
            if not values:
                raise UserError("Pick a cell.")
            r, c = (int(x) for x in values[0].split(","))
            await open_cell(interaction, self.gid, self.ver, (r, c))

        await guarded(interaction, work())


async def open_cell(interaction: discord.Interaction, gid: int, ver: int, cell: tuple[int, int]) -> None:
    rec = await service_of(interaction).at_version(gid, ver)
    await show_panel(interaction, await build_panel(rec, str(interaction.user.id), cell=cell), edit=True)


class CellBackButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"kd:back:(?P<gid>\d+):(?P<ver>\d+):(?P<r>\d+):(?P<c>\d+)"
):
    def __init__(self, gid: int, ver: int, r: int, c: int) -> None:
        super().__init__(discord.ui.Button(label="Back", custom_id=f"kd:back:{gid}:{ver}:{r}:{c}"))
        self.gid, self.ver, self.cell = gid, ver, (r, c)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), int(match["r"]), int(match["c"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer()
            await open_cell(interaction, self.gid, self.ver, self.cell)

        await guarded(interaction, work())


class BuildSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"kd:bsel:(?P<gid>\d+):(?P<ver>\d+)"):
    def __init__(self, gid: int, ver: int, *, options=(), placeholder: str = "Building") -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"kd:bsel:{gid}:{ver}",
                options=list(options) or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.gid, self.ver = gid, ver

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer()
            values = (interaction.data or {}).get("values") or []
            rec = await service_of(interaction).at_version(self.gid, self.ver)
            panel = await build_site_panel(rec, str(interaction.user.id), int(values[0]))
            await show_panel(interaction, panel, edit=True)

        await guarded(interaction, work())


class OpenPanelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:panel:(?P<gid>\d+):(?P<ver>\d+)"):
    """Back to the start of the current decision, in place."""

    def __init__(self, gid: int, ver: int, *, label: str = "Back") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"kd:panel:{gid}:{ver}"))
        self.gid, self.ver = gid, ver

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer()
            rec = await service_of(interaction).at_version(self.gid, self.ver)
            await show_panel(interaction, await build_panel(rec, str(interaction.user.id)), edit=True)

        await guarded(interaction, work())


class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:turn:(?P<gid>\d+):(?P<key>\d+)"):
    """On the table: opens the private turn panel of the player to act."""

    def __init__(self, gid: int, key: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Take my turn", emoji="🎲", style=discord.ButtonStyle.success, custom_id=f"kd:turn:{gid}:{key}"
            )
        )
        self.gid, self.key = gid, key

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["key"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await service_of(interaction).get(self.gid)
            game = rec.game
            if rec.status != GameStatus.PLAYING or game is None:
                raise UserError("This game is over: these buttons no longer do anything.")
            # A newer table exists: this one is stale. (If the bot stopped before posting the newer one, the
            # recorded table is still this message, and it keeps working.)
            if turn_key(game) != self.key and interaction.message and interaction.message.id != rec.table_message_id:
                raise UserError("This table is out of date: use the buttons on the latest table in the channel.")
            player = str(interaction.user.id)
            if rec.seat_of(player) is None:
                raise UserError("You are not playing in this game: you can watch with `/look table`.")
            await show_panel(interaction, await build_panel(rec, player), edit=False)

        await guarded(interaction, work())


LOOKS = {"kingdom": "My kingdom", "scores": "Scores", "remaining": "To come", "history": "History"}


class LookButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:look:(?P<gid>\d+):(?P<what>[a-z]+)"):
    """On the table: private looks at the game (works for anyone, at any time)."""

    def __init__(self, gid: int, what: str) -> None:
        super().__init__(discord.ui.Button(label=LOOKS.get(what, what), custom_id=f"kd:look:{gid}:{what}"))
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from .look import send_look

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await service_of(interaction).get(self.gid)
            await send_look(interaction, rec, self.what, viewer=interaction.user.id)

        await guarded(interaction, work())


def table_view(rec: GameRecord, game: Game) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if not game.is_over:
        view.add_item(TurnButton(rec.id, turn_key(game)))
    for what in LOOKS:
        if game.is_over and what == "remaining":
            continue
        view.add_item(LookButton(rec.id, what))
    if game.is_over:
        from .lobby import RematchButton

        view.add_item(RematchButton(rec.id))
    return view


DYNAMIC_ITEMS = (
    ActionButton,
    DirectionButton,
    CellSelect,
    CellBackButton,
    BuildSelect,
    OpenPanelButton,
    TurnButton,
    LookButton,
)
