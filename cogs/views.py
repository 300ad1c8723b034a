"""Buttons and selects. Each is a dynamic item whose custom_id carries the game, the version (or turn) it was made
for and the choice, so every control keeps working after a restart and an out-of-date one says so."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field

import discord

from db.models import GameRecord, GameStatus
from engine import BribeDragon, Build, Claim, Game, Place, Skip, Tax, cell_name, domino, parse_action
from i18n import messages as M
from i18n import translate, translate_plural
from render import render_kingdom, render_offer, render_placement
from render.alt import kingdom_alt_text
from render.panels import render_confirm, render_steps

from . import pictures
from .common import OfGame
from .context import Context, context_of
from .controls import history_button, look_button, turn_button
from .decide import (
    OPTIONAL_STEPS,
    STALE,
    NoGameHere,
    placement_gain,
    placement_gains,
    same_turn_step,
    skip_optional,
    turn_key,
)
from .looks import look_place, send_look
from .mine import elsewhere
from .tabletext import describe, names_and_colours
from .words import (
    UserError,
    building_name,
    building_words,
    clip,
    decision_words,
    direction_word,
    effect_words,
    game_domino_words,
    points_words,
    square_words,
    their_turn,
)

log = logging.getLogger(__name__)

ARROWS = {"up": "↑", "right": "→", "down": "↓", "left": "←"}
SORRY = M.SORRY


async def answer_error(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    text = clip(text, 2000)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def guarded(ctx: Context, work) -> None:
    """Run a handler: refusals are answered privately, surprises logged and answered with an apology. When even
    the answer fails, that is logged and a short apology is tried, so nobody is left on "thinking…"."""
    interaction, lang = ctx.interaction, ctx.lang
    try:
        await work
        await _private_notes(ctx)
    except NoGameHere as error:
        text = error.text(lang)
        try:
            text = (
                await elsewhere(ctx.service, interaction.user.id, interaction.guild_id, interaction.channel_id, lang)
                or text
            )
        except Exception:
            log.exception("Could not list the games of user %s", interaction.user.id)
        with contextlib.suppress(discord.HTTPException):
            await answer_error(interaction, text)
    except UserError as error:
        try:
            await answer_error(interaction, error.text(lang))
        except discord.HTTPException:
            log.exception("Interaction %s: the refusal could not be sent", interaction.id)
            with contextlib.suppress(discord.HTTPException):
                await answer_error(interaction, translate(lang, SORRY))
    except Exception:
        log.exception("Interaction %s failed", interaction.id)
        with contextlib.suppress(discord.HTTPException):
            await answer_error(interaction, translate(lang, SORRY))


async def _private_notes(ctx: Context) -> None:
    """What the bot has to tell this person only (their direct messages are closed to it), once, after the answer to
    their interaction: never in the channel."""
    interaction = ctx.interaction
    if not interaction.response.is_done():
        return
    note = ctx.service.notifier.private_note(interaction.user.id, ctx.lang)
    if note is not None:
        try:
            await interaction.followup.send(note, ephemeral=True)
        except discord.HTTPException:
            log.info("Interaction %s: the private note could not be sent", interaction.id)


def walk_components(components) -> Iterator[discord.Component]:
    """Every component of a message, nested ones too (action rows' children; Components v2's containers, sections
    with their accessory, labels with their component)."""
    for component in components:
        yield component
        yield from walk_components(getattr(component, "children", ()))
        for single in ("accessory", "component"):
            inner = getattr(component, single, None)
            if isinstance(inner, discord.Component):
                yield from walk_components((inner,))


async def answer_dropped_click(interaction: discord.Interaction, items) -> bool:
    """Answer a click that discord.py would drop without a word: it runs a dynamic item (every control of the bot)
    only when the clicked component is still on the interaction's message. A person who clicks just as the bot
    takes that button off (a newer table was posted, the panel moved on) sends a click that Discord still delivers,
    with the message as it is now; unanswered, it would end as "The application did not respond". It is answered
    as out of date. True when it was such a click."""
    if interaction.type is not discord.InteractionType.component:
        return False
    data = interaction.data or {}
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str):
        return False
    factory = next((i for i in items if i.__discord_ui_compiled_template__.fullmatch(custom_id)), None)
    if factory is None:
        return False
    message = interaction.message
    if message is not None and any(
        c.type.value == kind and getattr(c, "custom_id", None) == custom_id for c in walk_components(message.components)
    ):
        # the test discord.py makes (ViewStore.schedule_dynamic_item_call), on the message's components: a View built
        # for it would be one more cycle of objects per click for the garbage collector (benchmarks/bench_load.py)
        return False
    log.info("Interaction %s: %s is no longer on its message; answered as out of date", interaction.id, custom_id)
    text = M.TABLE_OUT_OF_DATE if factory in (TurnButton, LookButton) else STALE
    try:
        await answer_error(interaction, translate(context_of(interaction).lang, text))
    except discord.HTTPException:
        log.exception("Interaction %s: the out-of-date answer could not be sent", interaction.id)
    return True


# -- the panel a player uses to take a turn -------------------------------------------------------------------
@dataclass
class Panel:
    content: str
    png: bytes | None = None
    filename: str = "kingdom.png"
    items: list[discord.ui.Item] = field(default_factory=list)
    alt: str = ""  # the picture's description, for screen readers

    def view(self) -> discord.ui.View | None:
        if not self.items:
            return None
        view = discord.ui.View(timeout=None)
        for item in self.items:
            if item is not None:
                view.add_item(item)
        return view

    def files(self) -> list[discord.File]:
        if not self.png:
            return []
        return [discord.File(io.BytesIO(self.png), filename=self.filename, description=self.alt[:1024] or None)]


async def kingdom_png(rec: GameRecord, game: Game, kingdom: int, **options) -> bytes | None:
    """The kingdom picture; `options` are render_kingdom's (legal_spots, preview, lang)."""
    names, colours = names_and_colours(rec)
    return await pictures.draw(render_kingdom, game, kingdom, names, colours, **options)


