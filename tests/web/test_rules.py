"""The rules page (issue #46: rules at a tap): one tap on the board's header opens, in a fresh browser at a phone's
size, the rules of the table's game and variants in the reader's language, the summary first and within one screen,
drawn with the art's symbols, with a way back to the table; over HTTP: the board's headers and guard, bad queries
refused with the reason, no English outside the catalogues (the pseudo-locale), and the pictured examples are the
engine's. `KD_SHOTS=<dir>` keeps the screenshots (390x844 and 1366x768, each language)."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import aiohttp
import pytest

from cogs.rulebook import Table, address, table, table_facts
from engine.components import builders_board_spec
from engine.scoring import score_kingdom
from i18n import messages as M
from i18n import term, translate
from i18n.pseudo import english_outside_catalogues
from tests.web.tables import LAPTOP, PHONE, open_as
from web import rulepictures
from web.guard import CSP
from web.rules import LANGUAGE_NAMES

pytestmark = pytest.mark.e2e

SHOTS = Path(os.environ["KD_SHOTS"]) if os.environ.get("KD_SHOTS") else None
FIGURES = Path(os.environ["KD_FIGURES"]) if os.environ.get("KD_FIGURES") else None  # the measures, for the report


@pytest.fixture
async def http(local):
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
        yield s


class Visible(HTMLParser):
    """The words a page shows or names: its text outside the pictures, its title, and its accessible names."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.depth = 0  # inside an <svg>

    def handle_starttag(self, tag, attrs):
        if tag == "svg":
            self.depth += 1
        self.words += [v for k, v in attrs if k in ("aria-label", "title", "alt") and v]

    def handle_endtag(self, tag):
        if tag == "svg":
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth and data.strip():
            self.words.append(data.strip())


def visible(page: str) -> list[str]:
    parser = Visible()
    parser.feed(page)
    return parser.words


# -- over HTTP -------------------------------------------------------------------------------------------------------------
async def test_the_rules_are_a_page_of_the_board_with_its_headers_and_no_inline_code(http):
    async with http.get("/rules?game=queendomino&variants=harmony&players=3") as r:
        assert r.status == 200 and r.content_type == "text/html"
        assert r.headers["Content-Security-Policy"] == CSP and r.headers["X-Content-Type-Options"] == "nosniff"
        page = await r.text()
    assert "<script" not in page and "<style" not in page and " style=" not in page  # the CSP allows neither
    assert "http" not in page, "everything is relative: the board may live under a prefix (the Activity's)"
    assert 'href="static/rules.css"' in page and 'href="static/board.css"' in page
    for name in ("rules.css", "board.css"):
        async with http.get(f"/static/{name}") as r:
            assert r.status == 200 and r.content_type == "text/css"
    async with http.get("/rules", headers={"Host": "evil.example"}) as r:
        assert r.status == 421, "the guard's Host check covers the rules page"


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("game=chess", translate("en", M.RULES_BAD_GAME, typed="chess")),
        ("game=queendomino&variants=mighty-duel", translate("en", M.CONFIG_REFUSALS["mighty_duel_players"])),
        ("game=kingdomino&variants=fast", translate("en", M.CONFIG_REFUSALS["unknown_variant"], variant="fast")),
        ("game=kingdomino&players=9", translate("en", M.WEB_BAD_FIELD, field="players", allowed="2-4")),
        ("game=royal-wedding&players=8", translate("en", M.CONFIG_REFUSALS["eight_need_teams"])),
        ("game=kingdomino&lang=xx", translate("en", M.WEB_BAD_LANGUAGE, languages="en, ro, es, cs")),
        (
            "game=kingdomino&back=https://evil.example/",
            translate("en", M.WEB_BAD_FIELD, field="back", allowed="?game=12"),
        ),
    ],
)
async def test_a_bad_query_is_refused_with_the_reason_and_the_choice_of_games(http, query, reason):
    async with http.get("/rules?" + query, headers={"Accept-Language": "en"}) as r:
        assert r.status == 400 and r.content_type == "text/html"
        page = await r.text()
    assert reason in " ".join(visible(page)), visible(page)[:12]
    for game in ("kingdomino", "queendomino", "royal-wedding"):
        assert f'href="rules?game={game}"' in page
    assert "evil.example" not in page


