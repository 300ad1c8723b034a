"""Telling a person it is their turn (the turn's direct message, the channel ping, reminders), away from the game.

The service hands the notifier *who to tell about which turn of which game* (`TurnNotice`) once the game is saved
and its table posted. The notifier decides how (a direct message, a ping in the channel, nothing during the person's
quiet hours, not twice in a few minutes) and sends in its own tasks, outside every game lock: a slow or refused
direct message never holds a game, a move or a cancel.

Each notification is claimed in the store first (`claim_notification`), as a lease: a process that dies while
sending leaves it unsent, and the repair pass (`repair`) sends it again, once. The decisions taken under a game lock
(`table_ping`) make no Discord call and no store call.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal, Protocol
from zoneinfo import ZoneInfo

import discord

from db.errors import StaleVersion, StoreError
from db.models import GameRecord, GameStatus, TurnTimer, UserSettings
from db.store import GameStore
from engine import Game
from i18n import first_supported, translate
from i18n import messages as M

from .common import pings, strip_controls
from .controls import turn_view
from .decide import turn_key
from .tabletext import table_link
from .words import UserError, decision_words, game_name, mention

if TYPE_CHECKING:
    from .commit import Commits
    from .games import Games

log = logging.getLogger(__name__)

NoticeKind = Literal["turn", "reminder"]
PING_INTERVAL = timedelta(minutes=5)  # a person is pinged at most once in this time for the same turn of a game
LEASE_SECONDS = 120.0  # how long a process may take to send a notification before the repair pass sends it again
CONCURRENT_SENDS = 8
RETRY_DELAYS = (2.0, 8.0)  # our own retries of a direct message, after discord.py's (it waits out 429s itself)
UNKNOWN_CHANNEL = 10003
MAX_REMEMBERED = 10_000  # pings remembered per process (the oldest are forgotten first)


@dataclass(frozen=True, slots=True)
class TurnNotice:
    """Tell `user_id` about the turn `turn_key` of game `game_id`: the turn itself (its table was just posted) or a
    reminder (due at `due`, one per scheduled reminder)."""

    game_id: int
    turn_key: int
    user_id: int
    kind: NoticeKind = "turn"
    due: datetime | None = None

    @property
    def claim(self) -> str:
        """The store's name for this notification: once per game, turn and claim."""
        if self.kind == "turn" or self.due is None:
            return "turn"
        return f"reminder {self.due.isoformat(timespec='seconds')}"

    @classmethod
    def from_claim(cls, game_id: int, turn_key: int, user_id: int, claim: str) -> TurnNotice:
        if claim.startswith("reminder "):
            try:
                return cls(game_id, turn_key, user_id, "reminder", datetime.fromisoformat(claim.split(" ", 1)[1]))
            except ValueError:
                pass
        return cls(game_id, turn_key, user_id)


class Host(Protocol):
    """What the notifier needs from the game service."""

    bot: discord.Client
    store: GameStore
    games: Games
    commits: Commits  # the one path that writes a game (here: the turn's timer)
    owner: str
    clock: Callable[[], datetime]

    async def abandon_channel(self, channel_id: int) -> list[int]: ...


def quiet_end(settings: UserSettings, now: datetime) -> datetime | None:
    """When the person's quiet hours end, if `now` is inside them (in their time zone); else None."""
    if settings.quiet_start is None or settings.quiet_end is None:
        return None
    zone = ZoneInfo(settings.timezone or "UTC")
    local = now.astimezone(zone)
    minute = local.hour * 60 + local.minute
    start, end = settings.quiet_start, settings.quiet_end
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    until = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if until <= local:
        until += timedelta(days=1)
    return until.astimezone(UTC)


def their_turn(rec: GameRecord, notice: TurnNotice) -> Game | None:
    """The game, if it is still in play at the notice's turn with the person to act; else None."""
    game = rec.game
    if rec.status != GameStatus.PLAYING or game is None or game.is_over or turn_key(game) != notice.turn_key:
        return None
    d = game.decision()
    seat = rec.seat_of(d.player) if d else None
    return game if seat is not None and seat.user_id == notice.user_id else None