async def panel_png(rec: GameRecord, render, game: Game, *args, lang: str = "en") -> bytes | None:
    """One of the turn panel's pictures (the free dominoes, a placement, tax, the dragon) with its words in `lang`;
    None if it fails."""
    names, colours = names_and_colours(rec)
    return await pictures.draw(render, game, *args, names, colours, lang=lang)


def kingdom_alt(rec: GameRecord, game: Game, kingdom: int, lang: str = "en") -> str:
    names, _ = names_and_colours(rec)
    return describe(kingdom_alt_text, game, kingdom, names, lang=lang)


def _trial_at(game: Game, player: str, kind: str) -> Game | None:
    """A copy of the game with the optional steps before `kind` skipped, when `player` then faces `kind`."""
    trial, _ = skip_optional(game, player, kind)
    return trial if same_turn_step(trial, game, player, kind) else None


def _after_optional(game: Game, player: str) -> str:
    """What the player does once the optional steps are over: choose a domino, or nothing (the turn ends)."""
    trial, _ = skip_optional(game, player)
    return "claim" if same_turn_step(trial, game, player, "claim") else "end"


BEST_SPOTS = 4  # the placements offered as buttons, the ones that score most now; every other one is in a list
LIST_SIZE = 25  # the options a Discord list holds
LISTS = 4  # lists under the row of buttons (a message has 5 rows)
DIRECTION_ORDER = {"up": 0, "right": 1, "down": 2, "left": 3}


@dataclass
class NextSteps:
    """What follows a placement in the same turn: optional steps (Queendomino rules), the dominoes to choose from
    next (`claim_game`: the game at that choice, the optional steps skipped), or neither (the turn ends)."""

    optional: bool
    claims: list[Claim]
    claim_game: Game | None


def next_steps(game: Game, player: str, action: Place) -> NextSteps:
    trial = game.clone()
    trial.apply(action, by=player)
    d = trial.decision()
    optional = d is not None and d.kind in OPTIONAL_STEPS and same_turn_step(trial, game, player, d.kind)
    skipped, _ = skip_optional(trial, player)
    if not same_turn_step(skipped, game, player, "claim"):
        return NextSteps(optional, [], None)
    return NextSteps(optional, [a for a in skipped.legal_actions() if isinstance(a, Claim)], skipped)


async def preview_panel(rec: GameRecord, player: str, action: Place, *, lang: str = "en") -> Panel:
    """The preview of one placement. Choosing the next domino confirms it too (the optional steps skipped); a
    Confirm leads to the optional steps, or ends a turn with no domino to choose; Back returns to the spots."""
    game = rec.game
    assert game is not None
    d = game.decision()
    if d is None or d.player != player or d.kind != "place":
        raise UserError(STALE)
    gain = placement_gain(game, d.kingdom, action)
    after = next_steps(game, player, action)
    words = {
        "domino": game_domino_words(game, d.domino, lang),
        "cell": cell_name(action.row, action.col),
        "direction": direction_word(action.direction, lang),
    }
    gain_words = points_words(gain, signed=True, lang=lang)
    gid, ver = rec.id, rec.version
    items: list[discord.ui.Item | None] = []
    ok = discord.ButtonStyle.success
    if after.claims:
        for claim in after.claims:
            label = translate(lang, M.CONFIRM_TAKE, domino=game_domino_words(game, claim.domino, lang))
            items.append(ConfirmThenButton(gid, ver, action, claim, label=label))
        ask = M.PREVIEW_TAKE_OR_STEPS if after.optional else M.PREVIEW_TAKE
    elif after.optional:
        items.append(ConfirmThenButton(gid, ver, action, Skip(), label=translate(lang, M.CONFIRM_END)))
        ask = M.PREVIEW_END_OR_STEPS
    else:
        items.append(ActionButton(gid, ver, action, label=translate(lang, M.BUTTON_CONFIRM), style=ok))
        ask = None
    if after.optional:
        items.append(ActionButton(gid, ver, action, label=translate(lang, M.CONFIRM_THEN_STEPS)))
    if _places_count(game) > 1:
        items.append(OpenPanelButton(gid, ver, label=translate(lang, M.BUTTON_BACK)))
    preview = (d.domino, action.placement)
    if after.claim_game is not None:
        names, colours = names_and_colours(rec)
        png = await pictures.draw(
            render_confirm, game, d.kingdom, preview, after.claim_game, player, names, colours, lang=lang
        )
    else:
        png = await kingdom_png(rec, game, d.kingdom, preview=preview, lang=lang)
    lines = [translate(lang, M.PREVIEW, gain=gain_words, **words)]
    if ask is not None:
        lines.append(translate(lang, ask))
    alt = translate(lang, M.PREVIEW_ALT, gain=gain_words, **words)
    if after.claims:  # the picture shows them under the preview
        free = ", ".join(game_domino_words(game, a.domino, lang) for a in after.claims)
        alt += " " + translate(lang, M.FREE_NEXT_LINE_ALT, free=free)
    return Panel(
        alt=alt,
        content="\n".join(lines),
        png=png,
        items=[i for i in items if i is not None],
    )


def _places_count(game: Game) -> int:
    return sum(1 for a in game.legal_actions() if isinstance(a, Place))


