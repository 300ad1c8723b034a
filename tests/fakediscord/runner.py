"""Start, restart and stop a real discord.py bot against a running FakeDiscord."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import discord
from discord.ext import commands

from .drivers import PATIENCE
from .server import FakeDiscord

# Builds one bot process. It may push clean-ups (closing a store, ...) onto the exit stack: they run after the
# bot has closed, on stop and before a restart builds the next bot.
BotFactory = Callable[[contextlib.AsyncExitStack], "commands.Bot | Awaitable[commands.Bot]"]

DISCORD_PACKAGE = str(Path(discord.__file__).parent)


def no_identify_delay(bot: discord.Client) -> discord.Client:
    """Make `bot` IDENTIFY at once: discord.py waits 5 s before every IDENTIFY but the first (a re-IDENTIFY after
    INVALID_SESSION, each shard after the first of an AutoShardedClient), which only slows tests down."""

    async def identify_now(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = identify_now  # type: ignore[method-assign]
    return bot


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class BotRunner:
    """Runs bots built by `factory` against `fake`, one at a time, like successive processes.

    `start()` logs in (which runs `setup_hook`), loads `extensions`, syncs the command tree if `sync_commands`,
    connects to the gateway and waits for `on_ready`. Errors logged while a bot runs (an exception in a command,
    a view, an event handler) are collected in `logged_errors`.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        factory: BotFactory,
        *,
        token: str | None = None,
        extensions: Sequence[str] = (),
        sync_commands: bool = True,
        ready_timeout: float = 5.0,
    ) -> None:
        self.fake = fake
        self.factory = factory
        self.token = token or fake.token
        self.extensions = tuple(extensions)
        self.sync_commands = sync_commands
        self.ready_timeout = ready_timeout
        self.bot: commands.Bot | None = None
        self.starts = 0
        self._task: asyncio.Task[None] | None = None
        self._stack: contextlib.AsyncExitStack | None = None
        self._errors = _ErrorCollector()
        self._extra_errors: list[str] = []
        self._baseline_tasks: set[asyncio.Task[object]] = set()

    @property
    def logged_errors(self) -> list[str]:
        return [self._format(r) for r in self._errors.records] + self._extra_errors

    def take_logged_errors(self) -> list[str]:
        """The errors logged so far; they no longer fail the test at teardown."""
        taken = self.logged_errors
        self._errors.records.clear()
        self._extra_errors.clear()
        return taken

    @staticmethod
    def _format(record: logging.LogRecord) -> str:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f" -- {type(error).__name__}: {error}"
        return text

    async def start(self) -> commands.Bot:
        if self.bot is not None:
            raise RuntimeError("a bot is already running; stop() or restart() it")
        self._baseline_tasks = set(asyncio.all_tasks())
        logging.getLogger().addHandler(self._errors)
        self._stack = contextlib.AsyncExitStack()
        built = self.factory(self._stack)
        bot = await built if inspect.isawaitable(built) else built
        self.bot = bot
        self.starts += 1
        try:
            await bot.login(self.token)
            for extension in self.extensions:
                await bot.load_extension(extension)
            if self.sync_commands:
                await bot.tree.sync()
            self._task = asyncio.create_task(bot.connect(reconnect=False), name="fakediscord-bot-connect")
            ready = asyncio.create_task(bot.wait_until_ready())
            done, _ = await asyncio.wait({ready, self._task}, timeout=self.ready_timeout, return_when="FIRST_COMPLETED")
            if ready not in done:
                ready.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await ready
                if self._task in done:
                    self._task.result()  # raises what stopped the bot
                    raise RuntimeError("the bot disconnected before it was ready")
                raise TimeoutError(f"the bot was not ready after {self.ready_timeout} s")
        except BaseException:
            await self.stop()
            raise
        return bot

    async def stop(self) -> None:
        """Close the bot like a process exit: cancel its pending tasks, close it, run the factory's clean-ups."""
        bot, self.bot = self.bot, None
        try:
            if bot is not None:
                await self._cancel_bot_tasks()
                await bot.close()
            if self._task is not None:
                task, self._task = self._task, None
                try:
                    await asyncio.wait_for(task, 5.0)
                except (discord.ConnectionClosed, asyncio.CancelledError):
                    pass
                except Exception as error:  # the gateway connection died: report it with the logged errors
                    self._extra_errors.append(f"gateway connection: {type(error).__name__}: {error}")
            await self._cancel_bot_tasks()
            if self._stack is not None:
                stack, self._stack = self._stack, None
                await stack.aclose()
        finally:
            logging.getLogger().removeHandler(self._errors)

    async def restart(self) -> commands.Bot:
        """Stop the running bot and start a new one from the factory (same fake, same settings)."""
        await self.stop()
        await self.fake.wait_until(lambda: not self.fake.connected, timeout=PATIENCE, what="the old bot to disconnect")
        return await self.start()

    async def _cancel_bot_tasks(self) -> None:
        """Cancel what the bot left running (event handlers, view timeouts, command callbacks)."""
        current = asyncio.current_task()
        pending = [
            t
            for t in asyncio.all_tasks()
            if t is not current and t is not self._task and t not in self._baseline_tasks and self._is_bot_task(t)
        ]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    @staticmethod
    def _is_bot_task(task: asyncio.Task[object]) -> bool:
        if task.get_name().startswith(("discord", "fakediscord")):
            return True
        coro = task.get_coro()
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        filename = code.co_filename if code is not None else ""
        return filename.startswith(DISCORD_PACKAGE) or "/cogs/" in filename


