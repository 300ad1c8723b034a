"""Words for the pictures: Discord attachment descriptions (alt text) and a text kingdom for screen readers.

    table_alt_text(game, names)             # whose turn, the scores, the dominoes on offer (and the builders' board)
    kingdom_alt_text(game, player, names)   # one kingdom's rows in words
    kingdoms_alt_text(game, names)          # a split table's second picture: every kingdom's score and stock
    sheet_alt_text(game, names)             # the score sheet: every kingdom's parts and total, the winner
    replay_alt_text(game, names)            # the animated replay of a game
    chart_alt_text(game, names)             # the score chart: each kingdom's score round by round
    kingdom_text(game, player)              # a grid of terrain letters and crowns with coordinates, and a legend

Every alt text is one paragraph of plain sentences of at most 1,024 characters (Discord's limit for an attachment
description): the most useful facts come first and what does not fit is cut at a word, ending with "…". Names are
made plain (no line breaks, no markdown characters) so nothing in them formats or breaks the text.
`kingdom_text` is meant for a code block: it has no backticks and, with the fences, fits one 2,000-character message.

Every function takes `lang` ("en" by default): each sentence is one whole catalogue sentence (named placeholders,
plurals through translate_plural); in English the words are exactly the ones these functions always wrote.
Cell names (`E4`) are the same in every language; the grid's terrain letters are the language's own (`W2` in
English, `P2` for an obilné pole in Czech, where les and louka both start with L), each different from the other six
in that language and explained by a legend in that language (`grid_letters`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from engine import BUILD, CLAIM, DRAGON, FIRST_CLAIM, PLACE, TAX, Game, building, cell_name, domino
from engine.components import TERRAIN_LETTER
from i18n import N_, PSEUDO, TERMS, term, translate, translate_plural
from i18n import messages as M

from .replay import GAME_TITLES
from .words import EN, and_list, building_title, game_title, picture_lang, say

ALT_LIMIT = 1024
MESSAGE_LIMIT = 2000
CODE_BLOCK_LIMIT = MESSAGE_LIMIT - len("```\n\n```")  # what kingdom_text may take inside its fences
NAME_LIMIT = 40
ELLIPSIS = "…"

_MARKDOWN = re.compile(r"[*_~`|<>@\[\]\\]")


def plain_name(name: str, fallback: str = "a player") -> str:
    """A display name safe in alt text: one line, no control or markdown characters, at most NAME_LIMIT long."""
    cleaned = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in str(name))
    cleaned = _MARKDOWN.sub("", cleaned)
    cleaned = " ".join(cleaned.split())
    if len(cleaned) > NAME_LIMIT:
        cleaned = cleaned[: NAME_LIMIT - 1].rstrip() + ELLIPSIS
    return cleaned or fallback


# Translators: In alt texts, the name of a player whose Discord name cannot be used. {number}: their seat, 1, 2...
def _names(game: Game, names: Mapping[str, str] | None, lang: str = EN) -> dict[str, str]:
    given = dict(names or {})
    return {
        p: plain_name(given.get(p, p), translate(lang, "player {number}", number=i + 1))
        for i, p in enumerate(game.players)
    }


def _kingdom_name(game: Game, index: int, names: Mapping[str, str], lang: str = EN) -> str:
    return and_list(lang, [names[p] for p in game.kingdoms[index].players])


def _kingdom_index(game: Game, player: str | int) -> int:
    if isinstance(player, int):
        if not 0 <= player < len(game.kingdoms):
            raise KeyError(f"No kingdom {player}: the game has {len(game.kingdoms)}.")
        return player
    return game.kingdom_of(player)


def fit(parts: Iterable[str], limit: int = ALT_LIMIT) -> str:
    """Join sentences with spaces, as many as fit in `limit`; the first that does not is cut at a word with "…"."""
    out = ""
    for part in parts:
        part = " ".join(part.split())
        if not part:
            continue
        candidate = f"{out} {part}" if out else part
        if len(candidate) <= limit:
            out = candidate
            continue
        room = limit - len(out) - (1 if out else 0) - len(ELLIPSIS)
        if room >= 12:  # a stub shorter than that says nothing
            cut = part[:room]
            if " " in cut:
                cut = cut[: cut.rindex(" ")]
            out = f"{out} {cut.rstrip(' ,;:')}{ELLIPSIS}" if out else f"{cut.rstrip(' ,;:')}{ELLIPSIS}"
        elif out and len(out) + len(ELLIPSIS) <= limit:
            out += ELLIPSIS
        break
    return out[:limit]


# -- words ------------------------------------------------------------------------------------------------------------
def terrain_word(terrain: str, lang: str = EN) -> str:
    """A terrain in running text: the engine's key in English (`wheat`), the rulebook's word elsewhere."""
    return terrain if lang == EN or terrain not in TERMS else term(lang, terrain)


def grid_letters(lang: str = EN) -> tuple[dict[str, str], str]:
    """The text grid's letters in `lang`: terrain -> its one letter (no two alike in a language), and the castle's
    two letters. The pseudo-locale keeps the English letters: a bracketed letter would break the grid's columns."""
    source = EN if lang == PSEUDO else lang
    letters = {t: translate(source, msgid, context=f"grid:{t}") for t, msgid in M.GRID_LETTERS.items()}
    return letters, translate(source, M.GRID_CASTLE, context="grid:castle")


