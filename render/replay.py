"""A game's replay: every turn rebuilt with the engine from the seed and the action log, drawn as an animated GIF.

    data, filename = render_replay(config, seed, actions, names, colours)   # GIF bytes, "replay.gif"
    steps = replay_steps(config, seed, actions)                            # the states turn by turn (chart, alt text)

Everything in and out is plain data (a `GameConfig` or its dict, an int, a list of `(player, action)` pairs with
the action an engine `Action` or its dict, dicts of names and colours; bytes out), so it runs as well in a worker
thread or process. Nothing here reads the clock, the disk (fonts aside) or a global random.

Why GIF: every Discord client plays it inline, old phone apps included, and so does any place a replay is saved or
shared; APNG attachments show as a still there, and animated WebP only plays in recent clients. It also wins on
cost here: these pictures are flat colours, so one shared palette of 255 colours loses nothing visible, and each
frame stores only what changed since the one before (the rest is the transparent colour). Measured on a Royal
Wedding game in teams (96 frames, 780x904): GIF 0.7 MB in 2 s; lossless WebP 0.65 MB in 28 s (method 4) or 6.3 MB
in 6 s (method 0); lossy WebP 1.9 MB in 15 s, blurred letters. See benchmarks/bench_replay.py for the figures.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine import FIRST_CLAIM, Action, Game, GameConfig, Place, action_from_dict, domino
from engine.components import building
from i18n import translate, translate_plural

from . import icons, tiles
from .draw import Draw, player_colours, player_names, text
from .palette import (
    BACKGROUND,
    EMPTY_CELL,
    EMPTY_EDGE,
    GOLD,
    MUTED,
    OUTLINE,
    PANEL,
    PANEL_EDGE,
    RGB,
    TEXT,
    mix,
)
from .words import and_list, domino_label, game_title, picture_lang

WIDTH = 780  # what a phone shows: the replay is drawn at that size, so nothing is scaled down
PAD = 12
HEADER_H = 76
PROGRESS_H = 6
NAME_H = 34
LABEL = 13  # coordinate labels
LABEL_MARGIN = 18
MAX_HEIGHT = 1150
MAX_CELL = 60  # larger cells would only make the picture taller: kingdoms side by side read better
FILE_NAME = "replay.gif"
JUST_PLACED: RGB = (255, 255, 255)
GAME_TITLES = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal-wedding": "Royal Wedding"}

# Timing: the whole game in about TARGET_MS, each turn shown between the bounds; the start and the end linger.
TARGET_MS = 24_000
TURN_MS = (250, 800)
FIRST_MS = 1_500
LAST_MS = 6_000


# -- the states, turn by turn ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """The game just after one turn (or at the start: `player` None). `game` is a snapshot: do not apply to it.

    `totals` are the scores per kingdom, Dynasty games added up (`game.match_totals()`), and `deal`/`round` say
    where the turn was played (`round` 0 at the start). `domino` is the domino of that turn, `cells` where it went
    (None when it was discarded: `discarded` True)."""

    game: Game
    deal: int
    round: int
    player: str | None
    kingdom: int | None
    domino: str | None
    cells: tuple[tuple[int, int], tuple[int, int]] | None
    discarded: bool
    totals: tuple[int, ...]
    final: bool = False


def _config(config: GameConfig | Mapping[str, Any]) -> GameConfig:
    return config if isinstance(config, GameConfig) else GameConfig.from_dict(dict(config))


def _actions(actions: Sequence[Any]) -> list[tuple[str, Action]]:
    """(player, Action) pairs from pairs whose action may be a dict, or from the state's log dicts (`by` + action)."""
    result = []
    for entry in actions:
        if isinstance(entry, Mapping):
            result.append((str(entry["by"]), action_from_dict(dict(entry))))
            continue
        player, action = entry
        result.append((str(player), action if not isinstance(action, Mapping) else action_from_dict(dict(action))))
    return result


