"""Soak test (issue #17): many games at once, each in its own channel, played by people clicking whole turns and by
computer seats, while the fake Discord fails about 5% of the requests at random (5xx, 429 with rate-limit headers,
a few global 429s, slow answers, refused uploads) and drops the gateway every so often (close codes 1000, 1001,
4000 and 4009 in turn). People behave as people do when Discord fails: a click whose answer never comes is tried
again after a while, and a refusal ("The table changed") sends them back to the latest table.

At the end, with the faults off and the tables repaired, every game is checked against its saved log:

- the state in the database is exactly the replay of its action log from its seed;
- no action was applied twice: the log's sequence has no gaps or repeats and nothing in it is undone, no step of
  the game appears twice in a row, every person's action is one of the moves a click of theirs asks for, in order
  from the version its control carries (each saved action is one version, so the log tells each action's version; a
  click asks for one action, the skips of the optional steps of its turn before it, and for confirm-and-go-on a
  placement first: `click_moves`), every computer action is the one its computer player chooses at that point, and
  every action by nobody's click is a forced last claim;
- every game in play has its latest table in the channel: the store's table version is the game's version, and that
  message (the latest table in the channel) names the player to act;
- every finished game showed its final table; the only games cancelled are lobbies the bot closed because it could
  not post their message (nobody here cancels);
- nothing went wrong that the faults do not explain: each error the bot logged names a Discord HTTP failure of the
  kinds injected, and each interaction Discord would have reported unanswered was lost with a gateway session.

The default run plays about a minute (8 games, 50 s of play); `SOAK_MINUTES=N` plays N minutes, `SOAK_GAMES=N` sets
the number of games (channels), `SOAK_SEED=N` the seed of the faults and the people.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest

from db.models import GameStatus
from engine import (
    Action,
    BribeDragon,
    Build,
    Claim,
    Game,
    GameConfig,
    IllegalAction,
    Skip,
    Tax,
    action_from_dict,
    parse_action,
)
from engine.ai import make_agent
from tests.fakediscord import FakeDiscord
from tests.fakediscord.drivers import ClientRefused, Reply
from tests.fakediscord.model import FakeChannel, FakeMessage, FakeUser

pytestmark = pytest.mark.e2e

SOAK_MINUTES = float(os.environ.get("SOAK_MINUTES") or 0)
PLAY_SECONDS = SOAK_MINUTES * 60 if SOAK_MINUTES > 0 else 50.0
GAMES = int(os.environ.get("SOAK_GAMES") or 8)
SEED = int(os.environ.get("SOAK_SEED") or 17)

ANSWER_WAIT = 12.0  # how long a person waits for the bot's answer before giving up on that click
RETRY_AFTER = 2.0  # ... and how long before trying again
GATEWAY_PERIOD = 11.0  # a gateway drop this often: the default run drops it 4 times, once with each code
GATEWAY_CODES = (1000, 1001, 4000, 4009)
REPAIR_PERIOD = 4.0  # the bot's timer loop runs every minute; the soak runs its work more often, alongside it

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"

# What a table looks like: the game, players, seats taken by computers, their level.
TABLES = (
    ("kingdomino", 2, 0, "easy"),
    ("queendomino", 2, 1, "easy"),
    ("kingdomino", 3, 1, "easy"),
    ("queendomino", 3, 0, "easy"),
    ("kingdomino", 4, 2, "easy"),
    ("queendomino", 4, 1, "medium"),
    ("kingdomino", 2, 1, "easy"),
    ("queendomino", 2, 0, "easy"),
)

# An error the bot logs because of an injected fault names the Discord HTTP failure.
DISCORD_FAILURE = re.compile(
    r"(DiscordServerError|HTTPException): (50[0234] [A-Za-z ]+ \(error code: 0\)|413 [A-Za-z ]+ \(error code: 40005\))"
)
ACTION_CLICK = re.compile(r"kd:(do|go|drg|pc):(\d+):(\d+)(?::(.+))?$")


@dataclass
class Table:
    """One channel and its people; its games follow one another."""

    number: int
    channel: FakeChannel
    people: list[FakeUser]
    game: str
    players: int
    computers: int
    level: str
    rng: random.Random
    games: list[int] = field(default_factory=list)

    @property
    def host(self) -> FakeUser:
        return self.people[0]

    def options(self) -> dict:
        return {
            "game": self.game,
            "players": self.players,
            "computers": self.computers,
            "computer_level": self.level,
        }


@dataclass
class Soak:
    fake: FakeDiscord
    bot: object
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    stats: Counter = field(default_factory=Counter)
    gateway_drops: list[tuple[float, float, int]] = field(default_factory=list)  # (closed at, back at, code)
    problems: list[str] = field(default_factory=list)

    @property
    def store(self):
        return self.bot.service.store  # type: ignore[attr-defined]

    # -- acting as a person ---------------------------------------------------------------------------------------
    async def send(self, what, *args, **kwargs) -> Reply | None:
        """One interaction; None when Discord's client could not deliver it (no bot on the gateway just now)."""
        try:
            return await what(*args, **kwargs)
        except ClientRefused:
            raise
        except AssertionError as error:
            if "no bot is connected" in str(error):
                self.stats["clicks lost: no gateway session"] += 1
                return None
            raise

    async def answer(self, reply: Reply, timeout: float = ANSWER_WAIT) -> FakeMessage | None:
        try:
            return await reply.wait_message(timeout=timeout)
        except AssertionError:
            return None

    async def component_answer(self, replies: list[Reply], panel: FakeMessage, before: int) -> str:
        """What came of clicks on a panel: "edited" (the panel was redrawn), a refusal's text, or "" (nothing)."""

        def outcome() -> str | None:
            if len(self.fake.message(panel.id).history) > before:
                return "edited"
            for reply in replies:
                if reply.interaction.followups:
                    return reply.interaction.followups[0].content or "(empty refusal)"
            return None

        try:
            return await self.fake.wait_until(outcome, timeout=ANSWER_WAIT, what="the panel")
        except AssertionError:
            return ""

    async def slash(self, table: Table, user: FakeUser, *names: str, **options) -> None:
        reply = await self.send(self.fake.slash, user, table.channel, *names, options=options or None)
        if reply is not None and await self.answer(reply) is None:
            self.stats["slash commands without answer"] += 1

    # -- lobbies ----------------------------------------------------------------------------------------------------
    async def ensure_game(self, table: Table) -> bool:
        """A game in play in the channel: a lobby opened, joined and started by slash commands, tried again until it
        works (a failed answer leaves the store to tell where things stand)."""
        for _ in range(60):
            if self.stop.is_set():
                return False
            rec = await self.store.get_active_game(table.channel.id)
            if rec is not None and rec.status == GameStatus.PLAYING:
                if rec.id not in table.games:
                    table.games.append(rec.id)
                return True
            if rec is None:
                await self.slash(table, table.host, "game", "new", **table.options())
            else:
                seated = {s.user_id for s in rec.seats}
                missing = [u for u in table.people if u.id not in seated]
                if missing:
                    await self.slash(table, missing[0], "game", "join")
                else:
                    await self.slash(table, table.host, "game", "start")
            await asyncio.sleep(0.2)
        self.problems.append(f"{table.channel.label}: could not get a game going in 60 tries")
        return False

    # -- turns ------------------------------------------------------------------------------------------------------
    def latest_table(self, channel: FakeChannel, game_id: int | None = None) -> FakeMessage | None:
        """The latest table in the channel (of game `game_id`: the latest with its buttons)."""
        for message in reversed(self.fake.messages_in(channel)):
            if message.author is not self.fake.bot_user or not any(
                a.filename == "table.png" for a in message.attachments
            ):
                continue
            if game_id is None or any(
                re.fullmatch(rf"kd:\w+:{game_id}(:.*)?", b["custom_id"]) for b in message.buttons
            ):
                return message
        return None

    async def wait_for_the_end(self, table: Table) -> None:
        """People learn that their game is over from its final table: they open the next one after it shows."""
        last = table.games[-1]
        rec = await self.store.get_game(last)
        if rec.status != GameStatus.FINISHED:
            return
        for _ in range(60):
            if self.stop.is_set():
                return
            messages = self.fake.messages_in(table.channel)
            if any(b["custom_id"] == f"kd:rematch:{last}" for m in messages for b in m.buttons):
                return
            self.stats["waits for a final table"] += 1
            await asyncio.sleep(0.5)

    async def play(self, table: Table) -> None:
        """The people of one channel: whoever the game waits for takes their turn; then the next game."""
        while not self.stop.is_set():
            rec = await self.store.get_active_game(table.channel.id)
            if rec is None or rec.status != GameStatus.PLAYING:
                if rec is None and table.games:
                    await self.wait_for_the_end(table)
                if not await self.ensure_game(table):
                    return
                continue
            d = rec.game.decision()
            seat = rec.seat_of(d.player) if d else None
            if seat is None or seat.is_computer:
                await asyncio.sleep(0.3)  # the computer players are at work; their table comes when they are done
                continue
            user = self.fake.user(seat.user_id)
            await self.take_turn(table, user, rec.id)

    async def take_turn(self, table: Table, user: FakeUser, game_id: int) -> None:
        """Open the panel from the latest table and answer each step, as `user`."""
        shown = self.latest_table(table.channel, game_id)
        turn = None
        if shown is not None:
            turn = next((b for b in shown.buttons if b["custom_id"].startswith(f"kd:turn:{game_id}:")), None)
        if turn is None:  # no table with a turn button yet (a post failed): wait for it, as a person would
            self.stats["waits for a missing table"] += 1
            await asyncio.sleep(1.0)
            return
        reply = await self.send(self.fake.click, user, shown, turn["custom_id"])
        if reply is None:
            await asyncio.sleep(RETRY_AFTER)
            return
        panel = await self.answer(reply)
        if panel is None:
            self.stats["turn panels that never came"] += 1
            await asyncio.sleep(RETRY_AFTER)
            return
        for _ in range(60):
            text = "\n".join(line for line in panel.content.splitlines() if not line.startswith(("ℹ️", "⚠️")))
            if "⚠️" in panel.content:
                self.stats["moves saved with a warning"] += 1
            if not text.strip() or text.startswith("Done"):
                self.stats["turns"] += 1
                return
            choice = self.choose(table, panel, text)
            if choice is None:
                self.count_refusal(text)
                await asyncio.sleep(0.5)
                return
            kind, custom_id, value, applies = choice
            result = await self.act(user, panel, kind, custom_id, value, double=applies and table.rng.random() < 0.08)
            if result == "":  # the answer never came: try the same control again after a while
                self.stats["clicks retried after no answer"] += 1
                await asyncio.sleep(RETRY_AFTER)
                if not any(c.get("custom_id") == custom_id for c in self.fake.message(panel.id).walk_components()):
                    return
                result = await self.act(user, panel, kind, custom_id, value, double=False)
                if result == "":
                    self.stats["clicks given up"] += 1
                    return
            if result != "edited":
                self.count_refusal(result)
                return
            panel = self.fake.message(panel.id)
        self.problems.append(f"{table.channel.label}: a turn of {user.name} did not end: {panel.content!r}")

    def count_refusal(self, text: str) -> None:
        if "The table changed" in text:
            self.stats["refused: the table changed"] += 1
        elif "Sorry, something went wrong" in text:
            self.stats["answered: sorry, something went wrong"] += 1
        else:
            self.stats[f"refused: {text[:60]}"] += 1

    async def act(
        self, user: FakeUser, panel: FakeMessage, kind: str, custom_id: str, value: str | None, *, double: bool
    ) -> str:
        before = len(self.fake.message(panel.id).history)

        async def once() -> Reply | None:
            if kind == "select":
                return await self.send(self.fake.select, user, panel, custom_id, [value])
            return await self.send(self.fake.click, user, panel, custom_id)

        if double:  # an impatient double click: both reach the bot
            self.stats["double clicks"] += 1
            replies = await asyncio.gather(once(), once())
        else:
            replies = [await once()]
        sent = [r for r in replies if r is not None]
        if not sent:
            return ""
        return await self.component_answer(sent, panel, before)

    def choose(self, table: Table, panel: FakeMessage, text: str) -> tuple[str, str, str | None, bool] | None:
        """The control a person uses on this panel: (click|select, custom_id, value, whether it applies a move)."""
        rng = table.rng

        def button(*, startswith: str = "", contains: str = "") -> str:
            found = [
                b["custom_id"]
                for b in panel.buttons
                if not b.get("disabled")
                and not b["custom_id"].startswith("kd:undo:")  # these people never take a move back
                and b.get("label", "").startswith(startswith)
                and contains in b.get("label", "")
            ]
            if not found:
                raise AssertionError(f"no button {startswith or contains!r} among {panel.button_labels}: {text}")
            return rng.choice(found)

        if "Preview:" in text:  # confirm and take a domino in one tap, or confirm then the optional steps
            return "click", button(startswith="Confirm"), None, True
        if "which way does the second square" in text:
            return "click", button(contains="point"), None, False
        if "Choose a spot" in text:  # a spot's button, or a spot (or a cell) in a list
            if panel.selects and rng.random() < 0.5:
                select = rng.choice(panel.selects)
                return "select", select["custom_id"], rng.choice(select["options"])["value"], False
            return "click", button(contains="point"), None, False
        if "Pick a free domino" in text:
            return "click", button(), None, True
        if "on which town square" in text:
            return "click", button(startswith="Build on"), None, True
        if "you may now do these steps" in text:
            choices = ["done"]
            if any(label.startswith("Knight") for label in panel.button_labels):
                choices += ["tax"] * 2
            for select in panel.selects:
                if "Build" in select.get("placeholder", ""):
                    choices += ["build"] * 2
                if "Dragon" in select.get("placeholder", ""):
                    choices += ["dragon"]
            choice = rng.choice(choices)
            if choice == "tax":
                return "click", button(startswith="Knight"), None, True
            if choice in ("build", "dragon"):
                word = "Build" if choice == "build" else "Dragon"
                select = next(s for s in panel.selects if word in s.get("placeholder", ""))
                return "select", select["custom_id"], rng.choice(select["options"])["value"], choice == "dragon"
            takes = [
                b["label"] for b in panel.buttons if b["custom_id"].startswith("kd:go:") and ":claim " in b["custom_id"]
            ]
            return "click", button(startswith=rng.choice(takes) if takes else "Done"), None, True
        if panel.buttons or panel.selects:
            self.problems.append(f"an unexpected panel: {panel.content!r}")
        return None  # a refusal: not your turn, out of date, ...

    # -- Discord failing ----------------------------------------------------------------------------------------------
    def inject_faults(self) -> None:
        faults = self.fake.faults
        faults.seed(SEED)
        for status, probability in ((500, 0.012), (502, 0.008), (503, 0.006), (504, 0.004)):
            faults.server_error(status=status, probability=probability, times=None)
        for i, (method, route) in enumerate(
            (("POST", MESSAGES), ("PATCH", MESSAGE), ("POST", CALLBACK), ("POST", FOLLOWUP), ("PATCH", ORIGINAL))
        ):
            faults.rate_limit(method, route, retry_after=0.3, bucket=f"soak{i}", probability=0.01, times=None)
        faults.global_rate_limit(retry_after=0.2, probability=0.002, times=None)
        faults.slow(delay=1.5, applied=True, probability=0.006, times=None)
        faults.slow(delay=1.0, applied=False, probability=0.006, times=None)
        faults.refuse_upload("POST", MESSAGES, probability=0.04, times=None)

    async def drop_gateway(self) -> None:
        loop = asyncio.get_running_loop()
        n = 0
        while not self.stop.is_set():
            try:
                await asyncio.wait_for(self.stop.wait(), GATEWAY_PERIOD)
                return
            except TimeoutError:
                pass
            code = GATEWAY_CODES[n % len(GATEWAY_CODES)]
            n += 1
            closed = loop.time()
            await self.fake.close_gateway(code, hold=0.2)
            await asyncio.sleep(0.1)
            await self.fake.wait_for_gateway(timeout=30)
            self.gateway_drops.append((closed, loop.time(), code))

    async def timers(self) -> None:
        """The work of the bot's timer loop (tables to post again, due timers), every few seconds."""
        service = self.bot.service  # type: ignore[attr-defined]
        while not self.stop.is_set():
            try:
                await asyncio.wait_for(self.stop.wait(), REPAIR_PERIOD)
                return
            except TimeoutError:
                pass
            for work in (service.timers.repair_tables, service.timers.run_due):
                try:
                    await work()
                except Exception as error:  # the bot's own loop logs and goes on; so does this one
                    self.problems.append(f"{work.__name__} raised {type(error).__name__}: {error}")


