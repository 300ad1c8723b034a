"""Why a table is not possible, in every language: every code the engine's configuration check can give has a
whole sentence, with the parameters the engine gives, and no language falls back to the engine's English."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.words import config_refusal
from engine.config import GAMES, VARIANTS, GameConfig
from engine.errors import ConfigError
from i18n import messages as M

LANGS = ("en", "ro", "es", "cs")


@st.composite
def configs(draw):
    game = draw(st.sampled_from([*GAMES, "chess"]))
    n = draw(st.integers(0, 9))
    players = [f"p{i}" for i in range(n)]
    if n and draw(st.booleans()):
        players[-1] = players[0]  # a player twice
    variants = draw(st.sets(st.sampled_from([*VARIANTS, "speed"]), max_size=3))
    teams = None
    if draw(st.booleans()):
        size = draw(st.sampled_from([2, 3]))
        teams = tuple(tuple(players[i : i + size]) for i in range(0, n, size))
    return game, tuple(players), frozenset(variants), teams


@settings(max_examples=400)
@given(configs())
def test_every_configuration_refusal_is_worded_in_every_language(config):
    try:
        GameConfig(*config)
    except ConfigError as error:
        assert error.code in M.CONFIG_REFUSALS, error.code
        words = {lang: config_refusal(error, lang) for lang in LANGS}
        for lang, text in words.items():
            assert text and "{" not in text, (lang, text)
            if lang != "en":
                assert text != words["en"] and text != str(error), (lang, text)


def test_each_code_is_reached():
    """The strategy above is not vacuous: each code the catalogue names can be produced."""
    reached = set()
    cases = [
        ("chess", ("a", "b"), frozenset(), None),
        ("kingdomino", ("a",), frozenset(), None),
        ("kingdomino", ("a", "a"), frozenset(), None),
        ("kingdomino", ("a", "b"), frozenset({"speed"}), None),
        ("kingdomino", ("a", "b", "c"), frozenset({"mighty-duel"}), None),
        ("kingdomino", ("a", "b"), frozenset({"three-player-four-dominoes"}), None),
        ("royal-wedding", tuple("abcdefgh"), frozenset(), None),
        ("kingdomino", ("a", "b"), frozenset(), (("a", "b"),)),
        ("royal-wedding", tuple("abcde"), frozenset(), (("a", "b"), ("c", "d"), ("e",))),
        ("royal-wedding", tuple("abcdef"), frozenset(), (("a", "b", "c"), ("d", "e", "f"))),
        ("royal-wedding", tuple("abcdef"), frozenset(), (("a", "b"), ("c", "d"), ("e", "a"))),
    ]
    for case in cases:
        try:
            GameConfig(*case)
        except ConfigError as error:
            reached.add(error.code)
            assert config_refusal(error, "cs") != str(error)
    assert reached == set(M.CONFIG_REFUSALS), set(M.CONFIG_REFUSALS) - reached
