"""The lobby's door (issue 43): every lobby operation through `GameService`, under the game's hold, saved through the
commit path, announced to the listeners (the presenter shows it: here a recording `Tables`), and every refusal
saying what is wrong while the game stays exactly as it was."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.lobbydoor import Person
from cogs.service import GameService
from cogs.words import UserError
from db.models import GameStatus, Seat
from engine.ai import make_agent

ANN, BOB, CEC, DAN = Person(11, "Ann"), Person(12, "Bob"), Person(13, "Cec"), Person(14, "Dan")
CHANNEL = 500


async def lobby(service: GameService, *, kind: str = "kingdomino", seats: int = 3, teams: bool = False, **options):
    return await service.open_table(
        channel_id=CHANNEL,
        guild_id=1,
        host=ANN,
        kind=kind,
        options={"seats": seats, "variants": [], "teams": teams, **options},
        seats=[Seat.human(ANN.user_id, ANN.name, "#e91e63")],
    )


async def refused(service: GameService, game_id: int, call, words: str) -> None:
    """`call()` is refused with a sentence containing `words`, and the game is exactly as before."""
    before = await service.games.get(game_id)
    with pytest.raises(UserError) as refusal:
        await call()
    assert words in refusal.value.text("en"), refusal.value.text("en")
    after = await service.games.get(game_id)
    assert (after.version, after.seats, after.status, after.host_user_id) == (
        before.version,
        before.seats,
        before.status,
        before.host_user_id,
    )


async def test_a_lobby_from_open_to_start_through_the_door(service, heard):
    rec = await lobby(service)
    shown = service.tables
    assert shown.lobbies == [(rec.id, rec.version, "lobby")] and rec.table_message_id == 20_000 + rec.id
    change = await service.join(rec.id, BOB)
    assert change.said("en") == "You joined the table." and change.record.seat_of("12").display_name == "Bob"
    change = await service.add_computer(rec.id, ANN.user_id, "easy")
    cpu = next(s for s in change.record.seats if s.is_computer)
    assert cpu.cpu_level == "easy" and change.said("en") == f"{cpu.display_name} joined the table."
    change = await service.set_computer_level(rec.id, ANN.user_id, cpu.player_id, "hard")
    assert change.record.seat_of(cpu.player_id).cpu_level == "hard" and "hard level" in change.said("en")
    assert change.record.seat_of(cpu.player_id).display_name == "Bot 1 (hard)"
    change = await service.start_table(rec.id, ANN.user_id)
    assert change.started is not None and change.record.status == GameStatus.PLAYING
    assert change.said("en") == "The game has started."
    await service.idle()
    # Every change was heard, in order, each inside the hold's busy/settled: the lobby's, the start, the moves.
    kinds = heard.kinds(rec.id)
    assert kinds[:5] == ["lobby", "lobby", "lobby", "lobby", "start"], kinds
    everything = heard.kinds(rec.id, saved_only=False)
    depth = 0
    for kind in everything:
        depth += {"busy": 1, "settled": -1}.get(kind, 0)
        assert depth >= 0 and (kind in ("busy", "settled") or depth == 1 or kinds[0] == "lobby")
    # The presenter showed each lobby change on its message (in order of the versions) and posted the first table.
    versions = [v for gid, v, _ in shown.lobbies if gid == rec.id]
    assert versions == sorted(versions) and shown.lobbies[-1][2] == "playing"
    assert shown.tables and shown.tables[0][0] == rec.id


async def test_every_refusal_of_the_lobby_says_why_and_changes_nothing(service):
    rec = await lobby(service, seats=2)
    gid = rec.id
    await refused(service, gid, lambda: service.join(gid, ANN), "already have a seat")
    await refused(service, gid, lambda: service.add_computer(gid, BOB.user_id, "easy"), "Only the host")
    await refused(service, gid, lambda: service.add_computer(gid, ANN.user_id, "grandmaster"), "easy, medium, hard")
    await refused(service, gid, lambda: service.remove_computer(gid, ANN.user_id), "no computer player")
    await refused(service, gid, lambda: service.leave(gid, BOB), "no seat")
    await refused(service, gid, lambda: service.start_table(gid, BOB.user_id), "Only the host (<@11>)")
    await refused(service, gid, lambda: service.start_table(gid, ANN.user_id), "cannot start yet")
    await refused(service, gid, lambda: service.hand_host(gid, ANN.user_id, BOB.user_id), "seated at the table")
    await refused(service, gid, lambda: service.swap_seats(gid, ANN.user_id, ("11", "11")), "two different seats")
    await refused(service, gid, lambda: service.cancel_table(gid, BOB), "Only the host or a member")
    version = (await service.games.get(gid)).version
    await refused(service, gid, lambda: service.join(gid, BOB, expected_version=version - 1), "changed since")
    await service.join(gid, BOB)
    await refused(service, gid, lambda: service.join(gid, CEC), "full (2 seats)")
    await refused(service, gid, lambda: service.add_computer(gid, ANN.user_id, "easy"), "full (2 seats)")
    await service.start_table(gid, ANN.user_id)
    await service.idle()
    await refused(service, gid, lambda: service.join(gid, CEC), "lobby is closed")
    await refused(service, gid, lambda: service.leave(gid, BOB), "lobby is closed")
    await refused(service, gid, lambda: service.join(gid, CEC, expected_version=1), "lobby is closed")


async def test_the_host_leaving_hands_the_table_on_and_the_last_person_closes_it(service, heard):
    rec = await lobby(service)
    await service.join(rec.id, BOB)
    await service.add_computer(rec.id, ANN.user_id, "medium")
    change = await service.leave(rec.id, ANN)
    assert (
        change.record.host_user_id == BOB.user_id and change.said("en") == "You left the table; <@12> is the host now."
    )
    change = await service.leave(rec.id, BOB)
    assert change.closed and change.record.status == GameStatus.CANCELLED
    assert "closed" in change.said("en")
    assert heard.kinds(rec.id)[-1] == "cancel"
    # The channel is free for another table.
    assert (await lobby(service)).id != rec.id


async def test_a_cancel_by_a_member_who_manages_the_channel_ends_a_game_in_play(service):
    rec = await lobby(service, seats=2)
    await service.add_computer(rec.id, ANN.user_id, "easy")
    await service.start_table(rec.id, ANN.user_id)
    await service.idle()
    moderator = dataclasses.replace(DAN, manages=True)
    change = await service.cancel_table(rec.id, moderator)
    assert change.closed and change.record.status == GameStatus.CANCELLED
    await service.presenter.idle()
    assert service.tables.cancels == [(rec.id, DAN.user_id)]
    await refused(service, rec.id, lambda: service.cancel_table(rec.id, ANN), "already over")


async def test_teams_are_arranged_by_swapping_seats(service):
    rec = await lobby(service, kind="royal-wedding", seats=6, teams=True)
    for person in (BOB, CEC, DAN):
        await service.join(rec.id, person)
    change = await service.swap_seats(rec.id, ANN.user_id, ("12", "14"))
    assert [s.player_id for s in change.record.seats] == ["11", "14", "13", "12"]
    assert change.said("en") == "Bob and Dan swapped seats."
    await refused(service, rec.id, lambda: service.swap_seats(rec.id, ANN.user_id, ("12", "99")), "left the table")
    change = await service.hand_host(rec.id, ANN.user_id, CEC.user_id)
    assert change.record.host_user_id == CEC.user_id and change.said("en") == "<@13> is the host now."


OPERATIONS = ("join", "leave", "add", "remove", "level", "swap", "host", "start", "cancel")


@settings(max_examples=25)
@given(
    kind=st.sampled_from(["kingdomino", "queendomino", "royal-wedding"]),
    script=st.lists(st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 3), st.integers(0, 7)), max_size=14),
)
def test_any_sequence_of_lobby_operations_keeps_the_lobby_whole(kind, script):
    """Whatever people do in any order: a refused operation changes nothing; a done one is announced once and moves
    the version on; the seats never exceed the table's, colours and ids stay unique, the host is seated while the
    lobby is open, and a started game has the lobby's seats in order."""
    import asyncio

    from db.sqlite import SqliteGameStore
    from tests.service.conftest import Heard, Shown

    async def run() -> None:
        store = await SqliteGameStore.open(":memory:", synchronous="NORMAL")
        service = GameService(None, store, tables=Shown)
        heard = Heard()
        service.listen(heard)
        people = [ANN, BOB, CEC, DAN]
        try:
            size = {"kingdomino": 4, "queendomino": 4, "royal-wedding": 6}[kind]
            rec = await lobby(service, kind=kind, seats=size)
            for op, who, arg in script:
                before = await service.games.get(rec.id)
                person = people[who]
                heard.clear()
                try:
                    await _do(service, before, op, person, arg)
                except UserError as error:
                    after = await service.games.get(rec.id)
                    assert after.version == before.version and after.seats == before.seats, error.text("en")
                    assert heard.kinds(rec.id) == []
                    continue
                after = await service.games.get(rec.id)
                saved = [k for k in heard.kinds(rec.id) if k in ("lobby", "start", "cancel")]
                assert saved and after.version > before.version
                if after.status == GameStatus.LOBBY:
                    assert len(after.seats) <= size
                    assert len({s.colour for s in after.seats}) == len(after.seats)
                    assert len({s.player_id for s in after.seats}) == len(after.seats)
                    assert after.seat_of(str(after.host_user_id)) is not None
                elif after.status == GameStatus.PLAYING:
                    assert after.game.config.players == tuple(s.player_id for s in before.seats)
                if after.status != GameStatus.LOBBY:
                    break
        finally:
            service.stop_all()
            await service.idle()
            await store.close()

    asyncio.run(run())


