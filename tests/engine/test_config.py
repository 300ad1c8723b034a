"""Configurations: every mode's set-up, and every impossible combination refused with a clear message."""

import pytest

from engine import ConfigError, GameConfig

from .harness import MODES, SETUPS, config, players


@pytest.mark.parametrize("mode", MODES)
def test_setup_of_every_mode(mode):
    s = config(mode).setup
    got = (
        s.boxes,
        s.dominoes_used,
        s.line_size,
        s.kings_per_player,
        s.kingdom_size,
        s.rounds,
        s.queendomino_rules,
        s.discard_unclaimed,
    )
    assert got == SETUPS[mode]
    # Every king gets one domino a round, and the lines hold every domino used.
    assert s.line_size * s.rounds == s.dominoes_used


def test_variants_combine_freely_where_they_apply():
    cfg = GameConfig("kingdomino", players(2), {"mighty-duel", "dynasty", "harmony", "middle-kingdom"})
    assert cfg.deals == 3 and cfg.setup.kingdom_size == 7
    assert GameConfig("queendomino", players(4), {"harmony", "middle-kingdom", "dynasty"}).deals == 3
    assert GameConfig("royal-wedding", players(6), {"harmony"}, (("p1", "p2"), ("p3", "p4"), ("p5", "p6")))


@pytest.mark.parametrize(
    ("game", "n", "variants", "teams", "message"),
    [
        ("chess", 2, (), None, r"Unknown game 'chess': choose one of kingdomino, queendomino, royal-wedding"),
        ("kingdomino", 1, (), None, r"kingdomino takes 2-4 players, not 1"),
        ("kingdomino", 5, (), None, r"kingdomino takes 2-4 players, not 5"),
        ("queendomino", 1, (), None, r"queendomino takes 2-4 players, not 1"),
        ("queendomino", 5, (), None, r"queendomino takes 2-4 players, not 5"),
        ("royal-wedding", 2, (), None, r"royal-wedding takes 3-8 players, not 2"),
        ("royal-wedding", 9, (), None, r"royal-wedding takes 3-8 players, not 9"),
        ("royal-wedding", 8, (), None, r"8 players is played in teams of 2"),
        ("kingdomino", 2, ("giant",), None, r"Unknown variant 'giant'"),
        ("kingdomino", 3, ("mighty-duel",), None, r"Mighty Duel is a Kingdomino variant for exactly 2 players"),
        ("kingdomino", 4, ("mighty-duel",), None, r"Mighty Duel .* exactly 2 players"),
        ("queendomino", 2, ("mighty-duel",), None, r"Mighty Duel is a Kingdomino variant"),
        ("royal-wedding", 3, ("mighty-duel",), None, r"Mighty Duel is a Kingdomino variant"),
        ("kingdomino", 4, ("three-player-four-dominoes",), None, r"for Kingdomino with exactly 3 players"),
        ("kingdomino", 2, ("three-player-four-dominoes",), None, r"for Kingdomino with exactly 3 players"),
        ("queendomino", 3, ("three-player-four-dominoes",), None, r"for Kingdomino with exactly 3 players"),
        ("kingdomino", 4, (), (("p1", "p2"), ("p3", "p4")), r"Teams are played only in Royal Wedding"),
        ("queendomino", 4, (), (("p1", "p2"), ("p3", "p4")), r"Teams are played only in Royal Wedding"),
        ("royal-wedding", 4, (), (("p1", "p2"), ("p3", "p4")), r"Teams need 6 or 8 players, not 4"),
        ("royal-wedding", 7, (), (("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7",)), r"Teams need 6 or 8 players"),
        ("royal-wedding", 6, (), (("p1", "p2", "p3"), ("p4", "p5", "p6")), r"Each team has exactly 2 players"),
        ("royal-wedding", 6, (), (("p1", "p2"), ("p3", "p4"), ("p5", "p9")), r"Every player must be in exactly one"),
        ("royal-wedding", 6, (), (("p1", "p2"), ("p3", "p4"), ("p1", "p5")), r"Every player must be in exactly one"),
        ("royal-wedding", 6, (), (), r"Every player must be in exactly one team"),
    ],
)
def test_impossible_configurations_are_refused_with_a_clear_message(game, n, variants, teams, message):
    with pytest.raises(ConfigError, match=message):
        GameConfig(game, players(n), frozenset(variants), teams)


def test_a_player_takes_one_seat():
    with pytest.raises(ConfigError, match="only one seat"):
        GameConfig("kingdomino", ("ann", "ann"))


def test_config_errors_are_value_errors():
    with pytest.raises(ValueError):
        GameConfig("kingdomino", players(7))


@pytest.mark.parametrize("mode", MODES)
def test_config_round_trips_through_a_dict(mode):
    cfg = config(mode, ("harmony",))
    assert GameConfig.from_dict(cfg.to_dict()) == cfg
    assert cfg.describe()


def test_teams_make_one_kingdom_per_pair():
    cfg = config("teams-8")
    assert cfg.kingdom_members == (("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7", "p8"))
    assert config("royal-wedding-5").kingdom_members == tuple((p,) for p in players(5))
