"""The words every front end uses, with no Discord in them: names, what a player must do, events, scores and
refusals in text, and the error a person is shown (`UserError`). The commit path, the lobby's rules and the web board
speak through these; `cogs.common` adds the few helpers that need Discord's objects."""

from __future__ import annotations

import logging
import re

from db.models import Seat, is_former_player
from engine import Decision, Event, Game, building, cell_name, domino
from engine.components import TERRAIN_LETTER
from i18n import DEFAULT_LOCALE as SOURCE
from i18n import messages as M
from i18n import resolve_locale, term, translate, translate_plural
from render.words import building_title

log = logging.getLogger(__name__)

TERRAIN_WORDS = {
    "wheat": "wheat",
    "forest": "forest",
    "lake": "lake",
    "grassland": "grassland",
    "swamp": "swamp",
    "mine": "mine",
    "town": "town",
}
GAME_NAMES = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal-wedding": "Royal Wedding"}
TERRAIN_SYMBOL = {t: letter for t, letter in TERRAIN_LETTER.items()}


class UserError(Exception):
    """A refusal to show the player privately: what is wrong and what would be right. Nothing has changed.

    `message` is a catalogue msgid (filled from `params` in the reader's language by `text(locale)`), or a
    callable `lang -> str` for a refusal worded from the game's state (`refusal_words`). `str(error)` is English."""

    def __init__(self, message, /, **params) -> None:
        self.message, self.params = message, params
        super().__init__(self.text(SOURCE))

    def text(self, locale) -> str:
        lang = resolve_locale(locale) or SOURCE
        if callable(self.message):
            return self.message(lang)
        if not self.params:
            return translate(lang, self.message)
        return translate(lang, self.message, **self.params)


# What Discord's markdown reads in a message: a mention (a zero-width space after the @ disarms it), emphasis, code,
# strike-through and spoiler marks, a masked link's bracket, and a quote, heading or list mark at a line's start.
_MENTION = re.compile(r"@(everyone|here|[!&]?\d{17,20})")
_INLINE_MARKS = re.compile(r"([*_~`|\[])")
_LINE_MARKS = re.compile(r"^(\s*)(>|#|-)", re.MULTILINE)


def safe(text: str) -> str:
    """A name (or anything a user typed) made inert for a message: no mention can ping, no markdown can format,
    no link can be clicked."""
    text = _MENTION.sub("@\u200b\\1", text)
    text = _INLINE_MARKS.sub(r"\\\1", text)
    text = _LINE_MARKS.sub(r"\1\\\2", text)
    return text.replace("://", ":\u200b//").replace("<", "\\<")


def quote_typed(text: str, limit: int = 24) -> str:
    """A short, inert quote of what a person typed, for a refusal."""
    text = " ".join("".join(c if c.isprintable() else " " for c in text[:200]).split())
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    short = short.replace("`", "'")
    return f"`{short}`"


def terrain_word(terrain: str, lang: str = SOURCE) -> str:
    """A terrain in words: the short English word (`wheat`), the rulebook's word in other languages."""
    if lang == SOURCE:
        return TERRAIN_WORDS.get(terrain, terrain)
    return term(lang, terrain) if terrain in TERRAIN_WORDS else terrain


def square_words(square, lang: str = SOURCE) -> str:
    crowns = " " + "👑" * square.crowns if square.crowns else ""
    return f"{terrain_word(square.terrain, lang)}{crowns}"


def domino_words(domino_id: str, *, with_box: bool = False, lang: str = SOURCE) -> str:
    """`16 (wheat · swamp 👑)`: the number, then both squares in words with their crowns. In Royal Wedding, where
    both boxes are in play, the number carries its box letter (`Q16`), everywhere the same."""
    d = domino(domino_id)
    number = d.id if with_box else str(d.number)
    return f"{number} ({square_words(d.squares[0], lang)} · {square_words(d.squares[1], lang)})"


def domino_number(game: Game, domino_id: str) -> str:
    """How a domino is named in this game: its number, with the box letter only in Royal Wedding."""
    d = domino(domino_id)
    return d.id if game.config.game == "royal-wedding" else str(d.number)


def game_domino_words(game: Game, domino_id: str, lang: str = SOURCE) -> str:
    return domino_words(domino_id, with_box=game.config.game == "royal-wedding", lang=lang)


def game_name(kind: str, lang: str = SOURCE) -> str:
    return term(lang, kind) if kind in GAME_NAMES else kind


