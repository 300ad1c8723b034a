"""The board's signed tokens beyond the cookie (web/auth.py): a link scoped to a game and a seat, the Activity's
header session and the event stream's query token, each one person in one game."""

from __future__ import annotations

from web import auth


def test_a_link_names_its_game_and_seat_or_none_to_watch():
    secret = auth.new_secret()
    assert auth.read_seat_link(secret, auth.link_token(secret, 7, 3, seat=1)) == (7, 3, 1)
    assert auth.read_seat_link(secret, auth.link_token(secret, 7, 3)) == (7, 3, None)
    assert auth.read_seat_link(secret, auth.link_token(secret, 7, 3, seat=1, seconds=-1)) is None
    assert auth.read_seat_link(b"x" * 32, auth.link_token(secret, 7, 3, seat=1)) is None
    assert auth.read_link(secret, auth.link_token(secret, 7, 3, seat=0)) == (7, 3)  # the old reader still reads it


def test_activity_and_stream_tokens_stand_for_one_person_in_one_game():
    secret = auth.new_secret()
    session = auth.read_scoped(secret, auth.activity_session(secret, 9, 4), "a")
    assert session.for_game(4) == (9,) and session.for_game(5) == ()
    # Each kind of token only where it belongs: a stream token is no header session, a link neither.
    assert auth.read_scoped(secret, auth.stream_token(secret, 9, 4), "a") == auth.Session()
    assert auth.read_scoped(secret, auth.link_token(secret, 9, 4), "a") == auth.Session()
    assert auth.read_scoped(secret, auth.stream_token(secret, 9, 4), "t").for_game(4) == (9,)
    assert auth.read_scoped(secret, auth.activity_session(secret, 9, 4, seconds=-1), "a") == auth.Session()
    assert auth.read_scoped(secret, None, "a") == auth.Session()


def test_sessions_merge_with_their_games():
    linked = auth.Session().with_user(9, 4)
    local = auth.Session().with_user(3)
    both = local.merged(linked).merged(auth.Session().with_user(9, 6))
    assert both.for_game(4) == (3, 9) and both.for_game(6) == (3, 9) and both.for_game(5) == (3,)
