"""Playing through the fake Discord as people do: slash commands and clicks only. The test reads the game from
the bot's store only to know whose turn it is; every move goes through Discord."""

from __future__ import annotations

import random

from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import FakeMessage, FakeUser

TURN = "Take my turn"


def tables_in(fake: FakeDiscord, channel: str) -> list[FakeMessage]:
    """The channel's table messages that carry their picture (it may be attached a moment after the text)."""
    return [m for m in fake.messages_in(channel) if any(a.filename == "table.png" for a in m.attachments)]


def latest_table(fake: FakeDiscord, channel: str) -> FakeMessage:
    tables = tables_in(fake, channel)
    assert tables, "no table was posted"
    return tables[-1]


async def open_lobby(fake: FakeDiscord, host: FakeUser, channel: str, **options) -> FakeMessage:
    """`/game new` as `host`: the confirmation is private, the lobby is a public message with a Join button."""
    reply = await fake.slash(host, channel, "game", "new", options=options)
    confirmation = await reply.wait_message()
    assert confirmation.ephemeral and "Your table is open" in confirmation.content, confirmation.content
    return next(m for m in reversed(fake.messages_in(channel)) if "Join" in m.button_labels)


async def active_record(bot, channel_id: int):
    return await bot.store.get_active_game(channel_id)


def _button(message: FakeMessage, *, startswith: str = "", contains: str = "", rng: random.Random | None = None) -> str:
    """The custom_id of a matching enabled button (a random one with `rng`)."""
    found = [
        b["custom_id"]
        for b in message.buttons
        if not b.get("disabled")
        and b.get("label", "").startswith(startswith)
        and contains in b.get("label", "")
        and not b.get("label", "").startswith("Undo")  # a player plays on; undo has tests of its own
    ]
    if not found:
        raise AssertionError(f"no button {startswith or contains!r} among {message.button_labels}")
    return rng.choice(found) if rng else found[0]


async def _edited(fake: FakeDiscord, panel: FakeMessage, before: int) -> FakeMessage:
    await fake.wait_until(lambda: len(fake.message(panel.id).history) > before)
    return fake.message(panel.id)


async def click_panel(fake: FakeDiscord, user: FakeUser, panel: FakeMessage, target: str) -> FakeMessage:
    """Click a control of the private panel and wait until the bot has redrawn the panel."""
    before = len(fake.message(panel.id).history)
    reply = await fake.click(user, panel, target)
    assert reply.response_type == 6, f"the panel answers in place, not {reply.response_type}"
    return await _edited(fake, panel, before)


async def select_panel(
    fake: FakeDiscord, user: FakeUser, panel: FakeMessage, select_index: int, value: str
) -> FakeMessage:
    before = len(fake.message(panel.id).history)
    await fake.select(user, panel, panel.selects[select_index]["custom_id"], [value])
    return await _edited(fake, panel, before)


def _ids(message: FakeMessage, prefix: str) -> list[str]:
    return [b["custom_id"] for b in message.buttons if not b.get("disabled") and b["custom_id"].startswith(prefix)]


async def play_turn(
    fake: FakeDiscord, user: FakeUser, channel: str, rng: random.Random, *, prefer_optional: bool = True
):
    """One whole turn of `user` by clicks: open the panel from the latest table, then answer each step."""
    table = latest_table(fake, channel)
    reply = await fake.click(user, table, TURN)
    panel = await reply.wait_message()
    assert panel.ephemeral, "the turn panel must be private"
    steps = 0
    while True:
        steps += 1
        assert steps < 60, f"turn did not finish: {panel.content}"  # a 2-king player may chain two turns
        text = "\n".join(line for line in panel.content.splitlines() if not line.startswith("ℹ️"))
        if text.startswith("Done"):
            return panel
        if "Preview:" in text:
            assert panel.attachments, "a preview shows a picture"
            panel = await click_panel(fake, user, panel, preview_choice(panel, rng, prefer_optional=prefer_optional))
        elif "which way does the second square" in text:
            panel = await click_panel(fake, user, panel, _button(panel, contains="point", rng=rng))
        elif "Choose a spot" in text:
            assert panel.attachments, "the placement panel shows the kingdom"
            panel = await choose_spot(fake, user, panel, rng)
        elif "Pick a free domino" in text:
            panel = await click_panel(fake, user, panel, _button(panel, rng=rng))
        elif "on which town square" in text:
            panel = await click_panel(fake, user, panel, _button(panel, startswith="Build on", rng=rng))
        elif "you may now do these steps" in text:
            panel = await optional_step(fake, user, panel, rng, prefer_optional=prefer_optional)
        else:
            raise AssertionError(f"unexpected panel: {text}")


def preview_choice(panel: FakeMessage, rng: random.Random, *, prefer_optional: bool = True) -> str:
    """Under a preview: confirm and take a domino (or end the turn) in one tap, or confirm then use the optional
    steps (sometimes, when optional steps are welcome)."""
    both = _ids(panel, "kd:pc:")
    confirm = _ids(panel, "kd:do:")
    if both and (not confirm or not prefer_optional or rng.random() < 0.5):
        return rng.choice(both)
    assert confirm, f"no way to confirm among {panel.button_labels}"
    return confirm[0]