def config_refusal(error: Exception, lang: str = SOURCE) -> str:
    """Why a table is not possible (an engine `ConfigError`), in `lang`; another error's own English otherwise."""
    msgid = M.CONFIG_REFUSALS.get(getattr(error, "code", ""))
    if msgid is None:
        return str(error)
    params = {k: v for k, v in getattr(error, "params", {}).items() if isinstance(v, str | int)}
    if "game" in params:
        params["game"] = game_name(str(params["game"]), lang)
    try:
        return translate(lang, msgid, **params)
    except KeyError:  # a code whose parameters the engine does not give: its English says it all
        return str(error)


def building_name(building_id: str, lang: str = SOURCE) -> str:
    """A building's name in `lang` (the rulebook's word), as the pictures write it (render.words.building_title)."""
    return building_title(lang, building(building_id).name, building_id)


def seat_name(seats: tuple[Seat, ...] | list[Seat], player_id: str) -> str:
    """The seat's name, safe to write into a message."""
    for seat in seats:
        if seat.player_id == player_id:
            return safe(seat.display_name)
    return safe(player_id)


def mention(seats, player_id: str, lang: str = SOURCE) -> str:
    for seat in seats:
        if seat.player_id == player_id:
            if seat.user_id is not None and is_former_player(seat.user_id):
                return safe(seat.display_name)  # someone who asked to be forgotten: "a former player"
            if seat.user_id is not None:
                return f"<@{seat.user_id}>"
            return translate(lang, M.COMPUTER_NAME, name=safe(seat.display_name))
    return player_id


def kingdom_name(game: Game, seats, index: int) -> str:
    return " & ".join(seat_name(seats, p) for p in game.kingdoms[index].players)


def with_names(text: str, seats) -> str:
    """Replace engine player ids in an engine sentence by the players' names."""
    ids = sorted((s.player_id for s in seats), key=len, reverse=True)
    if not ids:
        return text
    pattern = re.compile("|".join(re.escape(i) for i in ids))
    names = {s.player_id: f"**{safe(s.display_name)}**" for s in seats}
    return pattern.sub(lambda m: names[m.group(0)], text)


def _you(kind: str, lang: str, game: Game | None = None, domino_id: str | None = None) -> str:
    """What the player to act must do, as an imperative clause (DECISION_YOU), in `lang`."""
    if kind == "place":
        if game is not None and domino_id is not None:
            return translate(lang, M.DECISION_YOU["place"], domino=game_domino_words(game, domino_id, lang))
        return translate(lang, M.DECISION_YOU_PLACE)
    return translate(lang, M.DECISION_YOU.get(kind, M.DECISION_YOU["claim"]))


def _they(kind: str | None, name: str, lang: str, game: Game | None = None, domino_id: str | None = None) -> str:
    """Someone else's turn, in the third person: one whole sentence per decision (DECISION_OTHER)."""
    if kind == "place" and (game is None or domino_id is None):
        return translate(lang, M.DECISION_OTHER_PLACE, name=name)
    if kind == "place":
        return translate(lang, M.DECISION_OTHER["place"], name=name, domino=game_domino_words(game, domino_id, lang))
    return translate(lang, M.DECISION_OTHER.get(kind or "claim", M.DECISION_OTHER["claim"]), name=name)


def decision_words(game: Game, d: Decision, lang: str = SOURCE) -> str:
    """What the player to act must do, in words (to them)."""
    return _you(d.kind, lang, game, d.domino)


def their_turn(game: Game, d: Decision, seats, lang: str = SOURCE) -> str:
    """Telling someone else whose turn it is, in the third person."""
    return _they(d.kind, seat_name(seats, d.player), lang, game, d.domino)


def score_line(game: Game, seats, lang: str = SOURCE) -> str:
    totals = game.match_totals() if "dynasty" in game.config.variants else [s.total for s in game.scores()]
    parts = " · ".join(f"{kingdom_name(game, seats, i)} {t}" for i, t in enumerate(totals))
    if "dynasty" in game.config.variants:
        label = M.DYNASTY_TOTALS_LINE
    else:  # under Queendomino rules the coins count (a kingdom opens with points from its coins alone): say so
        label = M.SCORES_LINE_COINS if game.queendomino_rules else M.SCORES_LINE
    return translate(lang, label, scores=parts)


def economy_line(game: Game, seats, lang: str = SOURCE) -> str:
    """Coins, knights and towers per kingdom (Queendomino rules), in text."""
    if not game.queendomino_rules:
        return ""
    parts = []
    for i, k in enumerate(game.kingdoms):
        line = M.ECONOMY_LINE_QUEEN if game.queen == i else M.ECONOMY_LINE
        values = {"coins": k.coins, "knights": k.knights_reserve, "towers": k.towers}
        parts.append(translate(lang, line, kingdom=kingdom_name(game, seats, i), **values))
    return "\n".join(parts)


PART_WORDS = {
    "queen": "queen",
    "buildings": "buildings",
    "coins": "coins",
    "middle_kingdom": "Middle Kingdom",
    "harmony": "Harmony",
}


