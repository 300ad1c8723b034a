"""The commit path on its own (issue 43): every writer of a game (a person's move and the claims it forces, a
computer's move, the deadline's, an undo, the start, the lobby, a cancel, forgetting a person, deleting a game)
saves with the version check and announces its change once; every refusal says why and leaves the game, and the
listeners, exactly as they were."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.commit import Commits
from cogs.decide import BY_DEADLINE, MADE_BY, STALE, Result, utcnow
from cogs.games import Games
from cogs.words import UserError
from db.models import GameStatus, Seat, new_former_player_id
from db.sqlite import SqliteGameStore
from engine import action_from_dict
from engine.ai import make_agent
from tests.service.conftest import Heard

ANN, BOB = Seat.human(11, "Ann", "#e91e63"), Seat.human(12, "Bob", "#2196f3")


@pytest.fixture
async def commits() -> AsyncIterator[Commits]:
    store = await SqliteGameStore.open(":memory:", synchronous="NORMAL")
    try:
        yield Commits(Games(store), utcnow)
    finally:
        await store.close()


async def started(commits: Commits, *seats: Seat, kind: str = "kingdomino", seed: int = 5) -> Result:
    rec = await commits.open_lobby(
        channel_id=700 + seed, guild_id=1, host_user_id=11, kind=kind, config={"seats": len(seats)},
        seats=list(seats[:1]), seed=seed,
    )  # fmt: skip
    for seat in seats[1:]:
        rec = await commits.join(rec, seat)
    return await commits.start(rec)


def person_to_act(result: Result) -> Seat:
    return result.record.seat_of(result.game.decision().player)


async def unchanged(commits: Commits, heard: Heard, game_id: int, call, words: str) -> None:
    """`call()` is refused saying `words`; the game is as before and nothing was announced."""
    before = await commits.games.get(game_id)
    heard.clear()
    with pytest.raises(UserError) as refusal:
        await call()
    assert words in refusal.value.text("en"), refusal.value.text("en")
    after = await commits.games.get(game_id)
    assert (after.version, after.game.to_dict() if after.game else None) == (
        before.version,
        before.game.to_dict() if before.game else None,
    )
    assert heard.kinds(game_id) == [], "a refusal announces nothing"


async def test_every_refusal_of_a_move_says_why_and_changes_nothing(commits):
    heard = Heard()
    commits.listeners.append(heard)
    result = await started(commits, ANN, BOB)
    gid, game = result.record.id, result.game
    mover = person_to_act(result)
    other = BOB if mover.user_id == ANN.user_id else ANN
    action = game.legal_actions()[0]
    version = result.version

    def play(user, act=action, expected=version):
        return commits.play(gid, user, act, expected_version=expected, through_optional=False)

    await unchanged(commits, heard, gid, lambda: play(other.user_id), "turn")
    await unchanged(commits, heard, gid, lambda: play(99), "not playing in this game")
    await unchanged(commits, heard, gid, lambda: play(mover.user_id, expected=version - 1), "changed since")
    illegal = action_from_dict({"type": "claim", "domino": "K99"})
    await unchanged(commits, heard, gid, lambda: play(mover.user_id, act=illegal), "")
    await unchanged(commits, heard, gid, lambda: commits.undo(gid, mover.user_id), "no move to take back")
    await commits.cancel(gid, by=11)
    await unchanged(commits, heard, gid, lambda: play(mover.user_id), "not being played any more")


async def test_each_writer_saves_once_and_is_announced_once(commits):
    heard = Heard()
    commits.listeners.append(heard)
    cpu = Seat.computer(1, "easy", "Bot 1 (easy)", "#4caf50")
    result = await started(commits, ANN, cpu)
    gid = result.record.id
    assert heard.kinds(gid)[:3] == ["lobby", "lobby", "start"]
    # The computer's move, at the version it thought at; at an older one it is not saved (None: look again).
    while (seat := person_to_act(result)).is_computer:
        action = make_agent("easy", seed=1).choose(result.game.clone())
        heard.clear()
        saved = await commits.computer_move(gid, result.version, seat.player_id, action)
        assert saved is not None and saved.version == result.version + 1
        assert [c.kind for c in heard.changes] == ["move"] and heard.changes[0].version == saved.version
        assert await commits.computer_move(gid, result.version, seat.player_id, action) is None, "stale: not saved"
        fresh = await commits.games.get(gid)
        result = Result(fresh, fresh.game)
    # A person's move, then taking it back: each announced, the undo at the version it restored.
    heard.clear()
    person = person_to_act(result)
    moved = await commits.play(
        gid, person.user_id, result.game.legal_actions()[0], expected_version=result.version, through_optional=False
    )
    moves = [c for c in heard.changes if c.kind == "move"]
    assert [c.version for c in moves] == list(range(result.version + 1, moved.version + 1))
    assert all(c.by == person.user_id for c in moves[:1])
    heard.clear()
    undone, _ = await commits.undo(gid, person.user_id)
    assert [c.kind for c in heard.changes] == ["undo"] and heard.changes[0].version == undone.version
    assert undone.game.to_dict() == result.game.to_dict(), "the game as it was before the move"


async def test_the_deadline_plays_the_absent_persons_turn_marked_as_its_own(commits):
    result = await started(commits, ANN, BOB, seed=9)
    absent = person_to_act(result)

    async def choose(game):
        return make_agent("easy", seed=3).choose(game.clone())

    done = await commits.deadline_turn(result.record, result.game, absent.player_id, choose)
    assert done is not None and done.version > result.version
    actions = await commits.store.get_actions(result.record.id)
    assert actions[-1].action[MADE_BY] == BY_DEADLINE and actions[-1].user_id is None
    assert person_to_act(done) != absent or done.game.turn != result.game.turn


async def test_forgetting_a_person_in_play_gives_their_seat_to_a_computer_and_deleting_a_game_is_heard(commits):
    heard = Heard()
    commits.listeners.append(heard)
    result = await started(commits, ANN, BOB, seed=3)
    gid = result.record.id
    heard.clear()
    after = await commits.forget(result.record, BOB.user_id, former_id=new_former_player_id(), level="medium")
    assert after is not None and not any(s.user_id == BOB.user_id for s in after.record.seats)
    assert any(s.is_computer for s in after.record.seats)
    assert [c.kind for c in heard.changes] == ["seat"]
    heard.clear()
    assert await commits.delete(gid)
    assert [c.kind for c in heard.changes] == ["deleted"]
    with pytest.raises(UserError):
        await commits.games.get(gid)


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), kind=st.sampled_from(["kingdomino", "queendomino"]))
def test_any_game_saved_through_the_commit_path_replays_from_its_announcements(seed, kind):
    """Whole games of two people making random legal moves (and random stale or foreign attempts): the moves the
    listeners heard, in order, are exactly the store's log, and replay to its state."""
    import asyncio

    from engine import Game

    async def run() -> None:
        store = await SqliteGameStore.open(":memory:", synchronous="NORMAL")
        commits = Commits(Games(store), utcnow)
        heard = Heard()
        commits.listeners.append(heard)
        rng = random.Random(seed)
        try:
            result = await started(commits, ANN, BOB, kind=kind, seed=seed % 97)
            while not result.game.is_over:
                mover = person_to_act(result)
                if rng.random() < 0.1:  # a stale attempt: refused, nothing heard
                    before = len(heard.changes)
                    with pytest.raises(UserError) as refusal:
                        await commits.play(
                            result.record.id, mover.user_id, rng.choice(result.game.legal_actions()),
                            expected_version=result.version - 1, through_optional=False,
                        )  # fmt: skip
                    assert refusal.value.message == STALE and len(heard.changes) == before
                result = await commits.play(
                    result.record.id, mover.user_id, rng.choice(result.game.legal_actions()),
                    expected_version=result.version, through_optional=False,
                )  # fmt: skip
            final = await commits.games.get(result.record.id)
            assert final.status == GameStatus.FINISHED
            moves = [c for c in heard.changes if c.kind == "move"]
            log = await store.get_actions(final.id)
            assert [c.version for c in moves] == list(range(moves[0].version, final.version + 1))
            assert len(moves) == len(log)
            replay = Game.new(final.game.config, final.game.seed)
            for record in log:
                replay.apply(action_from_dict(record.action), by=record.player_id)
            assert replay.to_dict() == final.game.to_dict()
        finally:
            await store.close()

    asyncio.run(run())
