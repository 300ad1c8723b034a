"""The private looks at a game (the table, one kingdom, the scores, the dominoes to come, the history, the replay and
the chart), shared by the `/look` commands and the table's look buttons. It builds no view and imports no cog
module that builds one, so both can import it."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Iterator

import discord

from db.models import GameRecord
from engine import Game, action_from_dict
from i18n import messages as M
from i18n import translate, translate_plural
from render import render_kingdom, render_remaining, render_table_pictures
from render.alt import kingdom_alt_text, kingdom_text, kingdoms_alt_text, table_alt_text

from . import pictures
from .common import UserError, breakdown_text, clip, event_words, lang_of, safe, service_of
from .service import describe, names_and_colours

# What each look costs: replays and charts are heavy pictures; the other pictures, and the history (the game played
# again), are light ones; the scores are words. Each is limited per member and per server (cogs/pictures.py).
LOOK_PRIORITIES = {
    "replay": pictures.Priority.HEAVY,
    "chart": pictures.Priority.HEAVY,
    "table": pictures.Priority.LOOK,
    "kingdom": pictures.Priority.LOOK,
    "remaining": pictures.Priority.LOOK,
    "history": pictures.Priority.LOOK,
}


@contextlib.contextmanager
def look_place(interaction: discord.Interaction, what: str) -> Iterator[None]:
    """Hold the asker's place for this look (take it before reading the game, so that a refusal costs nothing); a
    UserError "busy, try again in a minute" when the member, the server or the bot has too many looks at work."""
    asker = pictures.Asker(interaction.guild_id, interaction.user.id)
    try:
        with pictures.admitted(LOOK_PRIORITIES.get(what), asker):
            yield
    except pictures.PicturesBusy:
        raise UserError(M.PICTURES_BUSY) from None


async def send_look(
    interaction: discord.Interaction,
    rec: GameRecord,
    what: str,
    *,
    viewer: int,
    player: str | None = None,
    as_text: bool = False,
    page: int = 1,
    edit: bool = False,
) -> None:
    """Answer a look privately (the interaction is already deferred). The history shows page `page` (1: the
    newest moves), with buttons to the older and newer pages; `edit` puts it in place of the message clicked. Its
    pictures wait behind the games' own and are limited per member and per server: over the limit, the look answers
    that the bot is busy."""
    with look_place(interaction, what):
        await _send_look(interaction, rec, what, viewer=viewer, player=player, as_text=as_text, page=page, edit=edit)


async def _send_look(
    interaction: discord.Interaction,
    rec: GameRecord,
    what: str,
    *,
    viewer: int,
    player: str | None = None,
    as_text: bool = False,
    page: int = 1,
    edit: bool = False,
) -> None:
    game = rec.game
    if game is None:
        raise UserError(M.NOT_STARTED_LOOK)
    names, colours = names_and_colours(rec)
    service = service_of(interaction)
    lang = lang_of(interaction)  # a look is private: the viewer's language
    asker = pictures.Asker(interaction.guild_id, interaction.user.id)
    look = {"priority": pictures.Priority.LOOK, "asker": asker}
    if what == "table":
        d = game.decision()
        # The same pictures as the channel's table: a Royal Wedding table is two (render.table.splits).
        pngs = await service.picture(
            rec.id, render_table_pictures, game, names, colours, d.player if d else None, lang=lang, **look
        )
        alt = describe(table_alt_text, game, names, lang=lang)
        if not pngs:
            await interaction.followup.send(clip(translate(lang, M.TABLE_NOT_DRAWN, alt=alt), 2000), ephemeral=True)
            return
        alts = (alt, describe(kingdoms_alt_text, game, names, lang=lang))
        files = [
            discord.File(io.BytesIO(png), name, description=text or None)
            for png, name, text in zip(pngs, ("table.png", "kingdoms.png"), alts, strict=False)
        ]
        await interaction.followup.send(translate(lang, M.TABLE_NOW), files=files, ephemeral=True)
        return
    if what in ("replay", "chart"):
        files = await service.story_files(
            rec, game, replay=what == "replay", chart=what == "chart", lang=lang, asker=asker
        )
        wanted = [f for f in files if f.filename.endswith(".gif" if what == "replay" else ".png")]
        if not wanted:
            raise UserError(M.PICTURE_NOT_MADE)
        text = translate(lang, M.REPLAY_CAPTION if what == "replay" else M.CHART_CAPTION)
        await interaction.followup.send(text, file=wanted[0], ephemeral=True)
        return
    if what == "kingdom":
        who = player or str(viewer)
        try:
            index = game.kingdom_of(who)
        except KeyError:
            if player is not None:
                raise UserError(M.NOT_A_PLAYER) from None
            raise UserError(M.NOT_PLAYING_LOOK) from None
        k = game.kingdoms[index]
        owners = " & ".join(safe(names.get(p, p)) for p in k.players)
        total = game.scores()[index].total
        grid = kingdom_text(game, index, lang=lang)
        if as_text:  # for screen readers: the grid in words and letters, no picture
            head = translate_plural(lang, *M.KINGDOM_TITLE, abs(total), owners=owners)
            await interaction.followup.send(clip(f"{head}\n```\n{grid}\n```", 2000), ephemeral=True)
            return
        png = await service.picture(rec.id, render_kingdom, game, index, names, colours, lang=lang, **look)
        alt = describe(kingdom_alt_text, game, index, names, lang=lang)
        files = [discord.File(io.BytesIO(png), "kingdom.png", description=alt or None)] if png else []
        await interaction.followup.send(
            clip(translate_plural(lang, *M.KINGDOM_HEAD, abs(total), owners=owners), 2000), files=files, ephemeral=True
        )
        return
    if what == "scores":
        title = translate(lang, M.FINAL_SCORES_TITLE if game.is_over else M.SCORES_SO_FAR_TITLE)
        text = title + "\n" + breakdown_text(game, rec.seats, lang)
        await interaction.followup.send(clip(text, 2000), ephemeral=True)
        return
    if what == "remaining":
        png = await service.picture(rec.id, render_remaining, game, lang=lang, **look)
        unseen = len(game.unseen_dominoes())
        total = unseen + len(game.revealed)
        text = translate_plural(lang, *(M.UNSEEN_OF_OVER if game.is_over else M.UNSEEN_OF), unseen, total=total)
        files = [discord.File(io.BytesIO(png), "remaining.png", description=text)] if png else []
        await interaction.followup.send(text, files=files, ephemeral=True)
        return
    if what == "history":
        actions = await service.store.get_actions(rec.id, include_undone=False)
        lines = await asyncio.to_thread(history_lines, game, [a.action for a in actions], rec.seats, lang)
        text, page, pages = history_page(lines, page, lang)
        view = service.history_view(rec.id, page, pages, lang) if pages > 1 else None
        if edit:
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.followup.send(text, ephemeral=True, **({"view": view} if view else {}))
        return
    raise UserError(M.UNKNOWN_VIEW, view=repr(what))


HISTORY_LIMIT = 2000  # a message's length
HEAD_ROOM = 120  # for the page's heading


def history_pages(lines: list[str], limit: int = HISTORY_LIMIT - HEAD_ROOM) -> list[tuple[int, int]]:
    """The history cut into pages from the newest move: (first, end) line indices of each page, page 1 the newest.
    Each page holds as many whole lines as fit in `limit` characters (at least one)."""
    pages: list[tuple[int, int]] = []
    end = len(lines)
    while end > 0:
        first, size = end, 0
        while first > 0 and (first == end or size + len(lines[first - 1]) + 1 <= limit):
            first -= 1
            size += len(lines[first]) + 1
        pages.append((first, end))
        end = first
    return pages


def history_page(lines: list[str], page: int, lang: str = "en") -> tuple[str, int, int]:
    """Page `page` of the history (1: the newest moves; beyond the last: the last), in the order they were played,
    under a heading saying which moves of how many; with the page shown and the number of pages."""
    pages = history_pages(lines)
    if not pages:
        return translate(lang, M.LAST_MOVES) + "\n" + translate(lang, M.NO_MOVE_YET), 1, 1
    page = min(max(page, 1), len(pages))
    first, end = pages[page - 1]
    head = translate(lang, M.HISTORY_HEAD, first=first + 1, last=end, total=len(lines), page=page, pages=len(pages))
    return clip(head + "\n" + "\n".join(lines[first:end]), HISTORY_LIMIT), page, len(pages)


def history_lines(game: Game, actions: list[dict], seats, lang: str = "en") -> list[str]:
    """The game told move by move, in the table's words, numbered without gaps (a step that says nothing, like a
    skip, is no move of its own): the game is replayed from its seed and its log (the undone actions left out)."""
    replay = Game.new(game.config, game.seed)
    lines = []
    for data in actions:
        action = action_from_dict(data)
        events = replay.apply(action)
        said = [line for e in events if (line := event_words(e, replay, seats, lang)) is not None]
        if said:
            lines.append(f"{len(lines) + 1}. " + " ".join(said))
    return lines
