"""Taps per turn, counted over whole games played through the fake Discord (issue #27, "fewer taps").

A tap is a click; a list counts 2 (open it, pick). A turn is one king's: from "Take my turn" (or, for a player
whose other king plays next, from the panel that goes straight on) until the turn passes. The person here chooses
every spot uniformly among the legal ones (a button or an option of a list, whatever it scores) and any free
domino, and skips the optional steps: a careless player, so the counts are an upper bound for one who prefers the
spots that score most (the buttons, one tap less). The typical turn is the median of the turns that place a domino
(the first line's picks, 2 taps, are left out so they do not pull it down)."""

from __future__ import annotations

import asyncio
import random
import statistics

import pytest

from cogs.decide import turn_key
from tests.e2e.play import (
    TURN,
    active_record,
    choose_spot,
    click_panel,
    latest_table,
    open_lobby,
    optional_step,
    preview_choice,
    start_game,
)

pytestmark = pytest.mark.e2e
CH = "kingdomino"


@pytest.fixture(autouse=True)
def _no_story(bot):
    """The replay and the chart of the end are not what these tests count (slow to draw: test_calm and
    test_picture_priority check them)."""
    bot.service.story_at_end = False


class Taps:
    """Counts the taps of the fake's people: a click 1, a choice in a list 2."""

    def __init__(self, fake) -> None:
        self.n = 0
        real_click, real_select = fake.click, fake.select

        async def click(*args, **kwargs):
            self.n += 1
            return await real_click(*args, **kwargs)

        async def select(*args, **kwargs):
            self.n += 2
            return await real_select(*args, **kwargs)

        fake.click, fake.select = click, select


async def _step(fake, user, panel, rng):
    text = panel.content
    if "Preview:" in text:
        return await click_panel(fake, user, panel, preview_choice(panel, rng, prefer_optional=False))
    if "Choose a spot" in text:
        return await choose_spot(fake, user, panel, rng)
    if "which way does the second square" in text:
        ways = [b["custom_id"] for b in panel.buttons if b["custom_id"].startswith("kd:dir:")]
        return await click_panel(fake, user, panel, rng.choice(ways))
    if "you may now do these steps" in text:
        return await optional_step(fake, user, panel, rng, prefer_optional=False)
    claims = [b["custom_id"] for b in panel.buttons if b["custom_id"].startswith("kd:do:")]
    assert "Pick a free domino" in text and claims, text
    return await click_panel(fake, user, panel, rng.choice(claims))


def _at(rec):
    d = rec.game.decision() if rec is not None and rec.game is not None and not rec.game.is_over else None
    return None if d is None else (d.player, turn_key(rec.game), d.king), d


async def _passed(bot, channel_id: int, key):
    """The record once it no longer shows the decision `key` (the panel said the turn passed): waits for that
    condition, up to a bound that only a lost move would reach."""
    for _ in range(400):
        await bot.service.idle()
        rec = await active_record(bot, channel_id)
        now, nd = _at(rec)
        if now != key:
            return rec, now, nd
        await asyncio.sleep(0.05)
    raise AssertionError(f"the panel said the turn passed, the game still waits for {key}")


async def count_game(fake, bot, people: dict, *, seed: int) -> dict[str, list[int]]:
    """Plays the channel's game to its end; the taps of each turn, by the turn's first step: `place`, or another
    (`first_claim`; `claim`, `tax`, `build` when the domino could not be placed and was discarded)."""
    rng, taps = random.Random(seed), Taps(fake)
    channel_id = fake.channel(CH).id
    turns: dict[str, list[int]] = {"place": []}
    for _ in range(600):
        await bot.service.idle()
        await fake.settle()
        rec = await active_record(bot, channel_id)
        if rec is None:
            return turns
        key, d = _at(rec)
        if d.player not in people:
            continue
        user, start, kind = people[d.player], taps.n, d.kind
        panel = await (await fake.click(user, latest_table(fake, CH), TURN)).wait_message()
        while True:
            panel = await _step(fake, user, panel, rng)
            rec = await active_record(bot, channel_id)
            now, nd = _at(rec)
            if now == key and "Done ✔" in panel.content:  # the turn has passed: wait until the store shows it
                rec, now, nd = await _passed(bot, channel_id, key)
            if now == key:
                continue
            turns.setdefault(kind, []).append(taps.n - start)
            # The panel ended the turn ("Done"), or the game goes on with someone else: the next turn starts from the
            # table. (The same person may act next after the computers' quick moves: a new turn, not the same panel.)
            if nd is None or nd.player != d.player or "Done ✔" in panel.content:
                break
            key, d, start, kind = now, nd, taps.n, nd.kind  # their other king: the panel goes straight on
    raise AssertionError("the game did not end")


def _check(turns: dict[str, list[int]], limit: int, label: str) -> None:
    placing = sorted(turns["place"])
    picks = sorted(t for kind, counts in turns.items() if kind != "place" for t in counts)
    print(f"\ntaps per turn, {label}: placing {placing}, median {statistics.median(placing)}; "
          f"only a choice {picks}")  # fmt: skip
    assert placing and statistics.median(placing) <= limit, placing
    assert all(t <= 2 for t in picks), "a turn with nothing to place: open the panel, tap a domino (or done)"
    # Every turn: open (1), a spot (1 for a button, 2 for a list), one tap to confirm and take the next domino; at
    # most one more when the spot is chosen by cell then direction (more spots than the lists hold).
    assert max(placing) <= limit + 1, placing


async def test_kingdomino_two_players_turn_in_four_taps(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    turns = await count_game(fake, bot, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=11)
    _check(turns, 4, "Kingdomino, 2 players")


async def test_kingdomino_four_players_turn_in_four_taps(fake, bot):
    people = (fake.alice, fake.bob, fake.carol, fake.dave)
    await start_game(fake, fake.alice, CH, people[1:], game="kingdomino", players=4)
    turns = await count_game(fake, bot, {str(u.id): u for u in people}, seed=12)
    _check(turns, 4, "Kingdomino, 4 players")


async def test_queendomino_two_players_turn_in_five_taps(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="queendomino", players=2)
    turns = await count_game(fake, bot, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=13)
    _check(turns, 5, "Queendomino, 2 players, optional steps skipped")


async def test_royal_wedding_turn_in_five_taps(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="royal-wedding", players=4, computers=2, computer_level="easy")
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    turns = await count_game(fake, bot, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=14)
    _check(turns, 5, "Royal Wedding, 4 players, optional steps skipped")
