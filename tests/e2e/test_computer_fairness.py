"""Computer players are fair between the members of one server (issue #26), through the fake Discord: Alice's tables
of `hard` computers queue their moves in the bot's pool; Bob's `easy` computer, in the same server, is served next,
not after all of hers.

The pool has one worker, and every `hard` decision waits for a gate file the test creates, so what is queued when the
gate opens, and the order in which the worker then serves it, does not depend on the machine's speed."""

from __future__ import annotations

import os
import time

import pytest

from engine.ai.pool import AIPool, think
from tests.e2e.play import open_lobby, slash_action

pytestmark = pytest.mark.e2e

GATE_VARIABLE = "KD_TEST_HARD_GATE"


def gated_think(state: dict, level: str, seed: int, options: dict) -> dict:
    """`think`, in a worker process; a `hard` decision first waits for the gate file."""
    gate = os.environ.get(GATE_VARIABLE)
    while level == "hard" and gate and not os.path.exists(gate):
        time.sleep(0.002)
    return think(state, level, seed, options)


async def _thread(fake, name: str):
    from tests.fakediscord.model import ChannelType

    thread = fake._add_channel(
        name,
        ChannelType.PUBLIC_THREAD,
        parent_id=fake.kingdomino.id,
        owner_id=fake.alice.id,
        auto_archive_duration=1440,
        thread_member_ids={fake.alice.id, fake.bob.id},
    )
    await fake.dispatch("THREAD_CREATE", {**fake._channel_payload(thread), "newly_created": True})
    return thread


async def test_one_members_hard_tables_cannot_starve_another_members_easy_computer(fake, bot, tmp_path, monkeypatch):
    gate = tmp_path / "open"
    monkeypatch.setenv(GATE_VARIABLE, str(gate))
    pool = AIPool(workers=1, worker_function=gated_think)
    await pool.start()
    service = bot.service
    service.ai_pool, service.hard_budget = pool, 0.05
    served: list[tuple[int, str]] = []  # (member, level) in the order the worker answered
    real = service.computer_action

    async def recorded(game, level, **kwargs):
        action = await real(game, level, **kwargs)
        served.append((kwargs.get("member"), level))
        return action

    monkeypatch.setattr(service, "computer_action", recorded)
    try:
        # Alice opens three tables, each with three `hard` computers: their moves queue behind the gate.
        channels = [await _thread(fake, f"alice-{n}") for n in range(3)]
        for channel in channels:
            lobby = await open_lobby(
                fake, fake.alice, channel, game="kingdomino", players=4, computers=3, computer_level="hard"
            )
            await (await fake.click(fake.alice, lobby, "Start")).wait_message()
        await fake.wait_until(lambda: pool.running == 1 and pool.queued >= 1, timeout=10, what="Alice's queue")
        alices_waiting = pool.queued
        # Bob's table in the same server: him and one `easy` computer; he plays until his computer must move.
        bobs = await _thread(fake, "bob")
        lobby = await open_lobby(fake, fake.bob, bobs, game="kingdomino", players=2, computers=1, computer_level="easy")
        await (await fake.click(fake.bob, lobby, "Start")).wait_message()
        for _ in range(4):
            rec = await bot.store.get_active_game(bobs.id)
            if rec.game.decision().player != str(fake.bob.id):
                break
            await slash_action(fake, fake.bob, bobs, rec.game.legal_actions()[0])
        await fake.wait_until(
            lambda: pool.queued_for(fake.guild_id, fake.bob.id) == 1, timeout=10, what="Bob's computer queued"
        )
        assert pool.queued_for(fake.guild_id, fake.alice.id) == alices_waiting
        gate.touch()
        await fake.wait_until(lambda: (fake.bob.id, "easy") in served, timeout=30, what="Bob's computer served")
        # The worker was holding one of Alice's moves; Bob's came next, before the others she had queued first.
        assert served[:2] == [(fake.alice.id, "hard"), (fake.bob.id, "easy")]
        await service.idle()
        assert len([s for s in served if s[0] == fake.alice.id]) > alices_waiting + 1
    finally:
        gate.touch()
        await service.idle()
        await pool.close(cancel=True)
        service.ai_pool = None
