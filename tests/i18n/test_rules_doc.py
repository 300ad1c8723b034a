"""docs/rules.md and the catalogue cannot drift: sections 1-3 of the page are written from the English rules messages
(cogs/rulebook.py, `python -m cogs.rulebook`), so this test fails as soon as a message, the layout or the page changes
alone; every rules message is in the document; and the numbers the sentences say are the engine's data."""

from __future__ import annotations

import re

from cogs import rulebook
from engine.components import builders_board_spec, building_stack
from i18n import messages as M


def test_docs_rules_md_says_what_the_catalogue_says():
    document = rulebook.DOC.read_text()
    assert rulebook.BEGIN in document and rulebook.END in document, "docs/rules.md lost its generated part's marks"
    assert rulebook.with_rules(document) == document, (
        "docs/rules.md's rules differ from the catalogue's English: run `python -m cogs.rulebook` (and edit the "
        "RULES_* messages in i18n/messages.py, not the page)"
    )


def test_an_edit_of_the_page_alone_is_caught():
    document = rulebook.DOC.read_text()
    sentence = "Every kingdom starts with its castle alone."
    assert sentence in document
    edited = document.replace(sentence, "Every kingdom starts with its castle and one domino.")
    assert rulebook.with_rules(edited) != edited
    assert rulebook.with_rules(edited) == document  # the command puts the catalogue's words back


def rules_messages() -> dict[str, str]:
    """Every sentence of the rules themselves (not the page's chrome), by its constant's name."""
    chrome = {
        "RULES_KINGDOMINO",  # Discord's /rules summaries (cogs/look.py), older than the page
        "RULES_QUEENDOMINO",
        "RULES_ROYAL_WEDDING",
        "RULES_PAGE_TITLE",
        "RULES_CHOOSE",
        "RULES_BACK",
        "RULES_CONTENTS",
        "RULES_AT_TABLE",
        "RULES_PLAYER_RANGE",
        "RULES_ROUNDS",
        "RULES_KINGS_EACH",
        "RULES_IN_TEAMS",
        "RULES_OTHER_LANGUAGES",
        "RULES_OTHER_GAMES",
        "RULES_BAD_GAME",
        "RULES_LINK_BUTTON",
        "RULES_FIGURE_YES",  # the pictures' captions and the example's lines: the page only
        "RULES_FIGURE_NO",
        "RULES_SCORE_EXAMPLE",
        "RULES_SCORE_LINE",
        "RULES_SCORE_TOTAL",
        "RULES_SUM_PLACE",  # with a table's own size: the page of a table; the document gives every size
        "RULES_PLACE_FIT",
        "RULES_VARIANTS_TABLE",
        "RULES_VARIANTS_NONE",
        "RULES_DOMINOES_OF",  # the set-up table's cells and row names
        "RULES_ROW_TEAMS",
        "RULES_ROW_VARIANT",
        "RULES_ROW_LINES_OF_FOUR",
    }
    found = {}
    for name, value in vars(M).items():
        if not name.startswith("RULES_") or name in chrome:
            continue
        if isinstance(value, dict):
            found.update({f"{name}[{k}]": v for k, v in value.items()})
        else:
            found[name] = value
    return found


def test_every_rules_sentence_is_in_the_document():
    text = rulebook.markdown()

    def said(msgid: str) -> bool:  # a placeholder may hold anything
        return re.search(".+".join(re.escape(part) for part in re.split(r"\{[^}]*\}", msgid)), text) is not None

    missing = [name for name, msgid in rules_messages().items() if not said(msgid)]
    assert not missing, f"rules messages no part of docs/rules.md (nor of the page): {missing}"


def numbers_in(text: str) -> list[str]:
    """The numbers a sentence writes in digits, but 1 (a language may say 'one coin' in words)."""
    return sorted(n for n in re.findall(r"\d+", re.sub(r"\{[^}]*\}", "", text)) if n != "1")


def test_the_numbers_the_sentences_say_are_the_engines():
    spec = builders_board_spec()
    stack = building_stack()
    assert f"The {len(stack)} buildings" in M.RULES_SETUP_BUILDINGS
    costs = ", ".join(str(c) for c in spec.costs[:-1]) + f" and {spec.costs[-1]} coins"
    assert costs in M.RULES_SETUP_BUILDINGS
    assert f"{spec.start_knights} knight and {spec.start_coins} coins" in M.RULES_SETUP_KNIGHTS
    assert f"{spec.knights_supply} knights and {spec.towers_supply} towers" in M.RULES_SETUP_KNIGHTS
    assert f"{spec.queen_discount} coin less" in M.RULES_BUILD_QUEEN
    assert f"pay {spec.dragon_bribe} coin" in M.RULES_TURN_Q["dragon"]
    # Every translation says the same numbers as its English.
    from i18n.catalog import read_catalog

    for lang in ("cs", "es", "ro"):
        catalog = read_catalog(lang)
        for msgid in rules_messages().values():
            ids = msgid if isinstance(msgid, tuple) else (msgid,)
            entry = catalog.get(ids[0])
            assert entry is not None and entry.string, (lang, ids[0])
            text = entry.string if isinstance(entry.string, str) else " ".join(entry.string)
            assert numbers_in(text) == numbers_in(ids[0]), (lang, ids[0], text)