# -- checks ---------------------------------------------------------------------------------------------------------
OPTIONAL_STEPS = ("tax", "build", "dragon")
STEP_OF = {Tax: "tax", Build: "build", BribeDragon: "dragon"}


@dataclass(frozen=True)
class Click:
    """A control that applies moves, as a person used it: kd:do (one move), kd:go and kd:drg (through the optional
    steps), kd:pc (a placement, then `then` through the optional steps)."""

    kind: str
    action: Action
    then: Action | None = None


def clicks_by_version(fake: FakeDiscord, game_id: int) -> dict[tuple[int, int], list[Click]]:
    """Every click meant to apply moves in game `game_id` (also those that never reached the bot, or were refused):
    (user id, the version its control carries) -> its clicks."""
    out: dict[tuple[int, int], list[Click]] = {}
    for it in fake.interactions.values():
        match = ACTION_CLICK.match(str((it.data or {}).get("custom_id", "")))
        if not match or int(match[2]) != game_id:
            continue
        kind, text = match[1], match[4] or ""
        if kind == "drg":  # a list: the building to burn is its value
            values = it.data.get("values") or []
            if len(values) != 1:
                continue
            click = Click(kind, parse_action(f"dragon {values[0]}"))
        elif kind == "pc":  # "place E4 right:claim K12" (or ":skip")
            place, then = text.split(":", 1)
            click = Click(kind, parse_action(place), parse_action(then))
        else:
            click = Click(kind, parse_action(text))
        out.setdefault((it.user.id, int(match[3])), []).append(click)
    return out


