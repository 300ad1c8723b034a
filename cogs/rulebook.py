"""The rules of each game as one document, for every front end: the board's rules page (web/rules.py) draws it with the
pieces' pictures, docs/rules.md holds its English (`python -m cogs.rulebook` writes that part, and a test fails when
the two differ), and Discord's /rules links to the page. Every sentence is a catalogue message (i18n/messages.py,
RULES_*), one per paragraph or list item; the facts a table derives from its configuration (dominoes, lines, kings,
the kingdom's size, rounds) are the engine's own (`engine.config`), never written twice.

A `Table` says which rules to show: a game and, when the page is opened from a table, its variants, its number of
players and whether it plays in teams; `None` means "any", and then everything that applies to the game is shown
(the generic page, and docs/rules.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from engine.config import GAMES, PLAYER_RANGE, VARIANTS, ConfigError, GameConfig, Setup
from i18n import messages as M
from i18n import term, translate, translate_plural

from .words import config_refusal

KINGDOMINO_ONLY = frozenset({"mighty-duel", "three-player-four-dominoes"})
BOX = 48  # dominoes in a box


class RulesRefusal(ValueError):
    """Rules asked for a table that cannot be: the sentence says what is wrong and what would be right."""

    def __init__(self, text: Callable[[str], str]) -> None:
        self.text = text  # lang -> the sentence
        super().__init__(text("en"))


@dataclass(frozen=True)
class Table:
    """Which rules to show: the game and what is known of its table (`None`: any)."""

    game: str
    variants: frozenset[str] | None = None
    players: int | None = None
    teams: bool = False

    def config(self) -> GameConfig | None:
        """The engine's configuration of this table, when its number of players is known."""
        if self.players is None:
            return None
        players = tuple(str(i) for i in range(self.players))
        teams = tuple(zip(players[::2], players[1::2], strict=True)) if self.teams else None
        return GameConfig(self.game, players, self.variants or frozenset(), teams)

    @property
    def setup(self) -> Setup | None:
        config = self.config()
        return config.setup if config else None

    def offered_variants(self) -> tuple[str, ...]:
        """The variants this page describes: the table's, or every variant the game takes."""
        if self.variants is not None:
            return tuple(v for v in VARIANTS if v in self.variants)
        return tuple(v for v in VARIANTS if self.game == "kingdomino" or v not in KINGDOMINO_ONLY)


def table(game: str, variants: frozenset[str] | None = None, players: int | None = None, teams: bool = False) -> Table:
    """A checked `Table`, or a `RulesRefusal` saying why the engine would not deal it (the lobby's own sentences)."""
    if game not in GAMES:
        raise RulesRefusal(lambda lang: translate(lang, M.RULES_BAD_GAME, typed=game[:40]))
    found = Table(game, variants, players, teams)
    trial = found
    if players is None:  # any table of this game with these variants: the engine checks one of them
        wanted = variants or frozenset()
        count = 2 if "mighty-duel" in wanted else 3 if "three-player-four-dominoes" in wanted else PLAYER_RANGE[game][0]
        trial = Table(game, variants, 6 if teams else count, teams)
    try:
        trial.config()
    except ConfigError as error:
        refused = error
        raise RulesRefusal(
            lambda lang: translate(lang, M.TABLE_IMPOSSIBLE, reason=config_refusal(refused, lang))
        ) from None
    return found


def table_of(kind: str, config: dict, started: bool) -> Table:
    """The rules' table of a stored game: its `GameRecord.config` (the lobby's options, or the engine's configuration
    once `started`)."""
    variants = frozenset(config.get("variants", ()))
    if started:
        return Table(kind, variants, len(config.get("players", ())) or None, bool(config.get("teams")))
    seats = config.get("seats")
    return Table(kind, variants, int(seats) if seats else None, bool(config.get("teams")))


def address(t: Table | None, lang: str | None = None, back: str | None = None) -> str:
    """The rules page's address relative to the board's root: `rules?game=...&variants=...&players=...&lang=...`."""
    query: dict[str, str] = {}
    if t is not None:
        query["game"] = t.game
        if t.variants is not None:
            query["variants"] = ",".join(v for v in VARIANTS if v in t.variants)
        if t.players is not None:
            query["players"] = str(t.players)
        if t.teams:
            query["teams"] = "1"
    if lang:
        query["lang"] = lang
    if back:
        query["back"] = back
    return "rules" + ("?" + urlencode(query) if query else "")


