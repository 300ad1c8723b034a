"""The local board's tables (no Discord): the list, a new table, and every lobby operation (take a seat, leave, the
host's computer players and their level, seats, the host's role, start, cancel), each one call to the game service's
door, as Discord's lobby makes them.

A table's life has an end: its people can leave it or cancel it, the timers expire a lobby nobody started and a game
nobody touched (`LOCAL_LOBBY_HOURS`, `LOCAL_IDLE_DAYS`), one browser hosts at most `TABLES_PER_PERSON` open tables,
and when the board holds `MAX_LOCAL_GAMES` a new table takes the place of the longest-idle lobby, so that nobody can
wedge the board for everyone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import web

from cogs import lobbyrules as rules
from cogs.lobbydoor import LobbyChange, Person
from cogs.words import UserError, config_refusal, game_name
from db.errors import StoreError
from db.models import ACTIVE_STATUSES, GameRecord, GameStatus, Seat
from engine import GameConfig
from engine.ai import LEVELS
from engine.config import PLAYER_RANGE, VARIANTS
from i18n import LANGUAGES, translate, translate_plural
from i18n import messages as M

from . import auth
from .errors import Declined, Refusal
from .gamelist import FINISHED_LISTED, entry, ordered
from .people import lang_of
from .tables import even_if_gone, posted

MAX_LOCAL_GAMES = 200
TABLES_PER_PERSON = 10
IDLE_LOBBY_MINUTES = 10  # a lobby idle this long may give its place to a new table when the board is full


class Lobby:
    """The local board's tables and lobby operations."""

    def __init__(self, board: Any) -> None:
        self.board = board

    def local_only(self, request: web.Request) -> None:
        if not self.board.local:
            raise Refusal(403, translate(lang_of(request), M.WEB_DISCORD_TABLES))

    async def list_games(self, request: web.Request) -> web.Response:
        """The reader's games and the open tables, each with its state in words (web/gamelist.py), their turns
        first; their last `FINISHED_LISTED` finished games at the end."""
        self.local_only(request)
        lang = lang_of(request)
        users = set(self.board.people.session(request).users)
        store, games = self.board.service.store, self.board.service.games
        summaries = await store.list_games(statuses=ACTIVE_STATUSES, limit=MAX_LOCAL_GAMES)
        finished = await store.list_games(statuses=[GameStatus.FINISHED], limit=MAX_LOCAL_GAMES)
        mine = [s for s in finished if s.guild_id is None and any(seat.user_id in users for seat in s.seats)]
        out = []
        for summary in [*summaries, *mine[:FINISHED_LISTED]]:
            shown = summary.status == GameStatus.LOBBY or any(seat.user_id in users for seat in summary.seats)
            if summary.guild_id is not None or not shown:
                continue
            try:
                line = entry(await games.get(summary.id), users, lang)
            except (UserError, StoreError):
                continue  # gone meanwhile, or unreadable: not listed
            if line is not None:
                out.append(line)
        return web.json_response({"games": ordered(out)})

    @staticmethod
    def _person(session: auth.Session, taken: set[int]) -> tuple[auth.Session, int]:
        """A local person of this browser (not one who came through a link) without a seat at the table, or a new
        one."""
        linked = dict(session.games)
        for user in (u for u in session.users if u not in linked):
            if user not in taken:
                return session, user
        user = auth.new_local_user()
        return session.with_user(user), user

    async def create_game(self, request: web.Request) -> web.Response:
        self.local_only(request)
        board = self.board
        lang = lang_of(request)
        spec = table_spec(await board.body(request), lang)
        session = board.people.cookie_session(request)
        await self._make_room(session, lang)
        session, user = self._person(session, set())
        name = translate(lang, M.WEB_PERSON_NAME, number=1)
        seats = [Seat.human(user, name, rules.hex_colour(0))]
        level = spec["level"]
        for n in range(1, spec["computers"] + 1):
            seats.append(Seat.computer(n, level, rules.bot_name(n, level, spec["language"]), rules.hex_colour(n)))
        options = {k: spec[k] for k in ("variants", "teams", "language")}
        if spec["hints"]:
            options["hints"] = True  # everyone who sits down agrees: the board shows it in the lobby
        service = board.service
        try:
            rec = await service.open_table(
                channel_id=auth.new_local_user(),  # a table of its own (one active game per channel)
                guild_id=None,
                host=Person(user, name),
                kind=spec["kind"],
                options={"seats": spec["players"], **options},
                seats=seats,
            )
            if len(seats) == spec["players"]:
                await even_if_gone(service.start_table(rec.id, user))
        except UserError as error:
            raise Declined(error.text(lang)) from None
        response = web.json_response({"id": rec.id})
        board.people.set_session(response, session, request)
        return response

    async def _make_room(self, session: auth.Session, lang: str) -> None:
        """Refuse a new table to a browser hosting `TABLES_PER_PERSON` open ones (saying how to free one); when the
        board is full, the longest-idle lobby (idle `IDLE_LOBBY_MINUTES` at least) makes room, else refuse."""
        service = self.board.service
        active = [s for s in await service.store.list_games(statuses=ACTIVE_STATUSES, limit=MAX_LOCAL_GAMES + 1)]
        mine = [s for s in active if s.guild_id is None and s.host_user_id in session.users]
        if len(mine) >= TABLES_PER_PERSON:
            count = len(mine)
            raise Refusal(429, translate_plural(lang, *M.WEB_TOO_MANY_OF_YOURS, count))
        if len(active) < MAX_LOCAL_GAMES:
            return
        idle_since = datetime.now(UTC) - timedelta(minutes=IDLE_LOBBY_MINUTES)
        lobbies = [
            s for s in active if s.guild_id is None and s.status == GameStatus.LOBBY and s.updated_at < idle_since
        ]
        for oldest in sorted(lobbies, key=lambda s: s.updated_at):
            try:
                await service.expire_lobby(oldest.id, oldest.version)
                return
            except (UserError, StoreError):
                continue  # someone used it meanwhile: the next oldest
        raise Refusal(429, translate(lang, M.WEB_TOO_MANY_GAMES, limit=MAX_LOCAL_GAMES))

    async def forget_me(self, request: web.Request) -> web.Response:
        """The local board's people of this browser ask to be forgotten (PRIVACY.md): each leaves every stored game
        as on Discord (`GameService.forget_person`: a computer player takes their seat in a game in play), and the
        browser's session ends."""
        self.local_only(request)
        session = self.board.people.cookie_session(request)
        linked = dict(session.games)
        games = 0
        for user in (u for u in session.users if u not in linked):  # local people, not Discord people's links
            games += await even_if_gone(self.board.service.forget_person(user))
        text = translate_plural(lang_of(request), *M.FORGET_DONE, games)
        response = web.json_response({"ok": True, "games": games, "text": text})
        response.del_cookie(auth.COOKIE, path="/")
        return response

    # -- one lobby's operations -------------------------------------------------------------------------------------
    async def _operate(
        self, request: web.Request, operation: Callable[[GameRecord, dict, int, str], Awaitable[LobbyChange]]
    ) -> web.Response:
        """Run `operation(rec, body, actor, lang)` for the browser's person at the table (the host, when it is one of
        them), through the door with the version the page showed; a refusal is the answer the page shows."""
        self.local_only(request)
        board = self.board
        gid, lang, body, version = await posted(board, request)
        users = board.people.session(request).for_game(gid)
        try:
            rec = await board.service.games.get(gid)
            seated = [s.user_id for s in rec.seats if s.user_id in users]
            actor = rec.host_user_id if rec.host_user_id in users else (seated[0] if seated else None)
            if actor is None:
                raise UserError(M.NO_SEAT)
            change = await even_if_gone(operation(rec, body, actor, version))
        except UserError as error:
            raise Declined(error.text(lang)) from None
        except StoreError:
            raise Declined(translate(lang, M.STALE)) from None
        return web.json_response({"ok": True, "version": change.record.version, "said": change.said(lang)})

    async def join(self, request: web.Request) -> web.Response:
        """Take a free seat at a local lobby (a second window, another person at the same screen)."""
        self.local_only(request)
        board = self.board
        gid, lang, _, version = await posted(board, request)
        try:
            rec = await board.service.games.get(gid)
            taken = {s.user_id for s in rec.seats if s.user_id is not None}
            session, user = self._person(board.people.cookie_session(request), taken)
            people = sum(1 for s in rec.seats if not s.is_computer)
            name = translate(lang, M.WEB_PERSON_NAME, number=people + 1)
            change = await even_if_gone(board.service.join(gid, Person(user, name), expected_version=version))
        except UserError as error:
            raise Declined(error.text(lang)) from None
        except StoreError:
            raise Declined(translate(lang, M.STALE)) from None
        response = web.json_response({"ok": True, "version": change.record.version, "said": change.said(lang)})
        board.people.set_session(response, session, request)
        return response

    async def leave(self, request: web.Request) -> web.Response:
        users = self.board.people.session(request).users

        async def leave(rec: GameRecord, body: dict, actor: int, version: int) -> LobbyChange:
            """Leave a lobby, or a game in play (a computer takes the seat)."""
            me = next((s.user_id for s in rec.seats if s.user_id in users), actor)
            if rec.status == GameStatus.PLAYING:
                return await self.board.service.abandon_seat(rec.id, Person(me), expected_version=version)
            return await self.board.service.leave(rec.id, Person(me), expected_version=version)

        return await self._operate(request, leave)

    async def start(self, request: web.Request) -> web.Response:
        async def start(rec: GameRecord, body: dict, actor: int, version: int) -> LobbyChange:
            return await self.board.service.start_table(rec.id, actor, expected_version=version)

        return await self._operate(request, start)

    async def cancel(self, request: web.Request) -> web.Response:
        async def cancel(rec: GameRecord, body: dict, actor: int, version: int) -> LobbyChange:
            return await self.board.service.cancel_table(rec.id, Person(actor), expected_version=version)

        return await self._operate(request, cancel)

    async def computers(self, request: web.Request) -> web.Response:
        """The host seats a computer player (`{"level": ...}`), removes one (`{"remove": player}`), or changes one's
        level (`{"player": ..., "level": ...}`)."""

        async def computers(rec: GameRecord, body: dict, actor: int, version: int) -> LobbyChange:
            service, player, level = self.board.service, body.get("player"), body.get("level")
            if isinstance(body.get("remove"), str):
                return await service.remove_computer(rec.id, actor, body["remove"], expected_version=version)
            if not isinstance(level, str):
                raise UserError(M.PICK_MENU_CHOICE)
            if isinstance(player, str):
                return await service.set_computer_level(rec.id, actor, player, level, expected_version=version)
            return await service.add_computer(rec.id, actor, level, expected_version=version)

        return await self._operate(request, computers)

    async def seats(self, request: web.Request) -> web.Response:
        """The host swaps two seats (`{"swap": [player, player]}`) or hands the host's role (`{"host": user id}`)."""

        async def seats(rec: GameRecord, body: dict, actor: int, version: int) -> LobbyChange:
            service, pair, host = self.board.service, body.get("swap"), body.get("host")
            if isinstance(host, int) and not isinstance(host, bool):
                return await service.hand_host(rec.id, actor, host, expected_version=version)
            if not isinstance(pair, list) or not all(isinstance(p, str) for p in pair):
                raise UserError(M.PICK_TWO_SEATS)
            return await service.swap_seats(rec.id, actor, tuple(pair), expected_version=version)

        return await self._operate(request, seats)


