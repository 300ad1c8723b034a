"""Words for the pictures: Discord attachment descriptions (alt text) and a text kingdom for screen readers.

    table_alt_text(game, names)             # whose turn, the scores, the dominoes on offer (and the builders' board)
    kingdom_alt_text(game, player, names)   # one kingdom's rows in words
    sheet_alt_text(game, names)             # the score sheet: every kingdom's parts and total, the winner
    replay_alt_text(game, names)            # the animated replay of a game
    chart_alt_text(game, names)             # the score chart: each kingdom's score round by round
    kingdom_text(game, player)              # a grid of terrain letters and crowns with coordinates, and a legend

Every alt text is one paragraph of plain sentences of at most 1,024 characters (Discord's limit for an attachment
description): the most useful facts come first and what does not fit is cut at a word, ending with "…". Names are
made plain (no line breaks, no markdown characters) so nothing in them formats or breaks the text.
`kingdom_text` is meant for a code block: it has no backticks and, with the fences, fits one 2,000-character message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from engine import BUILD, CLAIM, DRAGON, FIRST_CLAIM, PLACE, TAX, Game, building, cell_name, domino
from engine.components import TERRAIN_LETTER

from .replay import GAME_TITLES

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


def _names(game: Game, names: Mapping[str, str] | None) -> dict[str, str]:
    given = dict(names or {})
    return {p: plain_name(given.get(p, p), f"player {i + 1}") for i, p in enumerate(game.players)}


def _kingdom_name(game: Game, index: int, names: Mapping[str, str]) -> str:
    return " and ".join(names[p] for p in game.kingdoms[index].players)


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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _square_words(terrain: str, crowns: int) -> str:
    return terrain if not crowns else f"{terrain} {_plural(crowns, 'crown')}"


def domino_words(game: Game, domino_id: str) -> str:
    """`23 (wheat, lake 1 crown)`; with both boxes in play (Royal Wedding) the box letter too: `Q23 (...)`."""
    d = domino(domino_id)
    label = d.id if len(game.setup.boxes) > 1 else str(d.number)
    a, b = d.squares
    return f"{label} ({_square_words(a.terrain, a.crowns)}, {_square_words(b.terrain, b.crowns)})"


def _title(game: Game, deal: bool = True) -> str:
    cfg = game.config
    n = len(cfg.players)
    title = f"{GAME_TITLES[cfg.game]}, {n} players"
    if cfg.teams is not None:
        title += f" in {len(cfg.teams)} teams"
    if cfg.deals > 1 and deal:
        title += f", game {game.deal + 1} of {cfg.deals}"
    return title


def _totals(game: Game) -> list[int]:
    if game.is_over:
        return list(game.result().totals)
    return game.match_totals()


def _scores_sentence(game: Game, names: Mapping[str, str], label: str = "Scores") -> str:
    totals = _totals(game)
    order = sorted(range(len(game.kingdoms)), key=lambda i: (-totals[i], i))
    return f"{label}: " + ", ".join(f"{_kingdom_name(game, i, names)} {totals[i]}" for i in order) + "."


def _line_words(game: Game, line: list[list], names: Mapping[str, str]) -> str:
    parts = []
    for dom, king in line:
        who = names[game.kings[king].player] if king is not None else "free"
        parts.append(f"{domino_words(game, dom)} {who}")
    return "; ".join(parts)


def _turn_sentence(game: Game, names: Mapping[str, str]) -> str:
    d = game.decision()
    if d is None:
        r = game.result()
        who = " and ".join(names[p] for p in r.winners)
        how = f" on the tie-break ({r.tiebreak})" if r.tiebreak and r.tiebreak != "shared" else ""
        return f"Game over: {who} {'win' if len(r.winners) > 1 else 'wins'}{how}."
    n = names[d.player]
    words = {
        FIRST_CLAIM: "choose a domino of the first line",
        PLACE: f"place domino {domino_words(game, d.domino)}" if d.domino else "place a domino",
        TAX: "send knights to collect tax, or skip",
        BUILD: "build, or skip",
        DRAGON: "bribe the dragon, or skip",
        CLAIM: "choose a domino of the next line",
    }
    return f"{n}'s turn: {words.get(d.kind, d.words)}."


def table_alt_text(game: Game, names: Mapping[str, str] | None = None) -> str:
    """The table picture in words: the game and round, whose turn, the scores, the lines, the builders' board."""
    names = _names(game, names)
    rounds = game.setup.rounds
    where = f"round {game.round} of {rounds}" if game.round else "choosing the first dominoes"
    parts = [f"Table of {_title(game)}, {where}.", _turn_sentence(game, names), _scores_sentence(game, names)]
    if game.current_line:
        parts.append(f"Current line: {_line_words(game, game.current_line, names)}.")
    if game.next_line:
        parts.append(f"Next line: {_line_words(game, game.next_line, names)}.")
    if game.queendomino_rules:
        board = [
            f"{building(b).name} {_plural(game.cost_of(slot, -1), 'coin')}"
            for slot, b in enumerate(game.board)
            if b is not None
        ]
        if board:
            parts.append("Builders' board: " + ", ".join(board) + ".")
        stock = []
        for i, k in enumerate(game.kingdoms):
            queen = ", hosts the queen" if game.queen == i else ""
            stock.append(
                f"{_kingdom_name(game, i, names)} {_plural(k.coins, 'coin')}, "
                f"{_plural(k.knights_reserve, 'knight')} in reserve, {_plural(k.towers, 'tower')}{queen}"
            )
        parts.append("; ".join(stock) + ".")
    return fit(parts)


