"""Every player's score round by round, as a line chart: from the same replay of states as the animated replay.

    history = score_history(config, seed, actions)   # plain numbers: rounds and the score of each kingdom
    png = render_score_chart(config, seed, actions, names, colours)

Lines are in the players' colours and each also has its own marker shape, and carries its name and final score at
its end and in the legend, so colour never carries the meaning alone. Drawn at twice the size and scaled down, 780 px
wide: what a phone shows, every label 14 px or more.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine import GameConfig
from i18n import messages as M
from i18n import translate, translate_plural

from .draw import Draw, encode, player_colours, player_names, text, text_width
from .palette import BACKGROUND, FAINT, MUTED, OUTLINE, PANEL, PANEL_EDGE, RGB, TEXT
from .replay import GAME_TITLES, Step, replay_steps
from .words import game_title, picture_lang

WIDTH = 780
SS = 2  # drawn at twice the size, then reduced: smooth lines
MARKERS = ("circle", "square", "triangle", "diamond", "down", "hexagon", "star", "cross")


@dataclass(frozen=True)
class ScoreHistory:
    """Scores at the start and at the end of every round. `rounds[i]` is (deal, round) of point i (round 0: the
    start of a deal); `scores[k][i]` is kingdom k's score then, Dynasty deals added up. `players[k]` are the
    player ids of kingdom k."""

    game: str
    rounds: tuple[tuple[int, int], ...]
    scores: tuple[tuple[int, ...], ...]
    players: tuple[tuple[str, ...], ...]
    deals: int
    rounds_per_deal: int
    winners: tuple[int, ...]  # kingdom indices; empty while the game goes on

    @property
    def final(self) -> tuple[int, ...]:
        return tuple(s[-1] for s in self.scores)


def history_from_steps(steps: Sequence[Step]) -> ScoreHistory:
    """The scores at each round's end, from `replay_steps`."""
    last: dict[tuple[int, int], Step] = {}
    for s in steps:
        last[(s.deal, s.round)] = s
    # A Dynasty deal's start repeats the previous deal's end (the running total): one point is enough.
    keys = sorted(k for k in last if k[0] == 0 or k[1] > 0)
    points = [last[k] for k in keys]
    game = steps[-1].game
    kingdoms = len(game.kingdoms)
    winners = game.result().winner_kingdoms if game.is_over else ()
    return ScoreHistory(
        game=game.config.game,
        rounds=tuple(keys),
        scores=tuple(tuple(p.totals[i] for p in points) for i in range(kingdoms)),
        players=tuple(k.players for k in game.kingdoms),
        deals=game.config.deals,
        rounds_per_deal=game.setup.rounds,
        winners=tuple(winners),
    )


def score_history(config: GameConfig | Mapping[str, Any], seed: int, actions: Sequence[Any]) -> ScoreHistory:
    """Replay the game (see `render.replay.replay_steps` for the arguments) and keep the scores round by round."""
    return history_from_steps(replay_steps(config, seed, actions))


# -- drawing ---------------------------------------------------------------------------------------------------------
def _marker(draw: Draw, shape: str, x: float, y: float, r: float, fill: RGB) -> None:
    def poly(points: list[tuple[float, float]]) -> None:
        draw.polygon([(x + px * r, y + py * r) for px, py in points], fill=fill, outline=OUTLINE, width=SS)

    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=OUTLINE, width=SS)
    elif shape == "square":
        poly([(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)])
    elif shape == "triangle":
        poly([(0, -1.15), (1.05, 0.8), (-1.05, 0.8)])
    elif shape == "down":
        poly([(0, 1.15), (1.05, -0.8), (-1.05, -0.8)])
    elif shape == "diamond":
        poly([(0, -1.2), (1.1, 0), (0, 1.2), (-1.1, 0)])
    elif shape == "hexagon":
        poly([(math.cos(a), math.sin(a)) for a in (math.pi / 3 * i + math.pi / 6 for i in range(6))])
    elif shape == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = 1.25 if i % 2 == 0 else 0.55
            pts.append((rr * math.cos(a), rr * math.sin(a)))
        poly(pts)
    else:  # cross
        t = 0.38
        poly(
            [(-t, -1), (t, -1), (t, -t), (1, -t), (1, t), (t, t), (t, 1), (-t, 1), (-t, t), (-1, t), (-1, -t), (-t, -t)]
        )


def _nice_step(top: int, ticks: int = 5) -> int:
    raw = max(1, top) / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * magnitude:
            return int(m * magnitude)
    return int(10 * magnitude)  # pragma: no cover