async def _do(service: GameService, rec, op: str, person: Person, arg: int):
    cpus = [s.player_id for s in rec.seats if s.is_computer]
    seated = [s.player_id for s in rec.seats]
    if op == "join":
        return await service.join(rec.id, person)
    if op == "leave":
        return await service.leave(rec.id, person)
    if op == "add":
        return await service.add_computer(rec.id, person.user_id, ("easy", "medium", "hard", "random")[arg % 4])
    if op == "remove":
        return await service.remove_computer(rec.id, person.user_id, cpus[arg % len(cpus)] if cpus and arg else None)
    if op == "level":
        target = cpus[arg % len(cpus)] if cpus else "cpu:9"
        return await service.set_computer_level(rec.id, person.user_id, target, ("easy", "hard")[arg % 2])
    if op == "swap":
        pair = (seated[arg % len(seated)], seated[(arg * 3 + 1) % len(seated)])
        return await service.swap_seats(rec.id, person.user_id, pair)
    if op == "host":
        return await service.hand_host(rec.id, person.user_id, 11 + arg % 4)
    if op == "start":
        return await service.start_table(rec.id, person.user_id)
    return await service.cancel_table(rec.id, person)


async def test_a_whole_game_of_people_and_computers_through_the_door(service, heard):
    """Two people and a computer play a game to its end through the door alone, with no Discord object: each move's
    table posted once for its version (every saved event on exactly one table, in order), the computers in the
    background, every change announced and the store's log replaying to its state."""
    from engine import Game, action_from_dict

    rec = await lobby(service, kind="queendomino", seats=3)
    await service.join(rec.id, BOB)
    await service.add_computer(rec.id, ANN.user_id, "easy")
    await service.start_table(rec.id, ANN.user_id)
    rng = random.Random(5)
    while True:
        await service.idle()
        rec = await service.games.get(rec.id)
        if rec.game.is_over:
            break
        seat = rec.seat_of(rec.game.decision().player)
        assert not seat.is_computer, "the computer played in the background"
        action = make_agent("easy", seed=rng.randrange(100)).choose(rec.game.clone())
        await service.play(rec.id, seat.user_id, action, expected_version=rec.version)
    assert rec.status == GameStatus.FINISHED
    posted = [v for gid, v in service.tables.tables if gid == rec.id]
    assert posted == sorted(set(posted)) and posted[-1] == rec.version
    replay = Game.new(rec.game.config, rec.game.seed)
    saved = []
    for record in await service.store.get_actions(rec.id):
        saved += replay.apply(action_from_dict(record.action), by=record.player_id)
    assert replay.to_dict() == rec.game.to_dict()
    shown = service.tables.events[rec.id]  # every saved event on exactly one table, in order
    assert [(e.kind, e.player, e.text) for e in shown] == [(e.kind, e.player, e.text) for e in saved]
    moves = [c for c in heard.changes if c.kind == "move" and c.game_id == rec.id]
    assert len(moves) == len(rec.game.log) and [c.version for c in moves] == sorted(c.version for c in moves)