def _row_words(game: Game, index: int, row: int, left: int, right: int) -> str:
    k = game.kingdoms[index]
    cells = []
    for col in range(left, right + 1):
        if k.is_castle(row, col):
            cells.append("castle")
            continue
        sq = k.square(row, col)
        if sq is None:
            cells.append("empty")
            continue
        word = _square_words(sq.terrain, sq.crowns)
        if (row, col) in k.buildings:
            word += f" with the {building(k.buildings[(row, col)][0]).name}"
        if (row, col) in k.knights_placed:
            word += " and a knight" if (row, col) in k.buildings else " with a knight"
        cells.append(word)
    return f"Row {row + 1}: " + ", ".join(cells) + "."


def kingdom_alt_text(game: Game, player: str | int, names: Mapping[str, str] | None = None) -> str:
    """One kingdom in words, row by row over the cells it covers (by player id, or kingdom index)."""
    names = _names(game, names)
    index = _kingdom_index(game, player)
    k = game.kingdoms[index]
    total = _totals(game)[index]
    top, left, bottom, right = k.bounds()
    head = (
        f"Kingdom of {_kingdom_name(game, index, names)}, {_plural(total, 'point')}, "
        f"{len(k.placed)} dominoes placed in a {k.size} by {k.size} frame; castle on {cell_name(*k.castle)}."
    )
    rows = [_row_words(game, index, r, left, right) for r in range(top, bottom + 1)]
    span = f"Columns {chr(ord('A') + left)} to {chr(ord('A') + right)}, rows {top + 1} to {bottom + 1}."
    extra = []
    if game.queendomino_rules:
        queen = " It hosts the queen." if game.queen == index else ""
        extra.append(
            f"{_plural(k.coins, 'coin')}, {_plural(k.knights_reserve, 'knight')} in reserve, "
            f"{_plural(k.towers, 'tower')}.{queen}"
        )
    verbose = fit([head, span, *rows, *extra])
    if not verbose.endswith(ELLIPSIS):
        return verbose
    # Too long in words: the compact grid, a letter per terrain and the crowns as a digit.
    legend = "Each cell is a terrain letter and its crowns: " + ", ".join(
        f"{letter} {terrain}" for terrain, letter in TERRAIN_LETTER.items() if game.queendomino_rules or letter != "T"
    )
    compact = [
        f"Row {r + 1}: " + " ".join(k.text_rows((r, left, r, right))[0].split()).replace("..", "empty") + "."
        for r in range(top, bottom + 1)
    ]
    return fit([head, span, legend + "; CC castle.", *compact, *extra])


def sheet_alt_text(game: Game, names: Mapping[str, str] | None = None) -> str:
    """The score sheet in words: each kingdom, best first, its total and the parts that scored; the winner."""
    names = _names(game, names)
    breakdowns = game.scores()
    totals = _totals(game)
    over = game.is_over
    order = list(game.result().order) if over else sorted(range(len(totals)), key=lambda i: (-totals[i], i))
    parts = [f"{'Final score sheet' if over else 'Score sheet so far'} of {_title(game)}."]
    if over:
        parts.append(_turn_sentence(game, names))
    for place, i in enumerate(order, 1):
        b = breakdowns[i]
        scored = [f"{name.replace('_', ' ')} {v}" for name, v in b.parts().items() if v]
        detail = f" ({', '.join(scored)})" if scored else ""
        if game.config.deals > 1 and game.deal_totals:
            games = ", ".join(str(t[i]) for t in game.deal_totals)
            detail += f", games {games}"
        parts.append(f"{place}. {_kingdom_name(game, i, names)}: {_plural(totals[i], 'point')}{detail}.")
    return fit(parts)


