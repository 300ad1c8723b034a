"""The bot in the players' languages (issue #13): a Queendomino game by clicks with a Czech table and a mixed
Czech/English pair of players; a Queendomino game typed with `/play` in Romanian and one in Spanish, with every
command and no English piece of a catalogue sentence in sight; and a pseudo-locale (en-XA) game whose visible
text, the private answers of every command included, must all come from the catalogues. The drivers here read
the panels' controls by their custom_ids and choose moves from the engine's legal actions, never by words."""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass

import pytest

from cogs.settings import SERVER_LIMITS
from cogs.words import game_name, seat_name
from db.models import GuildSettings
from i18n import format_number, translate, translate_plural
from i18n import messages as M
from i18n.pseudo import english_outside_catalogues
from tests.e2e.play import active_record, latest_table, logged_actions
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
    await fake.wait_until(lambda: len(fake.message(panel.id).history) > before)
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
        lists = [s for s in panel.selects if s["custom_id"].startswith(("kd:cell:", "kd:spot:"))]
        if lists or _ids(panel, "kd:dir:"):  # where the domino goes: a spot's button, or a spot (or cell) in a list
            spots = [(None, i) for i in _ids(panel, "kd:dir:")] + [(s, o["value"]) for s in lists for o in s["options"]]
            select, value = rng.choice(spots)
            if select is None:
                panel = await _click(fake, user, panel, value)
            else:
                panel = await _select(fake, user, panel, select, value)
        elif _ids(panel, "kd:do:") or _ids(panel, "kd:pc:"):  # a domino to claim; under a preview, confirm
            panel = await _click(fake, user, panel, rng.choice(_ids(panel, "kd:do:") + _ids(panel, "kd:pc:")))
        elif builds := [i for i in _ids(panel, "kd:go:") if ":build " in i]:
            panel = await _click(fake, user, panel, rng.choice(builds))
        elif _ids(panel, "kd:go:"):  # the optional steps: tax once in a while, else done
            taxes = [i for i in _ids(panel, "kd:go:") if ":tax " in i]
            done = [i for i in _ids(panel, "kd:go:") if i.endswith(":skip") or ":claim " in i]  # or take the next
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
    alice, bob = fake.alice, fake.bob
    answers = []

    async def ask(user, *names, client_checks: bool = True, **options) -> None:
        reply = await fake.slash(user, CH, *names, options=options, client_checks=client_checks)
        message = await reply.wait_message()
        assert message.ephemeral and message.content, (names, message.content)
        answers.append(message.content)

    # Private answers while the game is on: /game mine, every /look, /play mistakes, suggestions, /settings.
    await ask(alice, "game", "mine")
    for view in ("table", "kingdom", "scores", "remaining", "history"):
        await ask(bob, "look", view)
    await ask(alice, "play", "place", cell="zz", direction="right")
    await ask(alice, "play", "place", cell="C3", direction="sideways")
    await ask(alice, "play", "build", building="x", cell="C3")
    await ask(alice, "play", "dragon", building="x")
    await ask(alice, "play", "tax", knights=" ".join(["E4"] * 12), client_checks=False)
    assert answers[-1] == translate("en-XA", M.TYPED_TOO_LONG, typed="`E4 E4 E4 E4 E4 E4 E4 E4…`", length=35)
    rec = await active_record(bot, fake.channel(CH).id)
    first = fake.user(int(rec.game.decision().player))
    choices = await fake.autocomplete(first, CH, "play", "claim", focused="domino")
    assert choices and all("⟦" in c["name"] for c in choices), choices
    answers.extend(c["name"] for c in choices)
    await ask(bob, "settings", "notify", how="dm", quiet_from="22:00", quiet_to="7:00")
    await ask(bob, "settings", "notify", quiet_from="22:00")
    await ask(bob, "settings", "notify", timezone="Mars/Base")
    await ask(bob, "settings", "server")
    seen = await play_to_the_end(fake, bot, {str(fake.alice.id): fake.alice, str(fake.bob.id): fake.bob}, seed=7)
    # And after it: the rules, the statistics, the pictures' captions, a kingdom's heading, /game mine.
    await ask(alice, "rules")
    await ask(alice, "rules", game="royal-wedding")
    await ask(alice, "stats", "players")
    await ask(alice, "stats", "players", player=bob)
    await ask(alice, "stats", "leaderboard")
    await ask(alice, "look", "chart")
    await ask(alice, "look", "kingdom", text=True)
    answers[-1] = answers[-1].split("\n", 1)[0]  # the grid itself is render/alt's (kingdom_text)
    await ask(alice, "game", "mine")
    assert len(answers) == 23 + len(choices) and all("⟦" in a for a in answers), answers
    names = [fake.alice.name, fake.bob.name, "Bot"]
    texts = list(answers)
    for m in [*fake.messages_in(CH), *seen]:
        texts.append(m.content)
        texts.extend(m.button_labels)
        for select in m.selects:
            texts.append(select.get("placeholder") or "")
            texts.extend(o["label"] + " " + (o.get("description") or "") for o in select["options"])
    leftovers = {w for text in texts for w in english_outside_catalogues(text, names=names)}
    assert not leftovers, sorted(leftovers)


