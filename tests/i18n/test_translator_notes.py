"""Translator-ready catalogues: every message tells its translator where it is shown, its length limit where Discord
or a picture sets one, and what each placeholder holds; the .po files carry those notes as `#.` comments, which
every .po editor and translation platform shows; one English word with two meanings has two contexts."""

from __future__ import annotations

import textwrap

import pytest
from babel.messages.catalog import Catalog

from i18n import LANGUAGES, translate
from i18n.catalog import read_catalog
from i18n.extract import everything, scan_source, template
from i18n.notes import PLACEHOLDERS, unexplained


@pytest.fixture(scope="module")
def extracted() -> Catalog:
    return template(everything())


def _ids(m) -> list[str]:
    return [m.id] if isinstance(m.id, str) else list(m.id)


def _label(m) -> str:
    return (f"[{m.context}] " if m.context else "") + repr(_ids(m)[0])


def test_every_message_says_where_it_is_shown(extracted):
    """A note that is not only about placeholders: where (button, picture, private reply, channel, slash...)."""
    missing = [_label(m) for m in extracted if m.id and not [n for n in m.auto_comments if not n.startswith("{")]]
    assert not missing, f"{len(missing)} messages without a `# Translators:` note, e.g. {missing[:10]}"


def test_every_placeholder_is_explained(extracted):
    missing = {_label(m): unexplained(_ids(m), list(m.auto_comments)) for m in extracted if m.id}
    missing = {k: v for k, v in missing.items() if v}
    assert not missing, f"explain these placeholders in the message's note or in i18n.notes.PLACEHOLDERS: {missing}"


def test_discords_limits_are_in_the_notes(extracted):
    join = extracted.get("Join")
    assert any("80 characters" in n for n in join.auto_comments)
    option = extracted.get("players", context="slash-option")
    assert any("32 characters" in n and "/game new" in n for n in option.auto_comments)
    described = extracted.get("Which game", context="slash")
    assert any("100 characters" in n for n in described.auto_comments)
    placeholder = extracted.get("Computer players (host only)")
    assert any("150 characters" in n for n in placeholder.auto_comments)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_po_files_carry_the_notes(extracted, lang):
    """The .po files are what translators open: each entry has the extraction's notes as `#.` comments."""

    def words(comments) -> str:
        return " ".join(" ".join(comments).split())

    catalog = read_catalog(lang)
    wrong = []
    for m in extracted:
        if not m.id:
            continue
        have = catalog.get(_ids(m)[0], context=m.context)
        if have is None or words(have.auto_comments) != words(m.auto_comments):
            wrong.append(_label(m))
    assert not wrong, f"{lang}: notes differ from the code's in {wrong[:5]}: run `python -m i18n extract`"


def test_a_translators_comment_is_found_above_beside_and_over_a_group():
    source = textwrap.dedent(
        """
        # a developer's comment, not for translators
        # Translators: a button on the lobby.
        JOIN = N_("Join")
        LEAVE = N_("Leave")  # Translators: another button.
        # Translators: directions, in buttons
        # and sentences.
        DIRECTIONS = {
            "up": N_("up"),
            # Translators: to the right.
            "right": N_("right"),
        }
        UNSAID = N_("Nothing said about {name}")  # not tagged
        """
    )
    notes = {f.msgid: f.notes for f in scan_source(source, "x.py")}
    assert notes["Join"] == ("a button on the lobby.",)
    assert notes["Leave"] == ("another button.",)
    assert notes["up"] == ("directions, in buttons and sentences.",)
    assert notes["right"] == ("directions, in buttons and sentences.", "to the right.")
    assert notes["Nothing said about {name}"] == (f"{{name}}: {PLACEHOLDERS['name']}.",)  # the placeholder only


def test_a_note_that_explains_a_placeholder_replaces_the_general_meaning():
    source = '# Translators: a caption. {name}: the team.\nX = N_("{name} and {cell}")\n'
    (found,) = scan_source(source, "x.py")
    assert found.notes[0] == "a caption. {name}: the team."
    assert not any(n.startswith("{name}:") for n in found.notes[1:])
    assert any(n.startswith("{cell}:") for n in found.notes)


def test_one_english_word_with_two_meanings_has_two_contexts():
    """The lobby's Cancel cancels the table; the web board's drops a pick. The table's caption 'host' is the
    queen's host, not the table's."""
    catalog = read_catalog("en")
    assert catalog.get("Cancel", context="table") is not None and catalog.get("Cancel") is not None
    assert catalog.get("host", context="queen") is not None
    assert catalog.get("host") is None
    for lang in ("ro", "es", "cs"):
        assert translate(lang, "host", context="queen") != "host"