def _end_of_deal(before: Game, player: str, action: Action) -> Game:
    """The state a Dynasty deal ended in. The engine starts the next deal within the action that ends one, so this
    applies the same action to a copy that believes it is the last deal: the kingdoms stay as they ended."""
    state = before.to_dict()
    state["config"] = {**state["config"], "variants": [v for v in state["config"]["variants"] if v != "dynasty"]}
    game = Game.from_dict(state)
    game.apply(action, by=player)
    return game


def replay_steps(config: GameConfig | Mapping[str, Any], seed: int, actions: Sequence[Any]) -> list[Step]:
    """Rebuild the game from `seed` and `actions` and return its state at the start and after every turn.

    A turn is one king's: placing (or discarding) a domino and, with Queendomino rules, tax, build and dragon, then
    claiming. Claims of the first line change no kingdom and give no step. Raises the engine's IllegalAction when
    the log does not fit the game."""
    cfg = _config(config)
    game = Game.new(cfg, int(seed))
    steps = [Step(game.clone(), 0, 0, None, None, None, None, False, tuple(game.match_totals()))]
    turn_info: dict[str, Any] | None = None
    for player, action in _actions(actions):
        d = game.decision()
        key = (game.deal, game.round, game.turn)
        if d is not None and d.kind != FIRST_CLAIM and turn_info is None:
            turn_info = {
                "deal": game.deal,
                "round": game.round,
                "player": d.player,
                "kingdom": d.kingdom,
                "domino": game.current_line[game.turn][0],
                "cells": None,
            }
        before = game.clone() if d is not None and d.kind != FIRST_CLAIM and cfg.deals > 1 else None
        game.apply(action, by=player)
        if turn_info is not None and isinstance(action, Place):
            turn_info["cells"] = action.placement.cells
        if turn_info is None or (not game.is_over and (game.deal, game.round, game.turn) == key):
            continue
        if game.deal != turn_info["deal"]:
            assert before is not None
            shown = _end_of_deal(before, player, action)
            totals = tuple(sum(t[i] for t in shown.deal_totals) for i in range(len(shown.kingdoms)))
        else:
            shown = game.clone()
            totals = tuple(game.match_totals()) if not game.is_over else tuple(game.result().totals)
        # Turns the engine plays by itself at the end (forced discards) end the last round: its step carries it.
        ended = game.is_over or game.deal != turn_info["deal"]
        steps.append(
            Step(
                shown,
                turn_info["deal"],
                shown.round if ended else turn_info["round"],
                turn_info["player"],
                turn_info["kingdom"],
                turn_info["domino"],
                turn_info["cells"],
                turn_info["cells"] is None,
                totals,
                game.is_over,
            )
        )
        turn_info = None
        if game.deal != steps[-1].deal and not game.is_over:  # a new deal starts from the castles
            steps.append(Step(game.clone(), game.deal, 0, None, None, None, None, False, tuple(game.match_totals())))
    return steps


