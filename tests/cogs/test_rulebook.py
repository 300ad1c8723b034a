"""The rules as one document (cogs/rulebook.py): a table's page shows its game's rules and its own variants, the
set-up tables are the engine's set-ups, and a table the engine would refuse is refused with the lobby's sentence."""

from __future__ import annotations

import pytest

from cogs import rulebook
from cogs.rulebook import ROWS, Table, left_per_round, sections, setup_rows, table, table_facts, table_of
from engine import Game
from engine.ai import make_agent
from engine.config import GameConfig
from i18n import messages as M
from i18n import term, translate


def texts(t: Table, lang: str = "en") -> str:
    return "\n".join(i.text for _, _, items in sections(t, lang) for i in items)


def kinds(t: Table) -> set[str]:
    return {i.kind for _, _, items in sections(t, "en") for i in items}


def test_each_set_up_row_is_the_engines_and_its_discards_are_the_engines():
    for game, rows in ROWS.items():
        for row in rows:
            setup = row.table(game).setup
            assert setup is not None
            assert setup.dominoes_used == setup.rounds * setup.line_size, (game, row)
            assert (left_per_round(setup, row.players) > 0) == setup.discard_unclaimed, (game, row)


def test_a_game_played_to_its_end_uses_the_rounds_the_table_says():
    config = GameConfig("kingdomino", ("a", "b"), frozenset({"mighty-duel"}))
    game = Game.new(config, seed=3)
    agent = make_agent("random", seed=1)
    rounds = set()
    while (d := game.decision()) is not None:
        rounds.add(game.round)
        game.apply(agent.choose(game), by=d.player)
    [row] = [r for r in ROWS["kingdomino"] if r.variant == "mighty-duel"]
    cells = rulebook.setup_cells(row, "kingdomino", "en")
    assert cells[5] == str(max(rounds)) == "12" and cells[4] == "7×7"  # round 0 is the first line's choosing
    assert all(len(k.placed) + len(k.discarded) == 24 for k in game.kingdoms), "24 dominoes each: all 48"


def test_a_tables_page_shows_its_game_and_only_its_variants():
    duel = table("kingdomino", frozenset({"mighty-duel"}), 2)
    assert "variant:mighty-duel" in kinds(duel) and "variant:harmony" not in kinds(duel)
    said = texts(duel)
    assert translate("en", M.RULES_SUM_PLACE, size=7) in said and "knight" not in said.lower()
    assert [r.variant for r in setup_rows(duel)] == ["mighty-duel"]  # the plain 2-player row is not this table's
    assert translate("en", M.RULES_VARIANTS_TABLE) in said
    queen = table("queendomino", frozenset(), 4)
    said = texts(queen)
    assert "knight" in said and translate("en", M.RULES_VARIANTS_NONE) in said
    assert not {k for k in kinds(queen) if k.startswith("variant:")}
    assert translate("en", M.RULES_TURN_TWO_Q) not in said, "the 2-player step is not this 4-player table's"
    generic = Table("kingdomino")
    assert {k for k in kinds(generic) if k.startswith("variant:")} == {
        "variant:dynasty",
        "variant:middle-kingdom",
        "variant:harmony",
        "variant:mighty-duel",
        "variant:three-player-four-dominoes",
    }
    assert "variant:mighty-duel" not in kinds(Table("queendomino")), "Mighty Duel is Kingdomino's"
    teams = table("royal-wedding", frozenset({"harmony"}), 8, teams=True)
    assert translate("en", M.RULES_RW["teams"]) in texts(teams)
    assert translate("en", M.RULES_RW["teams"]) not in texts(table("royal-wedding", frozenset(), 5))


def test_the_facts_of_a_table_are_its_set_up_in_the_readers_words():
    facts = table_facts(table("kingdomino", frozenset({"mighty-duel", "harmony"}), 2), "cs")
    assert facts == ["2 hráči", "2 králové na hráče", "7×7", "12 kol", term("cs", "harmony"), term("cs", "mighty-duel")]
    assert table_facts(Table("royal-wedding"), "es") == [translate("es", M.RULES_PLAYER_RANGE, low=3, high=8)]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("chess",), M.RULES_BAD_GAME),
        (("queendomino", frozenset({"mighty-duel"})), M.CONFIG_REFUSALS["mighty_duel_players"]),
        (("kingdomino", frozenset({"mighty-duel"}), 4), M.CONFIG_REFUSALS["mighty_duel_players"]),
        (("kingdomino", frozenset({"fast"})), M.CONFIG_REFUSALS["unknown_variant"]),
        (("royal-wedding", None, 8), M.CONFIG_REFUSALS["eight_need_teams"]),
        (("kingdomino", None, 2, True), M.CONFIG_REFUSALS["teams_game"]),
    ],
)
def test_a_table_the_engine_refuses_is_refused_with_the_reason(args, reason):
    with pytest.raises(rulebook.RulesRefusal) as refused:
        table(*args)
    said = refused.value.text("ro")
    first_words = translate("ro", reason, game="x", variant="x", typed="x").split("x")[0][:12]
    assert first_words in said, said


def test_a_stored_games_table():
    lobby = {"seats": 3, "variants": ["three-player-four-dominoes"], "teams": False, "language": "en"}
    assert table_of("kingdomino", lobby, started=False) == Table(
        "kingdomino", frozenset({"three-player-four-dominoes"}), 3
    )
    started = GameConfig("royal-wedding", tuple("abcdef"), frozenset(), (("a", "b"), ("c", "d"), ("e", "f"))).to_dict()
    assert table_of("royal-wedding", started, started=True) == Table("royal-wedding", frozenset(), 6, True)