def grid_row(row: str, lang: str = EN) -> str:
    """One row of the engine's text grid (`W2 CC ..`) in the letters of `lang` (`P2 HR ..` in Czech)."""
    letters, castle = grid_letters(lang)
    by_engine = {TERRAIN_LETTER[t]: letter for t, letter in letters.items()}
    cells = [castle if c == "CC" else c if c == ".." else by_engine[c[0]] + c[1:] for c in row.split(" ")]
    return " ".join(cells)


def _grid_legend(game: Game, lang: str) -> str:
    """`P obilné pole, L les, ...`: each terrain of the game after its letter in `lang`."""
    letters, _ = grid_letters(lang)
    return ", ".join(
        f"{letters[t]} {terrain_word(t, lang)}" for t in M.GRID_LETTERS if game.queendomino_rules or t != "town"
    )


# Translators: In alt texts: a square in words, its terrain and crowns ('forest 1 crown'); {terrain}: the terrain's
# word.
def _square_words(terrain: str, crowns: int, lang: str = EN) -> str:
    word = terrain_word(terrain, lang)
    if not crowns:
        return word
    return translate_plural(lang, "{terrain} {n} crown", "{terrain} {n} crowns", crowns, terrain=word)


def domino_words(game: Game, domino_id: str, lang: str = EN) -> str:
    """`23 (wheat, lake 1 crown)`; with both boxes in play (Royal Wedding) the box letter too: `Q23 (...)`."""
    d = domino(domino_id)
    label = d.id if len(game.setup.boxes) > 1 else str(d.number)
    a, b = d.squares
    return f"{label} ({_square_words(a.terrain, a.crowns, lang)}, {_square_words(b.terrain, b.crowns, lang)})"


def _building(building_id: str, lang: str) -> str:
    return building_title(lang, building(building_id).name, building_id)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences): a count of coins.
def _coins(n: int, lang: str) -> str:
    return translate_plural(lang, "{n} coin", "{n} coins", n)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences): a kingdom's knights and towers.
