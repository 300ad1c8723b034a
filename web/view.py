"""A game as the board draws it: the engine's state turned into plain JSON for one viewer, in their language.

Nothing here decides a rule: what is legal comes from `Game.legal_actions()` (for the optional steps and the claim
that come later in the same turn, from the service's own `skip_optional` trial, as the Discord panel does), and
what a placement is worth from the engine's scoring of the kingdom with the domino put down. The dominoes still to
come and the buildings' stack are never sent.
"""

from __future__ import annotations

import re
from typing import Any

from cogs import lobbyrules as rules
from cogs.decide import placement_gains, same_turn_step, skip_optional
from cogs.words import (
    UserError,
    breakdown_text,
    building_name,
    decision_words,
    effect_words,
    event_lines,
    game_domino_words,
    game_name,
    points_words,
    seat_name,
    their_turn,
)
from db.models import GameRecord, GameStatus
from engine import Game, domino
from engine.actions import BribeDragon, Build, Claim, Place, Skip, Tax
from engine.components import building
from engine.config import PLAYER_RANGE
from i18n import messages as M
from i18n import translate, translate_plural
from render.kingdom import game_building_codes, queen_cell
from render.palette import PLAYER_COLOURS

LOG_LINES = 12
_ESCAPED = re.compile(r"\\(.)")


def plain(text: str) -> str:
    """A line written for Discord (bold names, escaped markdown) as plain text for the page, its crowns the board's
    ♛ (in the page's fonts: a computer without a colour emoji font showed 👑 as empty boxes), without the winner's
    trophy (the board shows a crown beside it)."""
    text = text.replace("**", "").replace("\u200b", "").replace("👑", "♛").replace("🏆 ", "")  # the page draws its own
    return _ESCAPED.sub(r"\1", text)


def hex_of(index: int) -> str:
    r, g, b = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
    return f"#{r:02x}{g:02x}{b:02x}"


def squares(domino_id: str) -> list[list]:
    d = domino(domino_id)
    return [[s.terrain, s.crowns] for s in d.squares]


def seats_view(rec: GameRecord, viewers: tuple[int, ...]) -> list[dict]:
    return [
        {
            "player": s.player_id,
            "name": s.display_name,
            "colour": s.colour or hex_of(i),
            "computer": s.cpu_level,
            "you": s.user_id is not None and s.user_id in viewers,
            "seat": i,
        }
        for i, s in enumerate(rec.seats)
    ]


def line_view(game: Game, line: list[list]) -> list[dict]:
    out = []
    for dom, king in line:
        player = game.kings[king].player if king is not None else None
        out.append({"domino": dom, "number": domino(dom).number, "squares": squares(dom), "player": player})
    return out


def kingdom_view(game: Game, index: int, lang: str, scores) -> dict:
    """A kingdom as the board draws it: its squares, the dominoes they came on (`placed`, in order: the last is the
    newest), the cells it spans (`bounds`) and may still reach (`frame`: the engine's size limit), its buildings,
    knights, coins and towers, and where the queen stands when it hosts her (`queen_cell`, as the pictures put her)."""
    k = game.kingdoms[index]
    codes = game_building_codes(lang)  # a building's label on its square; its name is the label's title and legend
    cells = []
    for r in range(k.n):
        for c in range(k.n):
            sq = k.square(r, c)
            if sq is not None:
                cells.append([r, c, sq.terrain, sq.crowns])
    return {
        "index": index,
        "players": list(k.players),
        "size": k.size,
        "n": k.n,
        "castle": list(k.castle),
        "frame": list(k.frame()),
        "bounds": list(k.bounds()),
        "cells": cells,
        "placed": [[dom, [list(a), list(b)]] for dom, (a, b) in k.placed],
        "buildings": [
            {
                "cell": [r, c],
                "id": b[0],
                "name": building_name(b[0], lang),
                "code": codes[b[0]],
                "towers": b[1],
                "crowns": building(b[0]).crowns,
            }
            for (r, c), b in sorted(k.buildings.items())
        ],
        "knights": [list(c) for c in k.knights_placed],
        "reserve": k.knights_reserve,
        "coins": k.coins,
        "towers": k.towers,
        "queen": game.queen == index,
        "queen_cell": list(cell) if (cell := queen_cell(game, index)) is not None else None,
        "score": scores.total,
        "parts": scores.parts(),
        "discarded": len(k.discarded),
    }


def _step_actions(game: Game, player: str, kind: str) -> list:
    """The legal actions of step `kind` of `player`'s current turn, the optional steps before it skipped (empty when
    the turn does not reach that step)."""
    d = game.decision()
    if d is not None and d.kind == kind:
        return game.legal_actions()
    trial, _ = skip_optional(game, player, kind)
    if not same_turn_step(trial, game, player, kind):
        return []
    return trial.legal_actions()


