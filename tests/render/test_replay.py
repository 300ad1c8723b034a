"""The replay: the states turn by turn from the seed and the log, and the animated GIF drawn from them."""

from __future__ import annotations

import io
import itertools
import pickle
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest
from PIL import Image, ImageChops

from engine import Game, IllegalAction, Skip
from render.palette import TERRAIN_COLOURS
from render.replay import (
    FILE_NAME,
    WIDTH,
    frame_drawer,
    render_replay,
    replay_layout,
    replay_steps,
    replay_windows,
)

from .helpers import MODES, _log, config, mode_id, names_for, near

SEED = 5


def _frames(data: bytes) -> list[tuple[Image.Image, int]]:
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    frames = []
    for i in range(im.n_frames):
        im.seek(i)
        frames.append((im.convert("RGB"), im.info.get("duration", 0)))
    return frames


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_steps_follow_the_game_turn_by_turn(mode):
    cfg = config(*mode)
    log = list(_log(cfg, SEED))
    steps = replay_steps(cfg, SEED, log)
    final = Game.replay(cfg, SEED, log)
    assert steps[0].player is None and steps[0].round == 0
    assert steps[-1].final and not any(s.final for s in steps[:-1])
    assert steps[-1].totals == final.result().totals
    assert steps[-1].game.to_dict()["kingdoms"] == final.to_dict()["kingdoms"]
    for before, after in itertools.pairwise(steps):
        if after.player is None:  # a new Dynasty deal starts from the castles
            assert after.deal == before.deal + 1
            assert all(len(k.placed) == 0 for k in after.game.kingdoms)
            continue
        assert after.deal == before.deal and after.round >= before.round
        k = after.game.kingdoms[after.kingdom]
        assert after.player in k.players
        if after.discarded:
            assert after.domino in k.discarded
        else:
            assert (after.domino, after.cells) in k.placed
        # One turn adds at most one domino to one kingdom (automatic discards at the very end aside).
        grown = [len(a.placed) - len(b.placed) for a, b in zip(after.game.kingdoms, before.game.kingdoms, strict=True)]
        assert sum(grown) <= 1 and all(g >= 0 for g in grown)


def test_dynasty_deals_are_shown_as_they_ended():
    cfg = config("kingdomino", 4, False, ("dynasty",))
    log = list(_log(cfg, SEED))
    steps = replay_steps(cfg, SEED, log)
    final = Game.replay(cfg, SEED, log)
    ends = [s for i, s in enumerate(steps) if i + 1 == len(steps) or steps[i + 1].deal != s.deal]
    assert [s.deal for s in ends] == [0, 1, 2]
    totals = [0] * 4
    for deal, s in enumerate(ends):
        # Every kingdom has all 12 dominoes of its deal, placed or discarded, and the totals add the deals up.
        assert all(len(k.placed) + len(k.discarded) == 12 for k in s.game.kingdoms)
        totals = [t + d for t, d in zip(totals, final.deal_totals[deal], strict=True)]
        assert list(s.totals) == totals


@pytest.mark.parametrize(
    "mode", [m for m in MODES if m[:2] in (("kingdomino", 2), ("queendomino", 2), ("royal-wedding", 8))], ids=mode_id
)
def test_replay_is_an_animated_gif_of_every_turn(mode):
    cfg = config(*mode)
    log = list(_log(cfg, SEED))
    steps = replay_steps(cfg, SEED, log)
    data, name = render_replay(cfg, SEED, log, names_for(Game.new(cfg, SEED)))
    assert name == FILE_NAME == "replay.gif"
    assert len(data) < 2 * 1024 * 1024  # Discord takes 8 MB (10 MB now); stay far below
    frames = _frames(data)
    assert len(frames) == len(steps)
    assert Image.open(io.BytesIO(data)).info.get("loop") == 0
    assert all(f.size == frames[0][0].size and f.width == WIDTH for f, _ in frames)
    durations = [d for _, d in frames]
    assert durations[0] > durations[1] and durations[-1] == max(durations)
    assert 10_000 <= sum(durations) <= 40_000
    # Every square of the last frame shows its terrain's colour in its middle (patterns leave it clear).
    last = frames[-1][0]
    game = steps[-1].game
    layout = replay_layout(len(game.kingdoms), game.setup.kingdom_size)
    windows = replay_windows(steps)
    checked = 0
    for i, k in enumerate(game.kingdoms):
        for _, cells in k.placed:
            for r, c in cells:
                if (r, c) in k.buildings:
                    continue
                x0, y0, x1, y1 = layout.cell_box(i, windows[(steps[-1].deal, i)], r, c)
                assert near(
                    last.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)), TERRAIN_COLOURS[k.square(r, c).terrain], 12
                )
                checked += 1
    assert checked > 10
    # A middle frame differs from the one before it only around the turn's kingdom, the caption and the progress bar.
    mid = len(steps) // 2
    step = steps[mid]
    if step.kingdom is not None:
        diff = ImageChops.difference(frames[mid][0], frames[mid - 1][0]).getbbox()
        assert diff is not None
        panel = layout.panels[step.kingdom]
        assert diff[2] <= WIDTH and diff[3] <= max(panel[3], layout.panels[steps[mid - 1].kingdom or 0][3]) + 1