def _stock(game: Game, index: int, lang: str) -> tuple[str, str, str]:
    """A kingdom's coins, knights in reserve and towers, each counted in words."""
    k = game.kingdoms[index]
    knights = translate_plural(lang, "{n} knight in reserve", "{n} knights in reserve", k.knights_reserve)
    towers = translate_plural(lang, "{n} tower", "{n} towers", k.towers)
    return _coins(k.coins, lang), knights, towers


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences): the game in words, opening the table's alt text. {teams}: the number of teams.
def _title(game: Game, deal: bool = True, lang: str = EN) -> str:
    cfg = game.config
    n = len(cfg.players)
    name = game_title(lang, GAME_TITLES[cfg.game], cfg.game)
    dynasty = cfg.deals > 1 and deal
    where = {"deal": game.deal + 1, "deals": cfg.deals}
    if cfg.teams is not None and dynasty:
        return translate_plural(
            lang,
            "{game}, {n} player in {teams} teams, game {deal} of {deals}",
            "{game}, {n} players in {teams} teams, game {deal} of {deals}",
            n,
            game=name,
            teams=len(cfg.teams),
            **where,
        )
    if cfg.teams is not None:
        return translate_plural(
            lang, "{game}, {n} player in {teams} teams", "{game}, {n} players in {teams} teams", n, game=name,
            teams=len(cfg.teams),
        )  # fmt: skip
    if dynasty:
        return translate_plural(
            lang, "{game}, {n} player, game {deal} of {deals}", "{game}, {n} players, game {deal} of {deals}", n,
            game=name, **where,
        )  # fmt: skip
    return translate_plural(lang, "{game}, {n} player", "{game}, {n} players", n, game=name)


def _totals(game: Game) -> list[int]:
    if game.is_over:
        return list(game.result().totals)
    return game.match_totals()


def _ranked_scores(game: Game, names: Mapping[str, str], totals, lang: str) -> str:
    """`Ann 31, Bob 24`: every kingdom with its score, best first."""
    order = sorted(range(len(totals)), key=lambda i: (-totals[i], i))
    return ", ".join(f"{_kingdom_name(game, i, names, lang)} {totals[i]}" for i in order)


def _line_words(game: Game, line: list[list], names: Mapping[str, str], lang: str = EN) -> str:
    parts = []
    for dom, king in line:
        who = names[game.kings[king].player] if king is not None else translate(lang, M.PIC_FREE)
        parts.append(f"{domino_words(game, dom, lang)} {who}")
    return "; ".join(parts)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of the table picture: whose turn it is and what they must do, said of {name} (third person), or the