def actions_view(game: Game, player: str, lang: str) -> dict:
    """Everything `player` may do now, step by step: the current step's actions and those of the later steps of the
    same turn (reached by skipping the optional steps between)."""
    d = game.decision()
    assert d is not None
    out: dict[str, Any] = {"kind": d.kind, "domino": d.domino}
    if d.kind == "place":
        placements = game.kingdoms[d.kingdom].legal_placements(domino(d.domino))
        gains = placement_gains(game, d.kingdom, [Place(p.row, p.col, p.direction) for p in placements])
        out["place"] = [
            {
                "row": p.row,
                "col": p.col,
                "dir": p.direction,
                "gain": gain,
                "words": points_words(gain, signed=True, lang=lang),
            }
            for p, gain in zip(placements, gains, strict=True)
        ]
        return out
    if d.kind in ("first_claim", "claim"):
        out["claim"] = [a.domino for a in game.legal_actions() if isinstance(a, Claim)]
        return out
    tax = [a for a in _step_actions(game, player, "tax") if isinstance(a, Tax)]
    out["tax"] = [
        {"cells": [list(c) for c in a.cells], "coins": coins, "words": translate_plural(lang, *M.COINS, coins)}
        for a in tax
        for coins in (_tax_coins(game, d.kingdom, a),)
    ]
    out["build"] = [
        {"slot": a.slot, "row": a.row, "col": a.col}
        for a in _step_actions(game, player, "build")
        if isinstance(a, Build)
    ]
    out["dragon"] = [a.slot for a in _step_actions(game, player, "dragon") if isinstance(a, BribeDragon)]
    out["claim"] = [a.domino for a in _step_actions(game, player, "claim") if isinstance(a, Claim)]
    out["skip"] = any(isinstance(a, Skip) for a in game.legal_actions())
    return out


def _tax_coins(game: Game, kingdom: int, action: Tax) -> int:
    return sum(game.tax_coins(kingdom, cell) for cell in action.cells)


def builders_view(game: Game, viewer_kingdom: int | None, lang: str, *, why: bool = False) -> list[dict | None]:
    """The builders' board, each building's cost for the viewer's kingdom; `why`: the viewer's turn has its build
    step still ahead or at hand, so each building they cannot build says why (its price and their coins; no free
    town square is said once, on the board's foot: `builders_why`)."""
    out: list[dict | None] = []
    kingdom = game.kingdoms[viewer_kingdom] if viewer_kingdom is not None else None
    towns = bool(kingdom.free_town_cells()) if kingdom is not None else False
    for slot, b in enumerate(game.board):
        if b is None:
            out.append(None)
            continue
        cost = game.cost_of(slot, viewer_kingdom) if viewer_kingdom is not None else game.cost_of(slot, -1)
        entry = {
            "slot": slot,
            "id": b,
            "name": building_name(b, lang),
            "effect": plain(effect_words(b, lang)),
            "cost": cost,
            "why": None,
        }
        if why and towns and kingdom is not None and kingdom.coins < cost:
            entry["why"] = translate_plural(lang, *M.REFUSALS["not_enough_coins"], cost, coins=kingdom.coins)
        out.append(entry)
    return out


def builders_why(game: Game, kingdom: int, lang: str) -> str | None:
    """Why the viewer can build nothing this turn, when no building can be built anywhere: no free town square."""
    if not game.kingdoms[kingdom].free_town_cells():
        return translate(lang, M.REFUSALS["no_free_town"])
    return None


def lobby_view(rec: GameRecord, viewers: tuple[int, ...], lang: str) -> dict:
    """A lobby as its reader sees it: its seats taken and free, whether the reader hosts it or sits at it, the
    table's options, and what the reader waits for: a person seated waits for the host; the seated host is told what
    keeps the table from starting (`lobbyrules.check_can_start`, the service's own check), if anything."""
    size = int(rec.config.get("seats", PLAYER_RANGE.get(rec.kind, (2, 4))[1]))
    seated = any(s.user_id in viewers for s in rec.seats if s.user_id is not None)
    host = rec.host_user_id in viewers
    host_name = seat_name(rec.seats, str(rec.host_user_id))
    out: dict[str, Any] = {
        "size": size,
        "taken": len(rec.seats),
        "free": size - len(rec.seats),
        "host": host,
        "seated": seated,
        "host_name": host_name,
        "host_player": str(rec.host_user_id),
        "variants": list(rec.config.get("variants", ())),
        "teams": bool(rec.config.get("teams")),
        "hints": bool(rec.config.get("hints")),
        "heading": translate(
            lang, M.WEB_LIST_YOUR_TABLE if host else M.WEB_LOBBY_SEATS, taken=len(rec.seats), size=size
        ),
        "line": None,
        "can_start": False,
    }
    if host and seated:
        try:
            rules.check_can_start(rec, rec.host_user_id, lambda r, user: seat_name(r.seats, str(user)))
            out["can_start"] = True
            out["line"] = translate(lang, M.WEB_LOBBY_READY)
        except UserError as error:
            out["line"] = plain(error.text(lang))
    elif seated:
        out["line"] = translate(lang, M.WEB_WAITING_FOR_HOST, host=host_name)
    return out


