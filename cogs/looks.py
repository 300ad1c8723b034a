"""The private looks at a game (the table, one kingdom, the scores, the dominoes to come, the history, the replay and
the chart), shared by the `/look` commands and the table's look buttons. It builds no view and imports no cog
module that builds one, so both can import it."""

from __future__ import annotations

import asyncio
import io

import discord

from db.models import GameRecord
from engine import Game, action_from_dict
from i18n import messages as M
from i18n import translate, translate_plural
from render import render_kingdom, render_remaining, render_table
from render.alt import kingdom_alt_text, kingdom_text, table_alt_text

from .common import UserError, breakdown_text, clip, economy_line, event_words, lang_of, safe, service_of
from .service import describe, names_and_colours


async def send_look(
    interaction: discord.Interaction,
    rec: GameRecord,
    what: str,
    *,
    viewer: int,
    player: str | None = None,
    as_text: bool = False,
) -> None:
    """Answer a look privately (the interaction is already deferred)."""
    game = rec.game
    if game is None:
        raise UserError(M.NOT_STARTED_LOOK)
    names, colours = names_and_colours(rec)
    service = service_of(interaction)
    lang = lang_of(interaction)  # a look is private: the viewer's language
    if what == "table":
        d = game.decision()
        png = await service.picture(rec.id, render_table, game, names, colours, d.player if d else None, lang=lang)
        alt = describe(table_alt_text, game, names, lang=lang)
        if png is None:
            await interaction.followup.send(clip(translate(lang, M.TABLE_NOT_DRAWN, alt=alt), 2000), ephemeral=True)
            return
        await interaction.followup.send(
            translate(lang, M.TABLE_NOW),
            file=discord.File(io.BytesIO(png), "table.png", description=alt or None),
            ephemeral=True,
        )
        return
    if what in ("replay", "chart"):
        files = await service.story_files(rec, game, replay=what == "replay", chart=what == "chart", lang=lang)
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
        png = await service.picture(rec.id, render_kingdom, game, index, names, colours, lang=lang)
        alt = describe(kingdom_alt_text, game, index, names, lang=lang)
        files = [discord.File(io.BytesIO(png), "kingdom.png", description=alt or None)] if png else []
        await interaction.followup.send(
            clip(translate_plural(lang, *M.KINGDOM_HEAD, abs(total), owners=owners), 2000), files=files, ephemeral=True
        )
        return
    if what == "scores":
        title = translate(lang, M.FINAL_SCORES_TITLE if game.is_over else M.SCORES_SO_FAR_TITLE)
        text = title + "\n" + breakdown_text(game, rec.seats, lang)
        if economy := economy_line(game, rec.seats, lang):  # coins, knights, towers: here, not in every table post
            text += "\n" + economy
        await interaction.followup.send(clip(text, 2000), ephemeral=True)
        return
    if what == "remaining":
        png = await service.picture(rec.id, render_remaining, game, lang=lang)
        unseen = len(game.unseen_dominoes())
        total = unseen + len(game.revealed)
        text = translate_plural(lang, *(M.UNSEEN_OF_OVER if game.is_over else M.UNSEEN_OF), unseen, total=total)
        files = [discord.File(io.BytesIO(png), "remaining.png", description=text)] if png else []
        await interaction.followup.send(text, files=files, ephemeral=True)
        return
    if what == "history":
        actions = await service.store.get_actions(rec.id, include_undone=False)
        lines = await asyncio.to_thread(history_lines, game, [a.action for a in actions], rec.seats, lang)
        text = "\n".join(lines[-30:]) or translate(lang, M.NO_MOVE_YET)
        await interaction.followup.send(clip(translate(lang, M.LAST_MOVES) + "\n" + text, 2000), ephemeral=True)
        return
    raise UserError(M.UNKNOWN_VIEW, view=repr(what))


def history_lines(game: Game, actions: list[dict], seats, lang: str = "en") -> list[str]:
    """The game told move by move, in the table's words: the game is replayed from its seed and its log."""
    replay = Game.new(game.config, game.seed)
    lines = []
    for n, data in enumerate(actions, 1):
        action = action_from_dict(data)
        events = replay.apply(action)
        said = [line for e in events if (line := event_words(e, replay, seats, lang)) is not None]
        if said:
            lines.append(f"{n}. " + " ".join(said))
    return lines
