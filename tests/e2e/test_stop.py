"""A clean stop (issue 48): 20 SIGTERMs to the bot's process during a game under load (computer players moving,
tables with pictures posted, two boards watching over their live streams). Each time the bot answers every click
(the one in flight is saved and told, one that comes while it stops is told "restarting"), exits with 0, and the game
plays on after the restart; the boards' streams end at the stop and catch up once reconnected. At the end no move
is lost or doubled: the person's moves in the log are exactly the ones they were told were saved, and the stored
state is the log replayed."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from db import open_store
from db.backup import check_sqlite
from db.migrate import LATEST_VERSION
from engine import Claim, Game, GameConfig, Place, action_from_dict, cell_name
from tests.e2e.play import latest_table, start_game
from tests.fakediscord import BotProcess, FakeDiscord
from web import auth

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
FACTORY = "tests.e2e.process_bot:build"
CH = "kingdomino"
STOPS = 20
SECRET = "s" * 40
RESTARTING = "The bot is restarting"
MESSAGES = "/channels/{channel_id}/messages"


def typed(action) -> tuple[tuple[str, ...], dict[str, str]]:
    """The /play command that makes a Kingdomino `action` (a claim, a placement, or a discard)."""
    if isinstance(action, Claim):
        return ("claim",), {"domino": action.domino}
    if isinstance(action, Place):
        return ("place",), {"cell": cell_name(action.row, action.col), "direction": action.direction}
    return ("skip",), {}


class Boards:
    """Two boards (a player's and a watcher's link) following the game over Server-Sent Events."""

    def __init__(self, process: BotProcess, game_id: int, users: list[int]) -> None:
        self.process, self.game_id, self.users = process, game_id, users
        self.versions: list[int] = []  # every version any board was sent
        self.tasks: list[asyncio.Task] = []
        self.ended = 0  # streams the bot closed

    async def url(self) -> str:
        """The running process's board (stderr, where it says so, is read apart from stdout's ready line)."""
        said = "The web board is at "
        for _ in range(1000):
            lines = [line for line in self.process.output if said in line]
            if len(lines) == self.process.starts:
                return lines[-1].split(said, 1)[1].strip()
            await asyncio.sleep(0.01)
        raise AssertionError("the bot did not say where its board is")

    async def open(self, known: int) -> None:
        """Both boards connect (from version `known`, -1: none) and their streams are open."""
        base = await self.url()
        connected = [asyncio.Event() for _ in self.users]
        for user, event in zip(self.users, connected, strict=True):
            self.tasks.append(asyncio.create_task(self._follow(base, user, known, event)))
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in connected)), 30)

    async def _follow(self, base: str, user: int, known: int, connected: asyncio.Event) -> None:
        token = auth.link_token(SECRET.encode(), user, self.game_id)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(f"{base}join/{token}", allow_redirects=False) as joined:
                assert joined.status == 302, await joined.text()
            try:
                async with session.get(f"{base}api/games/{self.game_id}/events?v={known}") as stream:
                    assert stream.status == 200
                    connected.set()
                    async for line in stream.content:
                        if line.startswith(b"id: "):
                            self.versions.append(int(line[4:].split(b"-settling")[0]))
            except aiohttp.ClientError:
                pass  # the connection closed under it
        self.ended += 1

    async def closed(self) -> None:
        await asyncio.wait_for(asyncio.gather(*self.tasks), 30)
        self.tasks = []


async def wait_for_person(store, channel_id: int, people: dict[str, object], timeout: float = 60.0):
    """The game once a person is to act (the computers play in the bot meanwhile)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        rec = await store.get_active_game(channel_id)
        if rec is None or rec.game.decision().player in people:
            return rec
        assert loop.time() < end, "the computers did not hand the turn back to a person"
        await asyncio.sleep(0.05)