def tiebreak_words(tiebreak: str, lang: str = SOURCE) -> str:
    """The engine's tie-break (`largest territory`) in words: as it is in English, the catalogue's elsewhere."""
    if lang == SOURCE or tiebreak not in M.TIEBREAKS:
        return tiebreak
    return translate(lang, M.TIEBREAKS[tiebreak])


def breakdown_text(game: Game, seats, lang: str = SOURCE) -> str:
    """Every part of every kingdom's score, one line each: each territory as squares × crowns, then buildings,
    queen, coins and bonuses; the tie-break that decided, and Dynasty totals in a Dynasty."""
    lines = []
    territories = False
    for i, s in enumerate(game.scores()):
        parts = [
            f"{terrain_word(t.terrain, lang)} {t.size}×{t.crowns}"
            for t in sorted(s.territories, key=lambda t: -t.points)
            if t.points
        ]
        territories = territories or bool(parts)
        for name, value in s.parts().items():
            if name in PART_WORDS and value:
                parts.append(f"{translate(lang, M.SCORE_PARTS[name])} {value}")
        detail = ", ".join(parts) if parts else translate(lang, M.NOTHING_YET)
        total = points_words(s.total, lang=lang)
        lines.append(
            translate(lang, M.BREAKDOWN_LINE, kingdom=kingdom_name(game, seats, i), total=total, detail=detail)
        )
    if territories:  # what `wheat 6×2` means
        lines.append(translate(lang, M.BREAKDOWN_LEGEND))
    if game.is_over:
        result = game.result()
        if result.tiebreak:
            lines.append(translate(lang, M.TIEBREAK_LINE, tiebreak=tiebreak_words(result.tiebreak, lang)))
    if "dynasty" in game.config.variants and game.deal_totals:
        for i in range(len(game.kingdoms)):
            games = " + ".join(str(t[i]) for t in game.deal_totals)
            lines.append(translate(lang, M.DYNASTY_SO_FAR, kingdom=kingdom_name(game, seats, i), games=games))
    return "\n".join(lines)


def points_words(n: int, *, signed: bool = False, lang: str = SOURCE) -> str:
    """`1 point`, `+3 points`, `-2 points`, `0 points`."""
    if signed and n > 0:
        return translate_plural(lang, *M.POINTS_SIGNED, n)
    return translate_plural(lang, *M.POINTS, abs(n), n=n)  # the form of |n|, the number with its sign


def event_words(event: Event, game: Game, seats, lang: str = SOURCE) -> str | None:
    """One line for the table, in words: names, dominoes by number with their squares, buildings by name, board
    slots counted from 1 as the picture shows them. None for what the table need not say."""
    who = f"**{seat_name(seats, event.player)}**" if event.player else ""
    data = event.data
    kind = event.kind
    if kind == "claimed":
        msgid = M.FORCED_CLAIMED if data.get("forced") else M.EVENTS["claimed"]  # the last free one: not a choice
        return translate(lang, msgid, player=who, domino=game_domino_words(game, data["domino"], lang))
    if kind == "placed":
        return translate(
            lang,
            M.EVENTS["placed"],
            player=who,
            domino=game_domino_words(game, data["domino"], lang),
            cell=data["cell"],
            direction=direction_word(data["direction"], lang),
        )
    if kind == "taxed":
        cells = list(data["cells"])
        if len(cells) == 1:
            return translate_plural(lang, *M.EVENTS["taxed_one"], data["coins"], player=who, cell=cells[0])
        return translate_plural(
            lang, *M.EVENTS["taxed_two"], data["coins"], player=who, cell=cells[0], second=cells[-1]
        )
    if kind == "built":
        name = building_name(data["building"], lang)
        return translate_plural(lang, *M.EVENTS["built"], data["cost"], player=who, building=name, cell=data["cell"])
    if kind == "dragon":
        name = building_name(data["building"], lang)
        return translate(lang, M.EVENTS["dragon"], player=who, building=name, slot=data["slot"] + 1)
    if kind == "queen":
        return translate_plural(lang, *M.EVENTS["queen"], data["towers"], player=who)
    if kind == "discarded":
        return translate(lang, M.EVENTS["discarded"], player=who, domino=game_domino_words(game, data["domino"], lang))
    if kind == "unclaimed":
        names = ", ".join(domino_number(game, d) for d in data["dominoes"])
        return translate_plural(lang, *M.EVENTS["unclaimed"], len(data["dominoes"]), dominoes=names)
    if kind == "round_end":
        return translate(lang, M.EVENTS["round_end"], round=data["round"])
    if kind == "deal_end":
        return translate(lang, M.EVENTS["deal_end"], finished=data["finished"], next=data["next"])
    if kind in ("game_over", "skipped"):
        return None  # the end has its own lines
    return with_names(event.text, seats)