# -- the set-ups: one row per way to deal a game -----------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    players: int
    variant: str | None = None
    teams: bool = False

    def table(self, game: str) -> Table:
        return Table(game, frozenset({self.variant} if self.variant else ()), self.players, self.teams)

    def label(self, lang: str) -> str:
        if self.teams:
            return translate(lang, M.RULES_ROW_TEAMS, n=self.players)
        if self.variant == "three-player-four-dominoes":
            return translate(lang, M.RULES_ROW_LINES_OF_FOUR, n=self.players)
        if self.variant:
            return translate(lang, M.RULES_ROW_VARIANT, n=self.players, variant=term(lang, self.variant))
        return str(self.players)


ROWS = {
    "kingdomino": (Row(2), Row(3), Row(4), Row(2, "mighty-duel"), Row(3, "three-player-four-dominoes")),
    "queendomino": (Row(2), Row(3), Row(4)),
    "royal-wedding": (Row(3), Row(4), Row(5), Row(6), Row(7), Row(6, teams=True), Row(8, teams=True)),
}
SETUP_COLUMNS = ("players", "dominoes", "line", "kings", "kingdom", "rounds", "left")


def left_per_round(setup: Setup, players: int) -> int:
    """Dominoes of a line no king stands on once every king has chosen: discarded at the end of the round."""
    return setup.line_size - players * setup.kings_per_player


def setup_cells(row: Row, game: str, lang: str) -> tuple[str, ...]:
    setup = row.table(game).setup
    assert setup is not None
    total = BOX * len(setup.boxes)
    used = (
        str(total)
        if setup.dominoes_used == total
        else translate(lang, M.RULES_DOMINOES_OF, used=setup.dominoes_used, total=total)
    )
    size = f"{setup.kingdom_size}×{setup.kingdom_size}"
    numbers = (setup.line_size, setup.kings_per_player, size, setup.rounds, left_per_round(setup, row.players))
    return (row.label(lang), used, *(str(n) for n in numbers))


def setup_rows(t: Table) -> list[Row]:
    """The rows of the game's set-ups this page shows: all of them, or, on a table's page, its own (those of its
    number of players, and of its variants)."""
    rows = []
    for row in ROWS[t.game]:
        if t.players is not None and (row.players, row.teams) != (t.players, t.teams):
            continue
        if t.variants is not None:
            if row.variant is not None and row.variant not in t.variants:
                continue
            if row.variant is None and any(r.variant in t.variants and r.players == row.players for r in ROWS[t.game]):
                continue  # Mighty Duel's row replaces the plain 2-player row, lines of 4 the 3-player one
        rows.append(row)
    return rows


def is_this_table(row: Row, t: Table) -> bool:
    return t.players == row.players and t.teams == row.teams and (t.variants is not None or row.variant is None)


# -- the document ---------------------------------------------------------------------------------------------------
Words = Callable[[Table, str], str]  # (the table, the language) -> a sentence


def say(msgid: str, **params: Callable[[Table, str], object]) -> Words:
    """A catalogue sentence, its placeholders filled from the table (each `param(table, lang)`)."""
    return lambda t, lang: translate(lang, msgid, **{k: f(t, lang) for k, f in params.items()})


def sized(with_size: str, without: str | dict) -> Words:
    """The sentence with the table's kingdom size when it is known, else the one that gives every size."""

    def words(t: Table, lang: str) -> str:
        setup = t.setup
        if setup is not None:
            return translate(lang, with_size, size=setup.kingdom_size)
        return translate(lang, without[t.game] if isinstance(without, dict) else without)

    return words


def players_are(*counts: int) -> Callable[[Table], bool]:
    return lambda t: t.players is None or t.players in counts


def plays_variant(variant: str) -> Callable[[Table], bool]:
    return lambda t: t.variants is None or variant in t.variants


