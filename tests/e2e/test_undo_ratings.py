"""Undo (exact, refused where it must be) and the per-server leaderboard, through the fake Discord."""

from __future__ import annotations

import random

import pytest

from engine import Claim, Game, Place, action_from_dict
from tests.e2e.play import latest_table, open_lobby, play_game, slash_action, start_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"


async def _record(bot, fake):
    return await bot.store.get_active_game(fake.channel(CH).id)


def _replayed(rec, actions) -> dict:
    game = Game.new(rec.game.config, rec.game.seed)
    for a in actions:
        game.apply(action_from_dict(a.action), by=a.player_id)
    return game.to_dict()


async def test_undo_takes_back_the_last_move_exactly_and_only_then(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="queendomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    rng = random.Random(3)
    # Play by typing until someone is about to place a domino.
    while (rec := await _record(bot, fake)).game.decision().kind != "place":
        d = rec.game.decision()
        await slash_action(fake, people[d.player], CH, rng.choice(rec.game.legal_actions()))
    d = rec.game.decision()
    mover, other = people[d.player], next(u for p, u in people.items() if p != d.player)
    before = rec.game.to_dict()
    place = next(a for a in rec.game.legal_actions() if isinstance(a, Place))
    await slash_action(fake, mover, CH, place)
    # Someone else cannot take it back; the mover can, and the state is exactly as before.
    refused = await (await fake.slash(other, CH, "play", "undo")).wait_message()
    assert refused.ephemeral and f"{mover.name.capitalize()} has acted since your last move" in refused.content
    reply = await (await fake.slash(mover, CH, "play", "undo")).wait_message()
    assert "Taken back" in reply.content
    after = await _record(bot, fake)
    assert after.game.to_dict() == before
    actions = await bot.store.get_actions(after.id)
    assert actions[-1].undone and actions[-1].action["type"] == "place", "the undone action stays, marked"
    assert _replayed(after, await bot.store.get_actions(after.id, include_undone=False)) == before
    # A step of one's own turn: the table on screen still names the mover, so it stays (and counts as current).
    assert "took back" not in latest_table(fake, CH).content and after.table_version == after.version
    # Play the whole turn; once the other player acted, the first cannot undo any more.
    while (rec := await _record(bot, fake)).game.decision().player == str(mover.id):
        await slash_action(fake, mover, CH, rec.game.legal_actions()[0])
    rec = await _record(bot, fake)
    await slash_action(fake, other, CH, rec.game.legal_actions()[0])
    refused = await (await fake.slash(mover, CH, "play", "undo")).wait_message()
    assert "has acted since your last move" in refused.content
    assert (await _record(bot, fake)).version == rec.version + 1, "the refusal changed nothing"


async def test_undo_a_claim_and_the_button_on_the_confirmation(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob, fake.carol], game="kingdomino", players=3)
    people = {str(u.id): u for u in (fake.alice, fake.bob, fake.carol)}
    rec = await _record(bot, fake)
    d = rec.game.decision()
    before = rec.game.to_dict()
    claim = next(a for a in rec.game.legal_actions() if isinstance(a, Claim))
    await slash_action(fake, people[d.player], CH, claim)
    confirmation = [m for m in fake.messages_in(CH, viewer=people[d.player]) if m.ephemeral][-1]
    assert "Undo my last move" in confirmation.button_labels
    await (await fake.click(people[d.player], confirmation, "Undo my last move")).wait_message()
    # The click is acknowledged at once; the undo's answer is the panel of the decision the person is back at, in
    # place of the confirmation: once it is there, the undo is saved (a quiet moment alone was no proof of it).
    await fake.wait_until(lambda: "Done ✔" not in fake.message(confirmation.id).content, what="the panel after undo")
    assert "Pick a free domino" in fake.message(confirmation.id).content
    assert (await _record(bot, fake)).game.to_dict() == before


async def test_leaderboard_matches_a_hand_computed_case(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="kingdomino", players=2, computers=1, computer_level="easy")
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await play_game(fake, bot, CH, {str(fake.alice.id): fake.alice}, seed=9)
    rec = (await bot.store.list_games(channel_id=fake.channel(CH).id, limit=1))[0]
    results = (await bot.store.finished_results(fake.guild_id, "kingdomino"))[0]
    alice_won = next(s.won for s in results.seats if s.user_id == fake.alice.id)
    board = await (await fake.slash(fake.carol, CH, "stats", "leaderboard")).wait_message()
    text = board.content
    assert "Kingdomino leaderboard" in text and "🤖 easy" in text and f"<@{fake.alice.id}>" in text
    # One game between two players with the default model (μ 25, σ 25/3): the winner goes to μ 27.635, the
    # loser to 22.365, both σ 8.066; the ladder shows μ - 3σ with one decimal: 3.4 and -1.8.
    winner, loser = (f"<@{fake.alice.id}>", "🤖 easy") if alice_won else ("🤖 easy", f"<@{fake.alice.id}>")
    lines = text.splitlines()
    assert lines[1].startswith(f"1. {winner} — 3.4 (1 game, 1 won)"), text
    assert lines[2].startswith(f"2. {loser} — -1.8 (1 game, 0 won)"), text
    assert rec.status == "finished"


@pytest.mark.parametrize(("game", "players", "limit"), [("queendomino", 2, 400), ("royal-wedding", 3, 60)])
async def test_every_action_can_be_undone_exactly_then_played_again(fake, bot, game, players, limit):
    """Through a whole game (every phase: claims, placements, tax, build, dragon, skips), each action is taken back
    by its player at once (the state is exactly as before, the undone action stays in the log, marked) and played
    again; the game ends as it would have. An action after which something hidden came into view (a new line, the
    builders' board refilled) is refused, saying why, and nothing changes."""
    bot.service.story_at_end = False  # the final replay and chart are not what this test is about (slow to draw)
    people = [fake.alice, fake.bob, fake.carol][:players]
    await start_game(fake, people[0], CH, people[1:], game=game, players=players)
    by_id = {str(u.id): u for u in people}
    rng = random.Random(6)
    kinds = set()
    revealed = 0
    for _ in range(limit):
        rec = await _record(bot, fake)
        if rec is None:
            break
        d = rec.game.decision()
        before = rec.game.to_dict()
        action = rng.choice(rec.game.legal_actions())
        await slash_action(fake, by_id[d.player], CH, action)
        after = await _record(bot, fake)
        if after is None or after.game.is_over:
            break  # the last move ends the game: nothing to take back
        reply = await (await fake.slash(by_id[d.player], CH, "play", "undo")).wait_message()
        if Game.from_dict(before).draw_position != after.game.draw_position:
            assert "new dominoes or buildings came into view" in reply.content, reply.content
            assert (await _record(bot, fake)).version == after.version, "the refusal changed nothing"
            revealed += 1
            continue
        assert "Taken back" in reply.content, reply.content
        undone = await _record(bot, fake)
        assert undone.game.to_dict() == before, f"undo of {action.text} is exact"
        kinds.add(action.to_dict()["type"])
        await slash_action(fake, by_id[d.player], CH, action)
    records = await bot.store.get_actions((await bot.store.list_games(channel_id=fake.channel(CH).id, limit=1))[0].id)
    assert any(r.undone for r in records) and {"claim", "place"} <= kinds and revealed
    if game == "queendomino":
        assert "skip" in kinds and kinds & {"tax", "build", "dragon"}, kinds