def table_spec(body: dict, lang: str) -> dict:
    """The table asked for, checked by the engine's own configuration (an impossible one is refused, saying why)."""
    kind = body.get("kind")
    if kind not in PLAYER_RANGE:
        raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="kind", allowed=", ".join(PLAYER_RANGE)))
    low, high = PLAYER_RANGE[kind]
    players = body.get("players")
    computers = body.get("computers", players - 1 if isinstance(players, int) else 0)
    variants = body.get("variants", [])
    level = body.get("level", "easy")
    language = body.get("language") or lang
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        size = players if isinstance(players, int) else "?"
        raise Refusal(400, translate(lang, M.PLAYER_RANGE, game=game_name(kind, lang), low=low, high=high, size=size))
    if not isinstance(computers, int) or isinstance(computers, bool) or not 0 <= computers < players:
        raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="computers", allowed=f"0-{players - 1}"))
    if not isinstance(variants, list) or not all(isinstance(v, str) and v in VARIANTS for v in variants):
        raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="variants", allowed=", ".join(VARIANTS)))
    if not isinstance(level, str) or level not in LEVELS:
        raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="level", allowed=", ".join(LEVELS)))
    if not isinstance(language, str) or language not in LANGUAGES:
        raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="language", allowed=", ".join(LANGUAGES)))
    teams = body.get("teams") is True
    hints = body.get("hints") is True
    placeholder = tuple(f"seat{i}" for i in range(players))
    try:
        GameConfig(kind, placeholder, frozenset(variants), rules.teams_of(placeholder, teams))
    except ValueError as error:
        raise Refusal(400, translate(lang, M.TABLE_IMPOSSIBLE, reason=config_refusal(error, lang))) from None
    return {
        "kind": kind,
        "players": players,
        "computers": computers,
        "variants": sorted(set(variants)),
        "level": level,
        "language": language,
        "teams": teams,
        "hints": hints,
    }


__all__ = ["MAX_LOCAL_GAMES", "Lobby", "table_spec"]