# winner.
def _turn_sentence(game: Game, names: Mapping[str, str], lang: str = EN) -> str:
    d = game.decision()
    if d is None:
        r = game.result()
        who = and_list(lang, [names[p] for p in r.winners]) if lang != EN else " and ".join(names[p] for p in r.winners)
        many = len(r.winners) > 1
        if r.tiebreak and r.tiebreak != "shared":
            how = r.tiebreak
            if lang != EN and r.tiebreak in M.TIEBREAKS:
                how = translate(lang, M.TIEBREAKS[r.tiebreak])
            if many:
                return translate(lang, "Game over: {names} win on the tie-break ({tiebreak}).", names=who, tiebreak=how)
            return translate(lang, "Game over: {names} wins on the tie-break ({tiebreak}).", names=who, tiebreak=how)
        if many:
            return translate(lang, "Game over: {names} win.", names=who)
        return translate(lang, "Game over: {names} wins.", names=who)
    n = names[d.player]
    if d.kind == FIRST_CLAIM:
        return translate(lang, "{name}'s turn: choose a domino of the first line.", name=n)
    if d.kind == PLACE and d.domino:
        return translate(
            lang, "{name}'s turn: place domino {domino}.", name=n, domino=domino_words(game, d.domino, lang)
        )
    if d.kind == PLACE:
        return translate(lang, "{name}'s turn: place a domino.", name=n)
    if d.kind == TAX:
        return translate(lang, "{name}'s turn: send knights to collect tax, or skip.", name=n)
    if d.kind == BUILD:
        return translate(lang, "{name}'s turn: build, or skip.", name=n)
    if d.kind == DRAGON:
        return translate(lang, "{name}'s turn: bribe the dragon, or skip.", name=n)
    if d.kind == CLAIM:
        return translate(lang, "{name}'s turn: choose a domino of the next line.", name=n)
    return f"{n}'s turn: {d.words}."  # an unknown kind: the engine's own (English) words


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of the table picture. {dominoes}: the line's dominoes in words.
def table_alt_text(game: Game, names: Mapping[str, str] | None = None, *, lang: str = "en") -> str:
    """The table picture in words: the game and round, whose turn, the scores, the lines, the builders' board."""
    lang = picture_lang(lang)
    names = _names(game, names, lang)
    title = _title(game, lang=lang)
    if game.round:
        where = translate(lang, "Table of {game}, round {round} of {rounds}.", game=title, round=game.round,
                          rounds=game.setup.rounds)  # fmt: skip
    else:
        where = translate(lang, "Table of {game}, choosing the first dominoes.", game=title)
    scores = translate(lang, "Scores: {scores}.", scores=_ranked_scores(game, names, _totals(game), lang))
    parts = [where, _turn_sentence(game, names, lang), scores]
    if game.current_line:
        parts.append(
            translate(lang, "Current line: {dominoes}.", dominoes=_line_words(game, game.current_line, names, lang))
        )
    if game.next_line:
        parts.append(translate(lang, "Next line: {dominoes}.", dominoes=_line_words(game, game.next_line, names, lang)))
    if game.queendomino_rules:
        board = [
            translate_plural(
                lang, "{building} {n} coin", "{building} {n} coins", game.cost_of(slot, -1), building=_building(b, lang)
            )
            for slot, b in enumerate(game.board)
            if b is not None
        ]
        if board:
            parts.append(translate(lang, "Builders' board: {buildings}.", buildings=", ".join(board)))
        stock = []
        for i in range(len(game.kingdoms)):
            coins, knights, towers = _stock(game, i, lang)
            words = {"name": _kingdom_name(game, i, names, lang), "coins": coins, "knights": knights, "towers": towers}
            if game.queen == i:
                # Translators: {coins}, {knights}, {towers}: counts in words, '3 coins', '1 knight in reserve', '2
                # towers'.
                stock.append(translate(lang, "{name} {coins}, {knights}, {towers}, hosts the queen", **words))
            else:
                # Translators: {coins}, {knights}, {towers}: counts in words, '3 coins', '1 knight in reserve', '2
                # towers'.
                stock.append(translate(lang, "{name} {coins}, {knights}, {towers}", **words))
        parts.append("; ".join(stock) + ".")
    return fit(parts)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of the table's second picture (every kingdom).
def kingdoms_alt_text(game: Game, names: Mapping[str, str] | None = None, *, lang: str = "en") -> str:
    """The table's second picture (render.table.splits) in words: every kingdom's score, coins, knights, towers."""
    lang = picture_lang(lang)
    names = _names(game, names, lang)
    parts = [
        translate(lang, "The kingdoms of {game}: scores, coins, knights and towers.", game=_title(game, lang=lang))
    ]
    totals = _totals(game)
    for i in range(len(game.kingdoms)):
        name = _kingdom_name(game, i, names, lang)
        points = translate_plural(lang, "{name}: {n} point", "{name}: {n} points", totals[i], name=name)
        if game.queendomino_rules:
            coins, knights, towers = _stock(game, i, lang)
            # Translators: {coins}, {knights}, {towers}: counts in words, '3 coins', '1 knight in reserve', '2
            # towers'.
            stock = translate(lang, "{coins}, {knights}, {towers}.", coins=coins, knights=knights, towers=towers)
            parts.append(f"{points}, {stock}")
        else:
            parts.append(points + ".")
    return fit(parts)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of a kingdom picture: one cell in words. {square}: its terrain and crowns.