def all_dominoes_not_dealt(t: Table) -> bool:
    """Kingdomino with 2 or 3 players and no variant that deals all 48."""
    return players_are(2, 3)(t) and (t.variants is None or not t.variants & KINGDOMINO_ONLY)


def in_teams(t: Table) -> bool:
    return t.players is None or t.teams


K, Q, RW = "kingdomino", "queendomino", "royal-wedding"
ALL = frozenset(GAMES)
QUEEN_RULES = frozenset({Q, RW})


@dataclass(frozen=True)
class Block:
    """One paragraph, list item, numbered item, or picture of a section, for the games in `games`; on a table's page
    shown only when `when` holds for the table."""

    kind: str  # "p", "li", "step" (numbered), "setup" (the table of set-ups), "figure" (a picture, the page only)
    words: Words | None
    games: frozenset[str]
    picture: str | None = None  # what the page draws beside it (web/rulepictures.py)
    when: Callable[[Table], bool] = field(default=lambda t: True)

    def shown(self, t: Table) -> bool:
        return t.game in self.games and self.when(t)


def p(msgid, games=ALL, picture=None, when=None, kind="p") -> Block:
    words = msgid if callable(msgid) else say(msgid)
    return Block(kind, words, frozenset(games), picture, when or (lambda t: True))


def li(msgid, games=ALL, picture=None, when=None) -> Block:
    return p(msgid, games, picture, when, kind="li")


def step(msgid, games=ALL, picture=None, when=None) -> Block:
    return p(msgid, games, picture, when, kind="step")


def figure(picture: str, games=ALL, when=None) -> Block:
    return Block("figure", None, frozenset(games), picture, when or (lambda t: True))


TAX = say(
    M.RULES_BUILD_TAX,
    guardhouse=lambda t, lang: term(lang, "building.fortified_guardhouse"),
    treasury=lambda t, lang: term(lang, "building.treasury"),
)

