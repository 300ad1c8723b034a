"""The board's view of a game: what the engine says is legal, the points the engine's scoring gives, and nothing
the players may not know (the dominoes to come, the buildings' stack)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.views import placement_gain as panel_gain
from db.models import GameRecord, GameStatus, Seat
from engine import Game, GameConfig, action_from_dict
from engine.actions import Place
from web import auth
from web.view import game_view

MODES = [
    ("kingdomino", 2, False),
    ("kingdomino", 4, False),
    ("queendomino", 3, False),
    ("royal-wedding", 6, True),
]


def record(game: Game, seats: tuple[Seat, ...]) -> GameRecord:
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    return GameRecord(
        id=1, guild_id=None, channel_id=1, host_user_id=1, kind=game.config.game, status=GameStatus.PLAYING,
        version=len(game.log), seed=game.seed, seats=seats, table_channel_id=None, table_message_id=None,
        reminder_hours=None, deadline_hours=None, next_reminder_at=None, deadline_at=None, created_at=now,
        updated_at=now, started_at=now, ended_at=None, table_version=None, end_reason=None,
        config=game.config.to_dict(), state=None, game=game,
    )  # fmt: skip


def position(mode: int, seed: int, steps: int) -> tuple[Game, tuple[Seat, ...]]:
    kind, players, teams = MODES[mode]
    ids = [str(100 + i) for i in range(players)]
    pairs = tuple(tuple(ids[i : i + 2]) for i in range(0, players, 2)) if teams else None
    game = Game.new(GameConfig(kind, tuple(ids), frozenset(), pairs), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    seats = tuple(Seat.human(int(p), f"P{p}") for p in ids)
    return game, seats


@settings(max_examples=40)
@given(mode=st.integers(0, len(MODES) - 1), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_the_actions_offered_are_the_engines_and_the_points_its_scoring(mode, seed, steps):
    game, seats = position(mode, seed, steps)
    d = game.decision()
    viewer = (int(d.player),) if d else ()
    view = game_view(record(game, seats), viewer, "en")
    text = json.dumps(view)
    # Nothing secret: no domino still to come, no building of the stack (unless also on the board now).
    shown = {dom for line in (game.current_line, game.next_line) for dom, _ in line}
    for line in game.lines_to_come:
        for dom in line:
            if dom not in shown:
                assert f'"{dom}"' not in text
    for building in set(game.stack) - set(game.board) - {b for k in game.kingdoms for b, _ in k.buildings.values()}:
        assert f'"{building}"' not in text
    if d is None:
        assert view["turn"] is None and view["final"]
        return
    actions = view["actions"]
    legal = [a.to_dict() for a in game.legal_actions()]
    if d.kind == "place":
        offered = [{"type": "place", "cell": [p["row"], p["col"]], "direction": p["dir"]} for p in actions["place"]]
        assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, legal))
        for p in actions["place"]:
            action = Place(p["row"], p["col"], p["dir"])
            assert p["gain"] == panel_gain(game, d.kingdom, action), "the Discord panel's figure, by another path"
    elif d.kind in ("claim", "first_claim"):
        assert sorted(actions["claim"]) == sorted(a["domino"] for a in legal)
    else:
        # Every action offered for this step or a later step of the turn is legal after skipping up to it.
        for kind, items in (("tax", actions["tax"]), ("build", actions["build"]), ("dragon", actions["dragon"])):
            for item in items:
                body = {"tax": lambda i: {"type": "tax", "cells": i["cells"]},
                        "build": lambda i: {"type": "build", "slot": i["slot"], "cell": [i["row"], i["col"]]},
                        "dragon": lambda i: {"type": "dragon", "slot": i}}[kind](item)  # fmt: skip
                from cogs.decide import skip_optional

                trial, _ = skip_optional(game, d.player, kind)
                trial.apply(action_from_dict(body), by=d.player)
        assert d.kind not in ("tax",) or actions["tax"], "a tax step offers its squares"


def test_signed_cookies_and_links():
    secret = auth.new_secret()
    session = auth.Session((5, 2**60))
    assert auth.Session.read(secret, session.cookie(secret)).users == (5, 2**60)
    assert auth.Session.read(b"y" * 32, session.cookie(secret)).users == ()  # another secret
    token = session.cookie(secret)
    body, mac = token.split(".")
    assert auth.Session.read(secret, body[:-2] + "AA." + mac).users == ()  # tampered
    assert auth.Session.read(secret, session.cookie(secret, now=0)).users == ()  # expired
    link = auth.link_token(secret, 77, 3)
    assert auth.read_link(secret, link) == (77, 3)
    assert auth.read_link(secret, auth.link_token(secret, 77, 3, seconds=-1)) is None
    assert auth.read_link(secret, session.cookie(secret)) is None  # a cookie is not a link
    # A person who came through links acts in those games only; a local person in any.
    linked = auth.Session().with_user(9, 4)
    assert linked.for_game(4) == (9,) and linked.for_game(5) == ()
    both = auth.Session.read(secret, linked.with_user(9, 5).with_user(3).cookie(secret))
    assert both.for_game(5) == (9, 3) and both.for_game(4) == (9, 3) and both.for_game(6) == (3,)


@settings(max_examples=25)
@given(
    mode=st.integers(0, len(MODES) - 1), seed=st.integers(0, 10_000), steps=st.integers(1, 100), more=st.integers(0, 6)
)
def test_the_recent_events_follow_the_game_as_a_replay_tells_them(mode, seed, steps, more):
    import asyncio

    from web.snapshots import Snapshot, Snapshots
    from web.view import recent_events

    before, seats = position(mode, seed, steps)
    after, _ = position(mode, seed, steps + more)
    snap = Snapshot(0, record(before, seats), recent_events(before))
    grown = asyncio.run(Snapshots._events(record(after, seats), snap))
    replayed = recent_events(after)
    tail = min(len(grown), len(replayed), 6)
    assert grown[len(grown) - tail :] == replayed[len(replayed) - tail :]


@settings(max_examples=25)
@given(
    mode=st.integers(0, len(MODES) - 1),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 150),
    lang=st.sampled_from(["en", "cs", "es", "ro"]),
)
def test_the_log_shows_the_last_lines_of_the_events_kept(mode, seed, steps, lang):
    """The board's log: the last LOG_LINES lines of all the events the board keeps (up to three times as many),
    worded from the newest back (`log_lines`) as wording them all and keeping the last would."""
    from cogs.words import event_lines
    from web.view import LOG_LINES, log_lines, plain, recent_events

    game, seats = position(mode, seed, steps)
    rec = record(game, seats)
    events = recent_events(game, 3 * LOG_LINES)
    every = [plain(line) for line in event_lines(events, seats, game, lang)]
    assert log_lines(events, rec, lang) == every[-LOG_LINES:]
    assert len(log_lines(events, rec, lang)) == min(LOG_LINES, len(every))
    # Discord's words, as the page's text: no markdown, and the crowns are the board's ♛, one for each 👑
    said = event_lines(events, seats, game, lang)
    assert not any("👑" in line or "**" in line for line in every)
    assert [line.count("♛") for line in every] == [line.count("👑") + line.count("♛") for line in said]