def _cell_words(game: Game, index: int, row: int, col: int, lang: str) -> str:
    k = game.kingdoms[index]
    if k.is_castle(row, col):
        return translate(lang, "castle")
    sq = k.square(row, col)
    if sq is None:
        return translate(lang, "empty")
    square = _square_words(sq.terrain, sq.crowns, lang)
    knight = (row, col) in k.knights_placed
    if (row, col) in k.buildings:
        name = _building(k.buildings[(row, col)][0], lang)
        if knight:
            return translate(lang, "{square} with the {building} and a knight", square=square, building=name)
        return translate(lang, "{square} with the {building}", square=square, building=name)
    if knight:
        return translate(lang, "{square} with a knight", square=square)
    return square


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of a kingdom picture: one row. {row}: its number; {cells}: its cells in words.
def _row_words(game: Game, index: int, row: int, left: int, right: int, lang: str = EN) -> str:
    cells = [_cell_words(game, index, row, col, lang) for col in range(left, right + 1)]
    return translate(lang, "Row {row}: {cells}.", row=row + 1, cells=", ".join(cells))


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of a kingdom picture (/look kingdom, the turn panel). {size}: the kingdom's side, 5 or 7; {first},
# {last}: column letters; {top}, {bottom}: row numbers.
def kingdom_alt_text(game: Game, player: str | int, names: Mapping[str, str] | None = None, *, lang: str = "en") -> str:
    """One kingdom in words, row by row over the cells it covers (by player id, or kingdom index)."""
    lang = picture_lang(lang)
    names = _names(game, names, lang)
    index = _kingdom_index(game, player)
    k = game.kingdoms[index]
    total = _totals(game)[index]
    top, left, bottom, right = k.bounds()
    points = translate_plural(
        lang, "Kingdom of {name}, {n} point.", "Kingdom of {name}, {n} points.", total,
        name=_kingdom_name(game, index, names, lang),
    )  # fmt: skip
    placed = translate_plural(
        lang,
        "{n} domino placed in a {size} by {size} frame; castle on {cell}.",
        "{n} dominoes placed in a {size} by {size} frame; castle on {cell}.",
        len(k.placed),
        size=k.size,
        cell=cell_name(*k.castle),
    )
    head = f"{points} {placed}"
    rows = [_row_words(game, index, r, left, right, lang) for r in range(top, bottom + 1)]
    span = translate(lang, "Columns {first} to {last}, rows {top} to {bottom}.", first=chr(ord("A") + left),
                     last=chr(ord("A") + right), top=top + 1, bottom=bottom + 1)  # fmt: skip
    extra = []
    if game.queendomino_rules:
        coins, knights, towers = _stock(game, index, lang)
        # Translators: {coins}, {knights}, {towers}: counts in words, '3 coins', '1 knight in reserve', '2 towers'.
        extra.append(translate(lang, "{coins}, {knights}, {towers}.", coins=coins, knights=knights, towers=towers))
        if game.queen == index:
            extra.append(translate(lang, "It hosts the queen."))
    verbose = fit([head, span, *rows, *extra])
    if not verbose.endswith(ELLIPSIS):
        return verbose
    # Too long in words: the compact grid, a letter per terrain (the language's) and the crowns as a digit.
    legend = translate(
        lang,
        "Each cell is a terrain letter and its crowns: {letters}; {castle} castle.",
        letters=_grid_legend(game, lang),
        castle=grid_letters(lang)[1],
    )
    empty = translate(lang, "empty")
    compact = [
        translate(
            lang,
            "Row {row}: {cells}.",
            row=r + 1,
            cells=grid_row(k.text_rows((r, left, r, right))[0], lang).replace("..", empty),
        )
        for r in range(top, bottom + 1)
    ]
    return fit([head, span, legend, *compact, *extra])


def _part_word(part: str, lang: str) -> str:
    """A score part's name in running text: `wheat`, `middle kingdom` in English, the terms elsewhere."""
    if lang == EN:
        return part.replace("_", " ")
    key = {"buildings": "building", "coins": "coin", "middle_kingdom": "middle-kingdom"}.get(part, part)
    if key not in TERMS:
        return part.replace("_", " ")
    return term(lang, key, 2 if part in ("buildings", "coins") else 1)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of the score sheet picture. {place}: the rank; {games}: each Dynasty game's score.
