"""The house's rules (issue 28), read from the code itself and shown by playing:

- the decider (`cogs/decide.py`) and the commit path (`cogs/commit.py`) import nothing from Discord and never touch an
  interaction, a channel or a message; a whole game plays through them, and through the game service, without a
  single Discord object;
- no cog (nor the web board) writes a game to the store but through the commit path: the store's writing methods
  that change a game are called in `cogs/commit.py` only;
- the seams are typed: `service_of()` returns a `GameService`, the service's store is a `GameStore`;
- a click's or a command's `Context` is built once, where it enters (a control's callback, a slash command, an
  autocomplete), and handed down: no helper calls `service_of`/`lang_of`/`context_of` on an interaction;
- (the sizes: no class in `cogs/` over 400 lines, no function over 80, are checked by tests/test_code_shape.py).
"""

from __future__ import annotations

import ast
import random
import typing
from pathlib import Path

import pytest

from cogs import commit, context, decide, games
from cogs.service import GameService
from db.models import GameStatus, Seat
from db.sqlite import _WRITES, SqliteGameStore
from db.store import GameStore
from engine import Game, action_from_dict
from engine.ai import make_agent

COGS = Path(__file__).resolve().parents[1] / "cogs"
DISCORD_FREE = ("decide", "commit")
# What a module that shows nothing must never reach for: Discord's objects and their calls.
DISCORD_WORDS = {
    "discord",
    "interaction",
    "followup",
    "response",
    "channel",
    "get_partial_messageable",
    "get_partial_message",
    "send",
    "edit",
    "bot",
    "client",
}

# The store's writing methods (db/store.py's protocol, db/sqlite.py's `_WRITES`), in two kinds: those that change a
# game (its lobby, its state, its log, which message shows it, its timer) and those that do not (leases, notification
# records, settings).
GAME_WRITES = {
    "create_game",
    "set_lobby_options",
    "join_game",
    "leave_game",
    "set_seats",
    "set_host",
    "start_game",
    "save_move",
    "finish_game",
    "undo_last_action",
    "cancel_game",
    "set_table_message",
    "set_turn_timer",
    "forget_player",
    "delete_game",
}
OTHER_WRITES = {
    "claim_due",
    "claim_notification",
    "claim_table_post",
    "forget_notification_messages",
    "notification_sent",
    "release_claim",
    "release_claims_of",
    "release_table_post",
    "set_guild_settings",
    "set_user_settings",
    "erase_person",
    "take_lease",
    "drop_lease",
    "guild_left",
    "guild_returned",
    "forget_guild",
}


def _tree(module: str) -> ast.Module:
    return ast.parse((COGS / f"{module}.py").read_text())


@pytest.mark.parametrize("module", DISCORD_FREE)
def test_the_decider_and_the_commit_path_import_no_discord(module):
    imported = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add("." + (node.module or "") if node.level else (node.module or "").split(".")[0])
    assert "discord" not in imported, imported
    # Within the cogs, only the words, the reader and the decider: nothing that shows or sends (and nothing that reaches
    # Discord however indirectly: tests/test_imports_graph.py).
    assert {m for m in imported if m.startswith(".")} <= {".words", ".decide", ".games"}, imported


@pytest.mark.parametrize("module", DISCORD_FREE)
def test_the_decider_and_the_commit_path_touch_no_discord_object(module):
    used = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.arg):
            used.add(node.arg)
    assert not used & DISCORD_WORDS, used & DISCORD_WORDS


def test_every_store_write_is_classified():
    """A new writing method of the store must be named here, as a game's change or not."""
    assert set(_WRITES) == GAME_WRITES | OTHER_WRITES
    assert not GAME_WRITES & OTHER_WRITES
    protocol = {name for name in dir(GameStore) if not name.startswith("_")}
    assert set(_WRITES) <= protocol


def store_writes(source: str) -> list[tuple[int, str]]:
    """The calls `<anything>.<a game-changing store write>(...)` in `source`, with their lines."""
    return [
        (node.lineno, node.func.attr)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in GAME_WRITES
    ]


def test_the_scan_finds_a_store_write():
    assert store_writes("async def f(service):\n    await service.store.join_game(1, 2, seat)\n") == [(2, "join_game")]
    assert store_writes("await lobby_action(interaction, gid, join_table)") == []


