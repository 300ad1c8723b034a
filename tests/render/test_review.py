"""The review's picture (render/review.py): 780 pixels wide, no text under 12 pixels there, each decision's two
sides told apart by words, every kind of decision drawn (a placement, a claim, a tax, a building, the dragon), in
the reader's language; the moves in words name their cells, dominoes and buildings."""

from __future__ import annotations

import functools
import io

import pytest
from PIL import Image

from engine import Game, GameConfig
from engine.actions import BribeDragon, Build, Claim, Place, Skip, Tax
from engine.ai import make_agent
from engine.ai.review import Review, review_game
from i18n import messages as M
from i18n import translate
from render import fonts
from render.draw import recording_sizes
from render.review import WIDTH, action_words, render_review

PHONE = 780
NAMES = {"p0": "Alice Wonderland-Smith", "p1": "Bob", "p2": "Carol", "p3": "Dave"}


@functools.cache
def reviewed(game_kind: str, players: int, seed: int) -> tuple[Game, Review]:
    """A finished game (p0 random, the others easy) and p0's review at a tiny effort."""
    config = GameConfig(game_kind, tuple(f"p{i}" for i in range(players)))
    game = Game.new(config, seed)
    agents = {p: make_agent("random" if i == 0 else "easy", seed + i) for i, p in enumerate(config.players)}
    while not game.is_over:
        d = game.decision()
        game.apply(agents[d.player].choose(game), by=d.player)
    return game, review_game(game, budget=0.01, playouts=4, players={"p0"})


def one_of_each_kind(review: Review) -> dict:
    """The review's data with one decision of each kind (the costliest), so every kind is drawn."""
    kept: dict[str, int] = {}
    for item in review.worst("p0", len(review.items)):
        kept.setdefault(item.kind, item.index)
    data = review.to_dict()
    data["items"] = [i for i in data["items"] if i["index"] in kept.values()]
    return data


def draw(game: Game, data: dict, lang: str, count: int) -> tuple[Image.Image, list[tuple[str, int]]]:
    log = [(p, a.to_dict()) for p, a in game.log]
    with recording_sizes() as drawn:
        png = render_review(game.config.to_dict(), game.seed, log, data, "p0", NAMES, None, lang=lang, count=count)
    return Image.open(io.BytesIO(png)), drawn


@pytest.mark.parametrize(("kind", "players", "seed"), [("queendomino", 2, 11), ("royal-wedding", 5, 11)])
@pytest.mark.parametrize("lang", ["en", "cs"])
def test_every_kind_of_decision_is_drawn_780_wide_and_readable_on_a_phone(kind, players, seed, lang):
    fonts.set_font_loader(None)
    game, review = reviewed(kind, players, seed)
    data = one_of_each_kind(review)
    kinds = {i["kind"] for i in data["items"]}
    assert {"place", "claim", "tax", "build"} <= kinds | {"first_claim"} or len(kinds) >= 3, kinds
    image, drawn = draw(game, data, lang, count=len(data["items"]))
    assert image.width == WIDTH == PHONE
    size, words = min((s, t) for t, s in drawn)
    assert size * PHONE / image.width >= 12, f"{words!r} is drawn at {size} px on a phone"
    texts = [t for t, _ in drawn]
    rows = len(data["items"])
    # Each row: its two sides by their titles (colour is never the only mark), in the reader's language.
    assert texts.count(translate(lang, M.PIC_REVIEW_YOURS)) == rows
    assert texts.count(translate(lang, M.PIC_REVIEW_BETTER)) == rows
    if lang != "en":
        assert "Your move" not in texts


def test_the_picture_shows_the_costliest_decisions_first_and_as_many_as_asked():
    game, review = reviewed("kingdomino", 2, 7)
    worst = review.worst("p0", 3)
    assert len(worst) == 3
    one, _ = draw(game, review.to_dict(), "en", count=1)
    three, drawn = draw(game, review.to_dict(), "en", count=3)
    assert three.height > one.height
    heads = [t for t, _ in drawn if t[:2] in ("1.", "2.", "3.")]
    assert heads == [f"{n}. Round {item.round}" if item.round else f"{n}. Set-up" for n, item in enumerate(worst, 1)]


def test_a_player_without_a_costly_decision_is_told_so():
    game, review = reviewed("kingdomino", 2, 7)
    image, drawn = draw(game, {"items": [], "decisions": review.decisions}, "es", count=3)
    assert translate("es", M.PIC_REVIEW_NONE) in [t for t, _ in drawn]
    assert image.width == WIDTH and image.height < 200


def test_moves_in_words_name_their_cells_dominoes_and_buildings():
    game, review = reviewed("queendomino", 2, 11)
    seen = set()
    for item in review.items:
        position = Game.replay(game.config, game.seed, game.log[: item.index])
        for action in (item.played, item.better):
            words = action_words(position, action, "en")
            seen.add(type(action))
            if isinstance(action, Place):
                assert words.startswith(f"domino {int(position.decision().domino[1:])} on ")
            elif isinstance(action, Claim):
                assert words == f"claim domino {int(action.domino[1:])}"
            elif isinstance(action, Tax):
                assert "knight" in words
            elif isinstance(action, Build | BribeDragon):
                assert words.split()[-1] != "?"  # a building's name
            else:
                assert isinstance(action, Skip) and words.startswith("no ")
            assert action_words(position, action, "cs") != words or words.startswith(("no ",))
    assert {Place, Claim, Tax, Build} <= seen