def sheet_alt_text(game: Game, names: Mapping[str, str] | None = None, *, lang: str = "en") -> str:
    """The score sheet in words: each kingdom, best first, its total and the parts that scored; the winner."""
    lang = picture_lang(lang)
    names = _names(game, names, lang)
    breakdowns = game.scores()
    totals = _totals(game)
    over = game.is_over
    order = list(game.result().order) if over else sorted(range(len(totals)), key=lambda i: (-totals[i], i))
    title = _title(game, lang=lang)
    if over:
        parts = [translate(lang, "Final score sheet of {game}.", game=title), _turn_sentence(game, names, lang)]
    else:
        parts = [translate(lang, "Score sheet so far of {game}.", game=title)]
    for place, i in enumerate(order, 1):
        b = breakdowns[i]
        scored = ", ".join(f"{_part_word(name, lang)} {v}" for name, v in b.parts().items() if v)
        games = ""
        if game.config.deals > 1 and game.deal_totals:
            games = ", ".join(str(t[i]) for t in game.deal_totals)
        words = {"place": place, "name": _kingdom_name(game, i, names, lang), "parts": scored, "games": games}
        if scored and games:
            line = translate_plural(
                lang,
                "{place}. {name}: {n} point ({parts}), games {games}.",
                "{place}. {name}: {n} points ({parts}), games {games}.",
                totals[i],
                **words,
            )
        elif scored:
            line = translate_plural(
                lang, "{place}. {name}: {n} point ({parts}).", "{place}. {name}: {n} points ({parts}).", totals[i],
                **words,
            )  # fmt: skip
        elif games:
            line = translate_plural(
                lang, "{place}. {name}: {n} point, games {games}.", "{place}. {name}: {n} points, games {games}.",
                totals[i], **words,
            )  # fmt: skip
        else:
            line = translate_plural(lang, "{place}. {name}: {n} point.", "{place}. {name}: {n} points.", totals[i],
                                    **words)  # fmt: skip
        parts.append(line)
    return fit(parts)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of the animated replay (/look replay).
def replay_alt_text(game: Game, names: Mapping[str, str] | None = None, *, lang: str = "en") -> str:
    """The animated replay of `game` (its final state, or the state it was drawn from) in words."""
    from .replay import replay_steps

    lang = picture_lang(lang)
    names = _names(game, names, lang)
    steps = replay_steps(game.config, game.seed, game.log)
    turns = len([s for s in steps if s.player is not None])
    last = steps[-1]
    who = ", ".join(_kingdom_name(game, i, names, lang) for i in range(len(game.kingdoms)))
    parts = [
        translate_plural(
            lang,
            "Animated replay of {game}: {n} turn, one picture each, the kingdoms of {names} growing from their "
            "castles, the domino just placed outlined in white.",
            "Animated replay of {game}: {n} turns, one picture each, the kingdoms of {names} growing from their "
            "castles, the domino just placed outlined in white.",
            turns,
            game=_title(game, deal=False, lang=lang),
            names=who,
        )
    ]
    scores = _ranked_scores(game, names, last.totals, lang)
    if last.final:
        parts.append(translate(lang, "Final scores: {scores}.", scores=scores))
        parts.append(_turn_sentence(last.game, names, lang))
    else:
        parts.append(translate(lang, "Scores at round {round}: {scores}.", round=last.round, scores=scores))
    return fit(parts)


# Translators: Alt text (read aloud by screen readers; one paragraph of at most 1,024 characters with the picture's
# other sentences) of the score chart (/look chart).
def chart_alt_text(game: Game, names: Mapping[str, str] | None = None, *, lang: str = "en") -> str:
    """The score chart of `game` in words: every kingdom's score after each round."""
    from .chart import score_history

    lang = picture_lang(lang)
    names = _names(game, names, lang)
    history = score_history(game.config, game.seed, game.log)
    final = history.final
    order = sorted(range(len(final)), key=lambda i: (-final[i], i))
    title = _title(game, deal=False, lang=lang)
    # The English says "line chart"; the catalogue's sentence says "chart", so that no language has to name a
    # line of dominoes (the glossary's "line") in it.
    if history.deals > 1:
        english = f"Line chart of each kingdom's score after every round of {title}, {history.deals} games added up."
        msgid = N_("Chart of each kingdom's score after every round of {game}, {deals} games added up.")
        head = say(lang, english, msgid, game=title, deals=history.deals)
    else:
        english = f"Line chart of each kingdom's score after every round of {title}."
        head = say(lang, english, N_("Chart of each kingdom's score after every round of {game}."), game=title)
    parts = [head, translate(lang, "Last scores: {scores}.", scores=_ranked_scores(game, names, final, lang))]
    for i in order:
        parts.append(translate(lang, "{name}, round by round: {scores}.", name=_kingdom_name(game, i, names, lang),
                               scores=", ".join(map(str, history.scores[i]))))  # fmt: skip
    return fit(parts)


