"""The fake Discord's HTTP plumbing: every request recorded and routed, faults injected, the limits' violations and
unhandled requests kept for the test, and waiting for a condition or a request."""

from __future__ import annotations

import asyncio
import hashlib
import json
import mimetypes
import re
import time
import traceback
from collections.abc import Callable
from typing import Any

from aiohttp import web

from . import limits
from .drivers import PATIENCE
from .faults import HTTP_CLIENT_RETRIED, SERVER_ERROR_MESSAGES, Fault
from .model import (
    FakeInteraction,
    UploadedFile,
)
from .wire import (
    API,
    FAULT_EXCUSES,
    Handler,
    RecordedRequest,
    Rejected,
    Violation,
    json_response,
)


class Plumbing:
    """The requests, faults and waits of the fake Discord (`FakeDiscord` is made of this and its other parts)."""

    # --- failures -----------------------------------------------------------------------------------------
    def take_violations(self) -> list[Violation]:
        """The violations recorded so far; they no longer fail the test at teardown."""
        taken, self.violations = self.violations, []
        return taken

    def take_unhandled(self) -> list[RecordedRequest]:
        """The requests to endpoints the fake does not handle; they no longer fail the test at teardown."""
        taken, self.unhandled = self.unhandled, []
        return taken

    def problems(self) -> list[str]:
        out = [f"Discord would reject: {v}" for v in self.violations]
        out += [f"unhandled endpoint (add it to the fake if the bot needs it): {r}" for r in self.unhandled]
        out += [f"fake Discord crashed: {e}" for e in self.internal_errors]
        return out

    def check(self) -> None:
        """Fail if the bot did anything Discord would reject or hit an endpoint the fake does not handle."""
        problems = self.problems()
        if problems:
            raise AssertionError("fake Discord saw problems:\n  - " + "\n  - ".join(problems))

    def _violate(
        self,
        kind: str,
        message: str,
        *,
        request: RecordedRequest | None = None,
        interaction: FakeInteraction | None = None,
        problems: list[limits.Problem] | None = None,
    ) -> Violation:
        violation = Violation(kind, message, request, interaction, problems or [])
        channel = interaction.channel.label if interaction else ""
        if interaction is not None and interaction.faulted and kind in FAULT_EXCUSES:
            self.excused.append(violation)
            self._say(channel, f"(Discord rejects this, because of an injected fault: {violation})")
            self._notify()
            return violation
        self.violations.append(violation)
        if interaction is not None:
            interaction.violations.append(violation)
        self._say(channel, f"!! Discord would reject this: {violation}")
        self._notify()
        return violation

    # --- waiting -----------------------------------------------------------------------------------------
    def _notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = PATIENCE, what: str = "") -> Any:
        """Wait until `predicate()` is truthy (checked after every request and event), and return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            # Woken by the fake's own events, and polling for state outside it (the bot, its logs). asyncio.wait,
            # not wait_for: Python 3.11's wait_for swallows a cancellation that comes as its future completes (here
            # often: every request completes the waiters), and a cancelled wait went on to its timeout, 60 s.
            await asyncio.wait((waiter,), timeout=min(remaining, 0.02))

    async def settle(self, *, quiet: float = 0.05, timeout: float = PATIENCE) -> None:
        """Wait until the bot has made no request for `quiet` seconds (it finished what it was doing)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            seen = len(self.requests)
            await asyncio.sleep(quiet)
            if len(self.requests) == seen and all(r.status is not None for r in self.requests[-3:]):
                return
            if loop.time() > deadline:
                raise AssertionError(f"the bot was still busy after {timeout} s")

    def mark(self) -> int:
        """The number of requests so far: pass it as `after=` to wait only for later requests."""
        return len(self.requests)

    async def wait_for_request(
        self,
        method: str | None = None,
        path: str | None = None,
        *,
        after: int = 0,
        predicate: Callable[[RecordedRequest], bool] | None = None,
        timeout: float = PATIENCE,
    ) -> RecordedRequest:
        """The first request (index >= `after`) with this method whose path matches the regex `path`."""

        def find() -> RecordedRequest | None:
            for r in self.requests[after:]:
                if method is not None and r.method != method.upper():
                    continue
                if path is not None and not re.search(path, r.path):
                    continue
                if predicate is not None and not predicate(r):
                    continue
                if r.status is None:  # still being handled
                    continue
                return r
            return None

        return await self.wait_until(find, timeout=timeout, what=f"request {method or '*'} {path or '*'}")

    def requests_to(self, method: str, path: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == method.upper() and re.search(path, r.path)]

    # --- HTTP plumbing ---------------------------------------------------------------------------------------
    def _add_routes(self) -> None:
        r = self._route
        r("GET", r"/users/@me", self._get_me)
        r("GET", r"/oauth2/applications/@me", self._get_application)
        r("GET", r"/applications/@me", self._get_application)
        r("GET", r"/gateway", self._get_gateway)
        r("GET", r"/gateway/bot", self._get_gateway)
        r("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands)
        r("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands)
        r("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._get_commands)
        r("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._put_commands)
        r("GET", r"/channels/(?P<cid>\d+)", self._get_channel)
        r("PATCH", r"/channels/(?P<cid>\d+)", self._patch_channel)
        r("DELETE", r"/channels/(?P<cid>\d+)", self._delete_channel)
        r("GET", r"/channels/(?P<cid>\d+)/messages", self._get_messages)
        r("POST", r"/channels/(?P<cid>\d+)/messages", self._post_message)
        r("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_message)
        r("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._patch_message)
        r("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_message)
        r("POST", r"/channels/(?P<cid>\d+)/typing", self._typing)
        r("POST", r"/channels/(?P<cid>\d+)/threads", self._post_thread)
        r("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", self._post_thread)
        r("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>\d+|@me)", self._put_thread_member)
        r("DELETE", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>\d+|@me)", self._delete_thread_member)
        r("PUT", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me", self._react)
        r("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me", self._react)
        r("GET", r"/guilds/(?P<gid>\d+)", self._get_guild)
        r("GET", r"/guilds/(?P<gid>\d+)/channels", self._get_guild_channels)
        r("GET", r"/guilds/(?P<gid>\d+)/roles", self._get_roles)
        r("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", self._get_member)
        r("POST", r"/users/@me/channels", self._create_dm)
        r("GET", r"/users/(?P<uid>\d+)", self._get_user)
        r("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback)
        r("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup)
        r("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>\d+|@original)", self._webhook_message)
        r("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>\d+|@original)", self._webhook_message)
        r("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>\d+|@original)", self._webhook_message)

    def _route(self, method: str, pattern: str, handler: Handler) -> None:
        self._routes.append((method, re.compile(pattern), handler))

    async def _record(self, request: web.Request) -> RecordedRequest:
        path = request.path[len(API) :] if request.path.startswith(API + "/") else request.path
        body: Any = None
        files: list[UploadedFile] = []
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    match = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    index = int(match.group(1)) if match else len(files)
                    data = await part.read()
                    filename = part.filename or f"file{index}"
                    guessed = mimetypes.guess_type(filename)[0]
                    files.append(
                        UploadedFile(index, filename, guessed or part.headers.get("Content-Type"), bytes(data))
                    )
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode(errors="replace")
        rec = RecordedRequest(
            index=len(self.requests),
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            files=files,
            headers=dict(request.headers),
            at=asyncio.get_running_loop().time(),
        )
        self.requests.append(rec)
        return rec

    async def _api(self, request: web.Request) -> web.StreamResponse:
        rec = await self._record(request)
        rule = self.faults.pick(rec) if request.path.startswith(API + "/") else None
        if rule is not None:
            return await self._inject(request, rec, rule)
        response = await self._respond(request, rec)
        rec.status = response.status
        if response.status < 300:
            self.faults.note_success(rec)
        self._notify()
        return response

    async def _respond(self, request: web.Request, rec: RecordedRequest) -> web.StreamResponse:
        try:
            response = await self._handle(request, rec)
        except Rejected as rejected:
            if rejected.violation:
                message = rejected.detail or rejected.message
                self._violate(
                    rejected.violation,
                    message,
                    request=rec,
                    interaction=rejected.interaction,
                    problems=rejected.problems,
                )
            body: dict[str, Any] = {"code": rejected.code, "message": rejected.message}
            if rejected.problems:
                body["errors"] = limits.error_tree(rejected.problems)
            response = json_response(body, rejected.status)
        except Exception:
            # A bug in the fake: report it at teardown, answer 400 (a 5xx would make discord.py retry slowly).
            self.internal_errors.append(f"{rec}: {traceback.format_exc()}")
            response = json_response({"code": 0, "message": "fake Discord crashed, see the test report"}, 400)
        return response

    # --- injected faults ------------------------------------------------------------------------------------------
    def _interaction_of(self, rec: RecordedRequest) -> FakeInteraction | None:
        parts = rec.path.split("/")
        if len(parts) > 3 and parts[1] == "interactions" and parts[2].isdigit():
            return self.interactions.get(int(parts[2]))
        if len(parts) > 3 and parts[1] == "webhooks":
            return self._interactions_by_token.get(parts[3])
        return None

    async def _inject(self, request: web.Request, rec: RecordedRequest, rule: Fault) -> web.StreamResponse:
        """Answer `rec` with the fault `rule` instead of (or around) the normal handling."""
        rec.fault = rule.kind
        entry = self.faults.log(rule.kind, rule.describe(), request=rec)
        it = self._interaction_of(rec)
        webhook = rec.path.startswith(("/interactions/", "/webhooks/"))
        if it is not None and it.faulted_at is None:
            it.faulted_at = rec.at
        self._say(it.channel.label if it else "", f"(fault injected: {entry.detail} for {rec})")
        retried = False  # whether discord.py will send the request again by itself
        response: web.StreamResponse | None
        if rule.kind in ("rate limit", "global rate limit"):
            response, retried = self._rate_limited(rule), True
        elif rule.kind == "server error":
            body = {"message": SERVER_ERROR_MESSAGES[rule.status], "code": 0}
            response, retried = json_response(body, rule.status), webhook or rule.status in HTTP_CLIENT_RETRIED
        elif rule.kind == "refuse upload":
            response = json_response({"message": "Request entity too large", "code": 40005}, 413)
        elif rule.kind == "slow":
            if rule.applied:
                response = await self._respond(request, rec)
                await asyncio.sleep(rule.delay)
            else:
                await asyncio.sleep(rule.delay)
                response = await self._respond(request, rec)
            retried = True  # the request is carried out: its answer counts
        else:  # drop
            if rule.applied:
                await self._respond(request, rec)
            try:
                await self.faults.run_on_hit(rule, rec)
            except Exception:  # the test's callback failed: report it at teardown, drop the connection anyway
                self.internal_errors.append(f"on_hit of {rule.describe()} failed: {traceback.format_exc()}")
            response = None
        if it is not None and not retried:
            it.answered.set()  # the bot tried; nothing more will come of this attempt
        if response is None:
            rec.status = 0
            if request.transport is not None:
                request.transport.close()
            request.protocol.force_close()
            self._notify()
            return web.Response(status=500)  # never sent: the connection is gone
        rec.status = response.status
        if response.status < 300:
            self.faults.note_success(rec)
        self._notify()
        return response

    def _rate_limited(self, rule: Fault) -> web.Response:
        retry_after = rule.retry_after
        is_global = rule.kind == "global rate limit"
        headers = {
            "Content-Type": "application/json",
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
            "Retry-After": str(max(1, int(retry_after + 0.999))),
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            bucket = rule.bucket or hashlib.sha1(f"{rule.method} {rule.route}".encode()).hexdigest()[:16]
            headers.update(
                {
                    "X-RateLimit-Bucket": bucket,
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                }
            )
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    async def _handle(self, request: web.Request, rec: RecordedRequest) -> web.StreamResponse:
        if not request.path.startswith(API + "/"):
            return self._unhandled(rec)
        for method, pattern, handler in self._routes:
            match = pattern.fullmatch(rec.path)
            if match and method == rec.method:
                needs_auth = not rec.path.startswith(("/interactions/", "/webhooks/")) and not self.activities.own_auth(
                    rec
                )
                if needs_auth and rec.headers.get("Authorization") != f"Bot {self.token}":
                    raise Rejected(401, 0, "401: Unauthorized", violation="auth", detail="wrong or missing token")
                return await handler(rec, **match.groupdict())
        return self._unhandled(rec)

    def _unhandled(self, rec: RecordedRequest) -> web.Response:
        self.unhandled.append(rec)
        self._say("", f"!! unhandled endpoint: {rec.method} {rec.path}")
        return json_response({"code": 0, "message": f"fake Discord does not handle {rec.method} {rec.path}"}, 404)

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        rec = await self._record(request)
        attachment_id = int(request.match_info["attachment_id"])
        for attachment in self._all_attachments():
            if attachment.id == attachment_id:
                rec.status = 200
                return web.Response(
                    body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
                )
        rec.status = 404
        return web.Response(status=404, text="Not Found")

    def _all_attachments(self) -> Any:
        for message in self.messages:
            yield from message.attachments
        yield from self._option_attachments