# -- whole games typed in Romanian and Spanish ---------------------------------------------------------------------
def english_pieces(lang: str) -> set[str]:
    """The fixed English pieces of the catalogue's sentences (the text between placeholders, two words or more)
    that their translation in `lang` does not contain: none of them may show in that language."""
    from babel.messages.pofile import read_po

    from i18n.catalog import LOCALES_DIR

    with open(LOCALES_DIR / "en.po", "rb") as f:
        catalogue = read_po(f)
    pieces = set()
    for message in catalogue:
        if not message.id or (message.context or "").startswith(("slash", "term:")):
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if isinstance(message.id, tuple):
            translated = " ".join(translate_plural(lang, *message.id, n) for n in (1, 2, 5, 21))
        else:
            translated = translate(lang, message.id, context=message.context)
        for msgid in ids:
            for piece in re.split(r"\{[^}]*\}", msgid):
                piece = piece.strip(" *`_.,:;()—-\n")
                if len(piece) >= 12 and " " in piece and piece not in translated:
                    pieces.add(piece)
    return pieces


def english_in(texts: list[str], pieces: set[str]) -> list[tuple[str, str]]:
    """(piece, text) for each English piece found. A kingdom's grid in text (a code block) is render/alt's, with
    tests of its own, and left out."""
    texts = [re.sub(r"```.*?```", " ", text, flags=re.DOTALL) for text in texts]
    return [(piece, text) for text in texts for piece in pieces if piece in text]


async def _answer(reply) -> str:
    message = await reply.wait_message()  # the last move of a game also draws its end
    assert message.ephemeral, message.content
    return message.content


def _slash_options(action) -> tuple[str, dict]:
    from engine import BribeDragon, Build, Claim, Place, Tax, cell_name

    if isinstance(action, Claim):
        return "claim", {"domino": action.domino}
    if isinstance(action, Place):
        return "place", {"cell": cell_name(action.row, action.col), "direction": action.direction}
    if isinstance(action, Tax):
        return "tax", {"knights": " ".join(cell_name(*c) for c in action.cells)}
    if isinstance(action, Build):
        return "build", {"building": str(action.slot), "cell": cell_name(action.row, action.col)}
    if isinstance(action, BribeDragon):
        return "dragon", {"building": str(action.slot)}
    return "skip", {}