# -- a text kingdom for screen readers and code blocks -------------------------------------------------------------
# Translators: /look kingdom text:True: the kingdom as a grid of letters in a code block (monospace), for screen
# readers, then these lines under it.
def kingdom_text(game: Game, player: str | int, *, lang: str = "en") -> str:
    """Kingdom `player` (player id or kingdom index) as a grid to show in a code block: the game's column letters
    and row numbers, each cell its terrain letter in `lang` and crowns (`W2`), the castle's two letters (`CC`), `..`
    an empty cell where a square may still go; buildings, knights and the queen listed under it; then a legend (in
    `lang`). No names inside (they go outside the block), no backticks: at most 1,990 characters, so it fits one
    message with its fences."""
    lang = picture_lang(lang)
    index = _kingdom_index(game, player)
    k = game.kingdoms[index]
    top, left, bottom, right = k.frame()
    lines = ["    " + " ".join(f"{chr(ord('A') + c):>2}" for c in range(left, right + 1))]
    for r, row in zip(range(top, bottom + 1), k.text_rows((top, left, bottom, right)), strict=True):
        lines.append(f"{r + 1:>3} " + grid_row(row, lang))
    notes = []
    for (r, c), (bid, towers) in sorted(k.buildings.items()):
        where = {"building": _building(bid, lang), "cell": cell_name(r, c)}
        if towers:
            notes.append(translate_plural(lang, "{building} on {cell} ({n} tower)", "{building} on {cell} ({n} towers)",
                                          towers, **where))  # fmt: skip
        else:
            notes.append(translate(lang, "{building} on {cell}", **where))
    if notes:
        lines += ["", translate(lang, "Buildings: {buildings}", buildings=", ".join(notes))]
    if k.knights_placed:
        lines.append(
            translate(lang, "Knights on {cells}", cells=", ".join(cell_name(r, c) for r, c in k.knights_placed))
        )
    if game.queendomino_rules:
        coins, knights, towers = _stock(game, index, lang)
        words = {"coins": coins, "knights": knights, "towers": towers}
        if game.queen == index:
            # Translators: {coins}, {knights}, {towers}: counts in words, '3 coins', '1 knight in reserve', '2
            # towers'.
            lines.append(translate(lang, "{coins}, {knights}, {towers}, hosts the queen", **words))
        else:
            # Translators: {coins}, {knights}, {towers}: counts in words, '3 coins', '1 knight in reserve', '2
            # towers'.
            lines.append(translate(lang, "{coins}, {knights}, {towers}", **words))
    lines += [
        "",
        translate(lang, "Legend: letter = terrain, digit = crowns"),
        _grid_legend(game, lang),
        translate(lang, "{castle} castle ({cell}), .. empty", castle=grid_letters(lang)[1], cell=cell_name(*k.castle)),
    ]
    out = "\n".join(line.rstrip() for line in lines).replace("`", "'")
    return out[:CODE_BLOCK_LIMIT]


__all__ = [
    "ALT_LIMIT",
    "chart_alt_text",
    "domino_words",
    "fit",
    "grid_letters",
    "grid_row",
    "kingdom_alt_text",
    "kingdom_text",
    "kingdoms_alt_text",
    "plain_name",
    "replay_alt_text",
    "sheet_alt_text",
    "table_alt_text",
]
