"""What the bot keeps about a person, and forgetting them (Discord's Developer Policy; PRIVACY.md says what is kept,
why and for how long): `/settings my-data` sends the person a private file of everything the store holds about them
(`GameStore.person_data`: theirs and nobody else's); `/settings forget-me` asks first, and its button (`ForgetButton`,
for that person only) erases it through the game service (`GameService.forget_person`)."""

from __future__ import annotations

import io
import json
from datetime import datetime
from typing import Any

import discord

from db.models import ActionRecord, NotificationRecord, PersonData, PersonSeat
from i18n import messages as M
from i18n import translate, translate_plural

from .context import Context, context_of
from .views import guarded
from .words import UserError

FILE_NAME = "my-data.json"


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _settings(data: PersonData) -> dict[str, Any] | None:
    s = data.settings
    if s is None:
        return None
    return {"notify": s.notify, "timezone": s.timezone, "quiet_start": s.quiet_start, "quiet_end": s.quiet_end,
            "language": s.language}  # fmt: skip


def _game(g: PersonSeat, hosted: set[int]) -> dict[str, Any]:
    seat = {"order": g.seat.seat_order, "player_id": g.seat.player_id, "name": g.seat.display_name,
            "colour": g.seat.colour}  # fmt: skip
    result = None
    if g.result is not None:
        result = {"score": g.result.score, "won": g.result.won, "team": g.result.team, "breakdown": g.result.breakdown}
    return {
        "game_id": g.game_id,
        "guild_id": None if g.guild_id is None else str(g.guild_id),
        "channel_id": str(g.channel_id),
        "kind": g.kind,
        "status": str(g.status),
        "created_at": _when(g.created_at),
        "ended_at": _when(g.ended_at),
        "host": g.game_id in hosted,
        "seat": seat,
        "result": result,
    }


def _move(a: ActionRecord) -> dict[str, Any]:
    return {"game_id": a.game_id, "seq": a.seq, "player_id": a.player_id,
            "user_id": None if a.user_id is None else str(a.user_id), "action": a.action, "at": _when(a.created_at),
            "undone": a.undone}  # fmt: skip


def _notification(n: NotificationRecord) -> dict[str, Any]:
    message = None if n.message is None else {"channel_id": str(n.message[0]), "message_id": str(n.message[1])}
    return {"game_id": n.game_id, "turn_key": n.turn_key, "kind": n.kind, "claimed_at": _when(n.claimed_at),
            "sent_at": _when(n.sent_at), "direct_message": message}  # fmt: skip


def my_data(data: PersonData) -> dict[str, Any]:
    """The person's data as plain JSON values (ids as text: they are too long for a JavaScript number)."""
    hosted = set(data.hosted)
    return {
        "user_id": str(data.user_id),
        "settings": _settings(data),
        "games": [_game(g, hosted) for g in data.seats],
        "hosted_games": list(data.hosted),
        "moves": [_move(a) for a in data.actions],
        "notifications": [_notification(n) for n in data.notifications],
    }


def my_data_file(data: PersonData) -> bytes:
    return json.dumps(my_data(data), ensure_ascii=False, indent=2).encode()


async def send_my_data(ctx: Context) -> None:
    """The person's data, privately, as a file (or that there is none)."""
    interaction = ctx.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await ctx.store.person_data(ctx.user_id)
    if data.is_empty:
        await interaction.followup.send(translate(ctx.lang, M.MY_DATA_NOTHING), ephemeral=True)
        return
    file = discord.File(io.BytesIO(my_data_file(data)), filename=FILE_NAME)
    await interaction.followup.send(translate(ctx.lang, M.MY_DATA_INTRO), file=file, ephemeral=True)


def forget_button(user_id: int, *, label: str) -> discord.ui.Button:
    return discord.ui.Button(label=label, emoji="🗑️", style=discord.ButtonStyle.danger, custom_id=f"kd:forget:{user_id}")


async def ask_forget(ctx: Context) -> None:
    """What forgetting does, and the button that does it (for this person only)."""
    view = discord.ui.View(timeout=None)
    view.add_item(forget_button(ctx.user_id, label=translate(ctx.lang, M.FORGET_BUTTON)))
    view.stop()  # discord.py keeps no view: the click is found again from its custom id (ForgetButton)
    await ctx.interaction.response.send_message(translate(ctx.lang, M.FORGET_ASK), view=view, ephemeral=True)


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kd:forget:(?P<uid>\d+)"):
    """Erases what the bot keeps about the person who asked (`/settings forget-me`), and only them."""

    def __init__(self, uid: int, *, label: str = "Erase my data") -> None:
        super().__init__(forget_button(uid, label=label))
        self.uid = uid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["uid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context_of(interaction)

        async def work():
            if ctx.user_id != self.uid:
                raise UserError(M.FORGET_NOT_YOURS)
            await interaction.response.defer()
            games = await ctx.service.forget_person(self.uid)
            done = translate_plural(ctx.lang, *M.FORGET_DONE, games)
            await interaction.edit_original_response(content=done, view=None)

        await guarded(ctx, work())