class Typist:
    """Two people who play Queendomino by typing `/play` commands only, in their client's language `lang`: they
    take every optional step the first time it is open (then now and then), look at the suggestions of each
    option once, and keep every answer they got."""

    def __init__(self, fake, bot, lang: str, people: dict[str, FakeUser], seed: int) -> None:
        self.fake, self.bot, self.lang, self.people = fake, bot, lang, people
        self.rng = random.Random(seed)
        self.answers: list[str] = []
        self.done: set[str] = set()  # what was typed or suggested at least once

    async def type(self, user, *names, **options) -> str:
        text = await _answer(await self.fake.slash(user, CH, *names, options=options))
        self.answers.append(text)
        return text

    async def suggestions(self, user, command: str, focused: str, value: str = "", **options) -> list[str]:
        choices = await self.fake.autocomplete(user, CH, "play", command, focused=focused, value=value, options=options)
        names = [c["name"] for c in choices]
        self.answers.extend(names)
        return names

    def pick(self, game, d):
        from engine import BribeDragon, Build, Place, Skip, Tax

        legal = game.legal_actions()
        for kind, first, later in ((Tax, "tax", 0.6), (Build, "build", 0.5), (BribeDragon, "dragon", 0.2)):
            chosen = [a for a in legal if isinstance(a, kind)]
            if chosen and (first not in self.done or self.rng.random() < later):
                return self.rng.choice(chosen)
        if any(isinstance(a, Skip) for a in legal):
            return Skip()
        places = [a for a in legal if isinstance(a, Place)]
        return self.rng.choice(places or legal)

    async def check_suggestions(self, user, game, d, action) -> None:
        """The suggestions of the option the action needs, once per option: in the typist's language."""
        from cogs.words import building_name, domino_words, effect_words
        from engine import BribeDragon, Build, Claim, Place, Tax, cell_name

        lang, legal = self.lang, game.legal_actions()
        command, options = _slash_options(action)
        if command in self.done or command == "skip":
            return
        if isinstance(action, Claim):
            names = await self.suggestions(user, "claim", "domino")
            assert set(names) == {domino_words(a.domino, lang=lang) for a in legal if isinstance(a, Claim)}
        elif isinstance(action, Place):
            places = [a for a in legal if isinstance(a, Place)]
            cells = {(a.row, a.col) for a in places}
            names = await self.suggestions(user, "place", "cell")
            assert len(names) == min(25, len(cells)), names
            ways = [translate(lang, M.DIRECTIONS[a.direction]) for a in places if (a.row, a.col) == cells_first(cells)]
            first = translate(lang, M.CELL_THEN, cell=cell_name(*cells_first(cells)), directions=", ".join(ways))
            assert names[0] == first, (names[0], first)
            names = await self.suggestions(user, "place", "direction", cell=options["cell"])
            assert translate(lang, M.DIRECTIONS[action.direction]) in names, names
            # Typing the value itself (`right`) still finds its words.
            typed = await self.suggestions(user, "place", "direction", action.direction, cell=options["cell"])
            assert typed == [translate(lang, M.DIRECTIONS[action.direction])], typed
        elif isinstance(action, Tax):
            names = await self.suggestions(user, "tax", "knights")
            coins = sum(game.tax_coins(d.kingdom, c) for c in action.cells)
            assert translate_plural(lang, *M.TAX_CHOICE, coins, cells=options["knights"]) in names, names
        elif isinstance(action, Build):
            names = await self.suggestions(user, "build", "building")
            b = game.board[action.slot]
            cost = game.cost_of(action.slot, d.kingdom)
            wanted = translate_plural(
                lang, *M.BUILD_CHOICE, cost, building=building_name(b, lang), effect=effect_words(b, lang)
            )
            assert wanted[:100] in names, (wanted, names)
            assert options["cell"] in await self.suggestions(user, "build", "cell", building=options["building"])
        elif isinstance(action, BribeDragon):
            names = await self.suggestions(user, "dragon", "building")
            assert building_name(game.board[action.slot], lang) in names, names

    async def move(self, user, game, d, action) -> str:
        await self.check_suggestions(user, game, d, action)
        command, options = _slash_options(action)
        text = await self.type(user, "play", command, **options)
        self.done.add(command)
        await self.fake.settle()
        return text

    async def play(self, channel_id: int, *, extras) -> None:
        """To the end of the game; `extras(user, game, d)` is awaited before each human move (errors, undo…)."""
        for _ in range(600):
            await self.bot.service.idle()
            await self.fake.settle()
            rec = await active_record(self.bot, channel_id)
            if rec is None:
                await self.bot.service.idle()
                await self.fake.settle()
                return
            d = rec.game.decision()
            if d.player not in self.people:
                continue
            user = self.people[d.player]
            await extras(user, rec.game, d)
            rec = await active_record(self.bot, channel_id)
            await self.move(user, rec.game, d, self.pick(rec.game, d))
        raise AssertionError("the game did not end")


def cells_first(cells) -> tuple[int, int]:
    return sorted(cells)[0]


