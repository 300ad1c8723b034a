"""The private answers of the cogs switched to the catalogues: no English sentence is written directly in them any
more, and the answers worded by functions come out in each language."""

from __future__ import annotations

import pytest

from cogs.look import RULES, leaderboard_text, rules_text
from cogs.mine import page_text
from cogs.settings import NOTIFY, notify_text
from db.models import UserSettings
from db.ratings import RatingRow
from i18n import LANGUAGES, translate
from i18n import messages as M
from i18n.literals import find_literals

SWITCHED = {f"cogs/{name}.py" for name in ("admin", "common", "lobby", "look", "mine", "play", "settings")}
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def test_the_switched_cogs_write_no_sentence_outside_the_catalogues():
    new = [
        f"{lit.where}:{lit.line}: {lit.text!r}" for lit in find_literals() if lit.where in SWITCHED and not lit.known
    ]
    # A link's address is not words; everything else a player reads goes through the catalogues.
    assert [n for n in new if "https://discord.com/channels/" not in n] == []


def test_every_way_to_be_told_has_its_sentences():
    assert set(M.NOTIFY_NO_QUIET) == set(M.NOTIFY_QUIET) == set(NOTIFY)


@pytest.mark.parametrize("lang", OTHERS)
def test_notify_answers_in_each_language(lang):
    for how in NOTIFY:
        quiet = UserSettings(1, notify=how, quiet_start=22 * 60, quiet_end=7 * 60 + 30)
        text = notify_text(quiet, lang)
        assert "22:00-07:30 (UTC)" in text and text != notify_text(quiet), text
        assert notify_text(UserSettings(1, notify=how), lang) == translate(lang, M.NOTIFY_NO_QUIET[how])


@pytest.mark.parametrize("lang", OTHERS)
def test_rules_in_each_language(lang):
    for kind in RULES:
        text = rules_text(kind, lang)
        assert text != rules_text(kind) and text.startswith("**"), (kind, text)
    assert rules_text("royal-wedding", lang).split("\n") == [
        translate(lang, M.RULES_QUEENDOMINO),
        translate(lang, M.RULES_ROYAL_WEDDING),
    ]


def test_the_leaderboard_in_english_keeps_its_words_and_in_czech_its_numbers():
    rows = [RatingRow(1, "cpu:easy", 25.0, 3.0, 3.25, 1, 1), RatingRow(2, "42", 24.0, 8.0, -1.5, 2, 0)]
    assert leaderboard_text("kingdomino", rows, {}) == (
        "**Kingdomino leaderboard** (OpenSkill rating, μ − 3σ; recomputed from every result)\n"
        "1. 🤖 easy — 3.2 (1 game, 1 won)\n"
        "2. <@42> — -1.5 (2 games, 0 won)"
    )
    czech = leaderboard_text("kingdomino", rows, {}, lang="cs").split("\n")
    assert czech[1] == "1. 🤖 " + translate("cs", M.LEVELS["easy"]) + " — 3,2 (1 hra, vyhráno 1)", czech
    assert czech[2].startswith("2. <@42> — −1,5") or czech[2].startswith("2. <@42> — -1,5"), czech
    assert leaderboard_text("queendomino", [], {}, lang="es").endswith(translate("es", M.NO_FINISHED_GAME))


def test_game_mine_pages_in_each_language():
    lines = [f"line {i}" for i in range(12)]
    assert page_text(lines, 1, "T").endswith("\nPage 1 of 2: `/game mine page:2` for more.")
    assert page_text(lines, 1, "T", "ro").endswith("\n" + translate("ro", M.MINE_PAGE, page=1, pages=2, next=2))
    assert "Page" not in page_text(lines, 2, "T", "cs")