def replay_alt_text(game: Game, names: Mapping[str, str] | None = None) -> str:
    """The animated replay of `game` (its final state, or the state it was drawn from) in words."""
    from .replay import replay_steps

    names = _names(game, names)
    steps = replay_steps(game.config, game.seed, game.log)
    turns = len([s for s in steps if s.player is not None])
    last = steps[-1]
    who = ", ".join(_kingdom_name(game, i, names) for i in range(len(game.kingdoms)))
    parts = [
        f"Animated replay of {_title(game, deal=False)}: {_plural(turns, 'turn')}, one picture each, "
        f"the kingdoms of {who} growing from their castles, the domino just placed outlined in white."
    ]
    totals = last.totals
    order = sorted(range(len(totals)), key=lambda i: (-totals[i], i))
    label = "Final scores" if last.final else f"Scores at round {last.round}"
    parts.append(f"{label}: " + ", ".join(f"{_kingdom_name(game, i, names)} {totals[i]}" for i in order) + ".")
    if last.final:
        parts.append(_turn_sentence(last.game, names))
    return fit(parts)


def chart_alt_text(game: Game, names: Mapping[str, str] | None = None) -> str:
    """The score chart of `game` in words: every kingdom's score after each round."""
    from .chart import score_history

    names = _names(game, names)
    history = score_history(game.config, game.seed, game.log)
    final = history.final
    order = sorted(range(len(final)), key=lambda i: (-final[i], i))
    deals = f", {history.deals} games added up" if history.deals > 1 else ""
    parts = [f"Line chart of each kingdom's score after every round of {_title(game, deal=False)}{deals}."]
    parts.append("Last scores: " + ", ".join(f"{_kingdom_name(game, i, names)} {final[i]}" for i in order) + ".")
    for i in order:
        parts.append(f"{_kingdom_name(game, i, names)}, round by round: {', '.join(map(str, history.scores[i]))}.")
    return fit(parts)


# -- a text kingdom for screen readers and code blocks -------------------------------------------------------------
def kingdom_text(game: Game, player: str | int) -> str:
    """Kingdom `player` (player id or kingdom index) as a grid to show in a code block: the game's column letters
    and row numbers, each cell its terrain letter and crowns (`W2`), `CC` the castle, `..` an empty cell where a
    square may still go; buildings, knights and the queen listed under it; then a legend. No names inside (they
    go outside the block), no backticks: at most 1,990 characters, so it fits one message with its fences."""
    index = _kingdom_index(game, player)
    k = game.kingdoms[index]
    top, left, bottom, right = k.frame()
    lines = ["    " + " ".join(f"{chr(ord('A') + c):>2}" for c in range(left, right + 1))]
    for r, row in zip(range(top, bottom + 1), k.text_rows((top, left, bottom, right)), strict=True):
        lines.append(f"{r + 1:>3} " + row)
    notes = []
    for (r, c), (bid, towers) in sorted(k.buildings.items()):
        notes.append(
            f"{building(bid).name} on {cell_name(r, c)}" + (f" ({_plural(towers, 'tower')})" if towers else "")
        )
    if notes:
        lines += ["", "Buildings: " + ", ".join(notes)]
    if k.knights_placed:
        lines.append("Knights on " + ", ".join(cell_name(r, c) for r, c in k.knights_placed))
    if game.queendomino_rules:
        queen = ", hosts the queen" if game.queen == index else ""
        lines.append(
            f"{_plural(k.coins, 'coin')}, {_plural(k.knights_reserve, 'knight')} in reserve, "
            f"{_plural(k.towers, 'tower')}{queen}"
        )
    terrains = [f"{letter} {t}" for t, letter in TERRAIN_LETTER.items() if game.queendomino_rules or letter != "T"]
    lines += [
        "",
        "Legend: letter = terrain, digit = crowns",
        ", ".join(terrains),
        f"CC castle ({cell_name(*k.castle)}), .. empty",
    ]
    out = "\n".join(line.rstrip() for line in lines).replace("`", "'")
    return out[:CODE_BLOCK_LIMIT]


__all__ = [
    "ALT_LIMIT",
    "chart_alt_text",
    "domino_words",
    "fit",
    "kingdom_alt_text",
    "kingdom_text",
    "plain_name",
    "replay_alt_text",
    "sheet_alt_text",
    "table_alt_text",
]
