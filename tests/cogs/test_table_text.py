"""The table's text: whatever happened and whatever notes pile up, the title, the turn line (with its mention) and
the scores stay whole, within 8 lines and Discord's 2,000 characters; the oldest events go first."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cogs.tabletext import fit_table, pack_lines

LINE = st.text(st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), min_size=1, max_size=400)
HEAD = "**Kingdomino** — round 3/6"
TURN = "➡️ <@123456789012345678>, it's your turn: place domino 22 (wheat 👑 · swamp)."
SCORES = "Scores: Alice 12 · Bob 9"


@given(notes=st.lists(LINE, max_size=100), events=st.lists(LINE, max_size=60))
def test_the_turn_line_and_the_scores_are_never_cut(notes, events):
    notes, events = [f"n:{n}" for n in notes], [f"e:{e}" for e in events]
    text = fit_table([HEAD], notes, events, [TURN, SCORES])
    lines = text.split("\n")
    assert len(text) <= 2000 and len(lines) <= 8
    assert lines[0] == HEAD and lines[-2:] == [TURN, SCORES]
    kept_events = [line for line in lines[1:-2] if line.startswith("e:")]
    assert kept_events == events[len(events) - len(kept_events) :], "the newest events, whole, in order"
    if notes:
        assert lines[1].startswith("n:"), "a note comes first"


def test_a_pile_of_repeated_notes_is_said_once_and_events_are_trimmed_oldest_first():
    events = [f"**Bot {n}** chose domino {n}." for n in range(20)]
    text = fit_table([HEAD], ["🔁 The table again, as it stands now."], events, [TURN, SCORES])
    lines = text.splitlines()
    assert lines == [HEAD, "🔁 The table again, as it stands now.", *events[-4:], TURN, SCORES]


def test_a_note_too_long_is_clipped_not_the_turn():
    text = fit_table([HEAD], ["x" * 5000], [], [TURN, SCORES])
    assert len(text) <= 2000 and text.endswith(f"…\n{TURN}\n{SCORES}")


@given(notes=st.lists(LINE, max_size=5), events=st.lists(LINE, max_size=40))
def test_left_out_events_are_counted(notes, events):
    notes, events = [f"n:{n}" for n in notes], [f"e:{e}" for e in events]
    text = fit_table([HEAD], notes, events, [TURN, SCORES], earlier=lambda n: f"… and {n} earlier")
    lines = text.split("\n")
    assert len(text) <= 2000 and len(lines) <= 8 and lines[-2:] == [TURN, SCORES]
    shown = [line for line in lines if line.startswith("e:")]
    assert shown == events[len(events) - len(shown) :]
    said = [line for line in lines if line.startswith("… and ")]
    if said:
        assert said == [f"… and {len(events) - len(shown)} earlier"] and len(shown) < len(events)


def test_the_count_of_earlier_events_takes_one_line():
    events = [f"**Bot {n}** chose domino {n}." for n in range(20)]
    lines = fit_table([HEAD], [], events, [TURN, SCORES], earlier=lambda n: f"… and {n} earlier").splitlines()
    assert lines == [HEAD, "… and 16 earlier", *events[-4:], TURN, SCORES]


@given(lines=st.lists(LINE, max_size=30), room=st.integers(min_value=-2, max_value=12))
def test_packed_lines_keep_every_word_in_order_within_the_room(lines, room):
    packed = pack_lines(lines, room)
    assert len(packed) <= max(1, room) or not lines
    assert " · ".join(packed) == " · ".join(lines), "every line whole, in order"
    if len(lines) <= max(1, room):
        assert packed == lines, "nothing is joined while it fits"