def direction_word(direction: str, lang: str = SOURCE) -> str:
    return translate(lang, M.DIRECTIONS[direction]) if direction in M.DIRECTIONS else direction


def event_lines(events: list[Event], seats, game: Game | None = None, lang: str = SOURCE) -> list[str]:
    if game is None:
        return [with_names(e.text, seats) for e in events if e.kind not in ("skipped",)]
    return [line for e in events if (line := event_words(e, game, seats, lang)) is not None]


def refusal_words(error, game: Game, seats, player: str, lang: str = SOURCE) -> str:
    """An engine refusal worded for the person who acted: second person, no command syntax, names not ids."""
    code, p = getattr(error, "code", ""), getattr(error, "params", {})
    if code == "not_your_turn":
        return _they(p.get("phase"), seat_name(seats, p["player"]), lang)
    if code in ("wrong_phase", "must_place_first", "cannot_skip"):
        if p.get("player") not in (None, player):
            return _they(p.get("phase"), seat_name(seats, p["player"]), lang)
        if code == "must_place_first":
            return translate(lang, M.REFUSALS["must_place_first"], domino=game_domino_words(game, p["domino"], lang))
        if code == "cannot_skip" or p.get("action") == "skip":
            return translate(lang, M.REFUSALS["cannot_skip"], what=_you(p["phase"], lang))
        return translate(lang, M.REFUSALS["wrong_phase"], what=_you(p["phase"], lang))
    if code in ("domino_taken", "domino_not_in_line"):
        free = ", ".join(domino_number(game, d) for d in p.get("free", []))
        return translate(lang, M.REFUSALS[code], free=free)
    if code == "not_enough_coins":
        return translate_plural(lang, *M.REFUSALS["not_enough_coins"], p["cost"], coins=p["coins"])
    if code == "knights_per_round":
        return translate(lang, M.REFUSALS[code], limit=p["limit"], sent=p["sent"], left=p["left"], wanted=p["wanted"])
    if code == "knights_reserve":
        return translate_plural(lang, *M.REFUSALS[code], p["reserve"], wanted=p["wanted"])
    if code == "empty_slot":
        return translate(lang, M.REFUSALS[code], slot=p["slot"] + 1)
    if lang != SOURCE and code == "outside_table" and p.get("cell") is None:
        return translate(lang, M.REFUSALS["outside_table_unnamed"])
    if lang != SOURCE and isinstance(M.REFUSALS.get(code), str):
        values = {k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v for k, v in p.items()}
        return translate(lang, M.REFUSALS[code], **values)
    text = with_names(str(error), seats)
    return re.sub(r"^[^:]*\b(place|claim|tax|build|dragon|skip)\b[^:]*: ", "", text)


def effect_words(building_id: str, lang: str = SOURCE) -> str:
    """What a building does, in words: the engine's English summary, the catalogue's phrases elsewhere."""
    b = building(building_id)
    if lang == SOURCE:
        return b.effect_text()
    parts = []
    if b.knights:
        parts.append(translate_plural(lang, *M.EFFECT_KNIGHTS, b.knights))
    if b.towers:
        parts.append(translate_plural(lang, *M.EFFECT_TOWERS, b.towers))
    if b.coins_per_knight_on_tax:
        parts.append(translate(lang, M.EFFECT_TAX_PER_KNIGHT))
    if b.coins_per_tower_on_tax:
        parts.append(translate(lang, M.EFFECT_TAX_PER_TOWER))
    if b.crowns:
        parts.append(translate(lang, M.EFFECT_CROWN))
    if b.scoring == "fixed":
        parts.append(translate_plural(lang, *M.EFFECT_FIXED, b.points))
    elif b.scoring == "per_territory":
        parts.append(translate(lang, M.EFFECT_PER_TERRITORY, terrain=terrain_word(b.scoring_terrain, lang)))
    elif b.scoring == "per_tower":
        parts.append(translate(lang, M.EFFECT_PER_TOWER))
    elif b.scoring == "per_knight":
        parts.append(translate(lang, M.EFFECT_PER_KNIGHT))
    return ", ".join(parts) or translate(lang, M.EFFECT_NONE)


def building_words(building_id: str, lang: str = SOURCE) -> str:
    if lang == SOURCE:
        b = building(building_id)
        return f"{b.name} ({b.effect_text()})"
    return translate(
        lang, M.BUILDING_EFFECT, building=building_name(building_id, lang), effect=effect_words(building_id, lang)
    )


def cells_words(cells) -> str:
    return " and ".join(cell_name(r, c) for r, c in cells)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