async def test_the_language_is_the_query_s_then_the_readers(http):
    async with http.get("/rules?game=kingdomino", headers={"Accept-Language": "es-419,es;q=0.9"}) as r:
        assert '<html lang="es"' in await r.text()
    async with http.get("/rules?game=kingdomino&lang=ro", headers={"Accept-Language": "es"}) as r:
        page = await r.text()
    assert '<html lang="ro"' in page and translate("ro", M.RULES_PAGE_TITLE, game="Kingdomino") in page
    async with http.get("/rules", headers={"Accept-Language": "cs"}) as r:  # no game: the choice of the three
        page = await r.text()
    assert r.status == 200 and translate("cs", M.RULES_CHOOSE) in page and term("cs", "royal-wedding") in page


@pytest.mark.parametrize(
    "query",
    [
        "game=kingdomino",
        "game=queendomino",
        "game=royal-wedding",
        "game=kingdomino&variants=mighty-duel,harmony&players=2",
        "game=royal-wedding&variants=dynasty&players=8&teams=1",
        "",
    ],
)
async def test_the_pseudo_locale_finds_no_english_outside_the_catalogues(http, query):
    async with http.get("/rules?" + query, headers={"Accept-Language": "en-XA"}) as r:
        assert r.status == 200
        page = await r.text()
    words = visible(page)
    assert len(words) > 8
    # The language links name each language in its own words, on purpose.
    left = english_outside_catalogues("\n".join(words), names=list(LANGUAGE_NAMES.values()))
    assert left == [], left


def test_the_pictured_examples_are_the_engines():
    yes, no = rulepictures.PLACING
    assert yes.refusal() is None and no.refusal() == "not_connected"
    assert rulepictures.OK in yes.picture("en") and rulepictures.NO in no.picture("en")
    kingdom, _ = rulepictures.engine_kingdom(rulepictures.SCORED)
    total = score_kingdom(kingdom, queendomino=False).territory_points
    assert translate("en", M.RULES_SCORE_TOTAL[1], n=total) in rulepictures.score_figure("en")
    middle, _ = rulepictures.engine_kingdom(rulepictures.MIDDLE)
    assert score_kingdom(middle, queendomino=False, middle_kingdom=True).middle_kingdom == 10
    costs = [int(c) for c in re.findall(r"<b>(\d+)</b>", rulepictures.builders_figure("en"))]
    assert costs == list(builders_board_spec().costs)


# -- in a browser, from the table ------------------------------------------------------------------------------------------
TABLES = {  # one table per language, each of another game or variant
    "en": {"kind": "kingdomino", "players": 2, "variants": ["mighty-duel"]},
    "cs": {"kind": "queendomino", "players": 2, "variants": []},
    "es": {"kind": "royal-wedding", "players": 8, "variants": ["harmony"], "teams": True},
    "ro": {"kind": "kingdomino", "players": 3, "variants": ["three-player-four-dominoes", "middle-kingdom"]},
}