PROJECT_ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """A bot in its own OS process (`python -m tests.fakediscord.subprocess_bot`) against a FakeDiscord served by
    this process: start, stop (SIGTERM: a clean close), kill (SIGKILL: a crash), restart; errors it logs are
    collected like `BotRunner`'s.

    `factory` is `module:function` (the `BotFactory` signature); `env` adds environment variables (e.g.
    `{"SHARD_IDS": "1", "SHARD_COUNT": "2"}`) for the factory to read.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        factory: str,
        *,
        env: dict[str, str] | None = None,
        extensions: Sequence[str] = (),
        sync_commands: bool = False,
        token: str | None = None,
        identify_delay: bool = False,
        ready_timeout: float = 30.0,
        name: str = "",
    ) -> None:
        self.fake = fake
        self.factory = factory
        self.env = dict(env or {})
        self.extensions = tuple(extensions)
        self.sync_commands = sync_commands
        self.token = token or fake.token
        self.identify_delay = identify_delay
        self.ready_timeout = ready_timeout
        self.name = name or factory
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.ready_info: dict[str, object] = {}
        self.output: list[str] = []  # everything it wrote, stdout and stderr, for failure reports
        self._errors: list[str] = []
        self._ready: asyncio.Event = asyncio.Event()
        self._readers: list[asyncio.Task[None]] = []

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def logged_errors(self) -> list[str]:
        return list(self._errors)

    def take_logged_errors(self) -> list[str]:
        taken, self._errors = self._errors, []
        return taken

    def command(self) -> list[str]:
        args = [sys.executable, "-m", "tests.fakediscord.subprocess_bot", "--base-url", self.fake.base_url]
        args += ["--factory", self.factory, "--token", self.token, "--exit-with-stdin"]
        for extension in self.extensions:
            args += ["--extension", extension]
        if self.sync_commands:
            args.append("--sync")
        if not self.identify_delay:
            args.append("--no-identify-delay")
        return args

    async def start(self) -> None:
        """Spawn the process and wait until its bot is ready (or fail with its output)."""
        if self.running:
            raise RuntimeError(f"{self.name} is already running")
        env = {**os.environ, **self.env}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROJECT_ROOT), env.get("PYTHONPATH", "")) if p)
        self._ready = asyncio.Event()
        self.process = await asyncio.create_subprocess_exec(
            *self.command(),
            cwd=PROJECT_ROOT,
            env=env,
            stdin=asyncio.subprocess.PIPE,  # if this process dies, the bot's stdin ends and it closes
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        self.starts += 1
        assert self.process.stdout is not None and self.process.stderr is not None
        self._readers = [
            asyncio.create_task(self._read(self.process.stdout), name=f"bot-process-stdout-{self.pid}"),
            asyncio.create_task(self._read(self.process.stderr), name=f"bot-process-stderr-{self.pid}"),
        ]
        exited = asyncio.create_task(self.process.wait())
        ready = asyncio.create_task(self._ready.wait())
        done, _ = await asyncio.wait({exited, ready}, timeout=self.ready_timeout, return_when="FIRST_COMPLETED")
        for task in (exited, ready):
            if task not in done:
                task.cancel()
        if ready not in done:
            await self.kill()
            tail = "\n".join(self.output[-30:])
            why = "exited" if exited in done else f"was not ready after {self.ready_timeout} s"
            raise RuntimeError(f"bot process {self.name} {why}; its output:\n{tail}")

    async def _read(self, stream: asyncio.StreamReader) -> None:
        from .subprocess_bot import ERROR, READY

        while line := await stream.readline():
            text = line.decode(errors="replace").rstrip("\n")
            self.output.append(text)
            if text.startswith(READY + " "):
                self.ready_info = json.loads(text[len(READY) + 1 :])
                self._ready.set()
            elif text.startswith(ERROR + " "):
                record = json.loads(text[len(ERROR) + 1 :])
                self._errors.append(f"{record['logger']}: {record['message']}")

    async def _finish(self, sig: int, timeout: float) -> int | None:
        process = self.process
        if process is None:
            return None
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(sig)
            try:
                await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                process.kill()
                await process.wait()
        await asyncio.gather(*self._readers, return_exceptions=True)
        self._readers = []
        return process.returncode

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM: the bot closes cleanly (its gateway session ends). Returns the exit code."""
        was_running = self.running
        code = await self._finish(signal.SIGTERM, timeout)
        if was_running and code != 0:
            self._errors.append(f"bot process {self.name} exited with {code} after SIGTERM")
        return code

    async def kill(self) -> int | None:
        """SIGKILL: the process dies at once, mid-request if need be (its gateway session stays resumable)."""
        return await self._finish(signal.SIGKILL, 5.0)

    async def restart(self, *, kill: bool = False) -> None:
        await (self.kill() if kill else self.stop())
        await self.start()
