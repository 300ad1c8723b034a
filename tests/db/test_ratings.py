"""Ratings: the OpenSkill numbers checked against the Plackett-Luce formulas worked out here, and the ladder's rules
(kinds apart, teams, ties, computer levels, determinism)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from db.models import Seat, SeatResult
from db.ratings import FinishedGame, SeatOutcome, compute_ratings, from_store, player_key, side_ranks, sides

# OpenSkill's defaults (Weng & Lin 2011): mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 1e-4.
MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300, 1e-4


def plackett_luce(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """Weng & Lin's Algorithm 4 (Plackett-Luce), written from the paper for distinct ranks: each player's sigma
    first grows by tau; a team's mu and sigma^2 are its players' sums; c^2 = sum over teams of (sigma_q^2 + beta^2);
    for team i, omega_i = sigma_i^2/c * sum over q ranked at or above i of ([q = i] - e^(mu_i/c) / S_q) and
    delta_i = gamma_i * sigma_i^2/c^2 * sum over the same q of p (1 - p), p = e^(mu_i/c) / S_q, with S_q the sum of
    e^(mu_s/c) over the teams s ranked at or below q and gamma_i = sigma_i / c; each player moves by its share
    sigma_j^2/sigma_i^2 of omega_i, and its sigma shrinks by sqrt(max(1 - share * delta_i, kappa))."""
    teams = [[(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in team] for team in teams]
    team_mu = [sum(mu for mu, _ in t) for t in teams]
    team_s2 = [sum(s**2 for _, s in t) for t in teams]
    c = math.sqrt(sum(s2 + BETA**2 for s2 in team_s2))
    S = [sum(math.exp(team_mu[s] / c) for s in range(len(teams)) if ranks[s] >= ranks[q]) for q in range(len(teams))]
    out = []
    for i, team in enumerate(teams):
        omega = delta = 0.0
        for q in range(len(teams)):
            if ranks[q] <= ranks[i]:
                p = math.exp(team_mu[i] / c) / S[q]
                omega += (1.0 if q == i else 0.0) - p
                delta += p * (1 - p)
        omega *= team_s2[i] / c
        delta *= math.sqrt(team_s2[i]) / c * team_s2[i] / c**2
        out.append(
            [
                (mu + s**2 / team_s2[i] * omega, s * math.sqrt(max(1 - s**2 / team_s2[i] * delta, KAPPA)))
                for mu, s in team
            ]
        )
    return out


def seat(player: str, score: int, won: bool = False, team: int | None = None) -> SeatOutcome:
    return SeatOutcome(player, team, score, won)


def by_player(rows) -> dict:
    return {r.player: r for r in rows}


def test_one_game_two_players_by_hand():
    # By hand: sigma'^2 = (25/3)^2 + (25/300)^2 = 69.45139; c = sqrt(2 (69.45139 + 17.36111)) = 13.17668;
    # equal mus: p = 1/2 everywhere, so the winner gains sigma'^2/c * 1/2 = 2.63539 and the loser loses as much;
    # both sigmas: sigma' * sqrt(1 - (sigma'/c) * sigma'^2/c^2 * 1/4) = 8.06590.
    rows = compute_ratings([FinishedGame("kingdomino", (seat("ann", 40, True), seat("bob", 31)))])
    ladder = by_player(rows["kingdomino"])
    assert ladder["ann"].mu == pytest.approx(27.63539, abs=1e-5)
    assert ladder["bob"].mu == pytest.approx(22.36461, abs=1e-5)
    assert ladder["ann"].sigma == pytest.approx(8.06590, abs=1e-5)
    assert ladder["ann"].ordinal == pytest.approx(27.63539 - 3 * 8.06590, abs=1e-4)
    assert [(r.rank, r.player, r.games, r.wins) for r in rows["kingdomino"]] == [(1, "ann", 1, 1), (2, "bob", 1, 0)]
    assert ladder["ann"].display == f"{ladder['ann'].ordinal:.1f}"


def test_three_games_follow_the_formulas_in_order():
    games = [
        FinishedGame("queendomino", (seat("a", 50, True), seat("b", 40), seat("c", 30))),
        FinishedGame("queendomino", (seat("c", 60, True), seat("a", 20))),
        FinishedGame("queendomino", (seat("b", 44), seat("c", 45, True), seat("a", 43))),
    ]
    expected = {p: (MU, SIGMA) for p in "abc"}
    for g in games:
        players = [s.player for s in g.seats]
        ranks = side_ranks([(s.score, s.won) for s in g.seats])
        new = plackett_luce([[expected[p]] for p in players], ranks)
        for p, [r] in zip(players, new, strict=True):
            expected[p] = r
    ladder = by_player(compute_ratings(games)["queendomino"])
    for p, (mu, sigma) in expected.items():
        assert ladder[p].mu == pytest.approx(mu, abs=1e-9)
        assert ladder[p].sigma == pytest.approx(sigma, abs=1e-9)
    assert [ladder[p].games for p in "abc"] == [3, 2, 3]


def test_teams_are_rated_as_teams():
    g = FinishedGame(
        "royal-wedding",
        (seat("a", 90, True, 0), seat("b", 90, True, 0), seat("c", 70, False, 1), seat("d", 70, False, 1),
         seat("e", 60, False, 2), seat("f", 60, False, 2)),
    )  # fmt: skip
    assert sides(g) == [(["a", "b"], 90, True), (["c", "d"], 70, False), (["e", "f"], 60, False)]
    new = plackett_luce([[(MU, SIGMA)] * 2] * 3, [1, 2, 3])
    ladder = by_player(compute_ratings([g])["royal-wedding"])
    for team, players in zip(new, ("ab", "cd", "ef"), strict=True):
        for (mu, sigma), p in zip(team, players, strict=True):
            assert ladder[p].mu == pytest.approx(mu, abs=1e-9)
            assert ladder[p].sigma == pytest.approx(sigma, abs=1e-9)
    assert ladder["a"].wins == ladder["b"].wins == 1 and ladder["c"].wins == 0


def test_ties_share_a_rank_and_tie_breaks_count():
    # The winner by tie-break ranks above the player on the same score; equal losers tie.
    assert side_ranks([(40, True), (40, False), (30, False), (30, False)]) == [1, 2, 3, 3]
    g = FinishedGame("kingdomino", (seat("a", 40, True), seat("b", 30), seat("c", 30)))
    ladder = by_player(compute_ratings([g])["kingdomino"])
    assert ladder["b"].mu == pytest.approx(ladder["c"].mu)
    assert ladder["b"].sigma == pytest.approx(ladder["c"].sigma)
    assert ladder["a"].mu > ladder["b"].mu
    # A shared win: both won, same score, same rating.
    g = FinishedGame("kingdomino", (seat("a", 40, True), seat("b", 40, True)))
    ladder = by_player(compute_ratings([g])["kingdomino"])
    assert ladder["a"].mu == pytest.approx(ladder["b"].mu) == pytest.approx(MU, abs=1e-9)
    rows = compute_ratings([g])["kingdomino"]
    assert [r.rank for r in rows] == [1, 1]


def test_kinds_are_separate_ladders_in_a_fixed_order():
    games = [
        FinishedGame("royal-wedding", (seat("a", 1, True), seat("b", 0), seat("c", 0))),
        FinishedGame("kingdomino", (seat("b", 10, True), seat("a", 5))),
        FinishedGame("queendomino", (seat("a", 10, True), seat("b", 5))),
    ]
    ladders = compute_ratings(games)
    assert list(ladders) == ["kingdomino", "queendomino", "royal-wedding"]
    assert ladders["kingdomino"][0].player == "b" and ladders["queendomino"][0].player == "a"
    assert all(r.games == 1 for rows in ladders.values() for r in rows)


def test_computer_levels_are_one_player_each_across_games():
    assert player_key(Seat.computer(2, "hard", "Computer (hard)")) == "cpu:hard"
    assert player_key(Seat.human(1234, "Ann")) == "1234"
    games = [
        FinishedGame("kingdomino", (seat("1", 30), seat("cpu:hard", 40, True))),
        FinishedGame("kingdomino", (seat("2", 30), seat("cpu:hard", 40, True), seat("cpu:easy", 10))),
    ]
    ladder = by_player(compute_ratings(games)["kingdomino"])
    assert ladder["cpu:hard"].games == 2 and ladder["cpu:hard"].wins == 2 and ladder["cpu:hard"].is_computer
    assert not ladder["1"].is_computer
    assert ladder["cpu:hard"].rank == 1


def test_one_key_on_several_seats_takes_the_mean_and_counts_once():
    g = FinishedGame("kingdomino", (seat("cpu:hard", 50, True), seat("ann", 40), seat("cpu:hard", 30)))
    [[won], [a], [lost]] = plackett_luce([[(MU, SIGMA)]] * 3, [1, 2, 3])
    ladder = by_player(compute_ratings([g])["kingdomino"])
    assert ladder["cpu:hard"].mu == pytest.approx((won[0] + lost[0]) / 2, abs=1e-9)
    assert ladder["cpu:hard"].sigma == pytest.approx((won[1] + lost[1]) / 2, abs=1e-9)
    assert (ladder["cpu:hard"].games, ladder["cpu:hard"].wins) == (1, 1)
    assert ladder["ann"].mu == pytest.approx(a[0], abs=1e-9)
    # Every seat one key: nothing to learn, the game is skipped.
    assert compute_ratings([FinishedGame("kingdomino", (seat("cpu:hard", 5, True), seat("cpu:hard", 4)))]) == {}


def test_mappings_and_store_like_objects_are_accepted():
    as_dicts = [{"kind": "kingdomino", "seats": [{"player": "a", "team": None, "score": 3, "won": True},
                                                  {"player": "b", "team": None, "score": 2, "won": False}]}]  # fmt: skip
    as_values = [FinishedGame("kingdomino", (seat("a", 3, True), seat("b", 2)))]
    assert compute_ratings(as_dicts) == compute_ratings(as_values)
    assert compute_ratings([]) == {}


def _random_games(rng: random.Random, count: int) -> list[FinishedGame]:
    people = [str(1000 + i) for i in range(7)] + ["cpu:easy", "cpu:medium", "cpu:hard"]
    games = []
    for _ in range(count):
        kind = rng.choice(["kingdomino", "queendomino", "royal-wedding"])
        teams = kind == "royal-wedding" and rng.random() < 0.4
        n = rng.choice([4, 6]) if teams else rng.randint(2, 4)
        players = rng.sample(people, n)
        seats = []
        for i, p in enumerate(players):
            team = i // 2 if teams else None
            score = rng.randint(20, 25) if team is None or i % 2 == 0 else seats[-1].score
            seats.append(seat(p, score, False, team))
        best = max(s.score for s in seats)
        seats = [SeatOutcome(s.player, s.team, s.score, s.score == best) for s in seats]
        games.append(FinishedGame(kind, tuple(seats)))
    return games


@settings(max_examples=25)
@given(st.integers(0, 10**6), st.integers(1, 30))
def test_deterministic_ordered_and_seat_order_free(seed, count):
    rng = random.Random(seed)
    games = _random_games(rng, count)
    first = compute_ratings(games)
    assert compute_ratings(list(games)) == first  # the same list, the same ladder
    # Seat order within a game does not matter.
    shuffled = [FinishedGame(g.kind, tuple(rng.sample(g.seats, len(g.seats)))) for g in games]
    again = compute_ratings(shuffled)
    assert again.keys() == first.keys()
    for kind in first:
        a, b = by_player(first[kind]), by_player(again[kind])
        assert a.keys() == b.keys()
        for p in a:
            assert a[p].mu == pytest.approx(b[p].mu, abs=1e-9) and a[p].sigma == pytest.approx(b[p].sigma, abs=1e-9)
    for rows in first.values():
        ordinals = [r.ordinal for r in rows]
        assert ordinals == sorted(ordinals, reverse=True)
        assert rows[0].rank == 1
        assert all(r.rank <= i + 1 for i, r in enumerate(rows))
        assert all(0 <= r.wins <= r.games for r in rows)
        assert all(r.ordinal == pytest.approx(r.mu - 3 * r.sigma) for r in rows)
    # Games counted: one per game a key sat in, per kind.
    for kind, rows in first.items():
        for r in rows:
            played = sum(1 for g in games if g.kind == kind and any(s.player == r.player for s in g.seats))
            assert r.games == played


def test_order_of_games_matters_as_it_should():
    a_wins = FinishedGame("kingdomino", (seat("a", 2, True), seat("b", 1)))
    b_wins = FinishedGame("kingdomino", (seat("a", 1), seat("b", 2, True)))
    one = by_player(compute_ratings([a_wins, b_wins])["kingdomino"])
    two = by_player(compute_ratings([b_wins, a_wins])["kingdomino"])
    # The latest result weighs a little more: each order favours its last winner.
    assert one["b"].mu > one["a"].mu and two["a"].mu > two["b"].mu


def test_store_rows_become_a_finished_game():
    seats = (Seat.human(1234, "Ann"), Seat.computer(1, "hard", "Computer"), Seat.computer(2, "easy", "Computer 2"))
    results = (SeatResult("cpu:1", 50, True), SeatResult("1234", 40, False), SeatResult("cpu:2", 10, False))
    game = from_store("queendomino", seats, results)
    assert game == FinishedGame("queendomino", (seat("cpu:hard", 50, True), seat("1234", 40), seat("cpu:easy", 10)))
    assert [r.player for r in compute_ratings([game])["queendomino"]] == ["cpu:hard", "1234", "cpu:easy"]