def turn_head(game: Game, d, player: str, lang: str) -> str:
    """`**Your turn** — place domino 12.`; a player with two kings choosing the first line is told which pick."""
    kings = [i for i, k in enumerate(game.kings) if k.player == player]
    what = decision_words(game, d, lang)
    if d.kind == "first_claim" and len(kings) == 2:
        chosen = sum(1 for _, king in game.current_line if king in kings)
        what = translate(lang, M.DECISION_YOU_SECOND_PICK if chosen else M.DECISION_YOU_FIRST_OF_TWO)
    return translate(lang, M.YOUR_TURN_HEAD, what=what)


async def build_panel(rec: GameRecord, player: str, *, cell: tuple[int, int] | None = None, lang: str = "en") -> Panel:
    """The private panel for `player`'s current decision (or a refusal), in `lang` (the clicker's language)."""
    game = rec.game
    if rec.status != GameStatus.PLAYING or game is None or game.is_over:
        return Panel(translate(lang, M.NOT_PLAYED_ANY_MORE))
    d = game.decision()
    assert d is not None
    if d.player != player:
        return Panel(their_turn(game, d, rec.seats, lang))
    if d.kind in ("first_claim", "claim"):
        return await claim_panel(rec, game, d, player, turn_head(game, d, player, lang), lang=lang)
    if d.kind == "place":
        return await place_panel(rec, game, d, player, turn_head(game, d, player, lang), cell=cell, lang=lang)
    return await steps_panel(rec, game, player, lang=lang)


async def claim_panel(rec: GameRecord, game: Game, d, player: str, head: str, *, lang: str) -> Panel:
    claims = [a for a in game.legal_actions() if isinstance(a, Claim)]
    items = [
        ActionButton(rec.id, rec.version, a, label=game_domino_words(game, a.domino, lang), style=_PRIMARY)
        for a in claims
    ]
    first = d.kind == "first_claim"
    png = await panel_png(rec, render_offer, game, player, lang=lang)
    free = ", ".join(game_domino_words(game, a.domino, lang) for a in claims)
    pick = translate(lang, M.PICK_FIRST_LINE if first else M.PICK_NEXT_LINE)
    return Panel(
        f"{head}\n{pick}",
        png,
        "offer.png",
        items=items,
        alt=translate(lang, M.FREE_FIRST_LINE_ALT if first else M.FREE_NEXT_LINE_ALT, free=free),
    )


_PRIMARY = discord.ButtonStyle.primary


async def place_panel(
    rec: GameRecord, game: Game, d, player: str, head: str, *, cell: tuple[int, int] | None, lang: str
) -> Panel:
    """Where the domino goes: the spots that score most as buttons, every other spot in a list (or, when there
    are too many for the lists, a list of cells then a choice of direction); each leads to a preview."""
    placements = [a for a in game.legal_actions() if isinstance(a, Place)]
    if len(placements) == 1:
        panel = await preview_panel(rec, player, placements[0], lang=lang)
        panel.content = f"{head}\n{translate(lang, M.ONLY_ONE_PLACEMENT)}\n{panel.content}"
        return panel
    if cell is not None:
        return await direction_panel(rec, game, d, head, cell, placements, lang=lang)
    gains = dict(zip(placements, placement_gains(game, d.kingdom, placements), strict=True))

    def where(a: Place) -> tuple:
        return (a.row, a.col, DIRECTION_ORDER[a.direction])

    ranked = sorted(placements, key=lambda a: (-gains[a], *where(a)))
    best, rest = ranked[:BEST_SPOTS], sorted(ranked[BEST_SPOTS:], key=where)
    items: list[discord.ui.Item] = [
        DirectionButton(rec.id, rec.version, a, label=spot_label(a, gains[a], M.SPOT_LABEL, lang), style=_PRIMARY)
        for a in best
    ]
    if len(rest) <= LIST_SIZE * LISTS:
        for part, i in enumerate(range(0, len(rest), LIST_SIZE)):
            chunk = rest[i : i + LIST_SIZE]
            options = [
                discord.SelectOption(label=spot_label(a, gains[a], M.SPOT_OPTION, lang)[:100], value=a.text)
                for a in chunk
            ]
            first, last = cell_name(chunk[0].row, chunk[0].col), cell_name(chunk[-1].row, chunk[-1].col)
            placeholder = translate(lang, M.SPOT_PLACEHOLDER, first=first, last=last)[:150]
            items.append(SpotSelect(rec.id, rec.version, part, options=options, placeholder=placeholder))
    else:
        items.extend(cell_selects(rec, game, d, placements, lang=lang))
    cells = sorted({(a.row, a.col) for a in placements})
    png = await kingdom_png(rec, game, d.kingdom, legal_spots=cells, lang=lang)
    legal = translate(lang, M.LEGAL_CELLS_ALT, cells=", ".join(cell_name(*c) for c in cells))
    dom = domino(d.domino)
    example = best[0]
    legend = translate(
        lang,
        M.SPOT_LEGEND,
        spot=f"{cell_name(example.row, example.col)} {ARROWS[example.direction]}",
        cell=cell_name(example.row, example.col),
        square=square_words(dom.squares[0], lang),
        second=square_words(dom.squares[1], lang),
        direction=direction_word(example.direction, lang),
    )
    return Panel(
        alt=kingdom_alt(rec, game, d.kingdom, lang) + " " + legal,
        content="\n".join([head, translate(lang, M.PICK_SPOT), legend]),
        png=png,
        items=items,
    )


def spot_label(action: Place, gain: int, msgid: str, lang: str) -> str:
    """`E4 → (+3 points)` (SPOT_LABEL) or `E4 → right (+3 points)` (SPOT_OPTION)."""
    return translate(
        lang,
        msgid,
        cell=cell_name(action.row, action.col),
        arrow=ARROWS[action.direction],
        direction=direction_word(action.direction, lang),
        gain=points_words(gain, signed=True, lang=lang),
    )


