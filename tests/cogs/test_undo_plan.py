"""Undo never shows what was hidden: over self-played games in every mode (persons, computers, the claims made for a
person when one domino is left, moves by the turn deadline), `undo_plan` allows an undo exactly when the person's
last action is the newest one (but for those automatic claims) and nothing hidden came into view since. "Came into
view" is judged here independently of the engine's `draw_position`: the dominoes revealed, the buildings in sight,
the deal."""

from __future__ import annotations

import copy
import random
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.decide import BY_DEADLINE, MADE_BY, undo_plan
from cogs.words import UserError
from db.models import ActionRecord, GameRecord, GameStatus, Seat
from engine import Claim, Game, GameConfig
from i18n import messages as M
from tests.engine.harness import MODES

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ALL_MODES = [*MODES, "kingdomino-2-dynasty"]


def mode_config(mode: str, persons: int) -> tuple[GameConfig, tuple[Seat, ...]]:
    """The mode's game with `persons` people (user ids 1, 2...) then computers."""
    dynasty = mode.endswith("-dynasty")
    game, n, variants, teams = MODES[mode.removesuffix("-dynasty")]
    persons = max(1, min(persons, n))
    seats = tuple(
        Seat.human(i + 1, f"P{i + 1}") if i < persons else Seat.computer(i + 1 - persons, "easy", f"Bot {i}")
        for i in range(n)
    )
    ids = tuple(s.player_id for s in seats)
    pairs = tuple((ids[i], ids[i + 1]) for i in range(0, n, 2)) if teams else None
    return GameConfig(game, ids, frozenset(variants) | ({"dynasty"} if dynasty else set()), pairs), seats


def in_view(game: Game) -> tuple:
    """What the players have seen of the hidden stacks, counted from the table (not from the stacks)."""
    buildings = sum(b is not None for b in game.board) + len(game.burned) + sum(len(k.buildings) for k in game.kingdoms)
    return (game.deal, len(game.revealed), buildings)


class Table:
    """A game played as the service plays it: each action saved with who made it."""

    def __init__(self, mode: str, persons: int, seed: int) -> None:
        config, self.seats = mode_config(mode, persons)
        self.game = Game.new(config, seed)
        self.records: list[ActionRecord] = []
        self.revealing: list[bool] = []  # per record: did something hidden come into view with it
        self.states: list[dict] = []  # per record: the state before it
        self.forced_claims()

    def seat(self, player: str) -> Seat:
        return next(s for s in self.seats if s.player_id == player)

    def save(self, action, player: str, user_id: int | None, *, deadline: bool = False) -> None:
        before, state = in_view(self.game), copy.deepcopy(self.game.to_dict())
        self.game.apply(action, by=player)
        data = action.to_dict() | ({MADE_BY: BY_DEADLINE} if deadline else {})
        self.records.append(ActionRecord(1, len(self.records) + 1, player, user_id, data, NOW))
        self.revealing.append(in_view(self.game) != before)
        self.states.append(state)

    def forced_claims(self) -> None:
        """A person with one free domino left to claim gets it without a click (user id None)."""
        while not self.game.is_over:
            d = self.game.decision()
            claims = [a for a in self.game.legal_actions() if isinstance(a, Claim)]
            if self.seat(d.player).is_computer or d.kind not in ("claim", "first_claim") or len(claims) != 1:
                return
            self.save(claims[0], d.player, None)

    def step(self, rng: random.Random, deadline_rate: float) -> None:
        d = self.game.decision()
        seat = self.seat(d.player)
        action = rng.choice(self.game.legal_actions())
        if seat.is_computer:
            self.save(action, d.player, None)
            return
        if rng.random() < deadline_rate:  # the person's time ran out: the deadline plays their step
            self.save(action, d.player, None, deadline=True)
        else:
            self.save(action, d.player, seat.user_id)
        self.forced_claims()

    def record(self) -> GameRecord:
        return GameRecord(
            id=1,
            guild_id=1,
            channel_id=1,
            host_user_id=1,
            kind=self.game.config.game,
            status=GameStatus.PLAYING,
            version=len(self.records) + 1,
            seed=self.game.seed,
            seats=self.seats,
            table_channel_id=None,
            table_message_id=None,
            reminder_hours=None,
            deadline_hours=None,
            next_reminder_at=None,
            deadline_at=None,
            created_at=NOW,
            updated_at=NOW,
            started_at=NOW,
            ended_at=None,
            table_version=None,
            end_reason=None,
            config=self.game.config.to_dict(),
            state=None,
            game=Game.from_dict(self.game.to_dict()),
        )

    def expected(self, user_id: int) -> tuple[str, int | None]:
        """What an undo by `user_id` must do now, worked out from the records: ("done", index of their action),
        or the refusal's message."""
        for i in range(len(self.records) - 1, -1, -1):
            r = self.records[i]
            if r.action.get(MADE_BY) == BY_DEADLINE:
                return M.UNDO_DEADLINE, None
            if r.user_id is None and r.action["type"] == "claim" and not self.seat(r.player_id).is_computer:
                continue  # a claim made for a person: it goes back with the action before it
            if r.user_id == user_id:
                return (M.UNDO_REVEALED, None) if any(self.revealing[i:]) else ("done", i)
            if r.player_id == str(user_id):
                return M.UNDO_NOTHING, None  # their own seat, but not by their hand (a claim made for them)
            return M.UNDO_SOMEONE_ACTED, None
        return M.UNDO_NOTHING, None