def test_no_cog_writes_a_game_but_through_the_commit_path():
    """Nor the web board, nor the bot's start-up: every writer of a game goes through `cogs/commit.py`."""
    root = COGS.parent
    sources = [*COGS.glob("*.py"), *(root / "web").glob("*.py"), root / "bot.py"]
    found = {
        str(path.relative_to(root)): writes
        for path in sorted(sources)
        if path.name != "commit.py" and (writes := store_writes(path.read_text()))
    }
    assert not found, found
    assert store_writes((COGS / "commit.py").read_text())  # the commit path is where they are


def test_the_seams_are_typed():
    assert typing.get_type_hints(context.service_of)["return"] is GameService
    assert typing.get_type_hints(context.context_of)["return"] is context.Context
    assert typing.get_type_hints(context.Context)["service"] is GameService
    assert typing.get_type_hints(GameService.__init__)["store"] is GameStore
    assert typing.get_type_hints(games.Games.__init__)["store"] is GameStore
    assert typing.get_type_hints(commit.Commits.__init__)["games"] is games.Games


# -- the context of a click, built once where it enters -------------------------------------------------------------
# Where a click or a command enters the bot: discord.py calls these with the interaction. Each builds the interaction's
# `Context` once (`context_of`) and hands it down; everything below reads the service and the languages from it.
ENTRY_METHODS = {"callback", "on_submit", "on_error", "interaction_check"}  # of a DynamicItem, a View, a Modal
ENTRY_DECORATORS = {"command", "autocomplete", "context_menu"}  # app_commands: @x.command(...), @cmd.autocomplete(...)
# bot.py's hook for clicks discord.py would drop; the doors' answer to clicks while the bot stops (cogs/shutdown.py)
ENTRY_FUNCTIONS = {"answer_dropped_click", "answer_while_stopping"}
CONTEXT_BUILDERS = {"service_of", "lang_of", "context_of", "Context"}
CONTEXT_HOME = {"context.py"}  # where service_of and lang_of are defined, and context_of uses them


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def is_entry(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return (
        function.name in ENTRY_METHODS
        or function.name in ENTRY_FUNCTIONS
        or any(_decorator_name(d) in ENTRY_DECORATORS for d in function.decorator_list)
    )


def context_offences(source: str) -> list[str]:
    """`service_of(...)`, `lang_of(...)` or `Context(...)` called outside `CONTEXT_HOME`'s modules (checked by the
    caller), or `context_of(...)` called outside an entry point: 'line N: name in function'."""
    offences: list[str] = []

    def visit(node: ast.AST, function: ast.FunctionDef | ast.AsyncFunctionDef | None, entry: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                # a closure of an entry point (its `work()`) is the entry's own code
                visit(child, child, entry if function is not None and entry else is_entry(child))
                continue
            if isinstance(child, ast.Call) and (name := _decorator_name(child)) in CONTEXT_BUILDERS:
                where = function.name if function else "<module>"
                if name != "context_of" or not entry:
                    offences.append(f"line {child.lineno}: {name} in {where}")
            visit(child, function, entry)

    visit(ast.parse(source), None, False)
    return offences


def built_twice(source: str) -> list[str]:
    """Entry points that call `context_of` more than once."""
    return [
        f"line {f.lineno}: {f.name}"
        for f in ast.walk(ast.parse(source))
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        and is_entry(f)
        and sum(isinstance(c, ast.Call) and _decorator_name(c) == "context_of" for c in ast.walk(f)) > 1
    ]


def test_the_scan_finds_a_context_rebuilt_below_an_entry():
    source = """
class Button:
    async def callback(self, interaction):
        ctx = context_of(interaction)
        async def work():
            await helper(ctx)
        await guarded(ctx, work())
    @app_commands.command(name="x")
    async def x(self, interaction):
        await helper(context_of(interaction))

async def helper(interaction):
    lang = lang_of(interaction)
    return context.service_of(interaction), context_of(interaction), Context(interaction, None, lang)
"""
    assert context_offences(source) == [
        "line 13: lang_of in helper",
        "line 14: service_of in helper",
        "line 14: context_of in helper",
        "line 14: Context in helper",
    ]
    assert built_twice("async def callback(self, i):\n    a = context_of(i)\n    b = context_of(i)\n") == [
        "line 1: callback"
    ]


def test_every_click_and_command_builds_its_context_once_where_it_enters():
    """Issue 28: no helper rebuilds a click's context (`service_of`, `lang_of`, `context_of` of an interaction):
    the entry point (a control's callback, a slash command, an autocomplete) builds it once and passes it down."""
    root = COGS.parent
    sources = [*COGS.glob("*.py"), root / "bot.py"]
    found = {
        str(path.relative_to(root)): offences
        for path in sorted(sources)
        if (offences := context_offences(path.read_text())) and path.name not in CONTEXT_HOME
    }
    assert not found, found
    twice = {str(p.relative_to(root)): t for p in sorted(sources) if (t := built_twice(p.read_text()))}
    assert not twice, twice


# -- a whole game without Discord ---------------------------------------------------------------------------------
PEOPLE = (Seat.human(11, "Ann", "#ff0000"), Seat.human(12, "Bob", "#00ff00"))


class Heard:
    """A listener of the commit path that keeps what it heard (saved changes only)."""

    def __init__(self) -> None:
        self.changes: list[decide.Change] = []

    def heard(self, change: decide.Change) -> None:
        if change.kind not in ("busy", "settled"):
            self.changes.append(change)


async def _lobby(commits: commit.Commits, kind: str, seats: tuple[Seat, ...], seed: int):
    rec = await commits.open_lobby(
        channel_id=500 + seed,
        guild_id=1,
        host_user_id=seats[0].user_id,
        kind=kind,
        config={"seats": len(seats), "variants": [], "teams": False},
        seats=seats[:1],
        seed=seed,
    )
    for seat in seats[1:]:
        rec = await commits.join(rec, seat)
    return rec


@pytest.mark.parametrize("kind", ["kingdomino", "queendomino"])
async def test_a_whole_game_through_the_commit_path_without_discord(tmp_path, kind):
    """Two people and a computer play to the end through `Commits` alone: each change returns its `Result` (the
    version one further per saved action, whose turn it is, whom to tell), and the store ends with the game
    finished, its log replaying to its state."""
    store = await SqliteGameStore.open(tmp_path / "games.sqlite3", synchronous="NORMAL")
    try:
        commits = commit.Commits(games.Games(store), decide.utcnow)
        heard = Heard()
        commits.listeners.append(heard)
        seats = (*PEOPLE, Seat.computer(1, "random", "Robot", "#0000ff"))
        rec = await _lobby(commits, kind, seats, seed=7)
        result = await commits.start(rec)
        rng = random.Random(7)
        while not result.game.is_over:
            seat = result.to_act
            assert seat is not None
            before = result.version
            if seat.is_computer:
                action = make_agent("random", seed=rng.randrange(1000)).choose(result.game.clone())
                saved = await commits.computer_move(rec.id, before, seat.player_id, action)
                assert saved is not None and saved.version == before + 1
                fresh = await commits.games.get(rec.id)
                result = decide.Result(fresh, fresh.game)
                continue
            assert result.to_notify == seat.user_id
            action = rng.choice(result.game.legal_actions())
            result = await commits.play(rec.id, seat.user_id, action, expected_version=before, through_optional=False)
            assert result.version >= before + 1  # its action (a skip may say nothing), then the claims it forced
            assert len(result.table_events) >= len(result.events)
        final = await commits.games.get(rec.id)
        assert final.status == GameStatus.FINISHED and final.version == result.version
        assert result.to_act is None and result.to_notify is None
        replay = Game.new(final.game.config, final.game.seed)
        for record in await store.get_actions(rec.id):
            replay.apply(action_from_dict(record.action), by=record.player_id)
        assert replay.to_dict() == final.game.to_dict()
        # Every change was announced once, in order: the lobby's, the start, then one move per saved action (its
        # version one further each time) with the events that action made.
        kinds = [c.kind for c in heard.changes]
        assert kinds[: kinds.index("start") + 1] == ["lobby"] * len(seats) + ["start"]
        moves = [c for c in heard.changes if c.kind == "move"]
        assert [c.version for c in moves] == list(range(moves[0].version, final.version + 1))
        replayed = Game.new(final.game.config, final.game.seed)
        made = [
            e
            for record in await store.get_actions(rec.id)
            for e in replayed.apply(action_from_dict(record.action), by=record.player_id)
        ]
        assert [(e.kind, e.text) for c in moves for e in c.events] == [(e.kind, e.text) for e in made]
    finally:
        await store.close()


# (A whole game through the game service, with every saved event on exactly one table: tests/service/test_door.py.)


async def test_an_unknown_computer_level_is_refused_not_played_as_another():
    """The service never plays an unknown level as some other one (the store refuses storing it: tests/db)."""
    game = Game.new(decide_config(), 1)
    service = GameService(None, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="grandmaster"):
        await service.computer_action(game, "grandmaster")


def decide_config():
    from engine import GameConfig

    return GameConfig("kingdomino", ("1", "2"))


PRODUCT = [Path(__file__).resolve().parents[1] / d for d in ("cogs", "db", "engine", "render", "web")]


def _wait_for_calls(source: str) -> list[int]:
    """Lines that call `asyncio.wait_for` (or a bare `wait_for` imported from asyncio)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr == "wait_for" and getattr(f.value, "id", "") == "asyncio") or (
                isinstance(f, ast.Name) and f.id == "wait_for"
            ):
                lines.append(node.lineno)
    return lines


def test_the_scan_finds_a_wait_for():
    assert _wait_for_calls("import asyncio\nasync def f(e):\n    await asyncio.wait_for(e.wait(), 1)\n") == [3]


def test_no_product_code_waits_with_asyncio_wait_for():
    """Python 3.11's `asyncio.wait_for` swallows a cancellation that comes as the awaited thing completes (it returns
    its result instead): a board's stream, the computers' wait or the database's watch, cancelled at that moment,
    went on. `asyncio.timeout` keeps the cancellation (tests/web/test_hub.py shows the difference)."""
    found = [
        f"{path.relative_to(path.parents[1])}:{line}"
        for folder in PRODUCT
        for path in sorted(folder.rglob("*.py"))
        for line in _wait_for_calls(path.read_text())
    ]
    bot = Path(__file__).resolve().parents[1] / "bot.py"
    found += [f"bot.py:{line}" for line in _wait_for_calls(bot.read_text())]
    assert not found, f"asyncio.wait_for in {found}: use `async with asyncio.timeout(...)` instead"


# -- one door: nobody but the service's rooms holds a game or reaches its commit path ---------------------------------
# The game service and the rooms it composes (they hold a game while they decide, save and show); everything else
# (the cogs that answer people, the web board, bot.py) goes through the service's methods.
SERVICE_ROOMS = {"service", "lobbydoor", "commit", "games", "computers", "timers", "presenter", "notifier"}
DOOR_WORDS = {"commits", "hold", "lock", "_locks"}  # the commit path, and the game's lock


def door_offences(source: str) -> list[str]:
    """`<x>.commits`, `<x>.hold(...)` or `<x>.lock(...)` in `source`: 'line N: name'."""
    return sorted(
        (
            f"line {node.lineno}: {node.attr}"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in DOOR_WORDS
        ),
        key=lambda found: int(found.split()[1].rstrip(":")),
    )


def test_the_scan_finds_a_writer_going_around_the_door():
    source = "async def f(ctx):\n    await ctx.service.commits.join(rec, seat)\n    async with service.lock(1):\n        pass\n"
    assert door_offences(source) == ["line 2: commits", "line 3: lock"]
    assert door_offences("async def f(s):\n    await s.join(1, person)\n    lock = asyncio.Lock()\n") == []


def test_every_writer_goes_through_the_door():
    """Issue 43: the lobby and the web used to call `service.commits.*` and take the channel lock themselves."""
    root = COGS.parent
    sources = [p for p in COGS.glob("*.py") if p.stem not in SERVICE_ROOMS]
    sources += [*(root / "web").glob("*.py"), root / "bot.py"]
    found = {str(p.relative_to(root)): o for p in sorted(sources) if (o := door_offences(p.read_text()))}
    assert not found, found