def cell_selects(rec: GameRecord, game: Game, d, placements: list[Place], *, lang: str) -> list[discord.ui.Item]:
    """Lists of the cells of the first square (when the spots are too many for lists of their own)."""
    dom = domino(d.domino)
    cells = sorted({(a.row, a.col) for a in placements})
    items: list[discord.ui.Item] = []
    for i in range(0, min(len(cells), LIST_SIZE * LISTS), LIST_SIZE):
        chunk = cells[i : i + LIST_SIZE]
        options = []
        for r, c in chunk:
            dirs = ", ".join(direction_word(a.direction, lang) for a in placements if (a.row, a.col) == (r, c))
            options.append(
                discord.SelectOption(
                    label=cell_name(r, c),
                    value=f"{r},{c}",
                    description=translate(lang, M.THEN_DIRECTIONS, directions=dirs)[:100],
                )
            )
        placeholder = translate(
            lang,
            M.CELL_PLACEHOLDER,
            square=square_words(dom.squares[0], lang),
            first=cell_name(*chunk[0]),
            last=cell_name(*chunk[-1]),
        )
        items.append(CellSelect(rec.id, rec.version, i // LIST_SIZE, options=options, placeholder=placeholder[:150]))
    return items


async def direction_panel(
    rec: GameRecord, game: Game, d, head: str, cell: tuple[int, int], placements: list[Place], *, lang: str
) -> Panel:
    """The first square on `cell`: which way the second goes (each way with its score)."""
    player = d.player
    choices = [a for a in placements if (a.row, a.col) == cell]
    if not choices:
        return Panel(f"{head}\n{translate(lang, M.NO_PLACEMENT_FROM, cell=cell_name(*cell))}")
    if len(choices) == 1:
        panel = await preview_panel(rec, player, choices[0], lang=lang)
        only = translate(
            lang, M.ONLY_DIRECTION, cell=cell_name(*cell), direction=direction_word(choices[0].direction, lang)
        )
        panel.content = f"{head}\n{only}\n{panel.content}"
        return panel
    items: list[discord.ui.Item] = []
    for a in choices:
        gain = placement_gain(game, d.kingdom, a)
        label = translate(
            lang,
            M.DIRECTION_LABEL,
            arrow=ARROWS[a.direction],
            direction=direction_word(a.direction, lang),
            gain=points_words(gain, signed=True, lang=lang),
        )
        items.append(DirectionButton(rec.id, rec.version, a, label=label))
    items.append(OpenPanelButton(rec.id, rec.version, label=translate(lang, M.BUTTON_BACK)))
    png = await panel_png(rec, render_placement, game, player, d.domino, cell, lang=lang)
    dom = domino(d.domino)
    which_way = translate(
        lang,
        M.WHICH_WAY,
        square=square_words(dom.squares[0], lang),
        cell=cell_name(*cell),
        second=square_words(dom.squares[1], lang),
    )
    directions = ", ".join(direction_word(a.direction, lang) for a in choices)
    alt = translate(
        lang,
        M.PLACEMENT_ALT,
        domino=game_domino_words(game, d.domino, lang),
        cell=cell_name(*cell),
        directions=directions,
    )
    return Panel(f"{head}\n{which_way}", png, "placement.png", items=items, alt=alt)


async def steps_panel(rec: GameRecord, game: Game, player: str, *, lang: str) -> Panel:
    """The optional steps of the turn (tax, build, dragon), with their picture: the tax's, the dragon's or the
    kingdom, above the dominoes to take next when the panel offers to take one (drawn as one picture)."""
    d = game.decision()
    assert d is not None
    panel = optional_panel(rec, game, player, lang=lang)
    if d.kind == "tax":
        top, panel.filename = "tax", "tax.png"
        choices = ", ".join(
            item.item.label for item in panel.items if isinstance(item, ThroughButton) and isinstance(item.action, Tax)
        )
        panel.alt = translate(lang, M.TAX_ALT, choices=choices)
    elif d.kind == "dragon" or any(isinstance(i, DragonSelect) for i in panel.items):
        top, panel.filename = "dragon", "dragon.png"
        panel.alt = translate(lang, M.DRAGON_ALT)
    else:
        top = "kingdom"
        panel.alt = kingdom_alt(rec, game, d.kingdom, lang)
    takes = [i.action for i in panel.items if isinstance(i, ThroughButton) and isinstance(i.action, Claim)]
    skipped = skip_optional(game, player)[0] if takes else None
    names, colours = names_and_colours(rec)
    panel.png = await pictures.draw(render_steps, top, game, player, d.kingdom, skipped, names, colours, lang=lang)
    if takes and panel.png:  # the dominoes to take next, under the steps' picture
        free = ", ".join(game_domino_words(game, a.domino, lang) for a in takes)
        panel.alt += " " + translate(lang, M.FREE_NEXT_LINE_ALT, free=free)
    return panel


def _tax_buttons(rec: GameRecord, game: Game, kingdom: int, lang: str) -> list[discord.ui.Item]:
    buttons: list[discord.ui.Item] = []
    for a in game.legal_actions():
        if isinstance(a, Tax):
            coins = sum(game.tax_coins(kingdom, c) for c in a.cells)
            if len(a.cells) == 2:
                label = translate_plural(lang, *M.KNIGHTS_ON_BOTH, coins)
            else:
                label = translate_plural(lang, *M.KNIGHT_ON_CELL, coins, cell=cell_name(*a.cells[0]))
            buttons.append(ThroughButton(rec.id, rec.version, a, label=label, style=_PRIMARY))
    return buttons[:5]


def _build_select(rec: GameRecord, build_game: Game, kingdom: int, lang: str) -> BuildSelect | None:
    slots = sorted({a.slot for a in build_game.legal_actions() if isinstance(a, Build)})
    if not slots:
        return None
    options = [
        discord.SelectOption(
            label=translate_plural(
                lang,
                *M.BUILD_OPTION,
                build_game.cost_of(s, kingdom),
                building=building_name(build_game.board[s], lang),  # type: ignore[arg-type]
            )[:100],
            value=str(s),
            description=effect_words(build_game.board[s], lang)[:100],  # type: ignore[arg-type]
        )
        for s in slots
    ]
    return BuildSelect(rec.id, rec.version, options=options, placeholder=translate(lang, M.BUILD_PLACEHOLDER))


def _dragon_select(rec: GameRecord, dragon_game: Game, lang: str) -> DragonSelect | None:
    burns = [a for a in dragon_game.legal_actions() if isinstance(a, BribeDragon)]
    if not burns:
        return None
    options = [
        discord.SelectOption(
            label=translate(
                lang,
                M.BURN_OPTION,
                building=building_name(dragon_game.board[a.slot], lang),  # type: ignore[arg-type]
            )[:100],
            value=str(a.slot),
            description=translate(lang, M.BURN_SLOT, slot=a.slot + 1)[:100],
        )
        for a in burns
    ]
    return DragonSelect(rec.id, rec.version, options=options, placeholder=translate(lang, M.DRAGON_PLACEHOLDER))


def rows_needed(items: list[discord.ui.Item]) -> int:
    """The rows Discord needs for `items` placed as discord.py places them (a list fills a row, 5 buttons a row)."""
    rows: list[int] = []
    for item in items:
        width = 5 if isinstance(item.item, discord.ui.Select) else 1
        free = next((i for i, used in enumerate(rows) if used + width <= 5), None)
        if free is None:
            rows.append(width)
        else:
            rows[free] += width
    return len(rows)


def optional_panel(rec: GameRecord, game: Game, player: str, *, lang: str = "en") -> Panel:
    """Tax, build and dragon on one panel, numbered from 1 in rule order, each skippable; then the next domino to
    take (that skips what is left), or one button to be done with them."""
    d = game.decision()
    assert d is not None
    gid, ver = rec.id, rec.version
    k = game.kingdoms[d.kingdom]
    steps: list[str] = []
    items: list[discord.ui.Item] = []
    if d.kind == "tax":
        items.extend(_tax_buttons(rec, game, d.kingdom, lang))
        steps.append(translate_plural(lang, *M.TAX_STEP, k.knights_reserve))
    build_game = _trial_at(game, player, "build")
    select = _build_select(rec, build_game, d.kingdom, lang) if build_game is not None else None
    if select is not None:
        items.append(select)
        steps.append(translate(lang, M.BUILD_STEP))
    dragon_game = _trial_at(game, player, "dragon")
    select = _dragon_select(rec, dragon_game, lang) if dragon_game is not None else None
    if select is not None:
        items.append(select)
        steps.append(translate(lang, M.DRAGON_STEP))
    lines = [translate_plural(lang, *M.OPTIONAL_HEAD, k.coins)]
    lines += [f"{n}. {step}" for n, step in enumerate(steps, 1)]
    skipped, _ = skip_optional(game, player)
    claims = [a for a in skipped.legal_actions() if isinstance(a, Claim)]
    if same_turn_step(skipped, game, player, "claim") and len(claims) > 1:
        takes = [
            ThroughButton(
                gid, ver, a, label=translate(lang, M.TAKE_DOMINO, domino=game_domino_words(game, a.domino, lang))
            )
            for a in claims
        ]
        if rows_needed([*items, *takes, UndoButton(gid)]) <= 5:
            lines.append(translate(lang, M.STEPS_THEN_TAKE))
            return Panel("\n".join(lines), items=[*items, *takes])
    done = M.DONE_CLAIM if _after_optional(game, player) == "claim" else M.DONE_END
    items.append(ThroughButton(gid, ver, Skip(), label=translate(lang, done), style=discord.ButtonStyle.success))
    return Panel("\n".join(lines), items=items)


async def build_site_panel(rec: GameRecord, player: str, slot: int, *, lang: str = "en") -> Panel:
    """After choosing a building: where to put it."""
    game = rec.game
    assert game is not None
    d = game.decision()
    trial = _trial_at(game, player, "build") if d is not None and d.player == player else None
    if trial is None:
        return Panel(translate(lang, STALE))
    cells = sorted({(a.row, a.col) for a in trial.legal_actions() if isinstance(a, Build) and a.slot == slot})
    if not cells:
        return Panel(translate(lang, M.CANNOT_BUILD_THAT))
    items: list[discord.ui.Item] = [
        ThroughButton(rec.id, rec.version, Build(slot, r, c), label=translate(lang, M.BUILD_ON, cell=cell_name(r, c)))
        for r, c in cells[:23]
    ]
    items.append(OpenPanelButton(rec.id, rec.version, label=translate(lang, M.BUTTON_BACK)))
    png = await kingdom_png(rec, trial, d.kingdom, legal_spots=cells, lang=lang)  # type: ignore[union-attr]
    name = building_words(trial.board[slot], lang)  # type: ignore[arg-type]
    free = translate(lang, M.FREE_TOWN_ALT, cells=", ".join(cell_name(*c) for c in cells))
    return Panel(
        alt=kingdom_alt(rec, trial, d.kingdom, lang) + " " + free,  # type: ignore[union-attr]
        content=translate_plural(lang, *M.BUILD_WHERE, trial.cost_of(slot, d.kingdom), building=name),  # type: ignore[union-attr]
        png=png,
        items=items,
    )


async def show_panel(interaction: discord.Interaction, panel: Panel, *, edit: bool) -> None:
    """Show a panel privately: a new ephemeral message, or in place of the panel clicked."""
    controls = panel.view()
    view = controls or discord.ui.View(timeout=None)  # an empty view takes the old panel's controls off
    # Every control of a panel is a DynamicItem, found again from its custom id on each click: the view needs no
    # listening, so it is stopped before it is sent and discord.py does not keep it. Otherwise it gives an ephemeral
    # message's view a 15-minute timeout task that holds the view and its items for those 15 minutes (thousands of
    # objects per minute of play for every full garbage collection to scan; benchmarks/bench_load.py).
    view.stop()
    if edit:
        await interaction.edit_original_response(content=panel.content, attachments=panel.files(), view=view)
    else:
        kwargs = {"view": view} if controls else {}
        await interaction.followup.send(panel.content, files=panel.files(), ephemeral=True, **kwargs)


async def after_action(
    ctx: Context,
    gid: int,
    *,
    warning: str | None = None,
    done_for_you: list[str] = (),
    computers_wait: float = 0.0,
) -> None:
    """After a move: the next step of the same turn, or a short confirmation; what was done for the player (a
    forced claim) and a warning (the move is saved but something after it failed) head the panel, privately. Undo
    is offered only when it would be done (`GameService.undo_refusal`), with how long computers wait for it."""
    service, lang, player, interaction = ctx.service, ctx.lang, ctx.player, ctx.interaction
    ctx.rec = rec = await service.games.get(gid)
    game = rec.game
    d = game.decision() if game else None
    if d is not None and d.player == player and rec.status == GameStatus.PLAYING:
        panel = await build_panel(rec, player, lang=lang)
    elif warning:
        panel = Panel("")
    else:
        panel = Panel(translate(lang, M.DONE))
    waiting = False
    if len(panel.items) < 23 and await service.undo_refusal(rec, interaction.user.id) is None:
        panel.items.append(UndoButton(gid, label=translate(lang, M.BUTTON_UNDO)))
        waiting = computers_wait > 0 and service.computers.waiting_for_undo(gid)
    if done_for_you:
        panel.content = "\n".join([*(f"ℹ️ {line}" for line in done_for_you), panel.content]).rstrip()
    if warning:
        panel.content = f"⚠️ {warning}\n{panel.content}".rstrip()
    plain = panel.content
    if waiting:
        panel.content = f"{panel.content}\n{translate(lang, M.COMPUTERS_WAIT, seconds=f'{computers_wait:g}')}"
        panel.items.append(PlayOnButton(gid, label=translate(lang, M.BUTTON_PLAY_ON)))
    await show_panel(interaction, panel, edit=True)
    if waiting:

        async def withdraw() -> None:
            await interaction.edit_original_response(content=plain, view=discord.ui.View(timeout=None))

        service.computers.offer_undo(gid, withdraw)


async def do_action(ctx: Context, gid: int, ver: int, action, *, through: bool = False) -> None:
    await ctx.interaction.response.defer()
    result = await ctx.service.play(gid, ctx.user_id, action, expected_version=ver, through_optional=through)
    mine = [said(ctx.lang) for who, said in result.automatic if who == ctx.player]
    await after_action(
        ctx, gid, warning=result.warning_in(ctx.lang), done_for_you=mine, computers_wait=result.computers_wait
    )


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
        ctx = context_of(interaction)
        await guarded(ctx, do_action(ctx, self.gid, self.ver, self.action))


class ThroughButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:go:(?P<gid>\d+):(?P<ver>\d+):(?P<act>.+)"):
    """An optional step of the turn (or "done"): the optional steps before it are skipped, then it is applied."""

    def __init__(self, gid: int, ver: int, action, *, label: str = "OK", style=discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=f"kd:go:{gid}:{ver}:{action.text}"))
        self.gid, self.ver, self.action = gid, ver, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), parse_action(match["act"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        await guarded(ctx, do_action(ctx, self.gid, self.ver, self.action, through=True))


class DirectionButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"kd:dir:(?P<gid>\d+):(?P<ver>\d+):(?P<act>.+)"
):
    """Shows the preview of one placement with Confirm and Back."""

    def __init__(self, gid: int, ver: int, action: Place, *, label: str = "Preview", style=_PRIMARY) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=f"kd:dir:{gid}:{ver}:{action.text}")
        )
        self.gid, self.ver, self.action = gid, ver, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), parse_action(match["act"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            rec = await ctx.service.games.at_version(self.gid, self.ver)
            panel = await preview_panel(rec, ctx.player, self.action, lang=ctx.lang)
            await show_panel(interaction, panel, edit=True)

        await guarded(ctx, work())


class ConfirmThenButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"kd:pc:(?P<gid>\d+):(?P<ver>\d+):(?P<place>place [A-Z]+\d+ [a-z]+):(?P<then>.+)",
):
    """Under a preview: places the domino, then takes the next one (or ends the turn), the optional steps in
    between skipped: one tap for the two moves of a turn."""

    def __init__(self, gid: int, ver: int, place: Place, then, *, label: str = "OK") -> None:
        custom_id = f"kd:pc:{gid}:{ver}:{place.text}:{then.text}"
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.success, custom_id=custom_id))
        self.gid, self.ver, self.place, self.then = gid, ver, place, then

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        place, then = parse_action(match["place"]), parse_action(match["then"])
        return cls(int(match["gid"]), int(match["ver"]), place, then)

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        await guarded(ctx, place_then(ctx, self.gid, self.ver, self.place, self.then))