async def stopping_line(process: BotProcess, since: int) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while not any("Stopping:" in line for line in process.output[since:]):
        assert process.running and loop.time() < end, "the bot did not say it is stopping"
        await asyncio.sleep(0.005)


async def test_twenty_sigterms_during_a_game_under_load(fake: FakeDiscord, bot_processes, tmp_path: Path) -> None:
    env = {
        "DATABASE_PATH": str(tmp_path / "games.sqlite3"),
        "KD_SEEDS": "stop",
        "KD_TIMER_PERIOD_SECONDS": "0.5",
        "WEB_PORT": "0",
        "WEB_SECRET": SECRET,
        "STOP_SECONDS": "10",
    }
    bot = bot_processes(FACTORY, env=env, sync_commands=True, name="stopped")
    await bot.start()
    store = await open_store(tmp_path / "games.sqlite3")  # the test's own look at the bot's database
    try:
        await _scenario(fake, bot, store)
    except BaseException:
        print(f"--- output of the bot (pid {bot.pid}):", *bot.output[-60:], sep="\n")
        raise
    finally:
        await store.close()


async def _scenario(fake: FakeDiscord, bot: BotProcess, store) -> None:
    alice, bob = fake.alice, fake.bob
    people = {str(alice.id): alice, str(bob.id): bob}
    channel = fake.channel(CH)
    await start_game(fake, alice, CH, [bob], game="kingdomino", players=4, computers=2, computer_level="medium")
    rec = await wait_for_person(store, channel.id, people)
    boards = Boards(bot, rec.id, [alice.id, bob.id])
    await boards.open(-1)
    rng = random.Random(48)
    told_saved: list[dict] = []  # the person's moves they were told were saved, in order
    restarting = 0
    for stop in range(STOPS):
        rec = await wait_for_person(store, channel.id, people)
        assert rec is not None, "the game ended before the 20 stops: pick a longer game"
        user = people[rec.game.decision().player]
        action = rng.choice(rec.game.legal_actions())
        names, options = typed(action)
        fake.faults.slow("POST", MESSAGES, delay=0.4)  # the table of this move is being posted when the stop comes
        since = len(bot.output)
        if stop % 2 == 0:  # the stop comes while the move is saved and shown
            reply = await fake.slash(user, CH, "play", *names, options=options)
            await asyncio.sleep(rng.uniform(0, 0.05))
            bot.process.send_signal(signal.SIGTERM)
        else:  # the stop comes first: the move arrives while the bot stops
            bot.process.send_signal(signal.SIGTERM)
            await stopping_line(bot, since)
            reply = await fake.slash(user, CH, "play", *names, options=options)
        answer = await reply.wait_message(timeout=30)
        if RESTARTING in answer.content:
            restarting += 1
            assert (await store.get_game(rec.id)).version == rec.version, (
                "a move refused while stopping changed nothing"
            )
        else:
            assert any(w in answer.content for w in ("Done", "Your turn", "Your move is saved")), answer.content
            told_saved.append(action.to_dict())
            after = await store.get_game(rec.id)
            assert after.version > rec.version and len(after.game.log) > len(rec.game.log), "a move told saved is"
        if stop % 4 == 1:  # a click on the table while it stops: answered too
            await stopping_line(bot, since)
            if bot.running:
                look = await fake.click(bob, latest_table(fake, CH), "History")
                assert RESTARTING in (await look.wait_message(timeout=30)).content
                restarting += 1
        code = await asyncio.wait_for(bot.process.wait(), 30)
        assert code == 0, f"stop {stop + 1}: exit code {code}"
        await boards.closed()
        assert boards.ended == 2 * (stop + 1), "the bot closed the boards' streams"
        fake.faults.clear()
        await fake.wait_until(lambda: not fake.connected, what="the old bot to disconnect")
        await bot.start()
        # the boards reconnect, from the last version they had (or from nothing), and catch up
        shown = max(boards.versions) if stop % 3 else -1
        seen = len(boards.versions)
        await boards.open(shown)
        now = (await store.get_game(rec.id)).version
        if now > shown:
            await fake.wait_until(lambda n=now, s=seen: max(boards.versions[s:], default=-1) >= n, what="caught up")
    assert restarting >= STOPS // 2, "half the moves came while the bot stopped, and each was told so"
    # the game plays on: the next person's move after the last restart
    rec = await wait_for_person(store, channel.id, people)
    user = people[rec.game.decision().player]
    action = rng.choice(rec.game.legal_actions())
    names, options = typed(action)
    answer = await (await fake.slash(user, CH, "play", *names, options=options)).wait_message(timeout=30)
    assert RESTARTING not in answer.content
    told_saved.append(action.to_dict())
    await _no_move_lost_or_doubled(store, rec.id, told_saved)
    for task in boards.tasks:  # the last boards: the fixture stops the bot
        task.cancel()


