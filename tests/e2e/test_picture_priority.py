"""Pictures by priority and fairness (issue #26): the table a player waits for is drawn before every look; looks are
drawn round-robin between the people asking and limited per member and per server ("busy, try again in a minute");
a finished game's replay and chart are drawn once and kept, across a restart too.

The flood is made deterministic by a gate: every replay drawing waits until the test opens it, so what is queued,
refused and drawn while one member floods `/look replay` does not depend on how fast the machine is."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from pathlib import Path

import pytest

from cogs import pictures
from cogs.pictures import Asker, PicturePool, PicturesBusy, Priority
from cogs.tables import story_files
from i18n import messages as M
from tests.e2e import saved_games
from tests.e2e.play import latest_table, slash_action, start_game

pytestmark = pytest.mark.e2e

FLOOD = 70


class Gate:
    """Holds every drawing whose function's name contains `word` until opened; counts them."""

    def __init__(self, word: str) -> None:
        self.word = word
        self.open = threading.Event()
        self.seen = Counter()
        self.waiting = 0

    def wrap(self, draw):
        def gated(fn, *args, **kwargs):
            name = getattr(fn, "__name__", "")
            self.seen[name] += 1
            if self.word in name:
                self.waiting += 1
                self.open.wait(timeout=60)
            return draw(fn, *args, **kwargs)

        return gated


def answer(reply):
    """The message that answers a command: the reply itself, or after "thinking…" what replaced it."""
    original = reply.interaction.original
    return original if original is not None and not original.loading else None


def _names(pool: PicturePool) -> list[str]:
    return [name for _, name in pool.order]


# -- the pool alone ---------------------------------------------------------------------------------------------------
async def _held(pool: PicturePool, gate: Gate, monkeypatch) -> asyncio.Task:
    """A look that holds the pool's only light slot until the gate opens."""
    monkeypatch.setattr(pictures, "safe_render", gate.wrap(pictures.safe_render))

    task = asyncio.create_task(pool.draw(named("hold_slot"), priority=Priority.TABLE))
    while gate.waiting < 1:
        await asyncio.sleep(0.001)
    return task


def named(name: str):
    def draw() -> bytes:
        return name.encode()

    draw.__name__ = draw.__qualname__ = name
    return draw


async def test_a_table_is_drawn_before_looks_asked_earlier_and_looks_take_turns_between_members(monkeypatch):
    gate = Gate("hold")
    pool = PicturePool(0, thread_slots=1)
    held = await _held(pool, gate, monkeypatch)
    ann, ben = Asker(1, 10), Asker(1, 20)
    looks = [pool.draw(named(f"ann{n}"), priority=Priority.LOOK, asker=ann) for n in range(3)]
    looks.append(pool.draw(named("ben1"), priority=Priority.LOOK, asker=ben))
    tasks = [asyncio.create_task(look) for look in looks]
    await asyncio.sleep(0)
    table = asyncio.create_task(pool.draw(named("table"), priority=Priority.TABLE))
    await asyncio.sleep(0)
    assert pool.queued == 5
    gate.open.set()
    assert await table == b"table"
    assert [await t for t in tasks] == [b"ann0", b"ann1", b"ann2", b"ben1"]
    await held
    # the table asked last is drawn first; then Ann and Ben in turn, not Ann's three first
    assert _names(pool) == ["hold_slot", "table", "ann0", "ben1", "ann1", "ann2"]


async def test_looks_are_limited_per_member_and_per_server_and_a_table_never(monkeypatch):
    gate = Gate("slow")
    monkeypatch.setattr(pictures, "safe_render", gate.wrap(pictures.safe_render))
    pool = PicturePool(0)
    slow = named("slow_replay")
    heavy = Priority.HEAVY
    limits = pictures.LIMITS[heavy]
    first = [asyncio.create_task(pool.draw(slow, priority=heavy, asker=Asker(1, 10))) for _ in range(limits.member)]
    await asyncio.sleep(0)
    with pytest.raises(PicturesBusy, match="member"):
        await pool.draw(slow, priority=heavy, asker=Asker(1, 10))
    others = [
        asyncio.create_task(pool.draw(slow, priority=heavy, asker=Asker(1, 11 + n)))
        for n in range(limits.server - limits.member)
    ]
    await asyncio.sleep(0)
    with pytest.raises(PicturesBusy, match="server"):
        await pool.draw(slow, priority=heavy, asker=Asker(1, 99))
    # another server, a direct message, the game's own story and tables still get in
    elsewhere = asyncio.create_task(pool.draw(slow, priority=heavy, asker=Asker(2, 10)))
    in_dm = asyncio.create_task(pool.draw(slow, priority=heavy, asker=Asker(None, 10)))
    story = asyncio.create_task(pool.draw(named("story"), priority=Priority.STORY))
    tables = [asyncio.create_task(pool.draw(named(f"table{n}"))) for n in range(50)]
    assert await asyncio.gather(*tables) == [f"table{n}".encode() for n in range(50)]
    assert pool.counts["busy"] == 2
    gate.open.set()
    await asyncio.gather(*first, *others, elsewhere, in_dm)
    assert await story == b"story"
    # the heavy lane drew the story before the looks queued before it
    heavy_order = [n for n in _names(pool) if n in ("slow_replay", "story")]
    assert heavy_order[:2] == ["slow_replay", "story"]
    # done: the member may ask again
    assert await pool.draw(slow, priority=heavy, asker=Asker(1, 10)) == b"slow_replay"


