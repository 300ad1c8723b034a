"""The fake Discord's gateway: starting and stopping, the websocket sessions (IDENTIFY, RESUME, heartbeats), the events
sent to each shard, and what Discord does to connections (closes, reconnects, invalid sessions)."""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
from typing import Any

from aiohttp import WSMsgType, web

from .model import (
    FakeChannel,
    FakeGuild,
)
from .wire import (
    API,
    HEARTBEAT_INTERVAL_MS,
    PRIVILEGED_INTENTS,
    GatewaySession,
    point_discord_at,
    restore_discord,
)


class Gateway:
    """The gateway of the fake Discord (`FakeDiscord` is made of this and its other parts)."""

    # --- lifecycle -----------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Serve on 127.0.0.1 (random port) and point discord.py at it."""
        self._loop = asyncio.get_running_loop()
        self._t0 = self._loop.time()
        loop = self._loop
        self.faults._clock = lambda: loop.time() - self._t0
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway_handler)
        app.router.add_route("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", API + "/{tail:.*}", self._api)
        app.router.add_route("*", "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.base_url = f"http://127.0.0.1:{port}"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"
        self._patched = point_discord_at(self.base_url)

    async def stop(self) -> None:
        """Close gateway connections, stop serving, restore discord.py."""
        restore_discord(self._patched)
        for ws in list(self._gateway_sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def connected(self) -> bool:
        """Whether a bot is connected to the gateway and identified (on any shard)."""
        return any(s.connected for s in self.sessions)

    @property
    def connected_shards(self) -> list[int]:
        """The shard ids with a connected, identified gateway session."""
        return sorted({s.shard_id for s in self.sessions if s.connected})

    def session(self, shard_id: int = 0) -> GatewaySession:
        """The newest gateway session of shard `shard_id`."""
        for session in reversed(self.sessions):
            if session.shard_id == shard_id:
                return session
        raise LookupError(f"no gateway session for shard {shard_id}")

    def _resumable(self, session: GatewaySession) -> bool:
        if session.invalid:
            return False
        if session.connected or session.disconnected_at is None:
            return True
        assert self._loop is not None
        return self._loop.time() - session.disconnected_at <= self.resume_timeout

    def _sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The live sessions that get `guild_id`'s events (connected, or disconnected but resumable)."""
        return [s for s in self.sessions if s.receives(guild_id) and self._resumable(s)]

    # --- gateway ---------------------------------------------------------------------------------------------
    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        rec = await self._record(request)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        rec.status = 101
        self._gateway_sockets.append(ws)
        loop = asyncio.get_running_loop()
        try:
            hold = self._hold_gateway_until - loop.time()
            if hold > 0:  # Discord is unreachable for a while: the bot misses events, which RESUME replays
                await asyncio.sleep(hold)
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    self._violate("gateway", f"unexpected {msg.type.name} frame on the gateway")
                    continue
                await self._gateway_op(ws, json.loads(msg.data))
        finally:
            self._gateway_sockets.remove(ws)
            session = self._ws_sessions.pop(ws, None)
            by_server = ws in self._closing_by_server
            code = self._closing_by_server.pop(ws, ws.close_code)
            if session is not None and session.ws is ws:
                session.ws = None
                session.ready = False
                session.disconnected_at = loop.time()
                if not by_server and ws.close_code in (1000, 1001):
                    session.invalid = True  # a client that closes with 1000/1001 ends its session
                self._say("", f"(the bot disconnected from the gateway, shard {session.shard_id}, code {code})")
            self._notify()
        return ws

    async def _gateway_op(self, ws: web.WebSocketResponse, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == 1:  # heartbeat
            await ws.send_str(json.dumps({"op": 11}))
        elif op == 2:  # identify
            await self._identify(ws, data)
        elif op == 3:  # presence update
            pass
        elif op == 6:  # resume
            await self._resume(ws, data)
        else:
            self._violate("gateway", f"unexpected gateway op {op}: {msg}")

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if data.get("intents", 0) & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        # As on Discord, an older session of the same shard lives on (two processes that claim the same shard both
        # get its events, and both answer its interactions).
        session = GatewaySession(secrets.token_hex(16), shard_id, shard_count, data, ws)
        self.sessions.append(session)
        self._ws_sessions[ws] = session
        guilds = [g for g in self.guilds.values() if session.receives(g.id) and g.id not in self.left_by_bot]
        await self._send_event(
            session,
            "READY",
            {
                "v": 10,
                "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "shard": [shard_id, shard_count],
            },
        )
        for guild in guilds:
            await self._send_event(session, "GUILD_CREATE", self.guild_payload(guild.id))
        session.ready = True
        self.faults.note_gateway_back(shard_id)
        shown = f" (shard {shard_id} of {shard_count})" if shard_count > 1 else ""
        self._say("", f"({self.bot_user.name} connected to the gateway{shown})")
        self._notify()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if session is None or not self._resumable(session):
            if session is not None:
                session.invalid = True
            self._say("", "(the gateway refused a RESUME: INVALID_SESSION, the bot must IDENTIFY again)")
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return
        if session.ws is not None and session.ws is not ws and not session.ws.closed:
            self._closing_by_server[session.ws] = 4000
            await session.ws.close(code=4000, message=b"Resumed elsewhere.")
        session.ws = ws
        session.disconnected_at = None
        session.resumes += 1
        self._ws_sessions[ws] = session
        last = data.get("seq") or 0
        missed = [e for e in session.events if e[0] > last]
        for seq, event, payload in missed:
            await ws.send_str(json.dumps({"op": 0, "t": event, "s": seq, "d": payload}))
        await self._send_event(session, "RESUMED", {})
        session.ready = True
        self.faults.note_gateway_back(session.shard_id)
        self._say("", f"(the bot resumed shard {session.shard_id}: {len(missed)} missed event(s) replayed)")
        self._notify()

    async def _send_event(self, session: GatewaySession, event: str, data: dict[str, Any]) -> bool:
        session.seq += 1
        session.events.append((session.seq, event, data))
        ws = session.ws
        if ws is None or ws.closed:
            return False
        try:
            await ws.send_str(json.dumps({"op": 0, "t": event, "s": session.seq, "d": data}))
        except ConnectionError:
            return False
        return True

    @staticmethod
    def _event_guild(event: str, data: dict[str, Any]) -> int | None:
        if event.startswith("GUILD_") and "guild_id" not in data:
            return int(data["id"])
        guild_id = data.get("guild_id")
        return int(guild_id) if guild_id else None

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send a gateway DISPATCH on the shard that gets its guild's events (DMs: shard 0). While that shard is
        disconnected but resumable, the event waits for its RESUME. False when no session would get it (lost)."""
        guild_id = self._event_guild(event, data)
        sessions = self._sessions_for(guild_id)
        for session in sessions:
            if session.subscribed(event, guild_id):
                await self._send_event(session, event, data)
        return bool(sessions)

    # --- gateway: what Discord does to connections ----------------------------------------------------------------
    def _target_sessions(self, shard_id: int | None) -> list[GatewaySession]:
        targets = [s for s in self.sessions if s.connected and (shard_id is None or s.shard_id == shard_id)]
        if not targets:
            raise AssertionError(f"no connected gateway session{'' if shard_id is None else f' on shard {shard_id}'}")
        return targets

    async def close_gateway(
        self, code: int | None = 4000, *, shard_id: int | None = None, hold: float = 0.0, reason: str = ""
    ) -> None:
        """Close the gateway connection(s) (all shards, or `shard_id`) with `code`, as Discord does: discord.py
        reconnects and RESUMEs. 4009 (session timed out) also ends the session, so the RESUME gets INVALID_SESSION
        and the bot IDENTIFYs again. None: the connection is lost without a close frame (a network failure).
        `hold`: new connections get no HELLO for that long (events meanwhile are
        buffered and replayed on RESUME)."""
        assert self._loop is not None
        if hold:
            self._hold_gateway_until = self._loop.time() + hold
        for session in self._target_sessions(shard_id):
            ws = session.ws
            assert ws is not None
            if code == 4009:
                session.invalid = True
            self._closing_by_server[ws] = code or 1006
            what = f"close {code}" if code else "connection lost"
            self.faults.log("gateway close", what, shard_id=session.shard_id)
            self._say("", f"(fault injected: gateway shard {session.shard_id}: {what})")
            if code is None:
                transport = ws._req.transport if ws._req is not None else None
                if transport is not None:
                    transport.abort()
                continue
            await ws.close(code=code, message=(reason or f"closed by the test ({code})").encode())

    async def request_reconnect(self, *, shard_id: int | None = None) -> None:
        """Send op 7 RECONNECT: discord.py closes and RESUMEs."""
        for session in self._target_sessions(shard_id):
            assert session.ws is not None
            self.faults.log("gateway reconnect", "op 7 RECONNECT", shard_id=session.shard_id)
            await session.ws.send_str(json.dumps({"op": 7, "d": None}))

    async def invalidate_session(self, *, shard_id: int | None = None, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION: not `resumable` ends the session (the bot IDENTIFYs again)."""
        for session in self._target_sessions(shard_id):
            assert session.ws is not None
            if not resumable:
                session.invalid = True
            self.faults.log("gateway invalid session", f"op 9 INVALID_SESSION {resumable}", shard_id=session.shard_id)
            await session.ws.send_str(json.dumps({"op": 9, "d": resumable}))

    async def wait_for_gateway(self, *, shard_id: int | None = None, timeout: float = 5.0) -> GatewaySession:
        """Wait until the shard (or any shard) has a connected session again, and return it."""

        def ready() -> GatewaySession | None:
            for session in reversed(self.sessions):
                live = session.connected and session.ready and not session.invalid
                if live and (shard_id is None or session.shard_id == shard_id):
                    return session
            return None

        return await self.wait_until(ready, timeout=timeout, what=f"the gateway (shard {shard_id})")

    def guilds_on(self, session: GatewaySession) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if session.receives(g.id)]

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild = self.guilds[guild_id or self.guild_id]
        channels = [c for c in self.channels.values() if not c.deleted and c.guild_id == guild.id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": str(guild.channels["general"].id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "features": [],
            "roles": [r.payload() for r in self.roles.values() if r.guild_id == guild.id],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [
                {**c.payload(message_count=self._count_messages(c)), "guild_id": str(guild.id)}
                for c in channels
                if c.is_thread and not c.archived
            ],
            "members": [self.member_payload(u, guild.id) for u in self.users.values()],
            "member_count": len(self.users),
            "large": False,
            "unavailable": False,
            "joined_at": self.bot_user.member_payload()["joined_at"],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False,
        }

    def _count_messages(self, channel: FakeChannel) -> int:
        return sum(1 for m in self.messages if m.channel is channel and not m.deleted and not m.ephemeral)