def _turn(game: Game) -> tuple[int, int, int]:
    return game.deal, game.round, game.turn


def through(game: Game, player: str, action: Action) -> list[Action]:
    """What a move through the optional steps applies, as UX.md tells it: the skips of the player's optional steps
    of this turn that come before the step of `action`, then `action`; Done (a skip) skips every one left."""
    trial, skips, until = game.clone(), [], STEP_OF.get(type(action))
    while (d := trial.decision()) is not None and d.player == player and d.kind in OPTIONAL_STEPS:
        if d.kind == until or _turn(trial) != _turn(game):
            break
        try:
            trial.apply(Skip(), by=player)
        except IllegalAction:
            break
        skips.append(Skip())
    if isinstance(action, Skip):
        return skips or [action]
    return [*skips, action]


def click_moves(game: Game, player: str, click: Click) -> list[str]:
    """The moves a click applies, in order, from the version its control carries (`game`, that version's state): the
    bot saves them one after the other, at consecutive versions, and may stop early (a refusal), never go on later."""
    if click.kind == "do":
        return [click.action.text]
    if click.kind != "pc":
        return [a.text for a in through(game, player, click.action)]
    trial = game.clone()
    try:
        trial.apply(click.action, by=player)
    except IllegalAction:
        return [click.action.text]
    d = trial.decision()
    wanted = ("claim", *OPTIONAL_STEPS) if isinstance(click.then, Claim) else OPTIONAL_STEPS
    if d is None or d.player != player or d.kind not in wanted or _turn(trial) != _turn(game):
        return [click.action.text]  # the second move is made only while it is still this turn's step of theirs
    return [click.action.text, *(a.text for a in through(trial, player, click.then))]  # type: ignore[arg-type]