SUMMARY = """() => {
  const main = document.querySelector('main'), s = document.getElementById('summary');
  const r = s.getBoundingClientRect(), top = document.querySelector('header').getBoundingClientRect().bottom;
  const ids = new Set([...document.querySelectorAll('.sprite symbol')].map((n) => n.id));
  const used = [...main.querySelectorAll('use')].map((u) => u.getAttribute('href').slice(1));
  return { first: main.firstElementChild.id, top: r.top, bottom: r.bottom, header: top, height: innerHeight,
    facts: [...s.querySelectorAll('.facts li')].map((n) => n.textContent), used: [...new Set(used)],
    unknown: used.filter((u) => !ids.has(u)), images: main.querySelectorAll('img').length,
    pictured: s.querySelectorAll('li.with-pic > svg').length, items: s.querySelectorAll('li').length - s.querySelectorAll('.facts li').length,
    text: document.body.innerText, lang: document.documentElement.lang, title: document.getElementById('title').textContent,
    here: [...document.querySelectorAll('table.setup tr.here th')].map((n) => n.textContent),
    variants: [...document.querySelectorAll('li.variant')].map((n) => n.id) };
}"""


async def new_table(local, spec: dict) -> tuple[int, int]:
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        body = {"computers": spec["players"] - 1, "level": "random", "teams": False, "language": "en", **spec}
        async with http.post("/api/games", json=body) as r:
            answer = await r.json()
            assert r.status == 200, answer
    rec = await local.service.games.get(answer["id"])
    return rec.id, next(s.user_id for s in rec.seats if s.user_id)


@pytest.mark.parametrize("lang", list(TABLES))
async def test_the_rules_open_in_one_tap_from_the_table_in_the_readers_language(local, browser, lang):
    spec = TABLES[lang]
    gid, person = await new_table(local, spec)
    context, page = await open_as(browser, local, gid, person, PHONE, locale=lang)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        assert await page.get_attribute("#rules", "aria-label") is None  # named by its words, in the reader's language
        assert (await page.text_content("#rules")).strip() == translate(lang, M.WEB_RULES)
        await page.locator("#rules").tap()  # the one tap
        await page.wait_for_url(re.compile(r"/rules\?"))
        seen = await page.evaluate(SUMMARY)
        t = table(spec["kind"], frozenset(spec["variants"]), spec["players"], spec.get("teams", False))
        # The table's game, variants and players, in the reader's language.
        assert seen["lang"] == lang
        assert seen["title"] == translate(lang, M.RULES_PAGE_TITLE, game=term(lang, spec["kind"]))
        assert seen["facts"] == table_facts(t, lang)
        assert sorted(seen["variants"]) == sorted(f"variant-{v}" for v in spec["variants"])
        if spec["kind"] != "kingdomino":  # Queendomino's rules talk of knights
            assert translate(lang, M.RULES_TURN_Q["tax"]) in seen["text"]
            assert term(lang, "knight") in seen["text"]
        else:
            assert translate(lang, M.RULES_SUM_PLACE, size=t.setup.kingdom_size) in seen["text"]
            assert "knight" not in seen["text"].lower() and term(lang, "knight") not in seen["text"]
        if "mighty-duel" in spec["variants"]:
            assert "7×7" in seen["facts"] and seen["here"] == ["2, " + term(lang, "mighty-duel")]
        if spec.get("teams"):
            assert translate(lang, M.RULES_RW["teams"]) in seen["text"]
            assert seen["here"] == [translate(lang, M.RULES_ROW_TEAMS, n=8)]
        # The summary first, whole within the first screen, every item beside a picture of the art.
        assert seen["first"] == "summary"
        assert seen["header"] - 1 <= seen["top"] and seen["bottom"] <= seen["height"], seen
        assert seen["pictured"] == seen["items"] >= 4
        assert seen["images"] == 0 and seen["unknown"] == [], seen["unknown"]
        assert {"king", "crown", "ground-forest", "square-castle"} <= set(seen["used"])
        # No English left: no sentence of the same table's English page is on this one.
        if lang != "en":
            english = await english_sentences(local, t)
            left = [s for s in english if s in seen["text"]]
            assert left == [], left[:3]
        await shoot(page, f"rules-{lang}-phone")
        # Back to the table in one tap.
        await page.locator("#home").tap()
        await page.wait_for_function("() => !!document.querySelector('main').dataset.turn")
        assert page.url.endswith(f"?game={gid}")
    finally:
        await context.close()
    assert not errors, errors