# -- drawing ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayLayout:
    width: int
    height: int
    columns: int
    cell: int
    panels: tuple[tuple[int, int, int, int], ...]  # x0, y0, x1, y1 of each kingdom's panel
    size: int  # cells across a kingdom (5 or 7)

    def grid_origin(self, index: int) -> tuple[int, int]:
        """The pixel (x, y) of the top-left corner of kingdom `index`'s first drawn cell."""
        x0, y0, x1, _ = self.panels[index]
        return x0 + (x1 - x0 - self.size * self.cell - LABEL_MARGIN) // 2 + LABEL_MARGIN, y0 + NAME_H + LABEL_MARGIN

    def cell_box(self, index: int, window: tuple[int, int], row: int, col: int) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1), ends exclusive, of cell (row, col) of kingdom `index` drawn from `window`."""
        gx, gy = self.grid_origin(index)
        x, y = gx + (col - window[1]) * self.cell, gy + (row - window[0]) * self.cell
        return x, y, x + self.cell, y + self.cell


def _panel_height(cell: int, size: int) -> int:
    return NAME_H + LABEL_MARGIN + size * cell + PAD


def replay_layout(kingdoms: int, size: int) -> ReplayLayout:
    """The largest cells that fit the phone width (up to MAX_CELL, within MAX_HEIGHT), in the fewest rows."""
    best: ReplayLayout | None = None
    for columns in range(min(4, kingdoms), 0, -1):
        rows = -(-kingdoms // columns)
        panel_w = (WIDTH - PAD * (columns + 1)) // columns
        cell = (panel_w - LABEL_MARGIN - 2 * PAD) // size
        # Height bounds the cell too.
        while cell > 16 and HEADER_H + PROGRESS_H + rows * (_panel_height(cell, size) + PAD) + PAD > MAX_HEIGHT:
            cell -= 1
        cell = min(cell, MAX_CELL)
        if best is None or cell > best.cell:  # equal cells: the fewer rows (tried first) win
            panel_h = _panel_height(cell, size)
            top = HEADER_H + PROGRESS_H + PAD
            panels = tuple(
                (
                    PAD + (i % columns) * (panel_w + PAD),
                    top + (i // columns) * (panel_h + PAD),
                    PAD + (i % columns) * (panel_w + PAD) + panel_w,
                    top + (i // columns) * (panel_h + PAD) + panel_h,
                )
                for i in range(kingdoms)
            )
            best = ReplayLayout(WIDTH, top + rows * (panel_h + PAD), columns, cell, panels, size)
    assert best is not None
    return best


def replay_windows(steps: list[Step]) -> dict[tuple[int, int], tuple[int, int]]:
    """Per (deal, kingdom): the top-left cell of the size x size window drawn, the same for the whole deal, so the
    castle does not move while the kingdom grows. It holds the kingdom as it ends, centred where there is room."""
    last: dict[int, Step] = {}
    for s in steps:
        last[s.deal] = s
    windows = {}
    for deal, s in last.items():
        for i, k in enumerate(s.game.kingdoms):
            top, left, bottom, right = k.bounds()
            size, n = k.size, k.n
            r0 = min(max(0, top - (size - (bottom - top + 1)) // 2), n - size)
            c0 = min(max(0, left - (size - (right - left + 1)) // 2), n - size)
            windows[(deal, i)] = (r0, c0)
    return windows


def _castle(size: int, colour: RGB) -> Image.Image:
    im = Image.new("RGB", (size, size), mix(colour, (30, 30, 36), 0.55))
    draw = Draw(im)
    draw.rectangle((0, 0, size - 1, size - 1), outline=colour, width=max(2, size // 14))
    s = round(size * 0.74)
    icons.paste(im, "castle", (size - s) / 2, (size - s) / 2, s, colour)
    return im


def _draw_kingdom(
    im: Image.Image, draw: Draw, step: Step, index: int, layout: ReplayLayout, window, colour: RGB, name: str
) -> None:
    game = step.game
    k = game.kingdoms[index]
    cell = layout.cell
    x0, y0, x1, y1 = layout.panels[index]
    active = step.kingdom == index and not step.final
    draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=10, fill=PANEL, outline=colour if active else PANEL_EDGE,
                           width=3 if active else 1)  # fmt: skip
    # Name and score: a colour chip, then the name, the score on the right.
    cy = y0 + NAME_H // 2 + 2
    draw.rounded_rectangle((x0 + 10, cy - 8, x0 + 26, cy + 8), radius=4, fill=colour, outline=OUTLINE)
    score = str(step.totals[index])
    score_w = text(draw, (x1 - 12, cy), score, 20, bold=True, fill=GOLD, anchor="rm")
    text(draw, (x0 + 34, cy), name, 17, bold=True, anchor="lm", max_width=x1 - x0 - 56 - score_w)
    # The grid, with the game's own coordinates.
    r0, c0 = window
    size = k.size
    gx, gy = layout.grid_origin(index)
    for c in range(size):
        text(draw, (gx + c * cell + cell / 2, gy - 4), chr(ord("A") + c0 + c), LABEL, bold=True, fill=MUTED,
             anchor="ms")  # fmt: skip
    for r in range(size):
        text(draw, (gx - 4, gy + r * cell + cell / 2), str(r0 + r + 1), LABEL, bold=True, fill=MUTED, anchor="rm")
    empty = tiles.empty_tile(cell, EMPTY_CELL, EMPTY_EDGE)
    for r in range(size):
        for c in range(size):
            row, col = r0 + r, c0 + c
            xy = (gx + c * cell, gy + r * cell)
            if k.is_castle(row, col):
                im.paste(_castle(cell, colour), xy)
                continue
            sq = k.square(row, col)
            if sq is None:
                im.paste(empty, xy)
            else:
                im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, cell, (row, col) not in k.buildings), xy)

    def cell_box(row: int, col: int) -> tuple[int, int, int, int]:
        return layout.cell_box(index, window, row, col)

    edge = max(1, cell // 22)
    for _, (a, b) in k.placed:
        bx0, by0, _, _ = cell_box(min(a[0], b[0]), min(a[1], b[1]))
        _, _, bx1, by1 = cell_box(max(a[0], b[0]), max(a[1], b[1]))
        draw.rectangle((bx0, by0, bx1 - 1, by1 - 1), outline=OUTLINE, width=edge)
    for (r, c), (bid, towers) in k.buildings.items():
        bx0, by0, _, _ = cell_box(r, c)
        s = round(cell * 0.56)
        icons.paste(im, "building", bx0 + (cell - s) / 2, by0 + cell * 0.22, s)
        small = max(8, round(cell * 0.3))
        if towers:
            for i in range(min(towers, 2)):
                icons.paste(im, "tower", bx0 + 2 + i * small * 0.7, by0 + 2, small)
            if towers > 2:
                text(draw, (bx0 + 2 + small * 2, by0 + 2), str(towers), max(9, small - 2), bold=True)
        else:
            for i in range(building(bid).crowns):
                icons.paste(im, "crown", bx0 + 2 + i * small, by0 + 2, small)
    for r, c in k.knights_placed:
        _, by0, bx1, _ = cell_box(r, c)
        s = round(cell * 0.42)
        icons.paste(im, "knight", bx1 - s - 1, by0 + 1, s, colour)
    if game.queen == index:  # beside the castle's flag: where she scores is the score sheet's business
        bx0, by0, _, _ = cell_box(*k.castle)
        s = round(cell * 0.45)
        icons.paste(im, "queen", bx0 + cell - s, by0 + cell - s, s)
    if active and step.cells is not None:
        (ra, ca), (rb, cb) = step.cells
        bx0, by0, _, _ = cell_box(min(ra, rb), min(ca, cb))
        _, _, bx1, by1 = cell_box(max(ra, rb), max(ca, cb))
        # White with a dark edge, inside the cells: it stands out on every terrain and next to every player's
        # colour (a yellow player's border included), and the coordinates around the grid stay readable.
        w = max(3, cell // 12)
        draw.rectangle((bx0, by0, bx1 - 1, by1 - 1), outline=OUTLINE, width=w + 2)
        draw.rectangle((bx0 + 1, by0 + 1, bx1 - 2, by1 - 2), outline=JUST_PLACED, width=w)


# Translators: Drawn on each frame of the animated replay (/look replay): its title line and a caption under it.
# {number}: a domino's number.
def _caption(step: Step, names: Mapping[str, str], game_name: str, deals: int, lang: str = "en") -> tuple[str, str]:
    """(left title, the line under it) for a frame, in `lang`: one whole sentence per case."""
    game = step.game
    setup = game.setup
    dynasty = {"deal": step.deal + 1, "deals": deals}
    if step.final:
        winners = game.result().winner_kingdoms
        who = and_list(lang, [" & ".join(names[p] for p in game.kingdoms[i].players) for i in winners])
        points = step.totals[winners[0]]
        if len(winners) > 1 or len(game.kingdoms[winners[0]].players) > 1:
            line = translate_plural(
                lang, "{names} win with {n} point", "{names} win with {n} points", points, names=who
            )
        else:
            line = translate_plural(lang, "{names} wins with {n} point", "{names} wins with {n} points", points,
                                    names=who)  # fmt: skip
        return translate(lang, "{game} · final scores", game=game_name), line
    if step.player is None:
        if deals == 1:
            title = translate(lang, "{game} · the start", game=game_name)
        else:
            title = translate(lang, "{game} · game {deal} of {deals} · the start", game=game_name, **dynasty)
        return title, translate(lang, "Every kingdom starts from its castle")
    if deals == 1:
        title = translate(lang, "{game} · round {round} of {rounds}", game=game_name, round=step.round,
                          rounds=setup.rounds)  # fmt: skip
    else:
        title = translate(lang, "{game} · game {deal} of {deals} · round {round} of {rounds}", game=game_name,
                          round=step.round, rounds=setup.rounds, **dynasty)  # fmt: skip
    d = domino(step.domino) if step.domino else None
    name = names[step.player]
    if d is None:
        if step.discarded:
            return title, translate(lang, "{name} discarded a domino", name=name)
        return title, translate(lang, "{name} placed a domino", name=name)
    number = domino_label(game.config.game, d.id)
    if step.discarded:
        return title, translate(lang, "{name} discarded domino {number}", name=name, number=number)
    return title, translate(lang, "{name} placed domino {number}", name=name, number=number)


def _panel_key(step: Step, index: int) -> tuple:
    """Everything a kingdom's panel shows: two steps with the same key draw the same panel."""
    k = step.game.kingdoms[index]
    active = step.kingdom == index and not step.final
    return (
        step.deal,
        len(k.placed),
        tuple(sorted((cell, b[0], b[1]) for cell, b in k.buildings.items())),
        len(k.knights_placed),
        step.game.queen == index,
        step.totals[index],
        active,
        step.cells if active else None,
    )


