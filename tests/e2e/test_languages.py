"""The bot in the players' languages (issue #13): a Queendomino game by clicks with a Czech table and a mixed
Czech/English pair of players, and a pseudo-locale (en-XA) game whose visible text must all come from the
catalogues. The driver here reads the panels' controls by their custom_ids, never by their words."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

import pytest

from db.models import GuildSettings
from i18n import messages as M
from i18n import translate, translate_plural
from i18n.pseudo import english_outside_catalogues
from tests.e2e.play import active_record, latest_table
from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import FakeMessage, FakeUser

pytestmark = pytest.mark.e2e
CH = "kingdomino"


def _before_placeholder(lang: str, msgid: str) -> str:
    """The fixed start of a translated sentence, up to its first placeholder."""
    return translate(lang, msgid).split("{", 1)[0]


def _ids(message: FakeMessage, prefix: str) -> list[str]:
    return [b["custom_id"] for b in message.buttons if b["custom_id"].startswith(prefix) and not b.get("disabled")]


async def _redrawn(fake: FakeDiscord, panel: FakeMessage, before: int) -> FakeMessage:
    await fake.wait_until(lambda: len(fake.message(panel.id).history) > before, timeout=15)
    return fake.message(panel.id)


async def _click(fake, user, panel, custom_id) -> FakeMessage:
    before = len(fake.message(panel.id).history)
    await fake.click(user, panel, custom_id)
    return await _redrawn(fake, panel, before)


async def _select(fake, user, panel, select, value) -> FakeMessage:
    before = len(fake.message(panel.id).history)
    await fake.select(user, panel, select["custom_id"], [value])
    return await _redrawn(fake, panel, before)


@dataclass
class Shown:
    """What a panel showed at one moment (the fake's message is edited in place)."""

    content: str
    button_labels: list[str]
    selects: list[dict]

    @classmethod
    def of(cls, m: FakeMessage) -> Shown:
        return cls(m.content, list(m.button_labels), copy.deepcopy(m.selects))


async def play_turn(fake: FakeDiscord, user: FakeUser, rng: random.Random, seen: list[Shown]) -> None:
    """One turn by clicks, whatever the language: the controls are told apart by their custom_ids."""
    table = latest_table(fake, CH)
    turn = _ids(table, "kd:turn:")
    assert turn, table.button_labels
    panel = await (await fake.click(user, table, turn[0])).wait_message()
    for _ in range(60):
        seen.append(Shown.of(fake.message(panel.id)))
        cells = [s for s in panel.selects if s["custom_id"].startswith("kd:cell:")]
        if cells:
            select = rng.choice(cells)
            panel = await _select(fake, user, panel, select, rng.choice(select["options"])["value"])
        elif _ids(panel, "kd:dir:"):
            panel = await _click(fake, user, panel, rng.choice(_ids(panel, "kd:dir:")))
        elif _ids(panel, "kd:do:"):  # a free domino to claim, or Confirm under a preview
            panel = await _click(fake, user, panel, rng.choice(_ids(panel, "kd:do:")))
        elif builds := [i for i in _ids(panel, "kd:go:") if ":build " in i]:
            panel = await _click(fake, user, panel, rng.choice(builds))
        elif _ids(panel, "kd:go:"):  # the optional steps: tax once in a while, else done
            taxes = [i for i in _ids(panel, "kd:go:") if ":tax " in i]
            done = [i for i in _ids(panel, "kd:go:") if i.endswith(":skip")]
            panel = await _click(fake, user, panel, rng.choice(taxes) if taxes and rng.random() < 0.5 else done[0])
        else:
            return  # "done", with only the undo button
    raise AssertionError(f"turn did not finish: {panel.content}")


async def play_to_the_end(fake, bot, people: dict[str, FakeUser], seed: int = 5) -> list[Shown]:
    rng = random.Random(seed)
    seen: list[Shown] = []
    channel_id = fake.channel(CH).id
    for _ in range(400):
        await bot.service.idle()
        await fake.settle()
        rec = await active_record(bot, channel_id)
        if rec is None:
            await bot.service.idle()
            await fake.settle()
            return seen
        await play_turn(fake, people[rec.game.decision().player], rng, seen)
    raise AssertionError("the game did not end")


async def open_and_start(fake, host, joiner, **options) -> tuple[FakeMessage, FakeMessage, FakeMessage]:
    """`/game new`, a second person joins, the host starts: the host's confirmation, the joiner's, the lobby."""
    reply = await fake.slash(host, CH, "game", "new", options=options)
    confirmation = await reply.wait_message()
    assert confirmation.ephemeral
    lobby = next(m for m in reversed(fake.messages_in(CH)) if _ids(m, "kd:lobby:"))
    lobby_labels = list(lobby.button_labels)
    join = next(i for i in _ids(lobby, "kd:lobby:") if i.endswith(":join"))
    joined = await (await fake.click(joiner, lobby, join)).wait_message()
    start = next(i for i in _ids(lobby, "kd:lobby:") if i.endswith(":start"))
    await (await fake.click(host, lobby, start)).wait_message()
    await fake.settle()
    return confirmation, joined, fake.message(lobby.id), lobby_labels


async def test_a_czech_queendomino_table_with_a_czech_and_an_english_player(fake, bot):
    fake.alice.locale = "cs"  # Alice's client is Czech, Bob's English
    mine, bobs, lobby, labels = await open_and_start(
        fake, fake.alice, fake.bob, game="queendomino", players=2, language="cs"
    )
    # Private answers speak the clicker's language; the lobby speaks the table's, whoever looks at it.
    assert mine.content == translate("cs", M.TABLE_OPEN)
    assert bobs.content == translate("en", M.JOINED)
    assert translate("cs", M.BUTTON_JOIN) in labels and "Join" not in labels
    assert translate("cs", M.LOBBY_STARTED) in lobby.content
    first = latest_table(fake, CH)
    assert first.content.startswith(translate("cs", M.TABLE_FIRST_LINE, game="Queendomino")), first.content
    assert "it's your turn" not in first.content and "jsi na tahu" in first.content
    assert translate("cs", M.BUTTON_TAKE_TURN) in first.button_labels

    seen = await play_to_the_end(fake, bot, {str(fake.alice.id): fake.alice, str(fake.bob.id): fake.bob})
    czech_head = _before_placeholder("cs", M.YOUR_TURN_HEAD)  # "**Jsi na tahu** — "
    english_head = _before_placeholder("en", M.YOUR_TURN_HEAD)
    heads = [m.content for m in seen]
    assert any(czech_head in h for h in heads), heads[:3]
    assert any(english_head in h for h in heads), heads[:3]
    # Each panel in its clicker's language: Alice's never English, Bob's never Czech.
    for m in seen:
        words = m.content + " ".join(m.button_labels)
        if czech_head in m.content:
            assert english_head not in words and "optional steps" not in words, words
        if english_head in m.content:
            assert czech_head not in words, words
    # The optional steps of Queendomino were shown in Czech to Alice.
    assert any(translate_plural("cs", *M.OPTIONAL_HEAD, 0).split("0")[0] in m.content for m in seen)

    tables = [m for m in fake.messages_in(CH) if any(a.filename == "table.png" for a in m.attachments)]
    final = tables[-1]
    assert translate("cs", M.TABLE_FINAL, game="Queendomino") in final.content, final.content
    for table in tables:
        assert "it's your turn" not in table.content and "Scores:" not in table.content, table.content
        assert "Take my turn" not in table.button_labels
    assert "🏆" in final.content and translate("cs", M.BUTTON_REMATCH) in final.button_labels
    # Looks are private: each in the viewer's language.
    scores = next(i for i in _ids(final, "kd:look:") if i.endswith(":scores"))
    alices = await (await fake.click(fake.alice, final, scores)).wait_message()
    bobs = await (await fake.click(fake.bob, final, scores)).wait_message()
    assert alices.content.startswith(translate("cs", M.FINAL_SCORES_TITLE)), alices.content
    assert bobs.content.startswith("**Final scores**"), bobs.content


async def test_the_server_default_language_and_the_pseudo_locale_leave_no_english(fake, bot):
    """en-XA as the server's default: every sentence of a whole game, public and private, comes out bracketed."""
    guild_id = fake.channel(CH).guild_id
    await bot.store.set_guild_settings(GuildSettings(guild_id, language="en-XA"))
    fake.alice.locale = fake.bob.locale = "en-XA"
    mine, _, lobby, _ = await open_and_start(fake, fake.alice, fake.bob, game="kingdomino", players=2)
    assert mine.content == translate("en-XA", M.TABLE_OPEN) and "⟦" in lobby.content
    seen = await play_to_the_end(fake, bot, {str(fake.alice.id): fake.alice, str(fake.bob.id): fake.bob}, seed=7)
    names = [fake.alice.name, fake.bob.name, "Bot"]
    texts = []
    for m in [*fake.messages_in(CH), *seen]:
        texts.append(m.content)
        texts.extend(m.button_labels)
        for select in m.selects:
            texts.append(select.get("placeholder") or "")
            texts.extend(o["label"] + " " + (o.get("description") or "") for o in select["options"])
    leftovers = {w for text in texts for w in english_outside_catalogues(text, names=names)}
    assert not leftovers, sorted(leftovers)
