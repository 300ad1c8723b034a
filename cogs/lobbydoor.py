"""The lobby's door of the game service: every front end's lobby operations (open, join, leave, computer players
and their level, swaps, the host, start, cancel), each under the game's hold, by the lobby's rules
(`cogs.lobbyrules`), saved through the commit path; the presenter hears each change and shows it (Discord's lobby
message), as the web boards' hub does. `GameService` is this door and the moves' one."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from db.errors import CorruptGame, SeatConflict, StaleVersion, WrongStatus
from db.models import GameRecord, GameStatus, Seat, new_former_player_id
from db.store import GameStore
from i18n import messages as M
from i18n import translate, translate_plural

from . import lobbyrules as rules
from .decide import DEADLINE_LEVEL, STALE, Result, game_language
from .words import UserError, safe

if TYPE_CHECKING:
    from .commit import Commits
    from .games import Games
    from .presenter import Presenter

log = logging.getLogger(__name__)

Words = Callable[[str], str]  # a sentence in the language asked for


@dataclass(frozen=True, slots=True)
class Person:
    """Who acts at the lobby's door: their user id, the name a seat of theirs gets, and whether they may manage the
    channel (cancel another's table)."""

    user_id: int
    name: str = ""
    manages: bool = False

    @property
    def player(self) -> str:
        return str(self.user_id)


@dataclass
class LobbyChange:
    """What a lobby operation did: the game as it is now, a sentence for the person who acted (in their language),
    whether the table is gone (`closed`), and the start's result (`started`)."""

    record: GameRecord
    said: Words
    closed: bool = False
    started: Result | None = None


def mention(rec: GameRecord, user_id: int) -> str:
    """How Discord's words name a person: a mention (the messages say whom they ping)."""
    return f"<@{user_id}>"


class LobbyDoor:
    """The lobby's operations of the game service (mixed into `GameService`, which provides what is declared here)."""

    games: Games
    commits: Commits
    presenter: Presenter
    naming: rules.Naming
    clock: Callable[[], datetime]

    @property
    def store(self) -> GameStore:
        return self.games.store

    def new_seed(self) -> int:
        raise NotImplementedError

    async def start(self, rec: GameRecord) -> Result:
        raise NotImplementedError

    async def end(
        self, game_id: int, *, reason: str, by: int | None = None, expected_version: int | None = None
    ) -> None:
        raise NotImplementedError

    # -- the lobby --------------------------------------------------------------------------------------------------
    async def check_limits(self, guild_id: int | None, user_id: int, *, hosting: bool) -> None:
        """The server's limits per member: open lobbies hosted, and games sat at (lobby or in play)."""
        if guild_id is None:
            return
        limits = await self.store.get_guild_settings(guild_id)
        if hosting:
            hosted = await self.store.count_lobbies_hosted(guild_id, user_id)
            if hosted >= limits.max_lobbies_per_member:
                limit = limits.max_lobbies_per_member
                raise UserError(lambda lang: translate_plural(lang, *M.LIMIT_HOSTED, hosted, limit=limit))
        playing = await self.store.count_active_games_of(guild_id, user_id)
        if playing >= limits.max_games_per_member:
            limit = limits.max_games_per_member
            raise UserError(lambda lang: translate_plural(lang, *M.LIMIT_PLAYING, playing, limit=limit))

    async def open_table(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        host: Person,
        kind: str,
        options: dict,
        seats: Sequence[Seat],
        reminder_hours: float | None = None,
        deadline_hours: float | None = None,
        note: str = "",
    ) -> GameRecord:
        """Open a lobby in the channel (the host's limits checked) and show it (`Tables.post_lobby`). Raises
        `ActiveGameExists` when the channel has a game; a lobby that cannot be shown is cancelled again (it would
        block its channel unseen)."""
        await self.check_limits(guild_id, host.user_id, hosting=True)
        rec = await self.commits.open_lobby(
            channel_id=channel_id,
            guild_id=guild_id,
            host_user_id=host.user_id,
            kind=kind,
            config=options,
            seats=list(seats),
            seed=self.new_seed(),
            reminder_hours=reminder_hours,
            deadline_hours=deadline_hours,
        )
        async with self.commits.hold(rec.id):
            try:
                await self.presenter.post_lobby(rec, note)
            except BaseException:
                await self.commits.cancel(rec.id)
                raise
            return await self.games.get(rec.id)

    async def _lobby(
        self,
        game_id: int,
        operation: Callable[[GameRecord], Awaitable[LobbyChange]],
        expected_version: int | None = None,
        *,
        in_play: bool = False,
    ) -> LobbyChange:
        """Run a lobby operation (`operation(rec) -> LobbyChange`) under the game's hold, on its newest record (or
        refused as out of date when `expected_version` is not it: as closed when it is no longer a lobby, unless
        the operation applies to a game in play too); then wait until the change is shown."""
        async with self.commits.hold(game_id):
            rec = await self.games.get(game_id)
            if expected_version is not None and rec.version != expected_version:
                closed = rec.status != GameStatus.LOBBY and not (in_play and rec.status == GameStatus.PLAYING)
                raise UserError(M.LOBBY_CLOSED if closed else STALE)
            try:
                change = await operation(rec)
            except (StaleVersion, SeatConflict, WrongStatus):
                raise UserError(STALE) from None
        await self.presenter.shown(game_id)
        return change

    async def join(self, game_id: int, person: Person, *, expected_version: int | None = None) -> LobbyChange:
        """The person takes the next free seat."""

        async def join(rec: GameRecord) -> LobbyChange:
            seat = rules.joining(rec, person.user_id, person.name)
            await self.check_limits(rec.guild_id, person.user_id, hosting=False)
            rec = await self.commits.join(rec, seat)
            return LobbyChange(rec, lambda lang: translate(lang, M.JOINED))

        return await self._lobby(game_id, join, expected_version)

    async def leave(self, game_id: int, person: Person, *, expected_version: int | None = None) -> LobbyChange:
        """The person leaves their seat (the host's role goes to the next person; the last person closes the
        table)."""

        async def leave(rec: GameRecord) -> LobbyChange:
            leaving = rules.leaving(rec, person.user_id)
            if leaving.closes:
                await self.commits.cancel(rec.id, rec.version, by=person.user_id)
                rec = await self.games.get(rec.id)
                return LobbyChange(rec, lambda lang: translate(lang, M.LEFT_CLOSED), closed=True)
            rec = await self.commits.leave(rec, person.player, by=person.user_id)
            if leaving.new_host is None:
                return LobbyChange(rec, lambda lang: translate(lang, M.LEFT))
            rec = await self.commits.hand_host(rec, leaving.new_host, by=person.user_id)
            host = self.naming(rec, leaving.new_host)
            return LobbyChange(rec, lambda lang: translate(lang, M.LEFT_NEW_HOST, host=host))

        return await self._lobby(game_id, leave, expected_version)

    async def add_computer(
        self, game_id: int, by: int, level: str, *, expected_version: int | None = None
    ) -> LobbyChange:
        """The host seats a computer player of `level`."""

        async def add(rec: GameRecord) -> LobbyChange:
            rules.only_host(rec, by, M.ONLY_HOST_COMPUTERS, self.naming)
            seats, seat = rules.with_computer(rec, level)
            rec = await self.commits.reseat(rec, seats, by=by)
            name = safe(seat.display_name)
            return LobbyChange(rec, lambda lang: translate(lang, M.SOMEONE_JOINED, name=name))

        return await self._lobby(game_id, add, expected_version)

    async def remove_computer(
        self, game_id: int, by: int, player_id: str | None = None, *, expected_version: int | None = None
    ) -> LobbyChange:
        """The host takes a computer player away (`player_id`, or the last one seated)."""

        async def remove(rec: GameRecord) -> LobbyChange:
            rules.only_host(rec, by, M.ONLY_HOST_COMPUTERS, self.naming)
            seats, seat = rules.without_computer(rec, player_id)
            rec = await self.commits.reseat(rec, seats, by=by)
            name = safe(seat.display_name)
            return LobbyChange(rec, lambda lang: translate(lang, M.SOMEONE_LEFT, name=name))

        return await self._lobby(game_id, remove, expected_version)

    async def set_computer_level(
        self, game_id: int, by: int, player_id: str, level: str, *, expected_version: int | None = None
    ) -> LobbyChange:
        """The host changes how strong a seated computer player is."""

        async def set_level(rec: GameRecord) -> LobbyChange:
            rules.only_host(rec, by, M.ONLY_HOST_COMPUTERS, self.naming)
            seats, seat = rules.with_level(rec, player_id, level)
            rec = await self.commits.reseat(rec, seats, by=by)
            name = safe(seat.display_name)

            def said(lang: str) -> str:
                return translate(lang, M.COMPUTER_LEVEL_SET, name=name, level=translate(lang, M.LEVELS[level]))

            return LobbyChange(rec, said)

        return await self._lobby(game_id, set_level, expected_version)

    async def swap_seats(
        self, game_id: int, by: int, pair: tuple[str, ...], *, expected_version: int | None = None
    ) -> LobbyChange:
        """The host exchanges two seats (how teams of two are arranged: partners sit side by side)."""

        async def swap(rec: GameRecord) -> LobbyChange:
            rules.only_host(rec, by, M.ONLY_HOST_SEATS, self.naming)
            rules.seats_of(rec)
            rec = await self.commits.reseat(rec, rules.swapped(rec.seats, pair), by=by)
            a, b = (safe(next(s for s in rec.seats if s.player_id == p).display_name) for p in pair)
            return LobbyChange(rec, lambda lang: translate(lang, M.SWAPPED, first=a, second=b))

        return await self._lobby(game_id, swap, expected_version)

    async def hand_host(self, game_id: int, by: int, to: int, *, expected_version: int | None = None) -> LobbyChange:
        """The host hands their role to another seated person."""

        async def hand(rec: GameRecord) -> LobbyChange:
            rules.only_host(rec, by, M.ONLY_HOST_SEATS, self.naming)
            rec = await self.commits.hand_host(rec, rules.new_host(rec, to), by=by)
            host = self.naming(rec, to)
            return LobbyChange(rec, lambda lang: translate(lang, M.HOST_HANDED, host=host))

        return await self._lobby(game_id, hand, expected_version)

    async def start_table(self, game_id: int, by: int, *, expected_version: int | None = None) -> LobbyChange:
        """The seated host starts the game: the first table is posted."""

        async def start(rec: GameRecord) -> LobbyChange:
            rules.check_can_start(rec, by, self.naming)
            result = await self.start(rec)
            return LobbyChange(
                result.record,
                lambda lang: result.warning_in(lang) or translate(lang, M.GAME_STARTED),
                started=result,
            )

        return await self._lobby(game_id, start, expected_version)

    async def cancel_table(
        self, game_id: int, person: Person, *, expected_version: int | None = None, reason: str = "cancelled"
    ) -> LobbyChange:
        """The host (or a member who manages the channel) ends the game, in its lobby or in play; its computer
        players stop, the turn buttons of its direct messages go."""

        async def cancel(rec: GameRecord) -> LobbyChange:
            rules.may_cancel(rec, person.user_id, manages=person.manages)
            await self.end(rec.id, reason=reason, by=person.user_id, expected_version=rec.version)
            rec = await self.games.get(rec.id)
            return LobbyChange(rec, lambda lang: translate(lang, M.GAME_CANCELLED_PRIVATE), closed=True)

        return await self._lobby(game_id, cancel, expected_version, in_play=True)

    async def abandon_seat(self, game_id: int, person: Person, *, expected_version: int | None = None) -> LobbyChange:
        """A person leaves a game in play for good: a computer player (the deadline's level) takes their seat and the
        game goes on, the table says so; the host's role goes to the next person at the table. The last person to
        leave ends the game instead (abandoned): nobody would play it."""

        async def abandon(rec: GameRecord) -> LobbyChange:
            if rec.status != GameStatus.PLAYING or rec.game is None:
                raise UserError(M.NOT_PLAYED_ANY_MORE)
            seat = rec.seat_of(person.player)
            if seat is None or seat.is_computer:
                raise UserError(M.NO_SEAT)
            others = [s.user_id for s in rec.seats if not s.is_computer and s.user_id not in (None, person.user_id)]
            if not others:
                await self.end(rec.id, reason="abandoned", by=person.user_id, expected_version=rec.version)
                rec = await self.games.get(rec.id)
                return LobbyChange(rec, lambda lang: translate(lang, M.LEFT_GAME_ENDED), closed=True)
            lang = game_language(rec)
            number = 1 + max((int(s.player_id[4:]) for s in rec.seats if s.is_computer), default=0)
            bot = rules.bot_name(number, DEADLINE_LEVEL, lang)
            result = await self.commits.forget(
                rec, person.user_id, former_id=new_former_player_id(), level=DEADLINE_LEVEL, name=bot,
                host_after=others[0],
            )  # fmt: skip
            assert result is not None
            name = safe(seat.display_name)
            await self.after_move(result, mover=None, note=translate(lang, M.PLAYER_LEFT_GAME, name=name, bot=bot))
            return LobbyChange(result.record, lambda lang: translate(lang, M.YOU_LEFT_GAME, bot=bot))

        return await self._lobby(game_id, abandon, expected_version, in_play=True)

    async def after_move(self, result: Result, *, mover: str | None, note: str = "") -> None:
        raise NotImplementedError

    async def expire_lobby(self, game_id: int, version: int) -> None:
        """A lobby nobody used ends as expired (a full local board makes room), unless it changed since `version`
        (someone uses it: refused as out of date)."""
        async with self.commits.hold(game_id):
            try:
                await self.end(game_id, reason="expired", expected_version=version)
            except (StaleVersion, WrongStatus):
                raise UserError(STALE) from None

    async def close_unreadable(self, channel_id: int, person: Person) -> int | None:
        """`/game cancel` on a game whose stored data cannot be read: its host or a member who manages the channel
        closes it, which frees the channel; returns its id. None when the channel's game reads fine (the ordinary
        cancel applies) or there is none."""
        summary = await self.store.get_active_summary(channel_id)
        if summary is None:
            return None
        async with self.commits.hold(summary.id, channel_id=channel_id):
            try:
                await self.store.get_game(summary.id)
                return None
            except CorruptGame:
                pass
            if person.user_id != summary.host_user_id and not person.manages:
                raise UserError(M.UNREADABLE_ONLY_HOST)
            await self.end(summary.id, reason="unreadable", by=person.user_id)
        log.warning("Game %s could not be read and was closed by user %s", summary.id, person.user_id)
        return summary.id
