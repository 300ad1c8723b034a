"""`python -m i18n literals`: finds English written directly in code, skips what is not for people."""

from __future__ import annotations

from i18n.literals import find_literals, literals_in

SOURCE = '''
"""A docstring is not for players."""
import logging
log = logging.getLogger(__name__)

def f(name, lang):
    log.info("Nothing here is for players %s", name)
    a = "You joined the table."
    b = f"{name} left the table."
    c = translate(lang, "Marked sentences are in the catalogue.")
    d = "royal-wedding"
    e = "table.png"
    g = "Brand new sentence for players."
    return a, b, c, d, e, g
'''


def test_literals_in_finds_sentences_and_skips_the_rest():
    found = list(literals_in(SOURCE, "x.py", known={"You joined the table."}))
    texts = {lit.text: lit.known for lit in found}
    assert texts == {
        "You joined the table.": True,
        "{…} left the table.": False,
        "Brand new sentence for players.": False,
    }


def test_find_literals_runs_on_the_repository():
    found = find_literals()
    assert found and all(lit.where.startswith(("cogs/", "render/")) for lit in found)
