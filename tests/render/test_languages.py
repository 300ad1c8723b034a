"""Every picture and alt text in Romanian, Spanish and Czech: the catalogue's words are drawn, with their letters,
nothing is cut or runs off the picture or over other words, and nothing English is left (the pseudo-locale).

The pictures are those of three real games stopped mid-way (Kingdomino with 2 players, Queendomino with 4, Royal
Wedding with 8 in teams, see languages.py), each with a recording of every text() call."""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import Game, Place
from i18n import PSEUDO, translate, translate_plural
from i18n import messages as M
from i18n.pseudo import english_outside_catalogues
from render import (
    fonts,
    render_dragon,
    render_kingdom,
    render_offer,
    render_placement,
    render_remaining,
    render_tax,
)
from render.alt import (
    ALT_LIMIT,
    CODE_BLOCK_LIMIT,
    chart_alt_text,
    kingdom_alt_text,
    kingdom_text,
    replay_alt_text,
    sheet_alt_text,
    table_alt_text,
)
from render.draw import _fitted, fit_size, player_names, text_width
from render.words import domino_label, terrain_name

from .helpers import MODES, NAMES, config, mode_id, names_for, state
from .helpers import SAMPLE_GAMES as GAMES
from .helpers import sample_states as states
from .languages import Drawn, pictures, recording

LANGS = ("ro", "es", "cs")
LETTERS = {"ro": "ăâîșțĂÂÎȘȚ", "es": "ñáéíóúüÑÁÉÍÓÚ¿¡", "cs": "áčďéěíňóřšťúůýžČĎĚŇŘŠŤŮŽ"}


@cache
def _pictures(key: str, lang: str) -> dict[str, tuple[bytes, list[Drawn]]]:
    return pictures(key, lang)


def _overlaps(drawn: list[Drawn]) -> list[tuple[str, str]]:
    """Pairs of words drawn over each other on the picture itself (building names are drawn on their own tiles)."""
    main = max(t.picture_width for t in drawn)
    items = [t for t in drawn if t.shown.strip() and t.picture_width == main]
    found = []
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            tall = min(a.bottom, b.bottom) - max(a.top, b.top)
            wide = min(a.right, b.right) - max(a.left, b.left)
            if tall > 0.5 * min(a.size, b.size) and wide > 2:
                found.append((a.shown, b.shown))
    return found