def check_every_person(table: Table) -> list[str]:
    """undo_plan against the expectation for each person at the table now; returns the outcomes."""
    rec = table.record()
    outcomes = []
    for seat in table.seats:
        if seat.is_computer:
            continue
        want, index = table.expected(seat.user_id)
        try:
            undo, before = undo_plan(rec, table.records, seat.user_id)
        except UserError as refusal:
            assert refusal.message == want, (seat.player_id, want, str(refusal))
            outcomes.append(want)
            continue
        assert want == "done", (seat.player_id, want, "allowed")
        assert [r.seq for r in undo] == [r.seq for r in reversed(table.records[index:])]
        assert before.to_dict() == table.states[index], "the game as it was before the action"
        assert before.draw_position == table.game.draw_position
        outcomes.append(want)
    return outcomes


@settings(max_examples=40)
@given(
    mode=st.sampled_from(ALL_MODES),
    persons=st.integers(1, 8),
    seed=st.integers(0, 2**31 - 1),
    moves=st.integers(1, 400),
    deadline_rate=st.sampled_from([0.0, 0.05]),
)
def test_undo_is_allowed_iff_nothing_hidden_came_into_view_since(mode, persons, seed, moves, deadline_rate):
    table = Table(mode, persons, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if table.game.is_over:
            break
        table.step(rng, deadline_rate)
    if not table.game.is_over:
        check_every_person(table)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_every_mode_refuses_after_a_draw_and_allows_otherwise(mode):
    """One whole game per mode, a person in every seat, checked after every action: both outcomes happen (a move
    that drew a line or refilled the board is refused; others are allowed), and the rule never errs."""
    table = Table(mode, 8, 7)
    rng = random.Random(7)
    seen: set[str] = set()
    while not table.game.is_over:
        table.step(rng, 0.0)
        if not table.game.is_over:
            last = table.records[-1]
            mover = last.user_id if last.user_id is not None else None
            rec = table.record()
            for seat in table.seats:
                if mover is not None and seat.user_id != mover:
                    continue
                want, _ = table.expected(seat.user_id)
                try:
                    undo_plan(rec, table.records, seat.user_id)
                    got = "done"
                except UserError as refusal:
                    got = refusal.message
                assert got == want
                seen.add(got)
    assert {"done", M.UNDO_REVEALED} <= seen, seen