def _frame(
    step: Step,
    layout: ReplayLayout,
    windows,
    names,
    colours,
    game_name: str,
    deals: int,
    progress: float,
    panels: dict[int, tuple[tuple, Image.Image]] | None = None,
    lang: str = "en",
) -> Image.Image:
    """Frame of `step`. With `panels` (kingdom index -> (key, picture)), a panel unchanged since the last frame
    drawn is pasted from there instead of drawn again: a turn changes one or two kingdoms."""
    im = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    draw = Draw(im)
    title, line = _caption(step, names, game_name, deals, lang)
    text(draw, (PAD + 4, 30), title, 24, bold=True, anchor="ls", max_width=WIDTH - 2 * PAD)
    text(draw, (PAD + 4, 62), line, 20, fill=GOLD if step.final else TEXT, anchor="ls", max_width=WIDTH - 2 * PAD)
    y = HEADER_H
    draw.rectangle((PAD, y, WIDTH - PAD - 1, y + PROGRESS_H - 1), fill=PANEL_EDGE)
    done = round((WIDTH - 2 * PAD) * progress)
    if done:
        draw.rectangle((PAD, y, PAD + done - 1, y + PROGRESS_H - 1), fill=GOLD)
    game = step.game
    for i, k in enumerate(game.kingdoms):
        box = layout.panels[i]
        key = _panel_key(step, i)
        if panels is not None and i in panels and panels[i][0] == key:
            im.paste(panels[i][1], box[:2])
            continue
        name = " & ".join(names[p] for p in k.players)
        colour = colours[k.players[0]]
        _draw_kingdom(im, draw, step, i, layout, windows[(step.deal, i)], colour, name)
        if panels is not None:
            panels[i] = (key, im.crop(box))
    return im