class Notifier:
    """The turn's notifications of one bot process: decided here, sent in the notifier's own tasks."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._tasks: set[asyncio.Task] = set()
        self._sending = asyncio.Semaphore(CONCURRENT_SENDS)
        self._pinged: dict[tuple[int, int, int], datetime] = {}  # (game, user, turn) -> when last pinged
        self._closed: set[int] = set()  # people whose DMs are closed, not yet told (privately, on their next click)
        self._in_flight: set[tuple[int, int, str]] = set()  # (game, turn, claim) being sent by this process now

    # -- decisions under the game lock (no Discord call, no store call) -----------------------------------------
    def table_ping(self, game_id: int, key: int, user_id: int, settings: UserSettings, now: datetime) -> bool:
        """Whether the table names the person to act with a ping: not when they want direct messages only, not
        during their quiet hours, not when they were pinged for this turn a few minutes ago (a move-undo loop)."""
        if settings.notify == "dm" or quiet_end(settings, now) is not None:
            return False
        last = self._pinged.get((game_id, user_id, key))
        return last is None or now - last >= PING_INTERVAL

    def pinged(self, game_id: int, key: int, user_id: int, now: datetime) -> None:
        """Remember a ping that went out."""
        if len(self._pinged) >= MAX_REMEMBERED:
            for old in sorted(self._pinged, key=self._pinged.__getitem__)[: MAX_REMEMBERED // 10]:
                del self._pinged[old]
        self._pinged[(game_id, user_id, key)] = now

    def submit(self, notice: TurnNotice) -> asyncio.Task:
        """Tell the person, in the background: returns at once."""
        return self._spawn(self._deliver(notice), f"notify-{notice.game_id}-{notice.user_id}")

    def turn_passed(self, game_id: int, key: int | None) -> None:
        """The game is at turn `key` (None: over): the buttons of its older direct messages are taken off (the store
        lists them, so this holds after a restart too)."""
        self._spawn(self._retire(game_id, key), f"retire-dms-{game_id}")

    def private_note(self, user_id: int, lang: str) -> str | None:
        """A note for the person only, said on their next interaction: their DMs are closed to the bot."""
        if user_id not in self._closed:
            return None
        self._closed.discard(user_id)
        return translate(lang, M.DMS_CLOSED_PRIVATE)

    # -- tasks -----------------------------------------------------------------------------------------------------
    def _spawn(self, work, name: str) -> asyncio.Task:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until every notification handed over so far is sent (for tests and the timer pass)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def stop(self) -> None:
        """Stop sending (shutdown): what was claimed and not sent is sent again after a restart."""
        for task in list(self._tasks):
            task.cancel()

    async def repair(self) -> int:
        """Hand over again the notifications whose sender died while sending (their lease ran out, or this process
        restarted): once each, and only while it is still that person's turn. Returns how many."""
        handed = 0
        for pending in await self.host.store.unsent_notifications():
            if (pending.game_id, pending.turn_key, pending.kind) in self._in_flight:
                continue  # still on its way here (a long rate limit): its lease ran out, it is not lost
            notice = TurnNotice.from_claim(pending.game_id, pending.turn_key, pending.user_id, pending.kind)
            try:
                rec = await self.host.games.get(pending.game_id)
            except UserError:
                rec = None
            if rec is None or their_turn(rec, notice) is None:
                await self.host.store.notification_sent(pending.game_id, pending.turn_key, pending.kind)
                continue
            self.submit(notice)
            handed += 1
        return handed

    # -- sending ---------------------------------------------------------------------------------------------------
    async def _deliver(self, notice: TurnNotice) -> None:
        async with self._sending:
            try:
                await self._deliver_now(notice)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(
                    "Game %s: the %s of user %s could not be sent", notice.game_id, notice.claim, notice.user_id
                )

    async def _deliver_now(self, notice: TurnNotice) -> None:
        host, store = self.host, self.host.store
        try:
            rec = await host.games.get(notice.game_id)
        except UserError:
            return
        game = their_turn(rec, notice)
        if game is None:
            return  # the turn passed, or the game ended, before its notification went out
        settings = await store.get_user_settings(notice.user_id)
        quiet_until = quiet_end(settings, host.clock())
        if quiet_until is not None:
            await self._hold(rec, quiet_until)
            return
        if notice.kind == "turn" and settings.notify == "channel":
            # The table was the notification: remembered (one write), so that a reminder says it is one.
            await self._claim(notice, "turn", sent=True)
            return
        kind, claim = notice.kind, notice.claim
        # A reminder whose turn was never told (it came during quiet hours) tells the turn instead.
        if kind == "reminder" and await self._claim(notice, "turn"):
            kind, claim = "turn", "turn"
        elif not await self._claim(notice, claim):
            return
        sending = (rec.id, notice.turn_key, claim)
        self._in_flight.add(sending)
        try:
            dm = await self._tell(rec, game, notice.user_id, settings, kind, from_table=notice.kind == "turn")
        finally:
            self._in_flight.discard(sending)
        await store.notification_sent(rec.id, notice.turn_key, claim, message=dm)
        if dm is not None:
            await self._retire_if_passed(rec.id, notice.turn_key)

    async def _claim(self, notice: TurnNotice, claim: str, *, sent: bool = False) -> bool:
        return await self.host.store.claim_notification(
            notice.game_id,
            notice.turn_key,
            notice.user_id,
            claim,
            owner=self.host.owner,
            lease_seconds=LEASE_SECONDS,
            sent=sent,
        )

    async def _hold(self, rec: GameRecord, until: datetime) -> None:
        """Quiet hours: nothing now; the timer tells them when the quiet hours end (if it is still their turn)."""
        if rec.next_reminder_at is not None and rec.next_reminder_at <= until:
            return  # a reminder is due before then: it waits for the end of the quiet hours itself
        try:
            await self.host.commits.set_timer(rec, TurnTimer(until, rec.deadline_at))
        except (StaleVersion, StoreError):
            log.info("Game %s moved on while its notification was held", rec.id)

    async def _tell(
        self, rec: GameRecord, game: Game, user_id: int, settings: UserSettings, kind: NoticeKind, *, from_table: bool
    ) -> tuple[int, int] | None:
        """Send by the person's choice: a direct message ("dm", "both"), the channel ("channel", "both"; the table
        already named them when it was just posted); a refused direct message falls back to the channel. Returns
        the direct message sent (channel id, message id), if one was."""
        wants_dm = settings.notify in ("dm", "both")
        in_channel = settings.notify in ("channel", "both") and not from_table
        dm = await self._send_dm(rec, game, user_id, kind) if wants_dm else None
        if wants_dm and dm is None:
            self._closed.add(user_id)
            in_channel = in_channel or settings.notify == "dm"
        if in_channel:
            await self._send_in_channel(rec, game, user_id, kind)
        return dm

    def _words(self, rec: GameRecord, game: Game, kind: NoticeKind, *, dm: bool, player: str = "") -> str:
        lang = lang_of_table(rec)
        d = game.decision()
        assert d is not None
        link = table_link(rec)
        values = {
            "game": game_name(rec.kind, lang),
            "where": f"<#{rec.channel_id}>",
            "what": decision_words(game, d, lang),
            "player": player,
        }
        if dm:
            plain, linked = (M.DM_TURN, M.DM_TURN_LINK) if kind == "turn" else (M.DM_REMINDER, M.DM_REMINDER_LINK)
        else:
            plain, linked = (M.TURN_PING, M.TURN_PING_LINK) if kind == "turn" else (M.REMINDER, M.REMINDER_LINK)
        return translate(lang, linked, link=link, **values) if link else translate(lang, plain, **values)

    async def _send_dm(self, rec: GameRecord, game: Game, user_id: int, kind: NoticeKind) -> tuple[int, int] | None:
        """The direct message with the link and the button: (channel id, message id) when it went out. Server
        errors are tried again (never under a game lock); a refusal (DMs closed) is final."""
        text = self._words(rec, game, kind, dm=True)
        bot = self.host.bot
        for delay in (*RETRY_DELAYS, None):
            try:
                data = await bot.http.start_private_message(user_id)
                message = await bot.get_partial_messageable(int(data["id"])).send(
                    text, view=turn_view(rec, game), allowed_mentions=discord.AllowedMentions.none()
                )
            except (discord.Forbidden, discord.NotFound) as error:
                log.info("Game %s: no DM to user %s (%s)", rec.id, user_id, error)
                return None
            except discord.HTTPException as error:
                if delay is None or error.status < 500:
                    log.info("Game %s: no DM to user %s (%s)", rec.id, user_id, error)
                    return None
                await asyncio.sleep(delay)
                continue
            return message.channel.id, message.id
        return None

    async def _retire_if_passed(self, game_id: int, key: int) -> None:
        """The turn may have passed while the direct message was on its way: its button goes at once."""
        try:
            rec = await self.host.games.get(game_id)
        except UserError:
            return
        game = rec.game
        if rec.status != GameStatus.PLAYING or game is None or game.is_over:
            await self._retire(game_id, None)
        elif turn_key(game) != key:
            await self._retire(game_id, turn_key(game))

    async def _retire(self, game_id: int, key: int | None) -> None:
        """Take the buttons off the game's direct messages but those of turn `key` (None: all)."""
        try:
            live = await self.host.store.notification_messages(game_id, other_than=key)
            for channel_id, message_id in live:
                await strip_controls(self.host.bot, channel_id, message_id)
            await self.host.store.forget_notification_messages(game_id, [m for _, m in live])
        except StoreError as error:
            log.info("Game %s: the buttons of its direct messages stay for now: %s", game_id, error)

    async def _send_in_channel(self, rec: GameRecord, game: Game, user_id: int, kind: NoticeKind) -> None:
        d = game.decision()
        assert d is not None
        text = self._words(rec, game, kind, dm=False, player=mention(rec.seats, d.player, lang_of_table(rec)))
        channel = self.host.bot.get_partial_messageable(rec.channel_id)
        try:
            await channel.send(text, view=turn_view(rec, game), allowed_mentions=pings(user_id))
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:  # the channel or thread was deleted: its game is over
                await self.host.abandon_channel(rec.channel_id)
                return
            log.warning("Game %s: the turn of user %s could not be told: %s", rec.id, user_id, error)
            return
        except discord.HTTPException as error:
            log.warning("Game %s: the turn of user %s could not be told: %s", rec.id, user_id, error)
            return
        self.pinged(rec.id, turn_key(game), user_id, self.host.clock())


def lang_of_table(rec: GameRecord) -> str:
    """A notification has no interaction: it speaks the table's language (chosen at `/game new`, else English)."""
    return first_supported((rec.config or {}).get("language"))