def test_plain_data_in_the_same_picture_out():
    cfg = config("kingdomino", 2)
    log = list(_log(cfg, SEED))
    as_objects = render_replay(cfg, SEED, log)
    as_data = render_replay(cfg.to_dict(), SEED, [{"by": p, **a.to_dict()} for p, a in log])
    as_pairs = render_replay(cfg.to_dict(), SEED, [(p, a.to_dict()) for p, a in log])
    assert as_objects == as_data == as_pairs
    assert pickle.loads(pickle.dumps((cfg.to_dict(), SEED, [(p, a.to_dict()) for p, a in log]))) is not None


def _in_worker(args):
    data, name = render_replay(*args)
    return len(data), name


def test_runs_in_a_worker_process():
    cfg = config("kingdomino", 2)
    args = (cfg.to_dict(), SEED, [(p, a.to_dict()) for p, a in _log(cfg, SEED)], {"p1": "Ann"}, {"p1": (10, 200, 30)})
    with ProcessPoolExecutor(1, mp_context=get_context("fork")) as pool:
        size, name = pool.submit(_in_worker, args).result(timeout=60)
    assert (size, name) == (len(render_replay(*args)[0]), "replay.gif")


def test_a_game_in_progress_and_a_game_not_started():
    cfg = config("queendomino", 3)
    log = list(_log(cfg, SEED))
    steps = replay_steps(cfg, SEED, log[: len(log) // 2])
    assert not steps[-1].final
    data, _ = render_replay(cfg, SEED, log[: len(log) // 2])
    assert len(_frames(data)) == len(steps)
    data, _ = render_replay(cfg, SEED, [])
    assert len(_frames(data)) == 1


def test_a_log_that_does_not_fit_the_game_is_refused():
    cfg = config("kingdomino", 2)
    log = list(_log(cfg, SEED))
    with pytest.raises(IllegalAction):
        replay_steps(cfg, SEED, [*log[:4], ("p1", Skip())])


def test_the_gif_frames_are_the_drawn_frames():
    cfg = config("kingdomino", 4, False, ("dynasty",))
    log = list(_log(cfg, SEED))[:200]  # into the second deal
    steps = replay_steps(cfg, SEED, log)
    data, _ = render_replay(cfg, SEED, log)
    draw = frame_drawer(steps)
    kept = {}
    for i, (got, _) in enumerate(_frames(data)):
        drawn = draw(i)
        # One shared palette of 255 colours: anti-aliased edges may move a little, nothing else.
        diff = ImageChops.difference(got, drawn).convert("L").point(lambda v: 255 if v > 16 else 0)
        assert diff.histogram()[255] < 400, f"frame {i}"
        if i in (3, len(steps) // 2, len(steps) - 1):
            kept[i] = drawn
    # Drawn in order, unchanged panels are pasted from the frame before; drawn alone, all from scratch: the same.
    for i, drawn in kept.items():
        assert ImageChops.difference(frame_drawer(steps)(i), drawn).getbbox() is None
    ends = [i for i in range(len(steps) - 1) if steps[i + 1].deal != steps[i].deal]
    assert ends and all(steps[i].round == cfg.setup.rounds for i in ends)


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_every_mode_draws_its_first_rounds(mode):
    cfg = config(*mode)
    log = list(_log(cfg, SEED))
    part = log[: len(log) // 4]
    data, _ = render_replay(cfg, SEED, part, names_for(Game.new(cfg, SEED)))
    frames = _frames(data)
    assert len(frames) == len(replay_steps(cfg, SEED, part))
    assert frames[0][0].width == WIDTH and frames[0][0].height <= 1150
