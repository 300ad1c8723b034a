"""The score chart: the numbers round by round from the replay, and a picture a phone can read."""

from __future__ import annotations

import pytest
from PIL import Image

from engine import Game
from render.chart import WIDTH, draw_chart, history_from_steps, render_score_chart, score_history
from render.draw import player_colours, player_names
from render.replay import replay_steps

from .helpers import MODES, _log, config, mode_id, names_for, near, open_png

SEED = 9


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_history_has_a_point_per_round(mode):
    cfg = config(*mode)
    log = list(_log(cfg, SEED))
    history = score_history(cfg, SEED, log)
    final = Game.replay(cfg, SEED, log)
    rounds = final.setup.rounds
    deals = cfg.deals
    assert len(history.rounds) == deals * rounds + 1
    assert history.rounds[0] == (0, 0) and history.rounds[-1] == (deals - 1, rounds)
    assert history.final == final.result().totals
    assert history.winners == final.result().winner_kingdoms
    assert len(history.scores) == len(final.kingdoms)
    assert all(len(series) == len(history.rounds) for series in history.scores)
    if cfg.game == "kingdomino" and not cfg.variants:  # squares are only ever added: the score never falls
        assert all(list(series) == sorted(series) for series in history.scores)


def test_history_matches_the_scores_at_each_round_end():
    cfg = config("queendomino", 2)
    log = list(_log(cfg, SEED))
    steps = replay_steps(cfg, SEED, log)
    history = history_from_steps(steps)
    # Replaying the log up to the last turn of round r gives the chart's point for round r.
    for (_, rnd), *points in zip(history.rounds, *history.scores, strict=True):
        if rnd in (0, cfg.setup.rounds):
            continue
        later = next(i for i, s in enumerate(steps) if s.round > rnd)
        assert tuple(points) == steps[later - 1].totals


@pytest.mark.parametrize("players", [2, 8])
def test_chart_is_phone_sized_with_every_colour(players):
    mode = ("kingdomino", 2, False, ()) if players == 2 else ("royal-wedding", 8, True, ())
    cfg = config(*mode)
    log = list(_log(cfg, SEED))
    game = Game.new(cfg, SEED)
    png = render_score_chart(cfg, SEED, log, names_for(game))
    im = open_png(png).convert("RGB")
    assert im.width == WIDTH and 400 <= im.height <= 1000
    assert len(png) < 200_000
    colours = player_colours(game, None)
    present = {c for _, c in im.getcolors(1 << 20)}
    for k in game.kingdoms:
        want = colours[k.players[0]]
        assert any(near(c, want, 6) for c in present), f"no line in {want}"


def test_a_dynasty_chart_adds_the_games_up_and_stays_readable():
    cfg = config("kingdomino", 4, False, ("dynasty",))
    log = list(_log(cfg, SEED))
    history = score_history(cfg, SEED, log)
    assert history.deals == 3 and len(history.rounds) == 37
    # Within a deal's points the running total starts where the last deal ended.
    final = Game.replay(cfg, SEED, log)
    first_deal_end = history.rounds.index((0, 12))
    assert [s[first_deal_end] for s in history.scores] == final.deal_totals[0]
    game = Game.new(cfg, SEED)
    im = draw_chart(history, player_names(game, None), player_colours(game, None))
    assert isinstance(im, Image.Image) and im.width == WIDTH