async def english_sentences(local, t: Table) -> list[str]:
    async with aiohttp.ClientSession(base_url=local.board.url) as http, http.get("/" + address(t, "en")) as r:
        page = await r.text()
    return [w for w in visible(page) if len(w.split()) >= 3]


async def test_the_home_screen_offers_the_choice_of_games(local, browser):
    context = await browser.new_context(**PHONE, locale="ro")
    try:
        page = await context.new_page()
        await page.goto(local.board.url)
        await page.wait_for_selector("#create")
        assert (await page.get_attribute("#rules", "href")).startswith("rules?lang=ro")
        await page.locator("#rules").tap()
        await page.wait_for_url(re.compile(r"/rules\?"))
        assert await page.locator(".game-choice").count() == 3
        await page.locator(".game-choice").nth(1).tap()
        await page.wait_for_url(re.compile(r"game=queendomino"))
        assert await page.text_content("#title") == translate("ro", M.RULES_PAGE_TITLE, game="Queendomino")
        facts = await page.locator("#summary .facts li").all_text_contents()
        assert facts == table_facts(Table("queendomino"), "ro")
    finally:
        await context.close()


@pytest.mark.parametrize("lang", ["en", "cs", "es", "ro"])
async def test_the_rules_page_at_a_laptops_size(local, browser, lang):
    """The whole page at 1366x768: nothing wider than the window, the summary in the first screen."""
    context = await browser.new_context(**LAPTOP, locale=lang)
    try:
        page = await context.new_page()
        await page.goto(local.board.url + address(Table("queendomino", frozenset({"dynasty"}), 4)))
        wide = await page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        bottom = await page.evaluate("() => document.getElementById('summary').getBoundingClientRect().bottom")
        assert wide and bottom <= 768
        await shoot(page, f"rules-{lang}-laptop")
    finally:
        await context.close()


async def shoot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"{name}.png"))
        await page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True)


FIT = [
    Table("kingdomino"),
    Table("queendomino"),
    Table("royal-wedding"),
    Table("kingdomino", frozenset({"dynasty", "middle-kingdom", "harmony"}), 4),
    Table("queendomino", frozenset({"dynasty", "middle-kingdom", "harmony"}), 2),
    Table("royal-wedding", frozenset({"dynasty", "middle-kingdom", "harmony"}), 8, True),
]


@pytest.mark.parametrize("lang", ["en", "cs", "es", "ro"])
async def test_every_summary_fits_one_phone_screen(local, browser, lang):
    """Each game's summary, and the longest tables' (every variant that fits, teams), within 390x844."""
    context = await browser.new_context(**PHONE, locale=lang)
    try:
        page = await context.new_page()
        for t in FIT:
            await page.goto(local.board.url + address(t))
            bottom = await page.evaluate("() => document.getElementById('summary').getBoundingClientRect().bottom")
            wide = await page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
            if FIGURES is not None:
                with (FIGURES / "rules-summary.txt").open("a") as out:
                    out.write(f"{lang} {address(t)} summary bottom {bottom:.0f} of 844\n")
            assert bottom <= 844 and wide, (lang, t, bottom)
    finally:
        await context.close()


@pytest.mark.parametrize("lang", ["en", "cs", "es", "ro"])
async def test_the_set_up_tables_fit_a_phone(local, browser, lang):
    """Every game's whole set-up table (seven columns) within 390 px, without scrolling sideways."""
    context = await browser.new_context(**PHONE, locale=lang)
    try:
        page = await context.new_page()
        for game in ("kingdomino", "queendomino", "royal-wedding"):
            await page.goto(local.board.url + address(Table(game)))
            fits = await page.evaluate(
                "() => { const w = document.querySelector('.setup-wrap'); return w.scrollWidth <= w.clientWidth; }"
            )
            assert fits, (lang, game)
    finally:
        await context.close()
