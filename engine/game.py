"""The game: set-up, whose decision it is, legal actions, applying them, scores and the result.

One small API for every caller (bot, computer players, tests):

    game = Game.new(config, seed)
    game.decision()            # who acts now and what kind of decision it is (None when over)
    game.legal_actions()       # every legal action for that decision
    game.apply(action, by=id)  # apply it; an illegal one raises IllegalAction and changes nothing
    game.scores()              # the score breakdown of every kingdom, at any time
    game.is_over, game.result()

Every random step is drawn when the game (or a Dynasty deal) starts, from a generator seeded by the caller; the
state carries the shuffled stacks, so it serialises to JSON without a generator and replays exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .actions import Action, BribeDragon, Build, Claim, Place, Skip, Tax, action_from_dict
from .components import (
    BOX_NAMES,
    builders_board_spec,
    building,
    building_stack,
    domino,
    kingdomino_dominoes,
    queendomino_dominoes,
)
from .config import GameConfig
from .errors import GameOver, IllegalAction, IllegalPlacement, NotEnoughCoins, NotYourTurn, WrongPhase
from .kingdom import Kingdom, cell_name
from .scoring import Ranking, ScoreBreakdown, rank, score_kingdom

FORMAT_VERSION = 1

# Knights a kingdom may send in one round, whatever the number of its turns (two kings, teams): RO "maxim 2 cavaleri
# în timpul unei runde", CS "V jednom kole hry můžete takto poslat až dva rytíře".
KNIGHTS_PER_ROUND = 2

# Decision kinds, in the order a turn goes through them.
FIRST_CLAIM = "first_claim"
PLACE = "place"
TAX = "tax"
BUILD = "build"
DRAGON = "dragon"
CLAIM = "claim"
OVER = "over"
OPTIONAL_PHASES = (TAX, BUILD, DRAGON)

PHASE_WORDS = {
    FIRST_CLAIM: "choose a domino of the first line",
    PLACE: "place a domino",
    TAX: "send knights to collect tax (or skip)",
    BUILD: "build a building (or skip)",
    DRAGON: "bribe the dragon (or skip)",
    CLAIM: "choose a domino of the next line",
}


def building_cost(slot: int, hosts_queen: bool) -> int:
    """Coins a building costs on `slot` of the builders' board (the queen's host pays less, down to the floor)."""
    spec = builders_board_spec()
    cost = spec.costs[slot]
    if hosts_queen:
        cost = max(spec.cost_floor, cost - spec.queen_discount)
    return cost


@dataclass(frozen=True)
class King:
    index: int
    player: str
    kingdom: int


@dataclass(frozen=True)
class Decision:
    """What the game waits for: `kind` (see PHASE_WORDS), by `player`, with the acting `king`."""

    kind: str
    player: str
    king: int
    kingdom: int
    domino: str | None  # the domino to place (place), or just placed (tax)

    @property
    def words(self) -> str:
        return PHASE_WORDS[self.kind]


@dataclass(frozen=True)
class Event:
    """Something that happened, for the table: `kind`, the `player` concerned, an English sentence, and `data`.

    `code` (the kind) and `params` (the player and the data: plain JSON values) hold everything the sentence says,
    so that a translation layer can word it in another language.
    """

    kind: str
    player: str | None
    text: str
    data: dict = field(default_factory=dict)

    @property
    def code(self) -> str:
        return self.kind

    @property
    def params(self) -> dict:
        return {"player": self.player, **self.data}


@dataclass(frozen=True)
class Result:
    winners: tuple[str, ...]  # player ids (both players of a winning team)
    winner_kingdoms: tuple[int, ...]
    order: tuple[int, ...]  # kingdom indices, best first
    totals: tuple[int, ...]  # per kingdom: the final score (the sum of the deals with Dynasty)
    tiebreak: str | None


class Game:
    """A whole game (with Dynasty, a match of three deals). Build it with `Game.new` or `Game.from_dict`."""

    def __init__(self) -> None:  # use Game.new / Game.from_dict
        self.config: GameConfig
        self.seed: int
        self.log: list[tuple[str, Action]] = []
        self.deal = 0
        self.deal_totals: list[list[int]] = []  # finished deals: totals per kingdom
        self.kingdoms: list[Kingdom] = []
        self.kings: list[King] = []
        self.lines_to_come: list[list[str]] = []  # shuffled, sorted lines not drawn yet
        self.current_line: list[list] = []  # [domino id, king index or None]
        self.next_line: list[list] = []
        self.first_claim_order: list[int] = []
        self.turn = 0  # position in the current line (FIRST_CLAIM: index into first_claim_order)
        self.phase = FIRST_CLAIM
        self.round = 0  # 1-based once the first round starts; 0 while the first line is claimed
        self.removed: list[str] = []  # dominoes discarded unclaimed or set aside at set-up, not by a player
        self.revealed: set[str] = set()
        # Queendomino
        self.board: list[str | None] = []
        self.stack: list[str] = []
        self.burned: list[str] = []
        self.dragon_slot: int | None = None
        self.queen: int | None = None  # kingdom index hosting the queen
        self.knights_supply = 0
        self.towers_supply = 0
        self.placed_this_turn: tuple[tuple[int, int], tuple[int, int]] | None = None

    # -- creation -------------------------------------------------------------------------------------------
    @classmethod
    def new(cls, config: GameConfig, seed: int) -> Game:
        game = cls()
        game.config = config
        game.seed = int(seed)
        game._start_deal()
        return game

    @property
    def setup(self):
        return self.config.setup

    @property
    def queendomino_rules(self) -> bool:
        return self.setup.queendomino_rules

    def _deal_rng(self) -> random.Random:
        return random.Random(f"{self.seed}:{self.deal}")

    def _start_deal(self) -> None:
        setup = self.setup
        rng = self._deal_rng()
        members = self.config.kingdom_members
        self.kingdoms = [Kingdom(setup.kingdom_size, m) for m in members]
        kingdom_of = {p: i for i, m in enumerate(members) for p in m}
        self.kings = []
        for p in self.config.players:
            for _ in range(setup.kings_per_player):
                self.kings.append(King(len(self.kings), p, kingdom_of[p]))
        # The boxes, each shuffled on its own; lines alternate between boxes (Royal Wedding), Queendomino first.
        stacks = {}
        for box in setup.boxes:
            ids = [d.id for d in (kingdomino_dominoes() if box == "K" else queendomino_dominoes())]
            rng.shuffle(ids)
            stacks[box] = ids
        per_box = setup.dominoes_used // len(setup.boxes)
        self.removed = []
        for box in setup.boxes:
            self.removed.extend(stacks[box][per_box:])  # set aside unseen (Kingdomino with 2 or 3 players)
            stacks[box] = stacks[box][:per_box]
        self.lines_to_come = []
        for i in range(setup.rounds):
            box = setup.boxes[i % len(setup.boxes)]
            line, stacks[box] = stacks[box][: setup.line_size], stacks[box][setup.line_size :]
            self.lines_to_come.append(sorted(line, key=lambda d: domino(d).number))
        # First-line king order.
        kings = list(range(len(self.kings)))
        if self.config.game == "queendomino" and len(self.config.players) == 2:
            first = rng.randrange(2)  # A, B, B, A
            a, b = (
                [k.index for k in self.kings if k.player == self.config.players[first]],
                [k.index for k in self.kings if k.player != self.config.players[first]],
            )
            self.first_claim_order = [a[0], b[0], b[1], a[1]]
        else:
            rng.shuffle(kings)
            self.first_claim_order = kings
        # Queendomino economy.
        self.board, self.stack, self.burned = [], [], []
        self.dragon_slot = None
        self.queen = None
        if setup.queendomino_rules:
            spec = builders_board_spec()
            self.stack = building_stack()
            rng.shuffle(self.stack)
            self.board = [None] * len(spec.costs)
            self._refill_board()
            self.knights_supply = spec.knights_supply - spec.start_knights * len(self.kingdoms)
            self.towers_supply = spec.towers_supply
            for k in self.kingdoms:
                k.knights_reserve = spec.start_knights
                k.coins = spec.start_coins
        self.revealed = set()
        self.current_line = [[d, None] for d in self._draw_line()]
        self.next_line = []
        self.round = 0
        self.turn = 0
        self.phase = FIRST_CLAIM
        self.placed_this_turn = None

    def _draw_line(self) -> list[str]:
        line = self.lines_to_come.pop(0) if self.lines_to_come else []
        self.revealed.update(line)
        return line

    def _refill_board(self) -> None:
        for slot in range(len(self.board) - 1, -1, -1):
            if self.board[slot] is None and self.stack:
                self.board[slot] = self.stack.pop(0)

    # -- reading --------------------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    def kingdom_of(self, player: str) -> int:
        for i, k in enumerate(self.kingdoms):
            if player in k.players:
                return i
        raise KeyError(f"{player!r} does not play in this game.")

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def is_last_round(self) -> bool:
        return self.round > 0 and not self.next_line and not self.lines_to_come

    @property
    def draw_position(self) -> tuple[int, int, int]:
        """How far the game has drawn from what is hidden: (deal, lines still to draw, buildings still in the stack).
        It changes exactly when something hidden comes into view (a line drawn, the builders' board refilled from
        the stack, a new deal), so two states at the same position have shown the players the same things."""
        return (self.deal, len(self.lines_to_come), len(self.stack))

    def _acting_king(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == FIRST_CLAIM:
            return self.first_claim_order[self.turn]
        return self.current_line[self.turn][1]

    def decision(self) -> Decision | None:
        """Who acts now and on what; None when the game is over."""
        king = self._acting_king()
        if king is None:
            return None
        k = self.kings[king]
        dom = None
        if self.phase in (PLACE, TAX):
            dom = self.current_line[self.turn][0]
        return Decision(self.phase, k.player, king, k.kingdom, dom)

    @property
    def current_player(self) -> str | None:
        d = self.decision()
        return d.player if d else None

    def cost_of(self, slot: int, kingdom: int) -> int:
        return building_cost(slot, self.queen == kingdom)

    def tax_coins(self, kingdom: int, cell: tuple[int, int]) -> int:
        """Coins one knight sent to `cell` would collect now."""
        k = self.kingdoms[kingdom]
        coins = k.territory_size_at(*cell)
        for b, _towers in k.buildings.values():
            t = building(b)
            coins += t.coins_per_knight_on_tax * k.knights_owned + t.coins_per_tower_on_tax * k.towers
        return coins

    def knights_allowed(self, kingdom: int) -> int:
        """Knights `kingdom` may still send this round: its reserve, within what is left of the round's allowance."""
        k = self.kingdoms[kingdom]
        return max(0, min(k.knights_reserve, KNIGHTS_PER_ROUND - k.knights_sent_this_round))

    def dragon_allowed(self, kingdom: int) -> str | None:
        """None if `kingdom` may bribe the dragon now (ignoring which slot), else why not."""
        refusal = self.dragon_refusal(kingdom)
        return None if refusal is None else refusal[2]

    def dragon_refusal(self, kingdom: int) -> tuple[str, dict, str] | None:
        """None if `kingdom` may bribe the dragon now (ignoring which slot), else (code, params, sentence)."""
        spec = builders_board_spec()
        if self.dragon_slot is not None:
            return (
                "dragon_flown",
                {},
                "The dragon has already flown this round: it is back in its cave at the end of the round.",
            )
        if self.queen == kingdom:
            return "dragon_queen_host", {}, "The queen's host may not bribe the dragon."
        coins = self.kingdoms[kingdom].coins
        if coins < spec.dragon_bribe:
            return (
                "dragon_coins",
                {"cost": spec.dragon_bribe, "coins": coins},
                f"The dragon costs {spec.dragon_bribe} coin; you have {coins}.",
            )
        if not any(self.board):
            return "dragon_no_building", {}, "There is no building on the builders' board to burn."
        return None

    def legal_actions(self) -> list[Action]:
        """Every legal action for the decision at hand (empty when the game is over)."""
        d = self.decision()
        if d is None:
            return []
        if d.kind == FIRST_CLAIM:
            return [Claim(dom) for dom, king in self.current_line if king is None]
        if d.kind == CLAIM:
            return [Claim(dom) for dom, king in self.next_line if king is None]
        k = self.kingdoms[d.kingdom]
        if d.kind == PLACE:
            return [Place(p.row, p.col, p.direction) for p in k.legal_placements(domino(d.domino))]
        actions: list[Action] = []
        if d.kind == TAX:
            a, b = self.placed_this_turn  # type: ignore[misc]
            actions = [Tax((a,)), Tax((b,))]
            if self.knights_allowed(d.kingdom) >= 2:
                actions.append(Tax((a, b)))
        elif d.kind == BUILD:
            cells = k.free_town_cells()
            for slot, b in enumerate(self.board):
                if b is not None and self.cost_of(slot, d.kingdom) <= k.coins:
                    actions.extend(Build(slot, r, c) for r, c in cells)
        elif d.kind == DRAGON:
            actions = [BribeDragon(slot) for slot, b in enumerate(self.board) if b is not None]
        return [*actions, Skip()]

    def scores(self) -> list[ScoreBreakdown]:
        """The score breakdown of every kingdom as it stands now (this deal only, with Dynasty)."""
        v = self.config.variants
        return [
            score_kingdom(
                k,
                queendomino=self.queendomino_rules,
                hosts_queen=self.queen == i,
                middle_kingdom="middle-kingdom" in v,
                harmony="harmony" in v,
            )
            for i, k in enumerate(self.kingdoms)
        ]

    def match_totals(self) -> list[int]:
        """Per kingdom: the sum of finished deals plus the current one (equals the score without Dynasty)."""
        current = [s.total for s in self.scores()] if not self.is_over else [0] * len(self.kingdoms)
        return [sum(t[i] for t in self.deal_totals) + current[i] for i in range(len(self.kingdoms))]

    def ranking(self) -> Ranking:
        breakdowns = self.scores()
        totals = self.match_totals() if self.deal_totals else [b.total for b in breakdowns]
        return rank(totals, breakdowns, queendomino=self.queendomino_rules)

    def result(self) -> Result:
        """The winner(s) and ranking; only once the game is over."""
        if not self.is_over:
            raise IllegalAction("The game is not over yet.", "game_not_over")
        r = self.ranking()
        totals = self.match_totals() if self.deal_totals else [b.total for b in self.scores()]
        if len(self.deal_totals) > 1 or "dynasty" in self.config.variants:
            totals = [sum(t[i] for t in self.deal_totals) for i in range(len(self.kingdoms))]
        winners = tuple(p for i in r.winners for p in self.kingdoms[i].players)
        return Result(winners, r.winners, r.order, tuple(totals), r.tiebreak)

    def unseen_dominoes(self) -> list[str]:
        """Dominoes of the boxes in play that nobody has seen yet this deal (those to come, and any set aside)."""
        ids = []
        for box in self.setup.boxes:
            ids.extend(d.id for d in (kingdomino_dominoes() if box == "K" else queendomino_dominoes()))
        return [i for i in ids if i not in self.revealed]

    # -- applying -------------------------------------------------------------------------------------------
    def apply(self, action: Action, by: str | None = None) -> list[Event]:
        """Apply `action` for the player to act (`by`, if given, must be that player).

        Raises IllegalAction (a subclass says which kind) with a readable reason; the state is then unchanged.
        Returns what happened, including automatic steps (forced discards, end of round, end of game).
        """
        d = self.decision()
        if d is None:
            raise GameOver("The game is over: no more moves.", "game_over")
        if by is not None and by != d.player:
            raise NotYourTurn(
                f"It is {d.player}'s turn: they must {d.words}.", "not_your_turn", {"player": d.player, "phase": d.kind}
            )
        events = self._apply(d, action)
        self.log.append((d.player, action))
        events.extend(self._advance())
        return events

    def _apply(self, d: Decision, action: Action) -> list[Event]:
        """Check `action` against decision `d` and carry it out: one method per kind of decision."""
        if d.kind in (FIRST_CLAIM, CLAIM):
            return self._apply_claim(d, action)
        if d.kind == PLACE:
            return self._apply_place(d, action)
        if isinstance(action, Skip):
            if d.kind not in OPTIONAL_PHASES:
                raise WrongPhase(
                    f"{d.player} cannot skip: they must {d.words}.",
                    "cannot_skip",
                    {"player": d.player, "phase": d.kind},
                )
            return []
        if d.kind == TAX:
            return self._apply_tax(d, action)
        if d.kind == BUILD:
            if not isinstance(action, Build):
                raise self._wrong_action(d, action, "decide on building (build or skip)")
            return self._build(d, self.kingdoms[d.kingdom], action)
        if d.kind == DRAGON:
            return self._apply_dragon(d, action)
        raise WrongPhase(
            f"{d.player} must {d.words}.", "wrong_phase", {"player": d.player, "phase": d.kind}
        )  # pragma: no cover

    @staticmethod
    def _wrong_action(d: Decision, action: Action, must: str) -> WrongPhase:
        """The refusal of an action of another kind than decision `d` asks for (`must`: what the player must do)."""
        return WrongPhase(
            f"{d.player} must {must}, not {action.text}.",
            "wrong_phase",
            {"player": d.player, "phase": d.kind, "action": action.text},
        )

    def _apply_claim(self, d: Decision, action: Action) -> list[Event]:
        """A king claims a domino of the current line (first claim) or of the next line."""
        if not isinstance(action, Claim):
            raise self._wrong_action(d, action, d.words)
        line = self.current_line if d.kind == FIRST_CLAIM else self.next_line
        for slot in line:
            if slot[0] == action.domino:
                if slot[1] is not None:
                    raise IllegalAction(
                        f"Domino {action.domino} is already taken: choose a free one.",
                        "domino_taken",
                        {"domino": action.domino, "free": [dom for dom, king in line if king is None]},
                    )
                slot[1] = d.king
                return [Event("claimed", d.player, f"{d.player} claimed {action.domino}.", {"domino": action.domino})]
        free = ", ".join(dom for dom, king in line if king is None)
        raise IllegalAction(
            f"Domino {action.domino} is not in the line: choose one of {free}.",
            "domino_not_in_line",
            {"domino": action.domino, "free": [dom for dom, king in line if king is None]},
        )

    def _apply_place(self, d: Decision, action: Action) -> list[Event]:
        """The player puts their claimed domino into their kingdom."""
        if not isinstance(action, Place):
            raise WrongPhase(
                f"{d.player} must place domino {d.domino} first, not {action.text}.",
                "must_place_first",
                {"player": d.player, "domino": d.domino, "action": action.text},
            )
        k = self.kingdoms[d.kingdom]
        dom = domino(d.domino)  # type: ignore[arg-type]
        refusal = k.placement_refusal(dom, action.placement)
        if refusal is not None:
            code, params, problem = refusal
            raise IllegalPlacement(f"{action.text}: {problem}", code, {"action": action.text, **params})
        placement = action.placement
        k.put(dom, placement)
        self.placed_this_turn = placement.cells
        return [
            Event(
                "placed",
                d.player,
                f"{d.player} placed {dom} at {action.text[6:]}.",
                {"domino": dom.id, "cell": cell_name(action.row, action.col), "direction": action.direction},
            )
        ]

    def _apply_tax(self, d: Decision, action: Action) -> list[Event]:
        """Queendomino: knights sent onto the domino just placed collect its tax."""
        if not isinstance(action, Tax):
            raise self._wrong_action(d, action, "first decide on tax (send knights or skip)")
        k = self.kingdoms[d.kingdom]
        cells = action.cells
        self._check_tax_knights(k, cells)
        coins = sum(self.tax_coins(d.kingdom, c) for c in cells)
        k.knights_reserve -= len(cells)
        k.knights_sent_this_round += len(cells)
        k.knights_placed.extend(cells)
        k.coins += coins
        cell_names = [cell_name(*c) for c in cells]
        return [
            Event(
                "taxed",
                d.player,
                f"{d.player} sent knights to {' and '.join(cell_names)} and collected {coins} coins.",
                {"cells": cell_names, "knights": len(cells), "coins": coins},
            )
        ]

    def _check_tax_knights(self, k: Kingdom, cells: tuple[tuple[int, int], ...]) -> None:
        """Raise IllegalAction unless kingdom `k` may send knights to `cells` now."""
        if not 1 <= len(cells) <= 2 or len(set(cells)) != len(cells):
            raise IllegalAction(
                "Send one or two knights, at most one on each square of the domino.",
                "tax_knight_count",
                {"knights": len(cells)},
            )
        if any(c not in self.placed_this_turn for c in cells):  # type: ignore[operator]
            cell_names = [cell_name(*c) for c in self.placed_this_turn]  # type: ignore[union-attr]
            raise IllegalAction(
                f"Knights go on the domino just placed: {' or '.join(cell_names)}.",
                "tax_cells",
                {"cells": cell_names},
            )
        sent = k.knights_sent_this_round
        if sent + len(cells) > KNIGHTS_PER_ROUND:
            left = KNIGHTS_PER_ROUND - sent
            raise IllegalAction(
                f"Your kingdom has already sent {sent} knight{'s' if sent != 1 else ''} this round and may send "
                f"at most {KNIGHTS_PER_ROUND} per round: "
                + (f"send {left} more at most." if left > 0 else "skip the tax until the next round."),
                "knights_per_round",
                {"sent": sent, "limit": KNIGHTS_PER_ROUND, "left": left, "wanted": len(cells)},
            )
        if k.knights_reserve < len(cells):
            raise IllegalAction(
                f"You have {k.knights_reserve} knight in reserve, not {len(cells)}.",
                "knights_reserve",
                {"reserve": k.knights_reserve, "wanted": len(cells)},
            )

    def _apply_dragon(self, d: Decision, action: Action) -> list[Event]:
        """Queendomino: the player bribes the dragon to burn a building of the builders' board."""
        if not isinstance(action, BribeDragon):
            raise self._wrong_action(d, action, "decide on the dragon (bribe or skip)")
        refusal = self.dragon_refusal(d.kingdom)
        if refusal:
            raise IllegalAction(refusal[2], refusal[0], refusal[1])
        if not 0 <= action.slot < len(self.board) or self.board[action.slot] is None:
            raise IllegalAction(
                f"Slot {action.slot} of the builders' board holds no building.", "empty_slot", {"slot": action.slot}
            )
        burned = self.board[action.slot]
        self.board[action.slot] = None
        self.burned.append(burned)  # type: ignore[arg-type]
        self.dragon_slot = action.slot
        k = self.kingdoms[d.kingdom]
        k.coins -= builders_board_spec().dragon_bribe
        name = building(burned).name  # type: ignore[arg-type]
        return [
            Event(
                "dragon",
                d.player,
                f"{d.player} bribed the dragon, which burned the {name}.",
                {"building": burned, "slot": action.slot, "coins": builders_board_spec().dragon_bribe},
            )
        ]

    def _build(self, d: Decision, k: Kingdom, action: Build) -> list[Event]:
        if not 0 <= action.slot < len(self.board) or self.board[action.slot] is None:
            raise IllegalAction(
                f"Slot {action.slot} of the builders' board holds no building.", "empty_slot", {"slot": action.slot}
            )
        cell = (action.row, action.col)
        free = k.free_town_cells()
        if cell not in free:
            if not free:
                raise IllegalAction("You have no free town square to build on.", "no_free_town")
            names = [cell_name(*c) for c in free]
            raise IllegalAction(
                f"{cell_name(*cell)} is not a free town square: build on {', '.join(names)}.",
                "not_free_town",
                {"cell": cell_name(*cell), "free": names},
            )
        cost = self.cost_of(action.slot, d.kingdom)
        if k.coins < cost:
            raise NotEnoughCoins(
                f"You need {cost} coins, you have {k.coins}.", "not_enough_coins", {"cost": cost, "coins": k.coins}
            )
        bid = self.board[action.slot]
        b = building(bid)  # type: ignore[arg-type]
        knights = min(b.knights, self.knights_supply)
        towers = min(b.towers, self.towers_supply)
        self.board[action.slot] = None
        k.coins -= cost
        k.buildings[cell] = [bid, towers]
        k.knights_reserve += knights
        self.knights_supply -= knights
        self.towers_supply -= towers
        events = [
            Event(
                "built",
                d.player,
                f"{d.player} built the {b.name} on {cell_name(*cell)} for {cost} coins.",
                {"building": bid, "knights": knights, "towers": towers, "cell": cell_name(*cell), "cost": cost},
            )
        ]
        if towers and self.queen != d.kingdom:
            most = max(other.towers for i, other in enumerate(self.kingdoms) if i != d.kingdom)
            if k.towers >= most:
                self.queen = d.kingdom
                events.append(
                    Event(
                        "queen",
                        d.player,
                        f"The queen moves to {d.player}'s kingdom ({k.towers} towers).",
                        {"towers": k.towers},
                    )
                )
        return events

    # -- automatic steps ------------------------------------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Move to the next decision that needs a player, doing every automatic step on the way."""
        events: list[Event] = []
        if self.phase == FIRST_CLAIM:
            self.turn += 1
            if self.turn < len(self.first_claim_order):
                return events
            # More dominoes than kings (3 players with lines of 4, Royal Wedding with lines of 8): the first line's
            # leftovers are discarded like those of every later line.
            events.extend(self._discard_unclaimed(self.current_line))
            self.current_line = [slot for slot in self.current_line if slot[1] is not None]
            self.next_line = [[dom, None] for dom in self._draw_line()]
            self.round = 1
            return events + self._start_turn(0)
        next_phase = self._next_phase(self.phase)
        while next_phase is not None and not self._phase_has_choice(next_phase):
            next_phase = self._next_phase(next_phase)
        if next_phase is not None:
            self.phase = next_phase
            return events
        return events + self._start_turn(self.turn + 1)

    def _next_phase(self, phase: str) -> str | None:
        order = [PLACE, TAX, BUILD, DRAGON, CLAIM] if self.queendomino_rules else [PLACE, CLAIM]
        i = order.index(phase)
        return order[i + 1] if i + 1 < len(order) else None

    def _phase_has_choice(self, phase: str) -> bool:
        """Whether the acting player has anything to decide in `phase` (else it is passed automatically)."""
        king = self.kings[self.current_line[self.turn][1]]
        k = self.kingdoms[king.kingdom]
        if phase == TAX:
            return self.placed_this_turn is not None and self.knights_allowed(king.kingdom) > 0
        if phase == BUILD:
            return bool(k.free_town_cells()) and any(
                b is not None and self.cost_of(s, king.kingdom) <= k.coins for s, b in enumerate(self.board)
            )
        if phase == DRAGON:
            return self.dragon_allowed(king.kingdom) is None
        if phase == CLAIM:
            return bool(self.next_line)
        return True

    def _start_turn(self, position: int) -> list[Event]:
        """Give the turn to the king at `position` of the current line or later; end the round when none is left."""
        events: list[Event] = []
        while True:
            while position < len(self.current_line) and self.current_line[position][1] is None:
                position += 1
            if position >= len(self.current_line):
                events.extend(self._end_round())
                if self.phase == OVER or self.phase == FIRST_CLAIM:
                    return events
                position = 0
                continue
            self.turn = position
            self.phase = PLACE
            self.placed_this_turn = None
            dom_id, king_index = self.current_line[position]
            king = self.kings[king_index]
            k = self.kingdoms[king.kingdom]
            dom = domino(dom_id)
            if k.can_place(dom):
                return events
            # No legal placement: the domino is discarded at once, and the turn goes on with the optional steps.
            k.discarded.append(dom_id)
            events.append(
                Event(
                    "discarded",
                    king.player,
                    f"{king.player} could not place {dom}: no cell connects it to the castle or to a matching "
                    f"terrain within the {k.size}x{k.size} frame, so it is discarded.",
                    {"domino": dom_id, "size": k.size},
                )
            )
            next_phase = self._next_phase(PLACE)
            while next_phase is not None and not self._phase_has_choice(next_phase):
                next_phase = self._next_phase(next_phase)
            if next_phase is not None:
                self.phase = next_phase
                return events
            position += 1

    def _end_round(self) -> list[Event]:
        events: list[Event] = []
        if self.queendomino_rules:
            self.dragon_slot = None
            for k in self.kingdoms:
                k.knights_sent_this_round = 0
            remaining = [b for b in self.board if b is not None]
            self.board = [None] * (len(self.board) - len(remaining)) + remaining
            self._refill_board()
        if not self.next_line:
            events.append(Event("round_end", None, f"Round {self.round} is over.", {"round": self.round}))
            return events + self._end_deal()
        events.extend(self._discard_unclaimed(self.next_line))
        self.current_line = [slot for slot in self.next_line if slot[1] is not None]
        self.next_line = [[dom, None] for dom in self._draw_line()]
        events.append(Event("round_end", None, f"Round {self.round} is over.", {"round": self.round}))
        self.round += 1
        return events

    def _discard_unclaimed(self, line: list[list]) -> list[Event]:
        """Remove from the game the dominoes of `line` that no king claimed (they stay in `line` for the caller)."""
        unclaimed = [dom for dom, king in line if king is None]
        if not unclaimed:
            return []
        self.removed.extend(unclaimed)
        return [
            Event(
                "unclaimed",
                None,
                f"Nobody claimed {', '.join(unclaimed)}: {'it is' if len(unclaimed) == 1 else 'they are'} discarded.",
                {"dominoes": unclaimed},
            )
        ]

    def _end_deal(self) -> list[Event]:
        scores = self.scores()
        self.deal_totals.append([s.total for s in scores])
        self.current_line = []
        if self.deal + 1 < self.config.deals:
            self.deal += 1
            self._start_deal()
            return [
                Event(
                    "deal_end",
                    None,
                    f"Game {self.deal} of the Dynasty is over; game {self.deal + 1} begins.",
                    {"finished": self.deal, "next": self.deal + 1},
                )
            ]
        self.phase = OVER
        result = self.result()
        names = " and ".join(result.winners)
        how = f" (tie-break: {result.tiebreak})" if result.tiebreak else ""
        return [
            Event(
                "game_over",
                None,
                f"The game is over: {names} {'win' if len(result.winners) > 1 else 'wins'}{how}.",
                {"winners": list(result.winners), "tiebreak": result.tiebreak},
            )
        ]

    # -- copying, saving, replaying ---------------------------------------------------------------------------
    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.log = self.log[:]
        g.deal_totals = [t[:] for t in self.deal_totals]
        g.kingdoms = [k.clone() for k in self.kingdoms]
        g.lines_to_come = [line[:] for line in self.lines_to_come]
        g.current_line = [slot[:] for slot in self.current_line]
        g.next_line = [slot[:] for slot in self.next_line]
        g.first_claim_order = self.first_claim_order[:]
        g.removed = self.removed[:]
        g.revealed = set(self.revealed)
        g.board = self.board[:]
        g.stack = self.stack[:]
        g.burned = self.burned[:]
        return g

    def view(self) -> Game:
        """What every player sees: an independent copy whose hidden parts are replaced by a fixed arrangement of
        what nobody has seen. The lines to come hold the unseen dominoes of their box in number order (the rest set
        aside), the building stack is sorted, the kings still to choose in the first line wait in seat order, and
        the seed is 0. Two games that differ only in what is hidden have equal views, so a computer player given
        the view cannot cheat (engine.ai.make_agent gives its agents nothing else). Legal actions, scores and the
        decision are the game's; playing the view on reveals an invented future."""
        view = self.clone()
        view.seed = 0
        pools: dict[str, list[str]] = {box: [] for box in self.setup.boxes}
        for dom in self.unseen_dominoes():  # each box's data lists its dominoes in number order
            pools[dom[0]].append(dom)
        lines = []
        for line in self.lines_to_come:
            pool = pools[line[0][0]]
            lines.append(pool[: len(line)])
            del pool[: len(line)]
        view.lines_to_come = lines
        view.removed = [dom for pool in pools.values() for dom in pool] + [
            d for d in self.removed if d in self.revealed
        ]
        view.stack = sorted(self.stack)
        order = self.first_claim_order
        fixed = self.config.game == "queendomino" and len(self.config.players) == 2  # A, B, B, A: known once A is
        if self.phase == FIRST_CLAIM and not fixed:
            view.first_claim_order = order[: self.turn + 1] + sorted(order[self.turn + 1 :])
        return view

    def to_dict(self) -> dict:
        return {
            "format_version": FORMAT_VERSION,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "log": [{"by": p, **a.to_dict()} for p, a in self.log],
            "deal": self.deal,
            "deal_totals": self.deal_totals,
            "kingdoms": [k.to_dict() for k in self.kingdoms],
            "kings": [[k.player, k.kingdom] for k in self.kings],
            "lines_to_come": self.lines_to_come,
            "current_line": self.current_line,
            "next_line": self.next_line,
            "first_claim_order": self.first_claim_order,
            "turn": self.turn,
            "phase": self.phase,
            "round": self.round,
            "removed": self.removed,
            "revealed": sorted(self.revealed),
            "board": self.board,
            "stack": self.stack,
            "burned": self.burned,
            "dragon_slot": self.dragon_slot,
            "queen": self.queen,
            "knights_supply": self.knights_supply,
            "towers_supply": self.towers_supply,
            "placed_this_turn": [list(c) for c in self.placed_this_turn] if self.placed_this_turn else None,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Game:
        """Restore a saved game. Raises ValueError for a state this code cannot read."""
        version = data.get("format_version")
        if version is None or version > FORMAT_VERSION:
            raise ValueError(f"Unsupported game state format {version!r} (this code reads up to {FORMAT_VERSION}).")
        data = _upgrade(data)
        try:
            g = cls()
            g.config = GameConfig.from_dict(data["config"])
            g.seed = int(data["seed"])
            g.log = [(e["by"], action_from_dict(e)) for e in data["log"]]
            g.deal = int(data["deal"])
            g.deal_totals = [list(map(int, t)) for t in data["deal_totals"]]
            g.kingdoms = [Kingdom.from_dict(k) for k in data["kingdoms"]]
            g.kings = [King(i, str(p), int(k)) for i, (p, k) in enumerate(data["kings"])]
            g.lines_to_come = [list(line) for line in data["lines_to_come"]]
            g.current_line = [[d, k] for d, k in data["current_line"]]
            g.next_line = [[d, k] for d, k in data["next_line"]]
            g.first_claim_order = [int(k) for k in data["first_claim_order"]]
            g.turn = int(data["turn"])
            g.phase = str(data["phase"])
            g.round = int(data["round"])
            g.removed = list(data["removed"])
            g.revealed = set(data["revealed"])
            g.board = list(data["board"])
            g.stack = list(data["stack"])
            g.burned = list(data["burned"])
            g.dragon_slot = data["dragon_slot"]
            g.queen = data["queen"]
            g.knights_supply = int(data["knights_supply"])
            g.towers_supply = int(data["towers_supply"])
            placed = data["placed_this_turn"]
            g.placed_this_turn = (tuple(placed[0]), tuple(placed[1])) if placed else None
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"Corrupt game state: {type(error).__name__}: {error}") from None
        if g.phase not in (FIRST_CLAIM, PLACE, TAX, BUILD, DRAGON, CLAIM, OVER):
            raise ValueError(f"Corrupt game state: unknown phase {g.phase!r}.")
        for dom, _ in (*g.current_line, *g.next_line):
            domino(dom)
        return g

    def rename_player(self, old: str, new: str) -> None:
        """Player `old` is known as `new` from now on, everywhere the game names them (its config and teams, its log,
        the kings, the kingdoms): the same game, as if `new` had sat there from the start. Raises ValueError when
        `old` does not play here or `new` already does."""
        players = self.config.players
        if old not in players:
            raise ValueError(f"player {old!r} does not play in this game (players: {', '.join(players)})")
        if new in players:
            raise ValueError(f"player {new!r} already plays in this game")

        def swap(player: str) -> str:
            return new if player == old else player

        teams = None if self.config.teams is None else tuple(tuple(map(swap, t)) for t in self.config.teams)
        self.config = GameConfig(self.config.game, tuple(map(swap, players)), self.config.variants, teams)
        self.log = [(swap(p), a) for p, a in self.log]
        self.kings = [King(k.index, swap(k.player), k.kingdom) for k in self.kings]
        for kingdom in self.kingdoms:
            kingdom.players = tuple(map(swap, kingdom.players))

    @classmethod
    def replay(cls, config: GameConfig, seed: int, actions: list[tuple[str, Action]]) -> Game:
        """Rebuild a game from its seed and action log."""
        game = cls.new(config, seed)
        for player, action in actions:
            game.apply(action, by=player)
        return game

    def describe_line(self, line: list[list]) -> str:
        parts = []
        for dom, king in line:
            who = f" ({self.kings[king].player})" if king is not None else ""
            parts.append(f"{domino(dom)}{who}")
        return ", ".join(parts)

    def box_name(self, domino_id: str) -> str:
        return BOX_NAMES[domino_id[0]]


def _upgrade(data: dict) -> dict:
    """Bring an older saved state up to FORMAT_VERSION (one step per version, when the format changes)."""
    return data