async def test_a_person_leaving_a_game_in_play_gives_their_seat_to_a_computer_and_the_last_one_ends_it(service, heard):
    rec = await lobby(service, seats=3)
    await service.join(rec.id, BOB)
    await service.join(rec.id, CEC)
    await refused(service, rec.id, lambda: service.abandon_seat(rec.id, BOB), "not being played")
    await service.start_table(rec.id, ANN.user_id)
    await service.idle()
    await refused(service, rec.id, lambda: service.abandon_seat(rec.id, DAN), "no seat")
    heard.clear()
    change = await service.abandon_seat(rec.id, ANN)  # the host leaves: a computer plays on, Bob hosts
    seats = change.record.seats
    assert [s.display_name for s in seats] == ["Bot 1 (medium)", "Bob", "Cec"] and seats[0].cpu_level == "medium"
    assert change.record.host_user_id == BOB.user_id and change.record.status == GameStatus.PLAYING
    assert "Bot 1 (medium) plays your seat" in change.said("en") and "seat" in heard.kinds(rec.id)
    await service.abandon_seat(rec.id, BOB)
    change = await service.abandon_seat(rec.id, CEC)  # the last person: nobody would play it
    assert change.closed and change.record.status == GameStatus.CANCELLED and change.record.end_reason == "abandoned"
    await service.idle()
