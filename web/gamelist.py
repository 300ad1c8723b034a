"""The local board's list of games, each with its state in words (an open table and its seats, your turn, whom the
game waits for, finished and who won), your turns first; and the tables the engine accepts, for the new-table form.

Nothing here decides a rule: whose turn it is comes from the engine's `decision()`, the winners from its `result()`,
and which tables are possible from `engine.config.GameConfig`'s own checks (`legal_tables`: the form offers only
these, so nothing it lets a person choose is refused after "Open the table")."""

from __future__ import annotations

import functools
from itertools import combinations

from cogs import lobbyrules as rules
from cogs.words import decision_words, game_name, seat_name, their_turn
from db.models import GameRecord, GameStatus
from engine import GameConfig
from engine.config import PLAYER_RANGE, VARIANTS
from i18n import messages as M
from i18n import translate

from .view import plain

# The order of the list: what asks the reader to act first, then what waits on others, then the rest.
ORDER = ("your_turn", "host", "waiting_host", "waiting", "open", "finished")
FINISHED_LISTED = 10  # the reader's finished games the list shows, newest first


def table_key(kind: str, players: int, variants, teams: bool) -> str:
    """A table's options as one string (the form's and the server's common name of a combination):
    `kingdomino/2/dynasty+mighty-duel/solo`."""
    return f"{kind}/{players}/{'+'.join(sorted(variants))}/{'teams' if teams else 'solo'}"


@functools.cache
def legal_tables() -> tuple[str, ...]:
    """Every table the engine accepts (`table_key`s): each game, player count, set of variants and teams or not,
    checked by `GameConfig` itself with placeholder players, as a table's options are when it is opened."""
    legal = []
    for kind, (low, high) in PLAYER_RANGE.items():
        for players in range(low, high + 1):
            placeholder = tuple(f"seat{i}" for i in range(players))
            for teams in (False, True):
                for count in range(len(VARIANTS) + 1):
                    for variants in combinations(VARIANTS, count):
                        try:
                            GameConfig(kind, placeholder, frozenset(variants), rules.teams_of(placeholder, teams))
                        except ValueError:
                            continue
                        legal.append(table_key(kind, players, variants, teams))
    return tuple(legal)


def lobby_size(rec: GameRecord) -> int:
    return int(rec.config.get("seats", PLAYER_RANGE.get(rec.kind, (2, 4))[1]))


def entry(rec: GameRecord, users: set[int], lang: str) -> dict | None:
    """The list's line of one game for a reader whose people are `users` (None: not shown to them: another's game
    in play or over)."""
    seated = [s for s in rec.seats if s.user_id is not None and s.user_id in users]
    host = rec.host_user_id in users
    state, line = _state(rec, seated, host, lang)
    if state is None:
        return None
    return {
        "id": rec.id,
        "title": game_name(rec.kind, lang),
        "status": str(rec.status),
        "state": state,
        "line": line,
        "seats": [s.display_name for s in rec.seats],
        "mine": bool(seated),
        "host": host,
    }


def _state(rec: GameRecord, seated: list, host: bool, lang: str) -> tuple[str | None, str]:
    if rec.status == GameStatus.LOBBY:
        size, taken = lobby_size(rec), len(rec.seats)
        if seated and host:
            return "host", translate(lang, M.WEB_LIST_YOUR_TABLE, taken=taken, size=size)
        if seated:
            host_name = seat_name(rec.seats, str(rec.host_user_id))
            return "waiting_host", translate(lang, M.WEB_WAITING_FOR_HOST, host=host_name)
        return "open", translate(lang, M.WEB_LIST_OPEN, taken=taken, size=size)
    game = rec.game
    if not seated or game is None:
        return None, ""
    if rec.status == GameStatus.FINISHED and game.is_over:
        winners = game.result().winners
        names = " & ".join(seat_name(rec.seats, p) for p in winners)
        return "finished", plain(translate(lang, M.WINNERS if len(winners) > 1 else M.WINNER, names=names))
    d = game.decision()
    if rec.status != GameStatus.PLAYING or d is None:
        return None, ""
    if any(s.player_id == d.player for s in seated):
        return "your_turn", plain(translate(lang, M.YOUR_TURN_WEB, what=decision_words(game, d, lang)))
    return "waiting", plain(their_turn(game, d, rec.seats, lang))


def ordered(entries: list[dict]) -> list[dict]:
    """Your turns first, then your tables, the tables waiting for their host, your games waiting for others, the
    open tables, and your finished games last (each kind newest first, as listed)."""
    return sorted(entries, key=lambda e: ORDER.index(e["state"]))


__all__ = ["FINISHED_LISTED", "entry", "legal_tables", "lobby_size", "ordered", "table_key"]