def _durations(count: int) -> list[int]:
    turn = max(TURN_MS[0], min(TURN_MS[1], TARGET_MS // max(1, count - 2)))
    turn -= turn % 10  # GIF counts in hundredths of a second
    return [FIRST_MS] + [turn] * (count - 2) + [LAST_MS] if count > 1 else [LAST_MS]


def _encode_gif(draw_frame: Callable[[int], Image.Image], count: int, durations: list[int]) -> bytes:
    """One palette for every frame (255 colours and a transparent one), taken from the first frame, the last one and
    the one before it (which has a turn's highlights): Pillow then stores each frame as the box that changed, with
    the unchanged pixels transparent, which compresses to almost nothing. Frames are drawn one at a time and kept
    in 256 colours only, a third of the memory of full colour."""
    samples = {i: draw_frame(i) for i in sorted({0, max(0, count - 2), count - 1})}
    width, height = samples[0].size
    sheet = Image.new("RGB", (width, height * len(samples)))
    for n, frame in enumerate(samples.values()):
        sheet.paste(frame, (0, n * height))
    palette = sheet.quantize(255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    indexed = []
    for i in range(count):
        frame = samples.pop(i) if i in samples else draw_frame(i)
        indexed.append(frame.quantize(palette=palette, dither=Image.Dither.NONE))
    out = io.BytesIO()
    indexed[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()


def frame_drawer(
    steps: Sequence[Step],
    names: Mapping[str, str] | None = None,
    colours: Mapping[str, RGB] | None = None,
    *,
    lang: str = "en",
) -> Callable[[int], Image.Image]:
    """A function drawing frame `i` of the replay of `steps` (from `replay_steps`) as a full-colour picture: the
    same frames `render_replay` encodes, for a still of any turn. It keeps the last picture of each kingdom's panel,
    so drawing the frames in order redraws only what a turn changed. Not for several threads at once. Words in
    `lang`."""
    lang = picture_lang(lang)
    game = steps[0].game
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    layout = replay_layout(len(game.kingdoms), game.setup.kingdom_size)
    windows = replay_windows(list(steps))
    title = game_title(lang, GAME_TITLES[game.config.game], game.config.game)
    count = len(steps)
    panels: dict[int, tuple[tuple, Image.Image]] = {}

    def draw_frame(i: int) -> Image.Image:
        progress = i / (count - 1) if count > 1 else 1.0
        return _frame(steps[i], layout, windows, names, colours, title, game.config.deals, progress, panels, lang)

    return draw_frame


def render_replay(
    config: GameConfig | Mapping[str, Any],
    seed: int,
    actions: Sequence[Any],
    names: Mapping[str, str] | None = None,
    colours: Mapping[str, RGB] | None = None,
    *,
    lang: str = "en",
) -> tuple[bytes, str]:
    """The whole game as an animated GIF, one frame per turn, 780 px wide: (GIF bytes, file name `replay.gif`).

    `actions` is the log: `(player, action)` pairs (an engine Action or its dict), or the dicts of
    `Game.to_dict()["log"]`. Each frame shows every kingdom with its name, colour and score, the domino just placed
    outlined; the last frame gives the winner. Loops forever, about 25 seconds for a whole game. Names and colours
    as for `render_table` (player id -> display name, player id -> RGB; missing ones get the defaults). The
    captions are in `lang`."""
    steps = replay_steps(config, seed, actions)
    count = len(steps)
    return _encode_gif(frame_drawer(steps, names, colours, lang=lang), count, _durations(count)), FILE_NAME


__all__ = [
    "FILE_NAME",
    "ReplayLayout",
    "Step",
    "frame_drawer",
    "render_replay",
    "replay_layout",
    "replay_steps",
    "replay_windows",
]