async def test_a_kept_picture_is_drawn_once_even_across_a_restart_and_its_key_follows_what_it_shows(tmp_path: Path):
    drawn = Counter()

    def chart(game: str, *, lang: str) -> bytes:
        drawn[(game, lang)] += 1
        return f"{game}/{lang}".encode() * 1000

    def key(lang: str, log: tuple = ("claim 4",)) -> str:
        return pictures.picture_key(7, "chart", {"game": "kingdomino"}, 3, list(log), {"p1": "Ann"}, None, lang)

    pool = PicturePool(0, cache_dir=tmp_path)
    asked = [pool.kept(key("en"), chart, "g7", on_disk=True, lang="en") for _ in range(5)]
    assert await asyncio.gather(*asked) == [b"g7/en" * 1000] * 5
    assert drawn == {("g7", "en"): 1}
    assert await pool.kept(key("cs"), chart, "g7", on_disk=True, lang="cs") == b"g7/cs" * 1000
    assert key("en") != key("en", ("claim 5",)) and key("en").startswith("7-chart-")
    restarted = PicturePool(0, cache_dir=tmp_path)
    assert await restarted.kept(key("en"), chart, "g7", on_disk=True, lang="en") == b"g7/en" * 1000
    assert drawn == {("g7", "en"): 1, ("g7", "cs"): 1} and restarted.counts["kept"] == 1
    # a game still in play is kept in memory only
    await pool.kept(key("es"), chart, "g7", on_disk=False, lang="es")
    assert len(list(tmp_path.glob("*.pic"))) == 2


async def test_a_games_own_replay_joining_a_looks_drawing_of_it_is_not_kept_behind_other_looks(monkeypatch):
    gate = Gate("hold")
    monkeypatch.setattr(pictures, "safe_render", gate.wrap(pictures.safe_render))
    pool = PicturePool(0)
    held = asyncio.create_task(pool.draw(named("hold_heavy"), priority=Priority.HEAVY, asker=Asker(1, 1)))
    while gate.waiting < 1:
        await asyncio.sleep(0.001)
    looks = [
        asyncio.create_task(
            pool.kept(f"k{n}", named(f"look{n}"), on_disk=False, priority=Priority.HEAVY, asker=Asker(1, n))
        )
        for n in (2, 3, 4)
    ]
    await asyncio.sleep(0)
    # the game ends: its table wants the very replay member 4 asked for, queued behind members 2 and 3
    story = asyncio.create_task(pool.kept("k4", named("look4"), on_disk=False, priority=Priority.STORY))
    await asyncio.sleep(0)
    gate.open.set()
    assert await story == b"look4"
    await asyncio.gather(held, *looks)
    assert _names(pool) == ["hold_heavy", "look4", "look2", "look3"]
    assert not pool._inflight_jobs and not pool._inflight


def test_the_disk_keeps_at_most_its_limit_the_least_recently_used_going_first(tmp_path: Path):
    for n in range(5):
        pictures._write_bounded(tmp_path / f"{n}.pic", bytes(400), limit=1000)
    assert sorted(p.name for p in tmp_path.glob("*.pic"))[-1] == "4.pic"
    assert sum(p.stat().st_size for p in tmp_path.glob("*.pic")) <= 1000
    assert not list(tmp_path.glob("*.partial"))


# -- through Discord --------------------------------------------------------------------------------------------------
async def finished_royal_wedding(bot, fake, host, seed: int = 11) -> int:
    """A finished 7-player Royal Wedding game in #kingdomino (played by the store, as the bot would have saved it)."""
    channel_id = fake.channel("kingdomino").id
    return await saved_games.finished_royal_wedding(
        bot.store, channel_id=channel_id, guild_id=fake.guild_id, host_id=host.id, host_name=host.name, seed=seed
    )