def _spread(ys: list[float], gap: float, low: float, high: float) -> list[float]:
    """Move label centres apart (keeping their order) so that no two are closer than `gap`, within [low, high]."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [ys[i] for i in order]
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed = [y - overflow for y in placed]
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    placed = [max(low, y) for y in placed]
    result = [0.0] * len(ys)
    for i, y in zip(order, placed, strict=True):
        result[i] = y
    return result


@dataclass(frozen=True)
class _Plot:
    """The chart being drawn (at SS times its size) and its plot box, in unscaled pixels."""

    draw: Draw
    history: ScoreHistory
    lang: str
    colours: list[RGB]  # per kingdom
    x0: float
    x1: float
    y0: float
    y1: float
    ymax: int
    step: int  # between two lines of the grid

    @property
    def points(self) -> int:
        return len(self.history.rounds)

    def write(self, x: float, y: float, value: str, size: int, **kw: Any) -> float:
        s = SS
        return text(self.draw, (x * s, y * s), value, size * s, **kw) / s

    def x_of(self, i: int) -> float:
        return self.x0 + (self.x1 - self.x0) * (i / max(1, self.points - 1))

    def y_of(self, v: float) -> float:
        return self.y1 - (self.y1 - self.y0) * (v / self.ymax)


def draw_chart(
    history: ScoreHistory, names: Mapping[str, str], colours: Mapping[str, RGB], lang: str = "en"
) -> Image.Image:
    """The chart as a picture (names and colours complete: see render.draw.player_names / player_colours), its
    words in `lang`."""
    lang = picture_lang(lang)
    s = SS
    kingdoms = len(history.scores)
    labels = [" & ".join(names[p] for p in players) for players in history.players]
    legend_cols = 1 if kingdoms <= 2 or max(text_width(lb, 17, True) for lb in labels) > 250 else 2
    legend_rows = -(-kingdoms // legend_cols)
    legend_h = 16 + legend_rows * 32
    plot_h = 400
    top_h = 78
    height = top_h + plot_h + 56 + legend_h + 12
    im = Image.new("RGB", (WIDTH * s, height * s), BACKGROUND)
    # The plot box; the right margin holds each line's final score.
    end_w = max(text_width(str(v), 17, True) for v in history.final) + 22
    top = max(1, max(max(series) for series in history.scores))
    step = _nice_step(top)
    ymax = step * math.ceil(top / step)
    if ymax == top:
        ymax += step if top > 0 else 0
    plot = _Plot(
        draw=Draw(im),
        history=history,
        lang=lang,
        colours=[colours[players[0]] for players in history.players],
        x0=62,
        x1=WIDTH - 20 - end_w,
        y0=top_h + 10,
        y1=top_h + plot_h,
        ymax=ymax,
        step=step,
    )
    _draw_chart_title(plot)
    _draw_axes(plot)
    _draw_series(plot)
    _draw_chart_legend(plot, labels, legend_cols)
    return im.reduce(s)


# Translators: Drawn on the score chart (/look chart): its title and subtitle. {kingdoms}, {rounds}, {games}: the
# counts in words ('4 kingdoms', '12 rounds', '3 games added up').
def _draw_chart_title(plot: _Plot) -> None:
    """The title, and the game with its kingdoms, rounds and (Dynasty) games."""
    history, lang = plot.history, plot.lang
    s = SS
    title = game_title(lang, GAME_TITLES.get(history.game, history.game), history.game)
    plot.write(20, 34, translate(lang, "Scores round by round"), 26, bold=True, anchor="ls", max_width=(WIDTH - 40) * s)
    kingdom_words = translate_plural(lang, "{n} kingdom", "{n} kingdoms", len(history.scores))
    round_words = translate_plural(lang, "{n} round", "{n} rounds", history.rounds_per_deal)
    if history.deals > 1:
        games = translate_plural(lang, "{n} game added up", "{n} games added up", history.deals)
        sub = translate(lang, "{game}: {kingdoms}, {rounds}, {games}", game=title, kingdoms=kingdom_words,
                        rounds=round_words, games=games)  # fmt: skip
    else:
        sub = translate(lang, "{game}: {kingdoms}, {rounds}", game=title, kingdoms=kingdom_words, rounds=round_words)
    plot.write(20, 62, sub, 17, fill=MUTED, anchor="ls", max_width=(WIDTH - 40) * s)


def _draw_axes(plot: _Plot) -> None:
    """The plot box with a line per score step; a tick per round, labelled as often as there is room; new deals get
    a line of their own."""
    draw, history, lang = plot.draw, plot.history, plot.lang
    s, x0, x1, y0, y1 = SS, plot.x0, plot.x1, plot.y0, plot.y1
    draw.rectangle((x0 * s, y0 * s, x1 * s, y1 * s), fill=PANEL)
    for v in range(0, plot.ymax + 1, plot.step):
        y = plot.y_of(v)
        draw.line((x0 * s, y * s, x1 * s, y * s), fill=PANEL_EDGE, width=s)
        plot.write(x0 - 8, y, str(v), 15, fill=MUTED, anchor="rm")
    points = plot.points
    every = max(1, math.ceil(points / 16))
    for i, (deal, rnd) in enumerate(history.rounds):
        x = plot.x_of(i)
        draw.line((x * s, y1 * s, x * s, (y1 + 5) * s), fill=MUTED, width=s)
        if i and deal != history.rounds[i - 1][0]:
            xd = (x + plot.x_of(i - 1)) / 2
            draw.line((xd * s, y0 * s, xd * s, y1 * s), fill=FAINT, width=s)
            plot.write(xd + 4, y0 + 18, translate(lang, M.PIC_GAME_N, number=deal + 1), 15, fill=MUTED, anchor="ls")
        if i % every == 0 or i == points - 1:
            plot.write(x, y1 + 22, str(rnd), 15, fill=MUTED, anchor="ms")
    # Translators: Drawn on the score chart: the horizontal axis's name.
    axis = translate(lang, "Round") if history.deals == 1 else translate(lang, "Round of each game")
    plot.write((x0 + x1) / 2, y1 + 46, axis, 16, bold=True, fill=MUTED, anchor="ms", max_width=(x1 - x0) * s)


def _draw_series(plot: _Plot) -> None:
    """The lines (the winners' last, on top), then the markers, then the final scores at the lines' ends, moved apart
    where they meet."""
    draw, history, colours = plot.draw, plot.history, plot.colours
    s, final, x_of, y_of = SS, history.final, plot.x_of, plot.y_of
    kingdoms = len(history.scores)
    order = sorted(range(kingdoms), key=lambda k: (k in history.winners, final[k]))
    for k in order:
        pts = [(x_of(i) * s, y_of(v) * s) for i, v in enumerate(history.scores[k])]
        if len(pts) > 1:
            draw.line(pts, fill=OUTLINE, width=7 * s, joint="curve")
            draw.line(pts, fill=colours[k], width=4 * s, joint="curve")
    radius = 6 if plot.points <= 26 else 4
    for k in order:
        for i, v in enumerate(history.scores[k]):
            _marker(draw, MARKERS[k % len(MARKERS)], x_of(i) * s, y_of(v) * s, radius * s, colours[k])
    ends = _spread([y_of(v) for v in final], 20, plot.y0 + 8, plot.y1 - 8)
    for k in range(kingdoms):
        ex = x_of(plot.points - 1)
        draw.line((ex * s, y_of(final[k]) * s, (plot.x1 + 8) * s, ends[k] * s), fill=colours[k], width=s)
        plot.write(plot.x1 + 12, ends[k], str(final[k]), 17, bold=True, fill=colours[k], anchor="lm")


def _draw_chart_legend(plot: _Plot, labels: list[str], legend_cols: int) -> None:
    """Below the plot, per kingdom: marker, name, final score; the winner first."""
    draw, history, colours = plot.draw, plot.history, plot.colours
    s, final = SS, history.final
    ly = plot.y1 + 62
    col_w = (WIDTH - 40) // legend_cols
    ranked = sorted(range(len(history.scores)), key=lambda k: (k not in history.winners, -final[k], k))
    for n, k in enumerate(ranked):
        cx = 20 + (n % legend_cols) * col_w
        cy = ly + (n // legend_cols) * 32 + 14
        draw.line(((cx + 2) * s, cy * s, (cx + 34) * s, cy * s), fill=colours[k], width=4 * s)
        _marker(draw, MARKERS[k % len(MARKERS)], (cx + 18) * s, cy * s, 7 * s, colours[k])
        # Translators: Drawn in the score chart's legend: the winner's final score.
        score = translate(plot.lang, "{score} (winner)", score=final[k]) if k in history.winners else str(final[k])
        score_w = text_width(score, 17 * s, False) / s
        plot.write(cx + 44, cy, labels[k], 17, bold=True, fill=TEXT, anchor="lm", max_width=(col_w - 64 - score_w) * s)
        plot.write(cx + col_w - 12, cy, score, 17, fill=TEXT, anchor="rm")


def render_score_chart(
    config: GameConfig | Mapping[str, Any],
    seed: int,
    actions: Sequence[Any],
    names: Mapping[str, str] | None = None,
    colours: Mapping[str, RGB] | None = None,
    *,
    lang: str = "en",
) -> bytes:
    """Every kingdom's score round by round as PNG bytes, 780 px wide; arguments as for `render_replay`, words in
    `lang`."""
    steps = replay_steps(config, seed, actions)
    return render_history(history_from_steps(steps), names, colours, steps[-1].game, lang=lang)


def render_history(history: ScoreHistory, names, colours, game, *, lang: str = "en") -> bytes:
    """The chart of a history already computed (`game`: any state of that game, for default names and colours)."""
    return encode(draw_chart(history, player_names(game, names, lang), player_colours(game, colours), lang))


__all__ = ["ScoreHistory", "history_from_steps", "render_history", "render_score_chart", "score_history"]