async def check_game(fake: FakeDiscord, store, game_id: int) -> tuple[int, list[str]]:
    """Replays the game's log and traces every action to its cause; returns (actions, problems)."""
    rec = await store.get_game(game_id)
    records = await store.get_actions(game_id)
    where = f"game {game_id}"
    problems = []
    seqs = [a.seq for a in records]
    if seqs != list(range(1, len(records) + 1)):
        problems.append(f"{where}: the log's sequence is not 1..{len(records)}: {seqs}")
    undone = [a.seq for a in records if a.undone]
    if undone:  # these people never take a move back
        problems.append(f"{where}: actions {undone} are marked undone, but nobody asked for that")
    if rec.game is None:
        return len(records), [*problems, f"{where}: no state saved ({rec.status})"]
    config = GameConfig.from_dict(rec.config)
    game = Game.new(config, rec.seed)
    start_version = rec.version - len(records)  # each saved move is one action and one version
    clicks = clicks_by_version(fake, game_id)
    seats = {s.player_id: s for s in rec.seats}
    # The moves still to come of the clicks the action before was one of (several: a double click, or two panels
    # of theirs clicked at the same version, of which one was refused): a click's moves follow one another.
    going: list[list[str]] = []
    previous = None
    for i, entry in enumerate(records):
        version = start_version + i  # the version the action was applied at
        action = action_from_dict(entry.action)
        d = game.decision()
        step = (entry.player_id, d.king if d else None, d.kind if d else None, game.round, game.turn, game.deal)
        if previous is not None and previous == (step, action):
            problems.append(f"{where}: action {entry.seq} ({action.text} by {entry.player_id}) repeats the step before")
        previous = (step, action)
        seat = seats.get(entry.player_id or "")
        if seat is None or seat.is_computer or entry.user_id is None:
            going = []
        if seat is None:
            problems.append(f"{where}: action {entry.seq} by {entry.player_id}, who has no seat")
        elif seat.is_computer:
            if entry.user_id is not None:
                problems.append(f"{where}: computer action {entry.seq} carries a user id")
            elif seat.cpu_level in ("random", "easy"):
                chosen = make_agent(seat.cpu_level, seed=game.seed + len(game.log)).choose(game.clone())
                if chosen != action:
                    problems.append(
                        f"{where}: action {entry.seq} of {seat.display_name} is {action.text}, but its computer "
                        f"player chooses {chosen.text} there (applied twice, or at the wrong state?)"
                    )
        elif entry.user_id is None:
            claims = [a for a in game.legal_actions() if a.text.startswith("claim")]
            if not (action.text.startswith("claim") and len(claims) == 1):
                problems.append(f"{where}: action {entry.seq} ({action.text}) by nobody's click is not a forced claim")
        else:
            started = [click_moves(game, entry.player_id, c) for c in clicks.get((entry.user_id, version), [])]
            explained = [moves[1:] for moves in going + started if moves and moves[0] == action.text]
            if not explained:
                asked = (
                    f"the clicks at that version ask for {started}" if started else "no click of theirs asked for it"
                )
                rest = [moves[0] for moves in going if moves]
                before = f"; the clicks before it go on with {rest}" if rest else ""
                problems.append(
                    f"{where}: action {entry.seq} ({action.text} by user {entry.user_id}) at version {version}: "
                    f"{asked}{before} (applied twice, or at a state no click asked for?)"
                )
            going = explained
        try:
            game.apply(action, by=entry.player_id)
        except IllegalAction as error:
            return len(records), [*problems, f"{where}: action {entry.seq} ({action.text}) does not replay: {error}"]
    if game.to_dict() != rec.game.to_dict():
        problems.append(f"{where}: the saved state is not the replay of its {len(records)} actions")
    return len(records), problems


