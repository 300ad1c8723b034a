"""A test-only extension that exercises the fake Discord through the real KingdominoBot (`/harness ...`)."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw

COLOURS = ["red", "green", "blue", "yellow", "pink", "orange", "purple", "white", "black", "grey"]


def board_png(width: int, height: int) -> io.BytesIO:
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width // 2, height // 2), fill="green")
    draw.rectangle((width // 2, height // 2, width - 1, height - 1), fill="blue")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    buffer.seek(0)
    return buffer


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"harness:counter:(?P<count>\d+)"):
    """A button whose state lives in its custom_id, so it keeps working after the bot restarts."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {count}", style=discord.ButtonStyle.primary, custom_id=f"harness:counter:{count}"
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.count + 1))
        await interaction.response.edit_message(content=f"Count: {self.count + 1} ({interaction.user.name})", view=view)


class ColourView(discord.ui.View):
    def __init__(self, count: int) -> None:
        super().__init__(timeout=60)
        names = [f"{COLOURS[i % len(COLOURS)]}-{i}" if i >= len(COLOURS) else COLOURS[i] for i in range(count)]
        self.picker.options = [discord.SelectOption(label=n.title(), value=n) for n in names]

    @discord.ui.select(placeholder="Pick colours", custom_id="harness:colours", min_values=1, max_values=2)
    async def picker(self, interaction: discord.Interaction, select: discord.ui.Select[ColourView]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} picked {' and '.join(select.values)}")


class KingdomModal(discord.ui.Modal, title="Name your kingdom"):
    kingdom = discord.ui.TextInput(label="Kingdom name", custom_id="harness:kingdom", max_length=30)
    motto = discord.ui.TextInput(label="Motto", style=discord.TextStyle.paragraph, required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Long live {self.kingdom.value}! {self.motto.value}".strip())


class HarnessCog(commands.Cog):
    harness = app_commands.Group(name="harness", description="Test-only commands of the e2e harness")
    board = app_commands.Group(name="board", description="Board pictures", parent=harness)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.gate = asyncio.Event()  # /harness wait answers once a test sets it
        self.launched: str | None = None  # the Activity instance /harness activity launched

    @harness.command(name="ping", description="Reply with pong")
    async def ping(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pong, {interaction.user.name}")

    @harness.command(name="activity", description="Launch the app's Activity in this channel")
    async def activity(self, interaction: discord.Interaction) -> None:
        answer = await interaction.response.launch_activity()
        self.launched = answer.resource.id if answer.resource is not None else None  # what discord.py read back

    @harness.command(name="options", description="Echo typed options")
    @app_commands.describe(players="How many players", colour="Your colour", opponent="Who you play against")
    async def options(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 4],
        colour: Literal["red", "green", "blue"],
        opponent: discord.Member,
        fast: bool = False,
        where: discord.TextChannel | None = None,
        ratio: float = 1.0,
    ) -> None:
        place = where.name if where else "-"
        await interaction.response.send_message(
            f"players={players!r} colour={colour} opponent={opponent.name}:{type(opponent).__name__} "
            f"fast={fast!r} where={place} ratio={ratio!r}"
        )

    @board.command(name="show", description="Reply with a PNG board")
    async def board_show(self, interaction: discord.Interaction, size: app_commands.Range[int, 8, 64] = 32) -> None:
        embed = discord.Embed(title="Board", description=f"{size * 4}x{size * 2}")
        embed.set_image(url="attachment://board.png")
        await interaction.response.send_message(
            embed=embed, file=discord.File(board_png(size * 4, size * 2), "board.png")
        )

    @harness.command(name="slow", description="Think, then follow up twice")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("a secret afterthought", ephemeral=True)

    @harness.command(name="secret", description="An ephemeral reply")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"only you see this, {interaction.user.name}", ephemeral=True)

    @harness.command(name="pick", description="Autocomplete a colour")
    async def pick(self, interaction: discord.Interaction, colour: str) -> None:
        await interaction.response.send_message(f"you picked {colour}")

    @pick.autocomplete("colour")
    async def pick_colour(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c.title(), value=c) for c in COLOURS if current.lower() in c]

    @harness.command(name="counter", description="A button that survives restarts")
    async def counter(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        await interaction.response.send_message("Count: 0", view=view)

    @harness.command(name="colours", description="A select menu with `count` options")
    async def colours(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 30] = 5) -> None:
        await interaction.response.send_message("Choose up to two colours", view=ColourView(count))

    @harness.command(name="long", description="Reply with `length` characters")
    async def long(self, interaction: discord.Interaction, length: int = 2001) -> None:
        await interaction.response.send_message("x" * length)

    @harness.command(name="name", description="Open a modal")
    async def name(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(KingdomModal())

    @harness.command(name="post", description="Post, edit, fetch and thread a channel message")
    async def post(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        message = await channel.send("a board", file=discord.File(board_png(40, 20), "board.png"))
        await message.edit(content="an updated board")
        fetched = await channel.fetch_message(message.id)
        thread = await fetched.create_thread(name="game-1")
        await thread.send(f"welcome, {interaction.user.mention}")
        await thread.add_user(interaction.user)
        await interaction.followup.send(f"posted {fetched.content!r} with {len(fetched.attachments)} file(s)")

    @harness.command(name="edits", description="Edit and delete the reply and follow-ups")
    async def edits(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reply v1")
        await interaction.edit_original_response(content="reply v2")
        followup = await interaction.followup.send("follow-up v1", wait=True)
        await followup.edit(content="follow-up v2", attachments=[discord.File(board_png(8, 8), "small.png")])
        doomed = await interaction.followup.send("short-lived", wait=True)
        await doomed.delete()
        original = await interaction.original_response()
        await interaction.followup.send(f"the reply says {original.content!r}")
        await interaction.delete_original_response()

    @harness.command(name="wait", description="Answer when the test opens the gate")
    async def wait(self, interaction: discord.Interaction) -> None:
        await self.gate.wait()
        await interaction.response.send_message("finally")

    @harness.command(name="ignore", description="Never answer")
    async def ignore(self, interaction: discord.Interaction) -> None:
        return None

    @app_commands.command(name="moderate", description="For people who can manage channels")
    @app_commands.default_permissions(manage_channels=True)
    async def moderate(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"manage_channels={interaction.permissions.manage_channels} "
            f"bot_attach_files={interaction.app_permissions.attach_files}",
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(CounterButton)
    await bot.add_cog(HarnessCog(bot))
