"""Reading games: the store's records, with the refusals a person is shown when there is no game or it cannot be
read. Every front end reads through these (`GameService.games`), and the commit path loads with them."""

from __future__ import annotations

import logging

from db.errors import CorruptGame, StoreError
from db.models import GameRecord, GameStatus
from db.store import GameStore
from i18n import messages as M

from .decide import NO_GAME, STALE, UNREADABLE, NoGameHere
from .words import UserError, clip

log = logging.getLogger(__name__)


class Games:
    """Loads games from the store; remembers each game's channel (it never changes)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._channels: dict[int, int] = {}  # game id -> its channel id
        self._corrupt_logged: set[int] = set()

    async def channel_of(self, game_id: int) -> int:
        """The channel of a game: read once, then remembered, so a move reads its game once."""
        channel_id = self._channels.get(game_id)
        if channel_id is None:
            channel_id = self._channels[game_id] = (await self.get(game_id)).channel_id
        return channel_id

    def forget(self, game_id: int) -> None:
        """A deleted game's channel is no longer remembered."""
        self._channels.pop(game_id, None)

    async def get(self, game_id: int) -> GameRecord:
        try:
            return await self.store.get_game(game_id)
        except CorruptGame as error:
            self._log_corrupt(game_id, error)
            raise UserError(UNREADABLE, error=clip(str(error), 300)) from None
        except StoreError as error:
            raise UserError(str(error)) from None

    def _log_corrupt(self, key: int, error: Exception) -> None:
        """A damaged game is logged as an error once (then briefly): every command of its channel meets it."""
        if key in self._corrupt_logged:
            log.info("Game %s still cannot be read", key)
            return
        self._corrupt_logged.add(key)
        log.error("Game %s cannot be read: %s", key, error)

    async def at_version(self, game_id: int, version: int) -> GameRecord:
        """The game as it was when a control was drawn; refused as out of date if anything changed since."""
        rec = await self.get(game_id)
        if rec.version != version:
            raise UserError(STALE)
        return rec

    async def active(self, channel_id: int, *, playing: bool = False) -> GameRecord:
        try:
            rec = await self.store.get_active_game(channel_id)
        except CorruptGame as error:
            self._log_corrupt(error.game_id, error)
            raise UserError(UNREADABLE, error=clip(str(error), 300)) from None
        if rec is None:
            raise NoGameHere(NO_GAME)
        if playing and rec.status != GameStatus.PLAYING:
            raise UserError(M.NOT_STARTED_YET)
        return rec

    async def latest(self, channel_id: int) -> GameRecord:
        """The active game of the channel, else its most recent finished one (for looking at the end)."""
        summary = await self.store.get_active_summary(channel_id)
        if summary is not None:
            return await self.get(summary.id)
        games = await self.store.list_games(channel_id=channel_id, limit=1)
        if not games:
            raise NoGameHere(NO_GAME)
        return await self.get(games[0].id)