async def choose_spot(fake: FakeDiscord, user: FakeUser, panel: FakeMessage, rng: random.Random) -> FakeMessage:
    """A spot, uniformly among every legal one: a button, or an option of a list (of spots, or of cells)."""
    spots = [("click", i, None) for i in _ids(panel, "kd:dir:")]
    for index, select in enumerate(panel.selects):
        spots += [("select", index, o["value"]) for o in select["options"]]
    how, which, value = rng.choice(spots)
    if how == "click":
        return await click_panel(fake, user, panel, which)
    return await select_panel(fake, user, panel, which, value)


async def optional_step(
    fake: FakeDiscord, user: FakeUser, panel: FakeMessage, rng: random.Random, *, prefer_optional: bool = True
) -> FakeMessage:
    """One choice on the panel of the optional steps (tax, build, dragon, or done with them)."""
    choices = ["done"]
    if prefer_optional:
        if any(label.startswith("Knight") for label in panel.button_labels):
            choices += ["tax"] * 3
        for select in panel.selects:
            if "Build" in select.get("placeholder", ""):
                choices += ["build"] * 3
            if "Dragon" in select.get("placeholder", ""):
                choices += ["dragon"]
    choice = rng.choice(choices)
    if choice == "tax":
        return await click_panel(fake, user, panel, _button(panel, startswith="Knight", rng=rng))
    if choice in ("build", "dragon"):
        word = "Build" if choice == "build" else "Dragon"
        index = next(i for i, sel in enumerate(panel.selects) if word in sel.get("placeholder", ""))
        options = panel.selects[index]["options"]
        return await select_panel(fake, user, panel, index, rng.choice(options)["value"])
    takes = [i for i in _ids(panel, "kd:go:") if ":claim " in i]  # done: take the next domino at once
    return await click_panel(fake, user, panel, rng.choice(takes) if takes else _button(panel, startswith="Done"))


async def play_game(
    fake: FakeDiscord, bot, channel: str, people: dict[str, FakeUser], *, seed: int = 1, max_turns: int = 400
):
    """Play the channel's game to its end by clicks, each person acting when the table names them."""
    rng = random.Random(seed)
    channel_id = fake.channel(channel).id
    for _ in range(max_turns):
        await bot.service.idle()  # computer players at work post the table when they are done
        rec = await active_record(bot, channel_id)
        if rec is None:  # over: the last computer moves post the final table
            await bot.service.idle()
            await fake.settle()
            return
        d = rec.game.decision()
        if d.player not in people:  # a computer player is at work: the table comes when it is done
            await bot.service.idle()
            await fake.settle()
            continue
        user = people[d.player]
        await play_turn(fake, user, channel, rng)
    raise AssertionError("the game did not end")


async def start_game(fake: FakeDiscord, host: FakeUser, channel: str, joiners=(), **options) -> FakeMessage:
    """Open a lobby by slash command, have `joiners` click Join, the host clicks Start; returns the first table."""
    lobby = await open_lobby(fake, host, channel, **options)
    for user in joiners:
        await (await fake.click(user, lobby, "Join")).wait_message()
    await (await fake.click(host, lobby, "Start")).wait_message()
    await fake.settle()
    # A busy machine may still be drawing the first table's picture when the bot falls quiet: wait for it.
    await fake.wait_until(lambda: tables_in(fake, channel), what="the first table's picture")
    return latest_table(fake, channel)


async def logged_actions(bot, channel_id: int) -> list[dict]:
    games = await bot.store.list_games(channel_id=channel_id, limit=1)
    return [a.action for a in await bot.store.get_actions(games[0].id)]


async def slash_action(fake: FakeDiscord, user: FakeUser, channel: str, action) -> None:
    """Play one engine action by typing its slash command (the test chose it among the legal ones)."""
    from engine import BribeDragon, Build, Claim, Place, Tax, cell_name

    if isinstance(action, Claim):
        names, options = ("claim",), {"domino": action.domino}
    elif isinstance(action, Place):
        names, options = ("place",), {"cell": cell_name(action.row, action.col), "direction": action.direction}
    elif isinstance(action, Tax):
        names, options = ("tax",), {"knights": " ".join(cell_name(*c) for c in action.cells)}
    elif isinstance(action, Build):
        names, options = ("build",), {"building": str(action.slot), "cell": cell_name(action.row, action.col)}
    elif isinstance(action, BribeDragon):
        names, options = ("dragon",), {"building": str(action.slot)}
    else:
        names, options = ("skip",), {}
    reply = await fake.slash(user, channel, "play", *names, options=options)
    message = await reply.wait_message()
    assert any(w in message.content for w in ("Done", "Your turn", "Your move is saved")), message.content
    await fake.settle()
