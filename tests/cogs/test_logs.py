"""Log records say where they happened (issue 48): the game, the guild and the channel, set where a click enters
(`cogs.shutdown.Doors`, which every interaction passes) or where a game's work starts, and carried into every task
started from there; written as text lines or as JSON lines (LOG_FORMAT)."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import discord
import pytest

from cogs.logs import JsonFormatter, LineFormatter, WhereFilter, handler, here, set_where, where
from cogs.shutdown import Doors
from cogs.views import TurnButton

log = logging.getLogger("kd.test.logs")


def record(message: str = "saved", exc: BaseException | None = None) -> logging.LogRecord:
    made = log.makeRecord(log.name, logging.INFO, __file__, 1, message, (), (type(exc), exc, None) if exc else None)
    WhereFilter().filter(made)
    return made


def test_a_line_names_the_place_when_there_is_one():
    assert LineFormatter().format(record()).endswith("kd.test.logs: saved")
    with where(game=3, guild=10, channel=20):
        line = LineFormatter().format(record())
    assert line.endswith("kd.test.logs: saved [game=3 guild=10 channel=20]")
    with where(channel=20):
        assert LineFormatter().format(record()).endswith("saved [channel=20]")


def test_a_json_line_has_the_place_and_the_error():
    try:
        raise ValueError("boom")
    except ValueError as error:
        with where(game=7, guild=1):
            entry = json.loads(JsonFormatter().format(record("failed", error)))
    assert (entry["level"], entry["logger"], entry["message"]) == ("INFO", "kd.test.logs", "failed")
    assert (entry["game"], entry["guild"]) == (7, 1) and "channel" not in entry
    assert "ValueError: boom" in entry["error"] and entry["time"].endswith("Z")


def test_the_place_is_the_tasks_own_and_its_childrens():
    async def main() -> list:
        seen = []

        async def child() -> None:
            seen.append(here().game)

        async def game_work(game_id: int) -> None:
            set_where(game=game_id)
            await asyncio.create_task(child())

        await asyncio.gather(game_work(1), game_work(2))
        seen.append(here().game)
        return seen

    seen = asyncio.run(main())
    assert sorted(seen[:2]) == [1, 2] and seen[2] is None, "each game's task its own; the caller's untouched"


def test_where_refuses_an_unknown_field():
    with pytest.raises(TypeError, match="game, guild, channel"):
        set_where(table=1)


def test_the_handler_writes_lines_or_json():
    for form in ("lines", "json"):
        stream = io.StringIO()
        out = handler(form, stream)
        with where(game=5):
            log.addHandler(out)
            log.setLevel(logging.INFO)
            try:
                log.info("hello")
            finally:
                log.removeHandler(out)
        text = stream.getvalue().strip()
        assert (json.loads(text)["game"] == 5) if form == "json" else text.endswith("hello [game=5]")
    with pytest.raises(ValueError, match="lines or json"):
        handler("xml")


def test_a_click_through_the_doors_carries_its_guild_channel_and_game_into_its_tasks(caplog):
    """The doors set the place from the interaction (its guild, channel, and the game its control's custom id
    names) around discord.py's parser, so the handlers it starts log with it; and they count those handlers."""
    doors = Doors(lambda: (TurnButton,))

    async def main() -> tuple[list, int]:
        places = []

        async def handler_task() -> None:
            await asyncio.sleep(0)
            places.append(here())
            logging.getLogger("cogs.views").warning("clicked")

        def parse(data: dict) -> None:  # what discord.py's parser does: start the click's handler
            asyncio.get_running_loop().create_task(handler_task())

        data = {"type": 3, "guild_id": "10", "channel_id": "20", "data": {"custom_id": "kd:turn:33:1003"}}
        doors.enter(data, parse, bot=None)  # type: ignore[arg-type]
        inside = len(doors.inside)
        await doors.settle()
        return places, inside

    caplog.handler.addFilter(WhereFilter())
    try:
        places, inside = asyncio.run(main())
    finally:
        caplog.handler.removeFilter(caplog.handler.filters[-1])
    assert inside == 1, "the click's handler is counted until it ends"
    assert [(p.game, p.guild, p.channel) for p in places] == [(33, 10, 20)]
    [entry] = [r for r in caplog.records if r.getMessage() == "clicked"]
    assert (entry.game, entry.guild, entry.channel) == (33, 10, 20)
    assert here().game is None, "nothing leaks into the gateway's own task"


def test_while_stopping_the_doors_answer_instead_of_dispatching(monkeypatch):
    answered = []

    async def answer(interaction) -> None:
        answered.append(interaction)

    monkeypatch.setattr("cogs.shutdown.answer_while_stopping", answer)
    monkeypatch.setattr(discord, "Interaction", lambda *, data, state: data)
    doors = Doors()
    doors.stopping = True

    class Bot:
        _connection = None

    async def main() -> None:
        doors.enter({"type": 3, "channel_id": "20"}, lambda data: pytest.fail("dispatched while stopping"), Bot())
        await doors.settle()

    asyncio.run(main())
    assert answered == [{"type": 3, "channel_id": "20"}]