@pytest.mark.parametrize(("lang", "client"), [("ro", "ro"), ("es", "es-ES")])
async def test_a_queendomino_game_typed_in_romanian_and_spanish(fake, bot, lang, client):
    """A Queendomino table in `lang`, two people whose clients speak it and a computer: every command at least
    once, every step of a Queendomino turn typed; what they see is that language's, never the English."""
    from engine import Place

    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    for user in (fake.alice, fake.bob, fake.carol):
        user.locale = client
    typist = Typist(fake, bot, lang, people, seed=3)
    alice, bob, carol = fake.alice, fake.bob, fake.carol

    # Before the game: settings, the rules, /game mine with nothing.
    said = await typist.type(bob, "settings", "notify", how="both", quiet_from="23:00", quiet_to="6:30")
    assert said == translate(lang, M.NOTIFY_QUIET["both"], start="23:00", end="06:30", zone="UTC")
    said = await typist.type(bob, "settings", "notify", clear_quiet_hours=True, timezone="Europe/Madrid")
    assert said == translate(lang, M.NOTIFY_NO_QUIET["both"])
    assert await typist.type(bob, "settings", "notify", quiet_from="22:00") == translate(lang, M.QUIET_BOTH_ENDS)
    said = await typist.type(bob, "settings", "notify", quiet_from="25:00", quiet_to="7:00")
    assert said == translate(lang, M.NOT_A_TIME, typed="`25:00`")
    said = await typist.type(bob, "settings", "notify", timezone="Mars/Base")
    assert said == translate(lang, M.UNKNOWN_TIMEZONE, zone="`Mars/Base`")
    said = await typist.type(alice, "settings", "server")
    assert said.startswith(translate(lang, SERVER_LIMITS, lobbies=2, games=10, hours="24")), said
    assert await typist.type(carol, "rules") == translate(lang, M.RULES_KINGDOMINO)
    said = await typist.type(carol, "rules", game="royal-wedding")
    assert said == translate(lang, M.RULES_QUEENDOMINO) + "\n" + translate(lang, M.RULES_ROYAL_WEDDING)
    assert await typist.type(alice, "game", "mine") == translate(lang, M.MINE_NONE)

    reply = await fake.slash(
        alice, CH, "game", "new", options={"game": "kingdomino", "reminder_hours": 1000.0}, client_checks=False
    )
    option = translate(lang, "reminder_hours", context="slash-option")
    assert await _answer(reply) == translate(lang, M.HOURS_RANGE, option=option) and option != "reminder_hours"

    # The table: Alice opens it with a computer seat, Carol joins and leaves, Bob takes the seat, Alice starts.
    said = await typist.type(
        alice, "game", "new", game="queendomino", players=3, computers=1, computer_level="easy", language=lang
    )
    assert said == translate(lang, M.TABLE_OPEN)
    assert await typist.type(carol, "game", "join") == translate(lang, M.JOINED)
    assert await typist.type(carol, "game", "leave") == translate(lang, M.LEFT)
    assert await typist.type(bob, "game", "join") == translate(lang, M.JOINED)
    assert await typist.type(alice, "game", "start") == translate(lang, M.GAME_STARTED)
    await bot.service.idle()  # the computer may move first: the table comes when it is done
    await fake.settle()
    first = latest_table(fake, CH)
    assert first.content.startswith(translate(lang, M.TABLE_FIRST_LINE, game="Queendomino")), first.content
    channel_id = fake.channel(CH).id
    mine = await typist.type(alice, "game", "mine")
    rec = await active_record(bot, channel_id)
    where = {"game": game_name("queendomino", lang), "channel": f"<#{channel_id}>", "link": ""}
    if rec.game.decision().player == str(alice.id):
        line = translate(lang, M.MINE_YOUR_TURN_FIRST_LINE, **where)
    else:
        line = translate(
            lang, M.MINE_THEIR_TURN_FIRST_LINE, name=seat_name(rec.seats, rec.game.decision().player), **where
        )
    assert mine.startswith(translate(lang, M.MINE_TITLE) + "\n" + line), (mine, line)
    said = await typist.type(carol, "game", "new", game="kingdomino", players=2)
    link = f" (https://discord.com/channels/{fake.guild_id}/{channel_id}/{rec.table_message_id})"
    status = translate(lang, M.GAME_STATUS["playing"])
    assert said == translate(lang, M.CHANNEL_HAS_GAME, game_id=rec.id, status=status, link=link), said

    async def extras(user, game, d) -> None:
        """Once each: the panel, typing mistakes, and taking back a placement."""
        if "panel" not in typist.done:
            said = await typist.type(user, "play", "panel")
            assert _before_placeholder(lang, M.YOUR_TURN_HEAD) in said, said
            typist.done.add("panel")
        if d.kind == "place" and "mistakes" not in typist.done:
            said = await typist.type(user, "play", "place", cell="zz", direction="right")
            assert said == translate(lang, M.BAD_CELL, typed="`zz`")
            said = await typist.type(user, "play", "place", cell="C3", direction="sideways")
            assert said == translate(lang, M.REFUSALS["bad_direction"], direction="`sideways`")
            said = await typist.type(user, "play", "build", building="x", cell="C3")
            assert said == translate(lang, M.PICK_FROM_SUGGESTIONS)
            said = await typist.type(user, "play", "dragon", building="x")
            assert said == translate(lang, M.PICK_BURN_SUGGESTIONS)
            typist.done.add("mistakes")
        if d.kind == "place" and "undo" not in typist.done:
            place = next(a for a in game.legal_actions() if isinstance(a, Place))
            await typist.move(user, game, d, place)
            said = await typist.type(user, "play", "undo")
            assert said.startswith("↩️ " + translate(lang, M.TAKEN_BACK)), said
            typist.done.add("undo")

    await typist.play(channel_id, extras=extras)
    actions = [a["type"] for a in await logged_actions(bot, channel_id)]
    for step in ("claim", "place", "tax", "build", "dragon", "skip"):
        assert step in typist.done and step in actions, (step, sorted(typist.done), set(actions))

    # After the game: every look, the statistics, the rules of the game that ended, a table opened and cancelled.
    final = latest_table(fake, CH)
    assert translate(lang, M.TABLE_FINAL, game="Queendomino") in final.content, final.content
    rec = await bot.store.get_game((await bot.store.list_games(channel_id=channel_id, limit=1))[0].id)
    game, totals = rec.game, [s.total for s in rec.game.scores()]
    assert await typist.type(carol, "look", "table") == translate(lang, M.TABLE_NOW)
    said = await typist.type(carol, "look", "kingdom", player=alice)
    index = game.kingdom_of(str(alice.id))
    owners = seat_name(rec.seats, str(alice.id))
    assert said == translate_plural(lang, *M.KINGDOM_HEAD, totals[index], owners=owners), said
    said = await typist.type(bob, "look", "kingdom", text=True)
    index = game.kingdom_of(str(bob.id))
    head = translate_plural(lang, *M.KINGDOM_TITLE, totals[index], owners=seat_name(rec.seats, str(bob.id)))
    assert said.startswith(head + "\n```"), said
    assert (await typist.type(bob, "look", "scores")).startswith(translate(lang, M.FINAL_SCORES_TITLE) + "\n")
    unseen = len(game.unseen_dominoes())
    said = await typist.type(bob, "look", "remaining")
    assert said == translate_plural(lang, *M.UNSEEN_OF_OVER, unseen, total=unseen + len(game.revealed)), said
    said = await typist.type(carol, "look", "history")
    numbers = dict.fromkeys(("first", "last", "total", "page", "pages"), "§")
    head = re.escape(translate(lang, M.HISTORY_HEAD, **numbers)).replace("§", r"\d+")
    assert re.match(head + r"\n\d+\. ", said), said
    assert await typist.type(carol, "look", "chart") == translate(lang, M.CHART_CAPTION)
    assert await typist.type(carol, "look", "replay") == translate(lang, M.REPLAY_CAPTION)
    assert await typist.type(carol, "rules") == translate(lang, M.RULES_QUEENDOMINO)
    said = await typist.type(carol, "stats", "players")
    assert said.startswith(translate(lang, M.STATS_SERVER_TITLE) + "\n"), said
    (row,) = await bot.store.user_stats(bob.id, guild_id=fake.channel(CH).guild_id)
    line = translate(
        lang,
        M.STATS_LINE,
        game=game_name("queendomino", lang),
        played=1,
        wins=row.wins,
        average=format_number(lang, row.average_score, decimals=1),
        best=row.best_score,
    )
    said = await typist.type(carol, "stats", "players", player=bob)
    assert said.split("\n")[1:] == [line], (said, line)
    said = await typist.type(carol, "stats", "leaderboard")
    assert said.startswith(translate(lang, M.LEADERBOARD_TITLE, game=game_name("queendomino", lang))), said
    assert "🤖 " + translate(lang, M.LEVELS["easy"]) in said, said
    said = await typist.type(carol, "game", "new", game="kingdomino", players=2, language=lang)
    assert said == translate(lang, M.TABLE_OPEN)
    assert await typist.type(carol, "game", "cancel") == translate(lang, M.GAME_CANCELLED_PRIVATE)

    # Nothing they saw, privately or at the table, is the English of a catalogue sentence.
    public = [m.content for m in fake.messages_in(CH)]
    public += [label for m in fake.messages_in(CH) for label in m.button_labels]
    assert not english_in(typist.answers + public, english_pieces(lang))


async def test_an_impossible_table_is_refused_in_the_readers_language(fake, bot):
    """A table the rules do not allow (Mighty Duel is for 2) is refused with the reason in the reader's words."""
    fake.alice.locale = "cs"
    reply = await fake.slash(
        fake.alice, CH, "game", "new", options={"game": "kingdomino", "players": 4, "mighty_duel": True}
    )
    refused = await reply.wait_message()
    reason = translate("cs", M.CONFIG_REFUSALS["mighty_duel_players"])
    assert refused.ephemeral and refused.content == translate("cs", M.TABLE_IMPOSSIBLE, reason=reason)
    assert "Mighty Duel is" not in refused.content
    assert await active_record(bot, fake.channel(CH).id) is None
    fake.bob.locale = "en-US"
    reply = await fake.slash(
        fake.bob, CH, "game", "new", options={"game": "kingdomino", "players": 4, "mighty_duel": True}
    )
    english = await reply.wait_message()
    assert english.content == "That table is not possible: Mighty Duel is a Kingdomino variant for exactly 2 players."