async def _no_move_lost_or_doubled(store, game_id: int, told_saved: list[dict]) -> None:
    rec = await store.get_game(game_id)
    log = await store.get_actions(game_id)
    assert [a.seq for a in log] == list(range(1, len(log) + 1)), "no gap, no repeat in the log"
    typed_moves = [a.action for a in log if a.user_id is not None]  # forced claims and computers have no user
    assert typed_moves == told_saved, "the people's moves are exactly those they were told were saved"
    replay = Game.new(GameConfig.from_dict(rec.config), rec.seed)
    for entry in log:
        replay.apply(action_from_dict(entry.action), by=entry.player_id)
    assert replay.to_dict() == rec.game.to_dict(), "the stored state is the log replayed"


MAIN = (
    "import sys; from tests.fakediscord.wire import point_discord_at; point_discord_at(sys.argv[1]); "
    "import bot; sys.exit(bot.main([]))"
)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl+C"])
async def test_bot_py_takes_its_scheduled_backup_and_stops_with_0(fake: FakeDiscord, tmp_path: Path, sig) -> None:
    """The bot as `make run` starts it (bot.py's main, its settings from the environment): it logs JSON lines
    (LOG_FORMAT=json), holds its lease on the database while it runs, takes the scheduled backup, and on SIGTERM or
    Ctrl+C stops cleanly: exit code 0, its lease dropped."""
    database = tmp_path / "data" / "games.sqlite3"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": fake.token,
        "DATABASE_PATH": str(database),
        "LOG_FORMAT": "json",
        "WEB_PORT": "off",
        "AI_WORKERS": "0",
        "PICTURE_WORKERS": "0",
        "BACKUP_EVERY_HOURS": "6",
        "BACKUP_KEEP": "2",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", MAIN, fake.base_url, cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        await fake.wait_until(lambda: fake.connected, timeout=60, what="bot.py connected")
        backups = database.parent / "backups"  # BACKUP_DIR's default: beside the database
        await fake.wait_until(lambda: backups.is_dir() and any(backups.glob("scheduled-*")), what="the backup")
        store = await open_store(database)
        try:
            assert [lease.name for lease in await store.live_leases("bot:")] != [], "it holds its lease"
            process.send_signal(sig)
            _, err = await asyncio.wait_for(process.communicate(), 60)
            assert process.returncode == 0, err.decode()[-3000:]
            assert await store.live_leases("bot:") == [], "a clean stop drops its lease"
            assert len(await store.live_leases("backup")) == 1, "the backup of this period is taken: not at each start"
        finally:
            await store.close()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    lines = [json.loads(line) for line in err.decode().splitlines() if line.strip()]
    messages = [entry["message"] for entry in lines]
    assert any(m.startswith("Stopping: clicks are answered as a restart") for m in messages), messages
    assert any(m.startswith("Scheduled backup:") for m in messages), messages
    [copy] = list(backups.glob("scheduled-*"))
    assert check_sqlite(copy).schema_version == LATEST_VERSION