def test_the_overlap_check_sees_words_drawn_over_each_other():
    a = Drawn("Still to come", "Still to come", 20, True, 10, 30, "lm", 200, None, 540)
    b = Drawn("56 dominoes", "56 dominoes", 19, False, 300, 30, "rm", 120, None, 540)
    assert _overlaps([a, b]) == [("Still to come", "56 dominoes")]
    assert _overlaps([a, Drawn("x", "x", 19, False, 400, 30, "rm", 120, None, 540)]) == []
    assert _overlaps([a, Drawn("y", "y", 19, False, 100, 80, "lm", 120, None, 540)]) == []  # another line


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_translated_pictures_fit_their_boxes(key, lang):
    """No word is cut with an ellipsis or loses its accents, runs off the picture, or is drawn over another."""
    problems = []
    for name, (_, drawn) in _pictures(key, lang).items():
        for t in drawn:
            if t.cut:
                problems.append(f"{name}: {t.asked!r} drawn as {t.shown!r}")
            if t.left < -1 or t.right > t.picture_width + 1:
                problems.append(f"{name}: {t.shown!r} runs off the picture ({t.left:.0f}..{t.right:.0f})")
        problems += [f"{name}: {a!r} over {b!r}" for a, b in _overlaps(drawn)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key", GAMES)
def test_the_english_pictures_are_not_cut_either(key):
    """The same checks hold in English, so a failure above is the translation's."""
    for name, (_, drawn) in _pictures(key, "en").items():
        assert not [t.asked for t in drawn if t.cut], name
        assert not _overlaps(drawn), name


@pytest.mark.parametrize("key", GAMES)
def test_every_word_drawn_comes_from_the_catalogue(key):
    """Under the pseudo-locale every word drawn is bracketed and accented: what is left is English written in
    render/ directly (names, numbers, cell names and the brand names aside)."""
    name_words = {w for n in NAMES for w in re.findall(r"[A-Za-z']+", n)}
    left = []
    for name, (_, drawn) in _pictures(key, PSEUDO).items():
        for t in drawn:
            words = english_outside_catalogues(t.asked, names=NAMES)
            words = [w for w in words if not any(n.startswith(w) for n in name_words)]  # a name cut short: "Dmi…"
            if words:
                left.append(f"{name}: {t.asked!r} {words}")
    assert not left, "\n".join(left)


def _shown(drawn: list[Drawn]) -> set[str]:
    return {t.shown for t in drawn}


@pytest.mark.parametrize("lang", LANGS)
def test_each_picture_draws_its_own_languages_sentences(lang):
    """A sentence of each picture, as the catalogue has it in `lang` (and not as in English), is drawn."""
    found = states("qd4")
    place = found["place"]
    d = place.decision()
    pics = _pictures("qd4", lang)
    want = {
        "offer": translate(lang, "chooses a domino"),
        "placement": translate(lang, "places domino {domino}", domino=domino_label("queendomino", d.domino)),
        "tax": translate(lang, "may send knights to collect tax"),
        "dragon": translate(lang, "may bribe the dragon"),
        "remaining": translate(lang, M.PIC_STILL_TO_COME),
        "kingdom": terrain_name(lang, "wheat"),
        "kingdom_over": translate_plural(lang, "point", "points", found["over"].scores()[0].total),
        "chart": translate(lang, "Scores round by round"),
        "replay_start": translate(lang, "Every kingdom starts from its castle"),
        "table": translate(lang, M.PIC_BUILDERS_BOARD),
        "score_sheet": translate(lang, M.PIC_FINAL_SCORES),
    }
    english = _pictures("qd4", "en")
    for picture, words in want.items():
        assert words in _shown(pics[picture][1]), f"{picture}: {words!r} not drawn"
        assert words not in _shown(english[picture][1]), f"{picture}: {words!r} is the English"
    knight = translate_plural(lang, "{n} in reserve", "{n} in reserve", 0)
    assert any(knight in s for s in _shown(pics["kingdom_over"][1]))


@pytest.mark.parametrize("lang", LANGS)
def test_the_fonts_draw_every_letter_of_the_language(lang):
    """The letters the catalogues use are drawn as they are, not as their unaccented base letters."""
    for bold in (False, True):
        f = fonts.font(18, bold)
        drawn = "".join(t for t, _ in fonts.runs(LETTERS[lang], f, fonts.fallback_fonts(18, bold)))
        assert drawn == LETTERS[lang]


def test_a_picture_drawn_twice_in_two_languages_keeps_each_language():
    """The drawing caches are keyed by the text: a Czech picture after a Romanian one has no Romanian in it."""
    game = states("kd2")["claim"]
    player = game.decision().player
    with recording() as ro:
        render_offer(game, player, names_for(game), None, lang="ro")
    with recording() as cs:
        render_offer(game, player, names_for(game), None, lang="cs")
    assert translate("ro", "chooses a domino") in _shown(ro)
    assert translate("cs", "chooses a domino") in _shown(cs)
    assert translate("ro", "chooses a domino") not in _shown(cs)


# -- alt text -------------------------------------------------------------------------------------------------------
MARKDOWN = re.compile(r"[*_~`|<>@\[\]\\]")


def _alt_texts(game: Game, names, lang: str) -> dict[str, str]:
    texts = {
        "table": table_alt_text(game, names, lang=lang),
        "sheet": sheet_alt_text(game, names, lang=lang),
        "replay": replay_alt_text(game, names, lang=lang),
        "chart": chart_alt_text(game, names, lang=lang),
    }
    for i in range(len(game.kingdoms)):
        texts[f"kingdom{i}"] = kingdom_alt_text(game, i, names, lang=lang)
    return texts


@settings(max_examples=30)
@given(st.sampled_from(MODES), st.integers(0, 3), st.sampled_from([0.0, 0.3, 0.7, 1.0]), st.sampled_from(LANGS))
def test_translated_alt_texts_fit_in_1024_plain_characters(mode, seed, fraction, lang):
    game = state(config(*mode), seed, fraction)
    names = {p: "W" * 60 for p in game.players}
    for what, text in _alt_texts(game, names, lang).items():
        assert 0 < len(text) <= ALT_LIMIT, what
        assert "\n" not in text and not MARKDOWN.search(text), what
    for i in range(len(game.kingdoms)):
        block = kingdom_text(game, i, lang=lang)
        assert len(block) <= CODE_BLOCK_LIMIT and "`" not in block


@pytest.mark.parametrize("mode", [m for m in MODES if m[0] == "queendomino" or m[2] or "dynasty" in m[3]], ids=mode_id)
def test_alt_texts_have_no_english_left(mode):
    """Under the pseudo-locale every alt text and the text kingdom are catalogue words, names and data only."""
    for fraction in (0.0, 0.5, 1.0):
        game = state(config(*mode), 2, fraction)
        names = names_for(game)
        texts = _alt_texts(game, names, PSEUDO)
        texts.update({f"grid{i}": kingdom_text(game, i, lang=PSEUDO) for i in range(len(game.kingdoms))})
        for what, text in texts.items():
            left = [w for w in english_outside_catalogues(text, names=NAMES) if w != "CC"]  # CC: the castle's mark
            assert not left, f"{what} at {fraction}: {left} in {text!r}"


def test_czech_and_romanian_alt_texts_count_with_three_forms():
    game = state(config("queendomino", 2), 1, 1.0)
    names = {"p1": "Ann", "p2": "Bob"}
    totals = game.result().totals
    rules = {
        "cs": (("bod", "body", "bodů"), lambda n: 0 if n == 1 else 1 if 2 <= n <= 4 else 2),
        "ro": (("punct", "puncte", "de puncte"), lambda n: 0 if n == 1 else 1 if n == 0 or 0 < n % 100 < 20 else 2),
    }
    for lang, (forms, rule) in rules.items():
        text = sheet_alt_text(game, names, lang=lang)
        for i, total in enumerate(totals):
            assert f"{names[game.kingdoms[i].players[0]]}: {total} {forms[rule(total)]}" in text, text
        kingdom = kingdom_alt_text(game, 0, names, lang=lang)
        assert f"{totals[0]} {forms[rule(totals[0])]}." in kingdom, kingdom


def test_alt_texts_in_czech_say_rytir_and_dilek():
    game = state(config("queendomino", 4), 3, 0.5)
    names = names_for(game)
    table = table_alt_text(game, names, lang="cs")
    assert "rytíř" in table and "Plán budov" in table
    replay = replay_alt_text(game, names, lang="cs")
    assert "dílek" in replay and replay.startswith("Animovaný záznam hry Queendomino, 4 hráči")
    grid = kingdom_text(game, 0, lang="cs")
    assert "Legenda: písmeno = krajina, číslice = korunky" in grid
    assert "P obilné pole" in grid and "HR hrad" in grid


def test_a_name_no_font_can_draw_becomes_the_seat_in_the_pictures_language():
    game = state(config("kingdomino", 2), seed=1, fraction=0.3)
    undrawable = {"p1": "\U00013000\U00010000", "p2": "Bob"}  # hieroglyph, Linear B: in no font
    assert player_names(game, undrawable, "cs") == {"p1": "Hráč 1", "p2": "Bob"}
    assert player_names(game, undrawable, "ro") == {"p1": "Jucătorul 1", "p2": "Bob"}
    assert player_names(game, undrawable) == {"p1": "Player 1", "p2": "Bob"}


def test_fit_size_picks_a_size_that_text_does_not_cut():
    """fit_size and text() agree on what fits: text() cuts at the rounded width (the unseen boxes' line in Spanish
    once fitted by 0.2 pixel and was cut)."""
    words = "Queendomino 8 · Kingdomino 16"
    width = text_width(words, 15)
    for room in (width + 0.3, width + 0.6, width - 0.3, width * 0.9):
        size = fit_size(words, 15, room)
        if text_width(words, size) <= round(room):
            assert _fitted(words, size, False, round(room)) == words
        else:
            assert size == 12  # the smallest allowed: text() cuts it


@settings(max_examples=12)
@given(st.sampled_from(MODES), st.integers(0, 2), st.sampled_from([0.1, 0.4, 0.7, 0.95]), st.sampled_from(LANGS))
def test_the_turn_pictures_fit_in_every_mode(mode, seed, fraction, lang):
    """The picture of the decision at hand, its kingdom and the unseen dominoes, in any mode: nothing cut or off."""
    game = state(config(*mode), seed, fraction)
    d = game.decision()
    assume(d is not None)  # a finished game has no decision: hypothesis draws another
    names = names_for(game)
    with recording() as drawn:
        if d.kind in ("claim", "first_claim"):
            render_offer(game, d.player, names, None, lang=lang)
        elif d.kind == "place":
            places = [a for a in game.legal_actions() if isinstance(a, Place)]
            if places:
                render_placement(game, d.player, d.domino, (places[0].row, places[0].col), names, None, lang=lang)
                render_kingdom(game, d.kingdom, names, None, preview=(d.domino, places[0].placement), lang=lang)
        elif d.kind == "tax":
            render_tax(game, d.player, names, None, lang=lang)
        elif d.kind == "dragon":
            render_dragon(game, d.player, names, None, lang=lang)
        render_kingdom(game, game.kingdom_of(d.player), names, None, lang=lang)
        render_remaining(game, lang=lang)
    for t in drawn:
        assert not t.cut, f"{t.asked!r} drawn as {t.shown!r}"
        assert t.left >= -1 and t.right <= t.picture_width + 1, t.shown
