"""The live web board: an aiohttp server in the bot's own process over the same game service, store and engine.

web.hub      who watches which game; the store wrapper that tells them of every change
web.app      the server: the page, the game as JSON, live updates (Server-Sent Events), moves, health, metrics
web.view     the engine's state as the board draws it, for one viewer, in their language
web.auth     signed session cookies and links: who a request acts for
web.local    the bot without Discord (no token): a null poster and the timers
web.static   the page: plain JavaScript and SVG, no framework, nothing from another site
"""