def hints_allowed(rec: GameRecord, viewers: tuple[int, ...]) -> bool:
    """Whether the board may show the reader a good move: at a table opened with hints (everyone who sat down
    agreed; the game is not rated), or at a local table where every other seat is a computer (local games are never
    rated)."""
    if rec.config.get("hints"):
        return True
    people = [s for s in rec.seats if not s.is_computer]
    return rec.guild_id is None and bool(people) and all(s.user_id in viewers for s in people)


def recent_events(game: Game, count: int = LOG_LINES) -> list:
    """The events of the game's last `count` actions, the engine's own, from a replay of its log (the store keeps
    actions, not their events)."""
    log = game.log
    cut = max(0, len(log) - count)
    trial = Game.replay(game.config, game.seed, log[:cut])
    events: list = []
    for player, action in log[cut:]:
        events.extend(trial.apply(action, by=player))
    return events


def log_lines(events: list, rec: GameRecord, lang: str) -> list[str]:
    """The last LOG_LINES lines the events make (some make none), worded from the newest back until there are
    enough: the events kept are about three times as many as the lines shown."""
    game = rec.game
    lines: list[str] = []
    for event in reversed(events):
        if len(lines) == LOG_LINES:
            break
        lines.extend(event_lines([event], rec.seats, game, lang))
    return [plain(line) for line in reversed(lines)]


def table_view(rec: GameRecord, lang: str, events: list | None = None) -> dict:
    """What every viewer of a game in play (or over) sees alike: made once per version and language, and shared by
    the views of all its viewers (`game_view(..., table=...)`)."""
    game = rec.game
    assert game is not None
    setup = game.setup
    table: dict[str, Any] = {
        "variants": sorted(game.config.variants),
        "round": game.round,
        "rounds": setup.rounds,
        "deal": game.deal,
        "queendomino": game.queendomino_rules,
        "current": line_view(game, game.current_line),
        "next": line_view(game, game.next_line),
        "kingdoms": [kingdom_view(game, i, lang, score) for i, score in enumerate(game.scores())],
        "builders": builders_view(game, None, lang) if game.queendomino_rules else [],
        "dragon": game.dragon_slot,
        "log": log_lines(events or [], rec, lang),
        "placed": [list(c) for c in game.placed_this_turn] if game.placed_this_turn else None,
    }
    d = game.decision()
    if d is None:
        table["turn"] = None
        table["final"] = plain(breakdown_text(game, rec.seats, lang))
        result = game.result()
        table["winners"] = list(result.winners)
        names = " & ".join(seat_name(rec.seats, p) for p in result.winners)
        key = M.WINNERS if len(result.winners) > 1 else M.WINNER
        table["status_line"] = plain(translate(lang, key, names=names))
        return table
    table["status_line"] = plain(their_turn(game, d, rec.seats, lang))
    table["domino_words"] = {
        dom: plain(game_domino_words(game, dom, lang)) for dom, _ in [*game.current_line, *game.next_line]
    }
    return table


def game_view(
    rec: GameRecord,
    viewers: tuple[int, ...],
    lang: str,
    events: list | None = None,
    table: dict | None = None,
    *,
    undo: bool = False,
    wait: dict | None = None,
) -> dict:
    """The whole board for a viewer who may act as the people `viewers` (their seats' legal actions included).
    `table`: the game's `table_view` in this language, when already made for another viewer. `undo`: whether an undo
    of theirs would be done now (`GameService.undo_refusal`, asked by the caller); `wait`: the computer players' wait
    for a possible undo (`{"until": ms since the epoch, "seconds": its length}`), while they wait."""
    base: dict[str, Any] = {
        "id": rec.id,
        "version": rec.version,
        "status": str(rec.status),
        "kind": rec.kind,
        "title": game_name(rec.kind, lang),
        "seats": seats_view(rec, viewers),
        "lang": lang,
        "host": rec.host_user_id in viewers,  # the reader hosts this table (may cancel it)
    }
    game = rec.game
    if rec.status == GameStatus.LOBBY or game is None:
        base["lobby"] = lobby_view(rec, viewers, lang)
        return base
    base.update(table if table is not None else table_view(rec, lang, events))
    base["undo"] = undo
    base["wait"] = wait
    base["hints"] = bool(rec.config.get("hints"))
    d = game.decision()
    if d is None:
        return base
    seat = rec.seat_of(d.player)
    mine = seat is not None and seat.user_id is not None and seat.user_id in viewers
    base["turn"] = {"player": d.player, "kind": d.kind, "domino": d.domino, "kingdom": d.kingdom, "you": mine}
    if mine:
        base["status_line"] = plain(translate(lang, M.YOUR_TURN_WEB, what=decision_words(game, d, lang)))
        base["actions"] = actions_view(game, d.player, lang)
        base["hint"] = hints_allowed(rec, viewers)
        if game.queendomino_rules:
            economy = d.kind in ("tax", "build", "dragon")
            base["builders"] = builders_view(game, d.kingdom, lang, why=economy)
            base["builders_why"] = builders_why(game, d.kingdom, lang) if economy else None
    return base