SECTIONS: tuple[tuple[str, tuple[Block, ...]], ...] = (
    (
        "summary",
        (
            li(M.RULES_SUM_GOAL, {K}, "domino"),
            li(M.RULES_SUM_GOAL_Q, {Q}, "domino-town"),
            li(M.RULES_SUM_GOAL_RW, {RW}, "boxes"),
            li(M.RULES_SUM_TURN, {K}, "king"),
            li(M.RULES_SUM_TURN_Q, QUEEN_RULES, "king"),
            li(M.RULES_SUM_STEPS, QUEEN_RULES, "steps"),
            li(M.RULES_SUM_QUEEN, QUEEN_RULES, "queen"),
            *(li(sized(M.RULES_SUM_PLACE, M.RULES_SUM_PLACE_ANY), {game}, "castle") for game in GAMES),
            li(M.RULES_SUM_SCORE, {K}, "crown"),
            li(M.RULES_SUM_SCORE_Q, QUEEN_RULES, "crown"),
        ),
    ),
    (
        "words",
        (
            figure("pieces"),
            p(M.RULES_WORDS_DOMINO),
            p(M.RULES_WORDS_TERRITORY),
            p(M.RULES_WORDS_CASTLE),
            p(M.RULES_WORDS_LINE),
        ),
    ),
    (
        "setup",
        (
            *(Block("setup", None, frozenset({game})) for game in GAMES),
            p(M.RULES_SETUP_CASTLE),
            p(M.RULES_SETUP_ASIDE, {K}, when=all_dominoes_not_dealt),
            p(M.RULES_SETUP_BUILDINGS, QUEEN_RULES),
            figure("builders", QUEEN_RULES),
            p(M.RULES_SETUP_DRAGON, QUEEN_RULES),
            p(M.RULES_SETUP_KNIGHTS, QUEEN_RULES),
        ),
    ),
    (
        "first",
        (
            p(M.RULES_FIRST_LINE),
            p(M.RULES_FIRST_TWO, {K}, when=players_are(2)),
            p(M.RULES_FIRST_TWO_Q, {Q}, when=players_are(2)),
            p(M.RULES_FIRST_NEXT),
        ),
    ),
    (
        "turn",
        (
            p(M.RULES_TURN_ORDER),
            step(M.RULES_TURN_PLACE, {K}, "domino"),
            step(M.RULES_TURN_CHOOSE, {K}, "king"),
            p(M.RULES_TURN_TWO_KINGS, {K}, when=players_are(2)),
            p(M.RULES_TURN_NEXT_LINE, {K}),
            p(M.RULES_TURN_STEPS, QUEEN_RULES),
            li(M.RULES_TURN_Q["place"], QUEEN_RULES, "domino"),
            li(M.RULES_TURN_Q["tax"], QUEEN_RULES, "knight"),
            li(M.RULES_TURN_Q["build"], QUEEN_RULES, "building"),
            li(M.RULES_TURN_Q["dragon"], QUEEN_RULES, "dragon"),
            li(M.RULES_TURN_Q["claim"], QUEEN_RULES, "king"),
            p(M.RULES_TURN_TWO_Q, {Q}, when=players_are(2)),
            p(M.RULES_TURN_DISCARD, QUEEN_RULES),
        ),
    ),
    (
        "placing",
        (
            li(M.RULES_PLACE_TURN),
            li(M.RULES_PLACE_EMPTY),
            li(M.RULES_PLACE_TOUCH),
            li(sized(M.RULES_PLACE_FIT, M.RULES_PLACE_FIT_ANY)),
            li(M.RULES_PLACE_DISCARD),
            figure("placing"),
        ),
    ),
    (
        "buildings",
        (
            li(M.RULES_BUILD_KNIGHTS, QUEEN_RULES, "knight"),
            li(M.RULES_BUILD_TOWERS, QUEEN_RULES, "tower"),
            li(M.RULES_BUILD_QUEEN, QUEEN_RULES, "queen"),
            li(TAX, QUEEN_RULES, "coin"),
            li(M.RULES_BUILD_CROWN, QUEEN_RULES, "building-crown"),
        ),
    ),
    (
        "round_end",
        (
            li(M.RULES_ROUND_DRAGON, QUEEN_RULES),
            li(M.RULES_ROUND_SLIDE, QUEEN_RULES),
            li(M.RULES_ROUND_LEFT, QUEEN_RULES),
            li(M.RULES_ROUND_NEXT, QUEEN_RULES),
        ),
    ),
    (
        "scoring",
        (
            p(M.RULES_SCORE_TERRITORY),
            figure("score"),
            li(M.RULES_SCORE_COINS, QUEEN_RULES, "coin"),
            li(M.RULES_SCORE_TOWN, QUEEN_RULES, "building-crown"),
            li(M.RULES_SCORE_QUEEN, QUEEN_RULES, "queen"),
            li(M.RULES_SCORE_BUILDINGS, QUEEN_RULES, "building"),
        ),
    ),
    (
        "end",
        (
            p(M.RULES_END_LAST),
            p(M.RULES_END_TIES, {K}),
            p(M.RULES_END_TIES_Q, QUEEN_RULES),
        ),
    ),
    (
        "variants",
        (
            p(M.RULES_VARIANTS_ANY, when=lambda t: t.variants is None),
            p(M.RULES_VARIANTS_TABLE, when=lambda t: bool(t.variants)),
            p(M.RULES_VARIANTS_NONE, when=lambda t: t.variants is not None and not t.variants),
            *(
                Block(
                    "variant:" + v,
                    say(M.RULES_VARIANT_TEXT[v]),
                    ALL if v not in KINGDOMINO_ONLY else frozenset({K}),
                    "middle" if v == "middle-kingdom" else None,
                    plays_variant(v),
                )
                for v in VARIANTS
            ),
        ),
    ),
    (
        "royal-wedding",
        (
            li(M.RULES_RW["boxes"], {RW}),
            li(M.RULES_RW["numbers"], {RW}),
            li(M.RULES_RW["teams"], {RW}, when=in_teams),
            li(M.RULES_RW["team_play"], {RW}, when=in_teams),
        ),
    ),
)


def heading(key: str, lang: str) -> str:
    return term(lang, RW) if key == "royal-wedding" else translate(lang, M.RULES_HEADINGS[key])


def variant_name(variant: str, lang: str) -> str:
    if variant in M.WEB_VARIANT_NAMES:
        return translate(lang, M.WEB_VARIANT_NAMES[variant])
    return term(lang, variant)