async def test_one_members_replay_flood_does_not_hold_a_move_in_another_server(fake, harness, bot, monkeypatch):
    await finished_royal_wedding(bot, fake, fake.alice)
    south = await fake.add_guild("South")
    elsewhere = south.channels["kingdomino"]
    await start_game(fake, fake.bob, elsewhere, [fake.carol], game="kingdomino", players=2)
    gate = Gate("replay")
    monkeypatch.setattr(pictures, "safe_render", gate.wrap(pictures.safe_render))
    try:
        # One member floods: 70 replays of the finished game, all at once; the drawing of the first is held.
        flood = await asyncio.gather(*(fake.slash(fake.dave, "kingdomino", "look", "replay") for _ in range(FLOOD)))
        await fake.wait_until(lambda: gate.waiting >= 1, timeout=10, what="the replay being drawn")
        busy = M.PICTURES_BUSY
        await fake.wait_until(
            lambda: (
                sum(1 for r in flood if answer(r) is not None and busy in answer(r).content)
                == FLOOD - pictures.LIMITS[Priority.HEAVY].member
            ),
            timeout=10,
            what="the looks over the member's limit told the bot is busy",
        )

        # Meanwhile a move in another server: answered, with its table drawn, while the replay is still held.
        def tables() -> int:
            return len([m for m in fake.messages_in(elsewhere) if m.attachments])

        before = tables()
        for _ in range(4):  # until the turn passes and the table is posted again
            rec = await bot.store.get_active_game(elsewhere.id)
            mover = fake.user(int(rec.game.decision().player))
            await slash_action(fake, mover, elsewhere, rec.game.legal_actions()[0])
            if tables() > before:
                break
        assert tables() == before + 1
        table = latest_table(fake, elsewhere)
        assert [a.filename for a in table.attachments] == ["table.png"]
        assert not gate.open.is_set() and gate.seen["replay_gif"] == 1  # the replay is still being drawn
    finally:
        gate.open.set()
    # The two looks admitted share the one drawing; the 68 others were told to try again in a minute.
    await fake.wait_until(lambda: all(map(answer, flood)), timeout=30, what="every look answered")
    answers = [answer(r) for r in flood]
    gifs = [m for m in answers if [a.filename for a in m.attachments] == ["replay.gif"]]
    assert len(gifs) == pictures.LIMITS[Priority.HEAVY].member
    assert all(m.ephemeral for m in answers)
    # a refusal is the look's first answer (no "thinking…", the game is not even read): it costs the bot next to nothing
    assert sorted(r.response_type for r in flood) == [4] * (FLOOD - len(gifs)) + [5] * len(gifs)
    assert gate.seen["replay_gif"] == 1
    # Asked again, and after a restart: the kept replay, not drawn again.
    again = await (await fake.slash(fake.dave, "kingdomino", "look", "replay")).wait_message()
    assert [a.filename for a in again.attachments] == ["replay.gif"]
    await harness.restart()
    after = await (await fake.slash(fake.dave, "kingdomino", "look", "replay")).wait_message()
    assert after.attachments[0].data == gifs[0].attachments[0].data
    assert gate.seen["replay_gif"] == 1 and pictures.current().counts["kept"] == 1


async def test_the_replay_and_chart_of_the_final_table_are_the_ones_a_look_shows_without_drawing_again(
    fake, bot, monkeypatch
):
    gid = await finished_royal_wedding(bot, fake, fake.alice, seed=5)
    counter = Gate("nothing is held")
    monkeypatch.setattr(pictures, "safe_render", counter.wrap(pictures.safe_render))
    rec = await bot.service.games.get(gid)
    posted = await story_files(rec, rec.game)  # as the final table posts them
    assert [f.filename for f in posted] == ["replay.gif", "chart.png"]
    drawn = sum(counter.seen.values())
    assert drawn == 2
    for what, posted_file in zip(("replay", "chart"), posted, strict=True):
        look = await (await fake.slash(fake.dave, "kingdomino", "look", what)).wait_message()
        posted_file.fp.seek(0)
        assert look.attachments[0].data == posted_file.fp.read()
    assert sum(counter.seen.values()) == drawn


async def test_closing_the_pool_ends_its_drawings_so_no_task_is_left_pending(monkeypatch):
    """The bot's shutdown (`pictures.aclose`) gives up the drawings at work and waits until their tasks have ended:
    none is left pending for the loop to destroy ("Task was destroyed but it is pending", seen in bench_load)."""
    gate = Gate("hold")
    pool = PicturePool(0, thread_slots=1)
    held = await _held(pool, gate, monkeypatch)
    assert len(pool._tasks) == 1, "the drawing at work is held by the pool"
    await pool.aclose()
    assert not pool._tasks, "every drawing's task has ended"
    with pytest.raises(asyncio.CancelledError):
        await held  # the picture is given up: its caller hears so
    gate.open.set()  # let the thread it was drawing in finish