def table_problems(fake: FakeDiscord, rec, latest: FakeMessage | None) -> list[str]:
    where = f"game {rec.id} ({fake.channels[rec.channel_id].label})"
    game = rec.game
    if rec.table_version != rec.version:
        return [f"{where}: its table shows version {rec.table_version}, the game is at {rec.version}"]
    if latest is None or latest.id != rec.table_message_id:
        return [f"{where}: the latest table in the channel is not the one the store knows ({rec.table_message_id})"]
    d = game.decision()
    seat = rec.seat_of(d.player)
    named = f"<@{seat.user_id}>" if seat.user_id else seat.display_name
    line = next((x for x in latest.content.splitlines() if "it's your turn" in x), "")
    if named not in line:
        return [f"{where}: the latest table does not name {seat.display_name} to act: {line!r}"]
    return []


def classify_errors(errors: list[str]) -> tuple[list[str], list[str]]:
    expected = [e for e in errors if DISCORD_FAILURE.search(e)]
    return expected, [e for e in errors if e not in expected]


def classify_violations(soak: Soak, violations) -> tuple[list, list]:
    """Unanswered interactions that were lost with a gateway session (close 4009: what the bot had not read yet
    is gone, as on Discord) are expected; everything else Discord would reject is the bot's."""
    expected, unexpected = [], []
    for v in violations:
        it = v.interaction
        lost = (
            v.kind == "no response"
            and it is not None
            and it.callback_attempts == 0
            and any(
                code == 4009 and closed - 2.0 <= it.dispatched_at <= back for closed, back, code in soak.gateway_drops
            )
        )
        (expected if lost else unexpected).append(v)
    return expected, unexpected