@dataclass(frozen=True)
class Item:
    """A block as shown: its kind, its sentence in the reader's language, its picture."""

    kind: str
    text: str
    picture: str | None


def sections(t: Table, lang: str) -> list[tuple[str, str, list[Item]]]:
    """(key, heading, items) of every section with something for this table, in order."""
    out = []
    for key, blocks in SECTIONS:
        items = [Item(b.kind, b.words(t, lang) if b.words else "", b.picture) for b in blocks if b.shown(t)]
        if items:
            out.append((key, heading(key, lang), items))
    return out


def table_facts(t: Table, lang: str) -> list[str]:
    """The table's facts, each a short phrase: its players, kings each (when 2), kingdom size, rounds, variants."""
    setup = t.setup
    if setup is None:
        low, high = PLAYER_RANGE[t.game]
        facts = [translate(lang, M.RULES_PLAYER_RANGE, low=low, high=high)]
    else:
        assert t.players is not None
        facts = [translate_plural(lang, *M.PIC_PLAYERS, t.players)]
        if t.teams:
            facts.append(translate(lang, M.RULES_IN_TEAMS))
        if setup.kings_per_player > 1:
            facts.append(translate_plural(lang, *M.RULES_KINGS_EACH, setup.kings_per_player))
        facts += [f"{setup.kingdom_size}×{setup.kingdom_size}", translate_plural(lang, *M.RULES_ROUNDS, setup.rounds)]
    return facts + [variant_name(v, lang) for v in VARIANTS if v in (t.variants or ())]


# -- docs/rules.md: the English of every game, each block once, under the first game it is for --------------------------
BEGIN = (
    "<!-- rules: begin (written by `python -m cogs.rulebook` from i18n/messages.py: edit the messages, then run it) -->"
)
END = "<!-- rules: end -->"
PARTS = ((K, "1. Kingdomino"), (Q, "2. Queendomino"), (RW, "3. Royal Wedding"))


def home(block: Block) -> str:
    return next(g for g in GAMES if g in block.games)


def markdown(lang: str = "en") -> str:
    """The generated part of docs/rules.md: each game's own rules, the blocks shared by several games under the first."""
    out: list[str] = []
    for game, title in PARTS:
        out += [f"## {title}", ""]
        if game != K:
            out += ["Everything above holds except where this part says otherwise.", ""]
        t = Table(game)
        for key, blocks in SECTIONS:
            mine = [b for b in blocks if home(b) == game and b.kind != "figure" and b.when(t)]
            if not mine:
                continue
            out += [f"### {heading(key, lang)}", ""]
            number = 0
            for b in mine:
                if b.kind == "setup":
                    out += setup_markdown(game, lang)
                    continue
                text = b.words(t, lang) if b.words else ""
                if b.kind.startswith("variant:"):
                    out += [f"- **{variant_name(b.kind[8:], lang)}**: {text}"]
                elif b.kind == "step":
                    number += 1
                    out += [f"{number}. {text}"]
                else:
                    out += [f"- {text}" if b.kind == "li" else f"\n{text}\n"]
            out.append("")
    return "\n".join(line for line in _tidy(out)) + "\n"


def _tidy(lines: list[str]) -> list[str]:
    """One empty line between blocks, none doubled."""
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip("\n").split("\n")


def setup_markdown(game: str, lang: str) -> list[str]:
    head = [translate(lang, M.RULES_SETUP_COLUMNS[c]) for c in SETUP_COLUMNS]
    rows = [setup_cells(row, game, lang) for row in ROWS[game]]
    return [
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *("| " + " | ".join(r) + " |" for r in rows),
        "",
    ]


DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def with_rules(document: str) -> str:
    """The document with its generated part (between BEGIN and END) made again."""
    before, _, rest = document.partition(BEGIN)
    _, _, after = rest.partition(END)
    return f"{before}{BEGIN}\n\n{markdown()}\n{END}{after}"


def main() -> int:
    text = DOC.read_text()
    if BEGIN not in text or END not in text:
        print(f"{DOC} has no {BEGIN} ... {END} part", file=sys.stderr)
        return 1
    new = with_rules(text)
    if new != text:
        DOC.write_text(new)
        print(f"{DOC}: the rules' part written again")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
