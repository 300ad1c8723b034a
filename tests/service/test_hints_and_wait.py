"""Issue 46 at the door: a table opened with hints keeps the option once it starts, and such a game is not rated;
the computer players' wait for a possible undo is announced (the boards show a countdown), says when they play, and
ends at once when someone lets them play now (as Discord's "Computers, play now")."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

from cogs.look import leaderboard_games
from db.models import FinishedGame, FinishedSeat, GameStatus, Seat
from db.ratings import compute_ratings
from tests.service.test_door import ANN, BOB, lobby


async def test_a_table_opened_with_hints_keeps_them_once_it_starts(service):
    rec = await lobby(service, seats=2, hints=True)
    await service.join(rec.id, BOB)
    started = (await service.start_table(rec.id, ANN.user_id)).record
    assert started.status == GameStatus.PLAYING and started.config.get("hints") is True


def finished(game_id: int, hints: bool, ann_won: bool) -> FinishedGame:
    seats = (
        FinishedSeat("11", 11, None, "Ann", None, 40 if ann_won else 30, ann_won),
        FinishedSeat("12", 12, None, "Bob", None, 30 if ann_won else 40, not ann_won),
    )
    config = {"game": "kingdomino", "players": ["11", "12"], "variants": [], **({"hints": True} if hints else {})}
    return FinishedGame(game_id, "kingdomino", datetime(2026, 1, game_id, tzinfo=UTC), config, seats)


def test_a_game_played_with_hints_is_not_rated():
    honest = [finished(1, False, True), finished(2, False, False)]
    helped = [finished(3, True, True), finished(4, True, True), finished(5, True, True)]
    assert compute_ratings(leaderboard_games([*honest, *helped])) == compute_ratings(leaderboard_games(honest))
    rows = compute_ratings(leaderboard_games([*honest, *helped]))["kingdomino"]
    assert {row.player: row.games for row in rows} == {"11": 2, "12": 2}


async def test_the_computers_wait_is_announced_and_ends_when_asked(service, heard):
    service.computer_delay = 60.0  # long: only "play now" (or an undo) ends it in this test
    rec = await service.open_table(
        channel_id=900, guild_id=None, host=ANN, kind="kingdomino", options={"seats": 2, "variants": []},
        seats=[Seat.human(ANN.user_id, ANN.name, "#e91e63"), Seat.computer(1, "random", "Bot 1", "#2196f3")],
    )  # fmt: skip
    await service.start_table(rec.id, ANN.user_id)
    await service.idle()
    while True:  # Ann plays until her move leaves the computer to answer, with Undo possible
        rec = await service.games.get(rec.id)
        d = rec.game.decision()
        assert d.player == str(ANN.user_id)
        heard.clear()
        before = time.time()
        action = rec.game.legal_actions()[0]
        await service.play(rec.id, ANN.user_id, action, expected_version=rec.version)
        if service.waiting(rec.id) is not None:
            break
        await service.idle()
    wait = service.waiting(rec.id)
    assert wait["seconds"] == 60.0 and before * 1000 + 59_000 <= wait["until"] <= time.time() * 1000 + 60_001
    assert "wait" in heard.kinds(rec.id), "the boards hear that the computers wait"
    assert await service.undo_refusal(await service.games.get(rec.id), ANN.user_id) is None
    version = (await service.games.get(rec.id)).version
    heard.clear()
    assert service.play_now(rec.id) is True
    await asyncio.wait_for(service.idle(), 30)
    assert service.waiting(rec.id) is None and service.play_now(rec.id) is False
    assert heard.kinds(rec.id)[0] == "wait", "the wait's end is announced before the computer's move"
    assert (await service.games.get(rec.id)).version > version, "the computer played at once"