async def place_then(ctx: Context, gid: int, ver: int, place: Place, then) -> None:
    """The placement, then `then` (a claim, or a skip of the optional steps left) while it is still this turn's
    step of the player: a last free domino their king took at once is not claimed twice."""
    interaction, service, player, lang = ctx.interaction, ctx.service, ctx.player, ctx.lang
    await interaction.response.defer()
    key = turn_key((await service.games.at_version(gid, ver)).game)  # type: ignore[arg-type]
    outcome = await service.play(gid, interaction.user.id, place, expected_version=ver)
    mine = [said(lang) for who, said in outcome.automatic if who == player]
    warning = outcome.warning_in(lang)
    rec, game = outcome.record, outcome.game  # right after the placement: if anything acts before the second
    d = game.decision() if not game.is_over else None  # move is saved, that move is refused as out of date
    wanted = ("claim", *OPTIONAL_STEPS) if isinstance(then, Claim) else OPTIONAL_STEPS
    if warning is None and d is not None and d.player == player and d.kind in wanted and turn_key(game) == key:
        try:
            second = await service.play(
                gid, interaction.user.id, then, expected_version=rec.version, through_optional=True
            )
        except UserError as error:
            warning = translate(lang, M.PLACED_NOT_TAKEN, reason=error.text(lang))
        else:
            mine += [said(lang) for who, said in second.automatic if who == player]
            warning = second.warning_in(lang)
    await after_action(ctx, gid, warning=warning, done_for_you=mine)


