"""Ratings from finished games: OpenSkill (Weng-Lin, Plackett-Luce model), one ladder per game kind.

Pure computation, no SQL: the store hands over its finished games, oldest first, and `compute_ratings` replays
them from scratch, so the same list always gives the same ladder (nothing is kept between calls, no clock, no
random).

    games = [
        FinishedGame("kingdomino", (SeatOutcome("1234", None, 45, True), SeatOutcome("cpu:hard", None, 38, False))),
        ...
    ]
    ladders = compute_ratings(games)   # {"kingdomino": [RatingRow(rank=1, player="1234", ...), ...], ...}

Rules:
- One ladder per kind (`kingdomino`, `queendomino`, `royal-wedding`); a player's skill in one says nothing of another.
- A game ranks its sides: the winners first (the engine's tie-breaks decided them), then by score; sides equal on
  both share a rank (Plackett-Luce with equal ranks: a tie). Team-mates (Royal Wedding teams) are one side and are
  rated as a team; a side's score is its kingdom's.
- A computer level is one player across all games: its key is ``cpu:<level>`` (`player_key` makes it from a seat).
  When one key holds several seats of a game (two `cpu:hard` seats), each seat is rated from the same prior and the
  key takes the mean of their new ratings; the game counts once for it (a win if any of its seats won).
- A game where one key holds every seat says nothing about skill and is skipped.
- The ladder's order is the conservative display rating, the ordinal mu - 3 sigma (the skill the player has with
  99.7% confidence), highest first; equal ordinals share a rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

KINDS = ("kingdomino", "queendomino", "royal-wedding")
Z = 3.0  # the ordinal: mu - Z * sigma
COMPUTER_PREFIX = "cpu:"


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of a finished game: `player` is the rating key (a Discord user id as text, or ``cpu:<level>``),
    `team` the team number in Royal Wedding team games (None otherwise), `score` the kingdom's final score."""

    player: str
    team: int | None
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class FinishedGame:
    kind: str
    seats: tuple[SeatOutcome, ...]


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One line of a ladder. `ordinal` (mu - 3 sigma) is what to show and what the ladder is sorted by."""

    rank: int
    player: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int

    @property
    def is_computer(self) -> bool:
        return self.player.startswith(COMPUTER_PREFIX)

    @property
    def display(self) -> str:
        """The ordinal with one decimal, as a ladder shows it."""
        return f"{self.ordinal:.1f}"


def player_key(seat: Any) -> str:
    """The rating key of a store seat (`db.models.Seat`): its user id as text, or ``cpu:<level>`` for a computer."""
    level = getattr(seat, "cpu_level", None)
    if level is not None:
        return f"{COMPUTER_PREFIX}{level}"
    user_id = getattr(seat, "user_id", None)
    return str(user_id) if user_id is not None else str(seat.player_id)


def from_store(kind: str, seats: Sequence[Any], results: Sequence[Any]) -> FinishedGame:
    """A finished game from the store's rows: its seats (`db.models.Seat`, for who sat there) and its results
    (`db.models.SeatResult`, matched to the seats by `player_id`). Computer seats become ``cpu:<level>``."""
    key = {seat.player_id: player_key(seat) for seat in seats}
    return FinishedGame(
        kind, tuple(SeatOutcome(key.get(r.player_id, r.player_id), r.team, r.score, r.won) for r in results)
    )


def _get(obj: Any, name: str, *aliases: str) -> Any:
    for key in (name, *aliases):
        if isinstance(obj, Mapping):
            if key in obj:
                return obj[key]
        elif hasattr(obj, key):
            return getattr(obj, key)
    raise KeyError(f"A finished game's entry has no {name!r}.")


def _seat(obj: Any) -> SeatOutcome:
    if isinstance(obj, SeatOutcome):
        return obj
    team = _get(obj, "team")
    return SeatOutcome(str(_get(obj, "player", "player_key", "key")), None if team is None else int(team),
                       int(_get(obj, "score")), bool(_get(obj, "won")))  # fmt: skip


def _game(obj: Any) -> FinishedGame:
    if isinstance(obj, FinishedGame):
        return obj
    return FinishedGame(str(_get(obj, "kind")), tuple(_seat(s) for s in _get(obj, "seats")))


def sides(game: FinishedGame) -> list[tuple[list[str], int, bool]]:
    """The game's sides in seat order: (player keys, score, won). A team is one side, a lone player another."""
    result: list[tuple[list[str], int, bool]] = []
    by_team: dict[int, int] = {}
    for seat in game.seats:
        if seat.team is not None and seat.team in by_team:
            players, score, won = result[by_team[seat.team]]
            result[by_team[seat.team]] = ([*players, seat.player], max(score, seat.score), won or seat.won)
            continue
        if seat.team is not None:
            by_team[seat.team] = len(result)
        result.append(([seat.player], seat.score, seat.won))
    return result


