"""The bot's Discord side: its extensions (each a cog with `async def setup(bot)`), the game service and its rooms."""

# The extensions the bot loads at start, in order (bot.py), and whose slash commands the catalogues hold
# (`python -m i18n extract` loads them into a command tree of its own: it needs no bot).
EXTENSIONS: tuple[str, ...] = (
    "cogs.lobby",
    "cogs.play",
    "cogs.look",
    "cogs.settings",
    "cogs.admin",
    "cogs.board",
    "cogs.upkeep",
)