class _AtVersionPart:
    """Mixin of the panel's long lists, split in parts: custom id kd:<kind>:<game id>:<version>:<part>."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), int(match["part"]))


class SpotSelect(
    _AtVersionPart,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"kd:spot:(?P<gid>\d+):(?P<ver>\d+):(?P<part>\d+)",
):
    """A list of placements (cell and direction): the one chosen is previewed."""

    def __init__(self, gid: int, ver: int, part: int, *, options=(), placeholder: str = "Spot") -> None:
        super().__init__(_list(f"kd:spot:{gid}:{ver}:{part}", options, placeholder))
        self.gid, self.ver = gid, ver

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            values = (interaction.data or {}).get("values") or []
            try:
                action = parse_action(str(values[0])) if len(values) == 1 else None
            except ValueError:
                action = None
            if not isinstance(action, Place):
                raise UserError(M.PICK_SPOT_LIST)
            rec = await ctx.service.games.at_version(self.gid, self.ver)
            panel = await preview_panel(rec, ctx.player, action, lang=ctx.lang)
            await show_panel(interaction, panel, edit=True)

        await guarded(ctx, work())


def _list(custom_id: str, options, placeholder: str) -> discord.ui.Select:
    """A one-choice list of a panel (a list needs one option even when built again from a custom id)."""
    return discord.ui.Select(
        custom_id=custom_id, options=list(options) or [discord.SelectOption(label="-")], placeholder=placeholder
    )


class _AtVersion:
    """Mixin of the panel's controls whose custom id is kd:<kind>:<game id>:<version>: built again from it."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]))