def side_ranks(outcomes: Sequence[tuple[int, bool]]) -> list[int]:
    """Competition ranks (1 = best) of sides given (score, won): winners first, then higher scores; equal is a tie."""
    keys = [(not won, -score) for score, won in outcomes]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


class _Ladder:
    def __init__(self, model: PlackettLuce) -> None:
        self.model = model
        self.ratings: dict[str, PlackettLuceRating] = {}
        self.games: dict[str, int] = {}
        self.wins: dict[str, int] = {}

    def rating(self, key: str) -> PlackettLuceRating:
        if key not in self.ratings:
            self.ratings[key] = self.model.rating(name=key)
        return self.ratings[key]

    def play(self, game: FinishedGame) -> None:
        game_sides = sides(game)
        keys = {p for players, _, _ in game_sides for p in players}
        if len(game_sides) < 2 or len(keys) < 2:
            return
        teams = [[self.model.rating(mu=self.rating(p).mu, sigma=self.rating(p).sigma, name=p) for p in players]
                 for players, _, _ in game_sides]  # fmt: skip
        ranks = side_ranks([(score, won) for _, score, won in game_sides])
        rated = self.model.rate(teams, ranks=[float(r) for r in ranks])
        new: dict[str, list[PlackettLuceRating]] = {}
        for (players, _, _), team in zip(game_sides, rated, strict=True):
            for p, r in zip(players, team, strict=True):
                new.setdefault(p, []).append(r)
        won = {p for players, _, w in game_sides if w for p in players}
        for p in sorted(new):
            results = new[p]
            mu = sum(r.mu for r in results) / len(results)
            sigma = sum(r.sigma for r in results) / len(results)
            self.ratings[p] = self.model.rating(mu=mu, sigma=sigma, name=p)
            self.games[p] = self.games.get(p, 0) + 1
            self.wins[p] = self.wins.get(p, 0) + (p in won)

    def rows(self) -> list[RatingRow]:
        entries = []
        for p, r in self.ratings.items():
            if self.games.get(p):
                entries.append((r.mu - Z * r.sigma, r, p))
        entries.sort(key=lambda e: (-e[0], -e[1].mu, e[2]))
        rows = []
        for i, (ordinal, r, p) in enumerate(entries):
            rank = rows[-1].rank if rows and rows[-1].ordinal == ordinal else i + 1
            rows.append(RatingRow(rank, p, r.mu, r.sigma, ordinal, self.games[p], self.wins[p]))
        return rows


def compute_ratings(games: Iterable[Any], model: PlackettLuce | None = None) -> dict[str, list[RatingRow]]:
    """Every kind's ladder from `games` (oldest first): `FinishedGame`s, or objects or mappings with `kind` and
    `seats`, each seat with `player` (the key), `team`, `score` and `won`. Kinds appear in KINDS order, then any
    other kind in order of appearance; a kind with no rated game is left out. `model` defaults to OpenSkill's
    PlackettLuce with its standard parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
    model = model or PlackettLuce()
    ladders: dict[str, _Ladder] = {}
    for entry in games:
        game = _game(entry)
        ladders.setdefault(game.kind, _Ladder(model)).play(game)
    order = [k for k in KINDS if k in ladders] + [k for k in ladders if k not in KINDS]
    result = {}
    for kind in order:
        rows = ladders[kind].rows()
        if rows:
            result[kind] = rows
    return result


__all__ = [
    "KINDS",
    "FinishedGame",
    "RatingRow",
    "SeatOutcome",
    "compute_ratings",
    "from_store",
    "player_key",
    "side_ranks",
    "sides",
]