async def test_soak_many_games_with_discord_failing(fake: FakeDiscord, bot, harness) -> None:
    started = time.monotonic()
    bot.service.story_at_end = False  # the replay GIF is made in a worker process: too heavy for 2 shared cores
    soak = Soak(fake, bot)
    rng = random.Random(SEED)
    tables: list[Table] = []
    for i in range(GAMES):
        guild = await fake.add_guild(f"Soak {i + 1}")
        kind, players, computers, level = TABLES[i % len(TABLES)]
        people = [fake.add_user(f"p{i + 1}{chr(97 + j)}") for j in range(players - computers)]
        channel = guild.channels["kingdomino"]
        tables.append(Table(i + 1, channel, people, kind, players, computers, level, random.Random(rng.random())))
        await fake.wait_until(lambda g=guild: bot.get_guild(g.id) is not None, timeout=10, what="the bot to join")
    for table in tables:  # the games start before Discord starts failing
        assert await soak.ensure_game(table), soak.problems
    await bot.service.idle()

    soak.inject_faults()
    play_started = time.monotonic()
    workers = [asyncio.create_task(soak.play(t), name=f"soak-{t.number}") for t in tables]
    background = [asyncio.create_task(soak.drop_gateway()), asyncio.create_task(soak.timers())]
    done, _ = await asyncio.wait(workers, timeout=PLAY_SECONDS, return_when=asyncio.FIRST_EXCEPTION)
    soak.stop.set()
    for task in done:
        task.result()  # a test failure inside a person's loop
    await asyncio.wait_for(asyncio.gather(*workers, *background), timeout=60)
    played = time.monotonic() - play_started

    # Discord is well again: the bot repairs what it could not post, and the computer players finish.
    fake.faults.clear()
    await fake.wait_for_gateway(timeout=30)
    for _ in range(3):
        await bot.service.idle()
        await bot.service.timers.repair_tables(grace=0)
        await bot.service.idle()
        await fake.settle(timeout=30)

    actions, problems = 0, list(soak.problems)
    finished = in_play = lobbies_closed = 0
    for table in tables:
        latest = soak.latest_table(table.channel)
        for summary in await bot.store.list_games(channel_id=table.channel.id):
            if summary.status == GameStatus.LOBBY:
                continue  # the run stopped while the people of this channel were starting their next game
            if summary.status == GameStatus.CANCELLED and summary.started_at is None:
                # Nobody here cancels: the bot closes a lobby whose message it could not post (a lobby nobody sees
                # must not block the channel), and the host opens another.
                lobbies_closed += 1
                continue
            count, found = await check_game(fake, bot.store, summary.id)
            actions += count
            problems += found
            rec = await bot.store.get_game(summary.id)
            if rec.status == GameStatus.PLAYING:
                in_play += 1
                problems += table_problems(fake, rec, latest)
            elif rec.status == GameStatus.FINISHED:
                finished += 1
                final = [
                    m
                    for m in fake.messages_in(table.channel)
                    if any(b["custom_id"] == f"kd:rematch:{rec.id}" for b in m.buttons)
                ]
                if not final:
                    problems.append(
                        f"game {rec.id} ({table.channel.label}) finished, but its final table was never shown"
                    )
            else:
                problems.append(f"game {rec.id} ({table.channel.label}) ended as {rec.status} ({rec.end_reason})")

    expected_errors, unexpected_errors = classify_errors(harness.take_logged_errors())
    lost, violations = classify_violations(soak, fake.take_violations())
    problems += [f"the bot logged an error no injected fault explains: {e}" for e in unexpected_errors]
    problems += [f"Discord would reject: {v}" for v in violations]
    problems += [f"fake Discord did not handle: {r}" for r in fake.take_unhandled()]

    summary = fake.faults.summary()
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(summary["by_kind"].items()))
    print(
        f"\nsoak: {GAMES} channels, {sum(len(t.games) for t in tables)} games ({finished} finished, {in_play} in "
        f"play, {lobbies_closed} lobbies closed by the bot), {actions} actions, {len(fake.interactions)} interactions, {len(fake.requests)} requests"
        f"\nfaults injected: {summary['injected']} ({kinds}); recovered: {summary['recovered']}; "
        f"gateway drops: {len(soak.gateway_drops)}"
        f"\npeople: {dict(sorted(soak.stats.items()))}"
        f"\nexpected: {len(expected_errors)} errors logged naming a Discord failure, {len(lost)} interactions lost "
        f"with a gateway session, {len(fake.excused)} rejections excused by faults"
        f"\nrun time: {time.monotonic() - started:.0f} s ({played:.0f} s of play)"
    )
    for error in sorted(Counter(re.sub(r"\d{6,}", "N", e) for e in expected_errors).items()):
        print(f"  expected error x{error[1]}: {error[0]}")
    assert not problems, f"{len(problems)} problem(s):\n  - " + "\n  - ".join(problems[:60])