class CellSelect(
    _AtVersionPart,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"kd:cell:(?P<gid>\d+):(?P<ver>\d+):(?P<part>\d+)",
):
    def __init__(self, gid: int, ver: int, part: int, *, options=(), placeholder: str = "Cell") -> None:
        super().__init__(_list(f"kd:cell:{gid}:{ver}:{part}", options, placeholder))
        self.gid, self.ver = gid, ver

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            values = (interaction.data or {}).get("values") or []
            try:
                r, c = (int(x) for x in str(values[0]).split(","))
            except (IndexError, ValueError):
                raise UserError(M.PICK_CELL_LIST) from None
            await open_cell(ctx, self.gid, self.ver, (r, c))

        await guarded(ctx, work())


async def open_cell(ctx: Context, gid: int, ver: int, cell: tuple[int, int]) -> None:
    rec = await ctx.service.games.at_version(gid, ver)
    panel = await build_panel(rec, ctx.player, cell=cell, lang=ctx.lang)
    await show_panel(ctx.interaction, panel, edit=True)


class CellBackButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"kd:back:(?P<gid>\d+):(?P<ver>\d+):(?P<r>\d+):(?P<c>\d+)"
):
    def __init__(self, gid: int, ver: int, r: int, c: int, *, label: str = "Back") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"kd:back:{gid}:{ver}:{r}:{c}"))
        self.gid, self.ver, self.cell = gid, ver, (r, c)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["ver"]), int(match["r"]), int(match["c"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            await open_cell(ctx, self.gid, self.ver, self.cell)

        await guarded(ctx, work())


class BuildSelect(_AtVersion, discord.ui.DynamicItem[discord.ui.Select], template=r"kd:bsel:(?P<gid>\d+):(?P<ver>\d+)"):
    def __init__(self, gid: int, ver: int, *, options=(), placeholder: str = "Building") -> None:
        super().__init__(_list(f"kd:bsel:{gid}:{ver}", options, placeholder))
        self.gid, self.ver = gid, ver

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            values = (interaction.data or {}).get("values") or []
            if len(values) != 1 or not str(values[0]).isdigit():
                raise UserError(M.PICK_BUILDING_LIST)
            rec = await ctx.service.games.at_version(self.gid, self.ver)
            panel = await build_site_panel(rec, ctx.player, int(values[0]), lang=ctx.lang)
            await show_panel(interaction, panel, edit=True)

        await guarded(ctx, work())


class UndoButton(OfGame, discord.ui.DynamicItem[discord.ui.Button], template=r"kd:undo:(?P<gid>\d+)"):
    """Takes back the person's last action, while nobody acted after it."""

    def __init__(self, gid: int, *, label: str = "Undo my last move") -> None:
        super().__init__(discord.ui.Button(label=label, emoji="↩️", custom_id=f"kd:undo:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            outcome = await ctx.service.undo(self.gid, interaction.user.id)
            await after_undo(ctx, self.gid, outcome.warning_in(ctx.lang))

        await guarded(ctx, work())


class PlayOnButton(OfGame, discord.ui.DynamicItem[discord.ui.Button], template=r"kd:playon:(?P<gid>\d+)"):
    """While the computer players wait for a possible undo: let them play now."""

    def __init__(self, gid: int, *, label: str = "Computers, play now") -> None:
        super().__init__(discord.ui.Button(label=label, emoji="▶️", custom_id=f"kd:playon:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            if not ctx.service.computers.end_wait(self.gid):  # they already play: only the controls go
                await interaction.edit_original_response(view=discord.ui.View(timeout=None))

        await guarded(ctx, work())


async def after_undo(ctx: Context, gid: int, warning: str | None = None) -> None:
    """After an undo: the panel of the decision the person is back at (with the warning when the table could not
    be posted: the undo is done all the same)."""
    ctx.rec = rec = await ctx.service.games.get(gid)
    lang = ctx.lang
    panel = await build_panel(rec, ctx.player, lang=lang)
    said = f"{warning}\n" if warning else ""
    panel.content = f"↩️ {translate(lang, M.TAKEN_BACK)}\n{said}{panel.content}"
    await show_panel(ctx.interaction, panel, edit=True)


class DragonSelect(_AtVersion, discord.ui.DynamicItem[discord.ui.Select], template=r"kd:drg:(?P<gid>\d+):(?P<ver>\d+)"):
    def __init__(self, gid: int, ver: int, *, options=(), placeholder: str = "Dragon") -> None:
        super().__init__(_list(f"kd:drg:{gid}:{ver}", options, placeholder))
        self.gid, self.ver = gid, ver

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1 or not str(values[0]).isdigit():
            await guarded(ctx, _refuse(M.PICK_BURN_LIST))
            return
        action = BribeDragon(int(values[0]))
        await guarded(ctx, do_action(ctx, self.gid, self.ver, action, through=True))


async def _refuse(text: str) -> None:
    raise UserError(text)


class OpenPanelButton(
    _AtVersion, discord.ui.DynamicItem[discord.ui.Button], template=r"kd:panel:(?P<gid>\d+):(?P<ver>\d+)"
):
    """Back to the start of the current decision, in place."""

    def __init__(self, gid: int, ver: int, *, label: str = "Back") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"kd:panel:{gid}:{ver}"))
        self.gid, self.ver = gid, ver

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            rec = await ctx.service.games.at_version(self.gid, self.ver)
            panel = await build_panel(rec, ctx.player, lang=ctx.lang)
            await show_panel(interaction, panel, edit=True)

        await guarded(ctx, work())


class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:turn:(?P<gid>\d+):(?P<key>\d+)"):
    """On the table: opens the private turn panel of the player to act."""

    def __init__(self, gid: int, key: int, *, label: str = "Take my turn") -> None:
        super().__init__(turn_button(gid, key, label=label))
        self.gid, self.key = gid, key

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["key"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            rec = await ctx.service.games.get(self.gid)
            game = rec.game
            if rec.status != GameStatus.PLAYING or game is None:
                raise UserError(M.GAME_OVER_BUTTONS)
            # A newer table exists: this one is stale. (If the bot stopped before posting the newer one, the
            # recorded table is still this message, and it keeps working.)
            if turn_key(game) != self.key and interaction.message and interaction.message.id != rec.table_message_id:
                raise UserError(M.TABLE_OUT_OF_DATE)
            player = ctx.player
            if rec.seat_of(player) is None:
                raise UserError(M.NOT_PLAYING)
            await show_panel(interaction, await build_panel(rec, player, lang=ctx.lang), edit=False)

        await guarded(ctx, work())


class LookButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:look:(?P<gid>\d+):(?P<what>[a-z]+)"):
    """On the table: private looks at the game (works for anyone, at any time)."""

    def __init__(self, gid: int, what: str, *, lang: str = "en") -> None:
        super().__init__(look_button(gid, what, lang=lang))
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            with look_place(ctx, self.what):  # a refusal answers at once, before the game is read
                await interaction.response.defer(ephemeral=True, thinking=True)
                rec = await ctx.service.games.get(self.gid)
                await send_look(ctx, rec, self.what, viewer=interaction.user.id)

        await guarded(ctx, work())


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:hist:(?P<gid>\d+):(?P<page>\d+)"):
    """Under a page of the history: to an older or a newer page, in place."""

    def __init__(self, gid: int, page: int, *, label: str = "Older moves", emoji: str | None = None) -> None:
        super().__init__(history_button(gid, page, label=label, emoji=emoji))
        self.gid, self.page = gid, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            await interaction.response.defer()
            rec = await ctx.service.games.get(self.gid)
            await send_look(ctx, rec, "history", viewer=interaction.user.id, page=self.page, edit=True)

        await guarded(ctx, work())


DYNAMIC_ITEMS = (
    ActionButton,
    ConfirmThenButton,
    SpotSelect,
    UndoButton,
    ThroughButton,
    DragonSelect,
    DirectionButton,
    CellSelect,
    CellBackButton,
    BuildSelect,
    OpenPanelButton,
    TurnButton,
    LookButton,
    HistoryButton,
    PlayOnButton,
)
