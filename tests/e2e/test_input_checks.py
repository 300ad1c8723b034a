"""What a command receives is checked by the bot itself, each refusal answered privately and changing nothing: any
value of a choice option (a forged client sends what it likes), commands about a server's games reached from a direct
message, time zones that are files of the system rather than places. And the per-channel locks do not pile up."""

from __future__ import annotations

import pytest

from db.models import GuildSettings
from tests.e2e.play import slash_action, start_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"


async def _refused(fake, user, channel, *names, **options) -> str:
    """The private answer to a command sent as a forged client would (no client-side checks)."""
    reply = await fake.slash(user, channel, *names, options=options, client_checks=False)
    message = await reply.wait_message()
    assert message.ephemeral, message.content
    return message.content


async def test_a_forged_choice_value_is_refused_with_an_answer(fake, bot):
    store = bot.store
    before = await store.get_user_settings(fake.alice.id)
    text = await _refused(fake, fake.alice, CH, "settings", "notify", how="carrier pigeon")
    assert "Pick how from the list: channel, dm or both." in text
    assert await store.get_user_settings(fake.alice.id) == before

    text = await _refused(fake, fake.owner, CH, "settings", "server", language="tlh")
    assert "`tlh` is not a choice of language" in text and "Română" in text
    assert await store.get_guild_settings(fake.guild_id) == GuildSettings(fake.guild_id)

    for options, option in (
        ({"game": "chess"}, "game"),
        ({"game": "kingdomino", "computers": 1, "computer_level": "godlike"}, "computer_level"),
        ({"game": "kingdomino", "language": "tlh"}, "language"),
    ):
        text = await _refused(fake, fake.alice, CH, "game", "new", **options)
        assert f"is not a choice of {option}: pick one from the list (" in text, text
    assert "Kingdomino, Queendomino, Royal Wedding" in await _refused(fake, fake.alice, CH, "game", "new", game="chess")
    # `expert` is a level a stored seat may have, but not one people choose: the answer names those they can.
    text = await _refused(fake, fake.alice, CH, "game", "new", game="kingdomino", computers=1, computer_level="expert")
    assert "`expert` is not a choice of computer_level" in text and "(easy, medium, hard)" in text, text
    assert await store.get_active_game(fake.channel(CH).id) is None, "no table was opened"

    text = await _refused(fake, fake.alice, CH, "stats", "leaderboard", game="chess")
    assert "`chess` is not a choice of game" in text
    text = await _refused(fake, fake.alice, CH, "rules", game="chess")
    assert "`chess` is not a choice of game" in text


async def test_server_commands_from_a_direct_message_read_nothing_across_servers(fake, bot):
    # Bob has a finished game in this server: from a DM, nobody reads it, nor opens a table there.
    await bot.http.start_private_message(fake.alice.id)  # the DM channel exists once the bot opened it
    dm = fake.dm_channel(fake.alice)
    for names, options in (
        (("stats", "players"), {"player": fake.bob}),
        (("stats", "leaderboard"), {}),
        (("game", "new"), {"game": "kingdomino"}),
        (("game", "mine"), {}),
    ):
        text = await _refused(fake, fake.alice, dm, *names, **options)
        assert "use it in a channel of the server" in text, (names, text)
        assert "channels/@me" not in text
    assert await bot.store.get_active_game(dm.id) is None, "no table in a DM"


@pytest.mark.parametrize(
    "zone", ["localtime", "Factory", "posix/Europe/Prague", "right/UTC", "posixrules", "../../etc/passwd"]
)
async def test_time_zones_are_iana_names_only(fake, bot, zone):
    text = await _refused(
        fake, fake.alice, CH, "settings", "notify", quiet_from="22:00", quiet_to="07:00", timezone=zone
    )
    assert "is not a time zone I know" in text
    assert (await bot.store.get_user_settings(fake.alice.id)).timezone is None, "nothing was saved"


async def test_a_time_zone_is_saved_by_its_iana_name(fake, bot):
    await _refused(
        fake, fake.alice, CH, "settings", "notify", quiet_from="22:00", quiet_to="07:00", timezone="europe/prague"
    )
    assert (await bot.store.get_user_settings(fake.alice.id)).timezone == "Europe/Prague"


async def test_the_per_channel_locks_do_not_pile_up(fake, bot):
    """Moves and looks in several channels: once nothing is going on, no channel's lock is kept."""
    for channel in ("general", CH):
        await start_game(fake, fake.alice, channel, [fake.bob], game="kingdomino", players=2)
        rec = await bot.store.get_active_game(fake.channel(channel).id)
        d = rec.game.decision()
        mover = fake.alice if d.player == str(fake.alice.id) else fake.bob
        await slash_action(fake, mover, channel, rec.game.legal_actions()[0])
        await (await fake.slash(mover, channel, "play", "undo")).wait_message()
    await fake.settle()
    await bot.service.idle()
    assert bot.service.commits.held() == 0
    await (await fake.slash(fake.carol, CH, "game", "cancel")).wait_message()
    assert bot.service.commits.held() == 0
