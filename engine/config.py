"""Game configuration: which game, who plays, which variants; and the set-up the rules derive from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import ConfigError

GAMES = ("kingdomino", "queendomino", "royal-wedding")
VARIANTS = ("dynasty", "middle-kingdom", "harmony", "mighty-duel", "three-player-four-dominoes")
VARIANT_HELP = {
    "dynasty": "a match of three games; the highest sum of scores wins",
    "middle-kingdom": "+10 when the castle is the centre of the kingdom",
    "harmony": "+5 when none of your dominoes was discarded",
    "mighty-duel": "2 players, all 48 dominoes, 7x7 kingdoms",
    "three-player-four-dominoes": "3 players, all 48 dominoes in lines of 4; the unclaimed one is discarded",
}
PLAYER_RANGE = {"kingdomino": (2, 4), "queendomino": (2, 4), "royal-wedding": (3, 8)}


@dataclass(frozen=True)
class Setup:
    """What the rules derive from a configuration (see RULES.md's set-up tables)."""

    boxes: tuple[str, ...]  # boxes used, in the order their lines alternate ("K", "Q")
    dominoes_used: int  # total dominoes drawn from the boxes in one game
    line_size: int
    kings_per_player: int
    kingdom_size: int  # 5 or 7
    rounds: int
    queendomino_rules: bool  # knights, coins, buildings, queen, dragon
    discard_unclaimed: bool  # unclaimed dominoes of a line are discarded at the end of the round


@dataclass(frozen=True)
class GameConfig:
    """A game's configuration. `players` are opaque ids chosen by the caller, in seat order.

    `teams` (Royal Wedding only) pairs the players: a tuple of 2-tuples of ids, every player in one team.
    """

    game: str
    players: tuple[str, ...]
    variants: frozenset[str] = field(default_factory=frozenset)
    teams: tuple[tuple[str, ...], ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(str(p) for p in self.players))
        object.__setattr__(self, "variants", frozenset(self.variants))
        if self.teams is not None:
            object.__setattr__(self, "teams", tuple(tuple(str(p) for p in t) for t in self.teams))
        self.validate()

    # -- validation -------------------------------------------------------------------------------------------
    def validate(self) -> None:
        if self.game not in GAMES:
            raise ConfigError(
                f"Unknown game {self.game!r}: choose one of {', '.join(GAMES)}.",
                "unknown_game",
                {"game": str(self.game), "games": list(GAMES)},
            )
        n = len(self.players)
        low, high = PLAYER_RANGE[self.game]
        if not low <= n <= high:
            raise ConfigError(
                f"{self.game} takes {low}-{high} players, not {n}.",
                "player_count",
                {"game": self.game, "low": low, "high": high, "players": n},
            )
        if len(set(self.players)) != n:
            raise ConfigError("Each player may take only one seat.", "duplicate_player")
        unknown = sorted(self.variants - set(VARIANTS))
        if unknown:
            raise ConfigError(
                f"Unknown variant {unknown[0]!r}: choose among {', '.join(VARIANTS)}.",
                "unknown_variant",
                {"variant": str(unknown[0]), "variants": list(VARIANTS)},
            )
        if "mighty-duel" in self.variants and (self.game != "kingdomino" or n != 2):
            raise ConfigError("Mighty Duel is a Kingdomino variant for exactly 2 players.", "mighty_duel_players")
        if "three-player-four-dominoes" in self.variants and (self.game != "kingdomino" or n != 3):
            raise ConfigError(
                "The three-player-four-dominoes rule is for Kingdomino with exactly 3 players.", "three_player_rule"
            )
        if self.game == "royal-wedding" and self.teams is None and n == 8:
            raise ConfigError(
                "Royal Wedding with 8 players is played in teams of 2 (individual games take 3-7).", "eight_need_teams"
            )
        if self.teams is not None:
            if self.game != "royal-wedding":
                raise ConfigError("Teams are played only in Royal Wedding (6 or 8 players).", "teams_game")
            if n not in (6, 8):
                raise ConfigError(f"Teams need 6 or 8 players, not {n}.", "teams_player_count", {"players": n})
            if any(len(t) != 2 for t in self.teams):
                raise ConfigError("Each team has exactly 2 players.", "team_size")
            flat = [p for t in self.teams for p in t]
            if sorted(flat) != sorted(self.players):
                raise ConfigError("Every player must be in exactly one team.", "team_members")

    # -- derived --------------------------------------------------------------------------------------------
    @property
    def setup(self) -> Setup:
        n = len(self.players)
        if self.game == "kingdomino":
            if "mighty-duel" in self.variants:
                return Setup(("K",), 48, 4, 2, 7, 12, False, False)
            if n == 2:
                return Setup(("K",), 24, 4, 2, 5, 6, False, False)
            if n == 3:
                if "three-player-four-dominoes" in self.variants:
                    return Setup(("K",), 48, 4, 1, 5, 12, False, True)
                return Setup(("K",), 36, 3, 1, 5, 12, False, False)
            return Setup(("K",), 48, 4, 1, 5, 12, False, False)
        if self.game == "queendomino":
            if n == 2:
                return Setup(("Q",), 48, 4, 2, 7, 12, True, False)
            return Setup(("Q",), 48, 4, 1, 5, 12, True, n == 3)
        # Royal Wedding: both boxes, Queendomino's line first.
        if self.teams is not None:
            return Setup(("Q", "K"), 96, 8, 1, 7, 12, True, n == 6)
        if n <= 4:
            return Setup(("Q", "K"), 96, 4, 1, 7, 24, True, n == 3)
        return Setup(("Q", "K"), 96, 8, 1, 5, 12, True, True)

    @property
    def kingdom_members(self) -> tuple[tuple[str, ...], ...]:
        """The players of each kingdom, in kingdom order: one per player, or one per team."""
        if self.teams is not None:
            return self.teams
        return tuple((p,) for p in self.players)

    @property
    def deals(self) -> int:
        """Games in the match: 3 with Dynasty, else 1."""
        return 3 if "dynasty" in self.variants else 1

    def describe(self) -> str:
        n = len(self.players)
        name = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal-wedding": "Royal Wedding"}[self.game]
        text = f"{name}, {n} players"
        if self.teams is not None:
            text += f" in {len(self.teams)} teams"
        if self.variants:
            text += " (" + ", ".join(v for v in VARIANTS if v in self.variants) + ")"
        return text

    def to_dict(self) -> dict:
        data: dict = {"game": self.game, "players": list(self.players), "variants": sorted(self.variants)}
        if self.teams is not None:
            data["teams"] = [list(t) for t in self.teams]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> GameConfig:
        teams = data.get("teams")
        return cls(
            game=data["game"],
            players=tuple(data["players"]),
            variants=frozenset(data.get("variants", ())),
            teams=tuple(tuple(t) for t in teams) if teams is not None else None,
        )
