"""Discord Activities in the fake: the LAUNCH_ACTIVITY callback, OAuth2 for an Activity, and the client frame.

Written from Discord's documentation (interactions: callback type 12 and its `activity_instance` resource;
OAuth2: the authorization-code exchange at `POST /oauth2/token`, `GET /users/@me` with a Bearer token) and from the
source of `@discord/embedded-app-sdk` 2.5.0 (its postMessage RPC: opcodes HANDSHAKE 0, FRAME 1, CLOSE 2; the READY
dispatch; the AUTHORIZE, AUTHENTICATE, GET_CHANNEL, SUBSCRIBE and CAPTURE_LOG commands).

How an Activity runs in a browser test (`ActivityClient`, Playwright):
- Discord's client is a page at https://discord.com/activities/... (served by Playwright's routing, so the origins
  are the real ones the SDK checks); it holds the app in an iframe at https://{application_id}.discordsays.com/,
  which Discord proxies to the app's own server (the URL mapping `/` -> the app's root): here Playwright forwards it
  to the bot's web server. `/.proxy/` paths are mapped the same way, as Discord does for a root mapping.
- The frame answers the SDK: HANDSHAKE with the READY dispatch; AUTHORIZE with a code the fake's OAuth2 server
  issues to the person the Activity was launched for (no consent screen: the person is assumed to accept);
  AUTHENTICATE with the user behind an access token, or an error for a token the fake never issued.
- The app's server exchanges the code at the fake's `POST /api/v10/oauth2/token` with the application's id and
  secret, then reads `GET /api/v10/users/@me` with the Bearer token: who the player is comes from Discord.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import urllib.parse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from .model import FakeChannel, FakeInteraction, FakeUser
    from .server import FakeDiscord
    from .wire import RecordedRequest

LAUNCH_ACTIVITY = 12  # the interaction callback type (model.Callback.LAUNCH_ACTIVITY)
CODE_LIFETIME = 600.0  # seconds an authorization code can be exchanged (Discord: 10 minutes)
TOKEN_LIFETIME = 604800  # seconds an access token works (Discord: 7 days)
FAKE_AUTHORIZE = "/__fake/oauth2/authorize"  # the frame's own way to the fake's OAuth2 server: not Discord's API


@dataclass
class Grant:
    """An authorization code, then the access token it was exchanged for."""

    user: FakeUser
    client_id: int
    scopes: tuple[str, ...]
    issued_at: float
    redirect_uri: str | None = None
    used: bool = False


@dataclass
class ActivityLaunch:
    """An Activity instance: launched by the bot answering an interaction with LAUNCH_ACTIVITY, or by a person from
    the App Launcher (the application's Entry Point command; no interaction then). `users`: who is in it."""

    instance_id: str
    interaction: FakeInteraction | None
    opener: FakeUser | None = None
    place: FakeChannel | None = None
    users: list[FakeUser] = field(default_factory=list)

    @property
    def user(self) -> FakeUser:
        return self.interaction.user if self.interaction is not None else self.opener  # type: ignore[return-value]

    @property
    def channel(self) -> FakeChannel:
        return self.interaction.channel if self.interaction is not None else self.place  # type: ignore[return-value]

    def join(self, user: FakeUser) -> None:
        """`user` joins the running Activity (Discord's "Join Activity" in the channel)."""
        if user not in self.users:
            self.users.append(user)

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild_id


@dataclass
class Activities:
    """The fake's side of Activities: whether the application has them, the launches, the OAuth2 grants."""

    fake: FakeDiscord
    enabled: bool = False  # the application has an Activity set up (Developer Portal: Activities > Settings)
    client_secret: str = field(default_factory=lambda: "fake-secret-" + secrets.token_hex(8))
    launches: list[ActivityLaunch] = field(default_factory=list)
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, Grant] = field(default_factory=dict)
    exchanges: list[dict[str, Any]] = field(default_factory=list)  # every token request the app made, as sent

    def install(self) -> None:
        r = self.fake._route
        r("POST", r"/oauth2/token", self._token)
        r("POST", re.escape(FAKE_AUTHORIZE), self._authorize)
        r("GET", r"/applications/(?P<app>\d+)/activity-instances/(?P<instance>[^/]+)", self._instance)

    def own_auth(self, rec: RecordedRequest) -> bool:
        """Whether `rec` authenticates otherwise than with the bot's token: the token exchange (the client's id and
        secret), `users/@me` with a person's Bearer token, and the frame's own authorize call."""
        if rec.path in ("/oauth2/token", FAKE_AUTHORIZE):
            return True
        return rec.path == "/users/@me" and rec.headers.get("Authorization", "").startswith("Bearer ")

    # -- LAUNCH_ACTIVITY ------------------------------------------------------------------------------------------
    def launch(self, it: FakeInteraction) -> dict[str, Any]:
        """The bot answered `it` with LAUNCH_ACTIVITY: Discord opens the Activity for that person in that channel.
        Returns the callback's `activity_instance` resource."""
        from .wire import invalid_body

        if not self.enabled:
            raise invalid_body(
                [("type", "This application has no Activity: LAUNCH_ACTIVITY needs Activities enabled.")],
                f"LAUNCH_ACTIVITY for {it.summary}",
                it,
                kind="bad response",
            )
        launch = ActivityLaunch("i-" + secrets.token_hex(8), it, users=[it.user])
        self.launches.append(launch)
        self.fake._say(it.channel.label, f"{self.fake.bot_user.name} launched its Activity for {it.user.name}")
        return {"id": launch.instance_id}

    def launch_from_app_launcher(self, user: FakeUser, channel: FakeChannel) -> ActivityLaunch:
        """`user` opens the application from Discord's App Launcher in `channel`: Discord launches the Activity
        itself when the application's Entry Point command says so (handler DISCORD_LAUNCH_ACTIVITY, 2)."""
        entry = [c for c in self.fake.global_commands if c.get("type") == 4]
        if not self.enabled or not entry:
            raise AssertionError("the App Launcher shows no Activity: no Entry Point command, or Activities are off")
        if entry[0].get("handler") != 2:
            raise AssertionError("the Entry Point command's handler is the app's: the fake launches only handler 2")
        launch = ActivityLaunch("i-" + secrets.token_hex(8), None, opener=user, place=channel, users=[user])
        self.launches.append(launch)
        self.fake._say(channel.label, f"{user.name} launched the Activity from the App Launcher")
        return launch

    async def _instance(self, rec: RecordedRequest, app: str, instance: str) -> web.Response:
        """`GET /applications/{app}/activity-instances/{instance}` (the bot's token): Discord's
        EmbeddedActivityInstance, where the instance runs and who is in it."""
        from .wire import json_response

        launch = next((a for a in self.launches if a.instance_id == instance), None)
        if int(app) != self.fake.application_id or launch is None:
            return json_response({"message": "Unknown Activity Instance", "code": 10000}, 404)
        guild = launch.guild_id
        location = {
            "id": f"{'gc' if guild else 'pc'}-{launch.channel.id}",
            "kind": "gc" if guild else "pc",
            "channel_id": str(launch.channel.id),
        }
        if guild:
            location["guild_id"] = str(guild)
        return json_response(
            {
                "application_id": str(self.fake.application_id),
                "instance_id": launch.instance_id,
                "launch_id": launch.instance_id.removeprefix("i-"),
                "location": location,
                "users": [str(u.id) for u in launch.users],
            }
        )

    # -- OAuth2 ---------------------------------------------------------------------------------------------------
    def issue_code(
        self, user: FakeUser, *, client_id: int | None = None, scopes: tuple[str, ...] = ("identify",)
    ) -> str:
        """What Discord's AUTHORIZE gives the Activity once `user` accepts: a one-time code."""
        code = secrets.token_urlsafe(18)
        self.codes[code] = Grant(user, client_id or self.fake.application_id, scopes, self._now())
        return code

    def user_of(self, rec: RecordedRequest) -> FakeUser | None:
        """The person behind a `Bearer` token on `rec`, if the fake issued it and it has not expired."""
        auth = rec.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return None
        grant = self.tokens.get(auth[len("Bearer ") :])
        if grant is None or self._now() - grant.issued_at > TOKEN_LIFETIME:
            return None
        return grant.user

    def authenticate(self, access_token: str) -> dict[str, Any] | None:
        """The SDK's AUTHENTICATE answer for `access_token`, or None for a token the fake never issued."""
        grant = self.tokens.get(access_token)
        if grant is None or grant.client_id != self.fake.application_id:
            return None
        expires = self._now() - grant.issued_at + TOKEN_LIFETIME
        return {
            "access_token": access_token,
            "user": {
                k: grant.user.payload()[k]
                for k in ("id", "username", "discriminator", "avatar", "public_flags", "global_name")
            },
            "scopes": list(grant.scopes),
            "expires": f"{expires:.0f}",
            "application": {
                "id": str(self.fake.application_id),
                "name": self.fake.bot_user.name,
                "description": "",
                "icon": None,
            },
        }

    async def _authorize(self, rec: RecordedRequest) -> web.Response:
        from .wire import json_response

        body = rec.json if isinstance(rec.json, dict) else {}
        user = self.fake.users.get(int(body.get("user_id") or 0))
        if user is None:
            return json_response({"code": 10013, "message": "Unknown User"}, 404)
        client_id = int(body.get("client_id") or 0)
        scopes = tuple(body.get("scopes") or ("identify",))
        return json_response({"code": self.issue_code(user, client_id=client_id, scopes=scopes)})

    async def _token(self, rec: RecordedRequest) -> web.Response:
        """`POST /oauth2/token`, grant type authorization_code: form-encoded, the client's id and secret in the
        body or as HTTP Basic auth, as Discord's OAuth2 documentation says."""
        from .wire import json_response

        form = self._form(rec)
        self.exchanges.append(form)
        client_id, secret = form.get("client_id"), form.get("client_secret")
        basic = rec.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
        if client_id != str(self.fake.application_id) or secret != self.client_secret:
            return json_response({"error": "invalid_client"}, 401)
        if form.get("grant_type") != "authorization_code":
            return json_response({"error": "unsupported_grant_type"}, 400)
        grant = self.codes.get(form.get("code") or "")
        if grant is None or grant.used or self._now() - grant.issued_at > CODE_LIFETIME:
            return json_response({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, 400)
        if grant.client_id != self.fake.application_id:
            return json_response({"error": "invalid_grant", "error_description": "Code for another application."}, 400)
        grant.used = True
        token = secrets.token_urlsafe(24)
        self.tokens[token] = Grant(grant.user, grant.client_id, grant.scopes, self._now())
        return json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": " ".join(grant.scopes),
            }
        )

    @staticmethod
    def _form(rec: RecordedRequest) -> dict[str, str]:
        content_type = rec.headers.get("Content-Type", "")
        if not content_type.startswith("application/x-www-form-urlencoded") or not isinstance(rec.json, str):
            return {}
        return {k: v[0] for k, v in urllib.parse.parse_qs(rec.json).items()}

    def _now(self) -> float:
        loop = self.fake._loop
        return loop.time() if loop is not None else 0.0


# -- the client frame (Playwright) ------------------------------------------------------------------------------------

FRAME_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Discord</title>
<style>html,body{margin:0;height:100%;background:#313338}iframe{border:0;width:100%;height:100%}</style></head>
<body><iframe id="app" allow="autoplay; clipboard-write"></iframe>
<script>
const ctx = __CONTEXT__;
const frame = document.getElementById("app");
const appOrigin = "https://" + ctx.application_id + ".discordsays.com";
const params = new URLSearchParams({frame_id: ctx.frame_id, instance_id: ctx.instance_id, platform: ctx.platform,
  guild_id: ctx.guild_id || "", channel_id: ctx.channel_id, location_id: ctx.channel_id});
frame.src = appOrigin + "/" + (ctx.path || "") + "?" + params;
window.rpc = [];  // every message the app sent, for the test to read
function reply(payload) { frame.contentWindow.postMessage([1, payload], appOrigin); }
function error(cmd, nonce, code, message) { reply({cmd, nonce, evt: "ERROR", data: {code, message}}); }
window.addEventListener("message", async (event) => {
  if (event.origin !== appOrigin || !Array.isArray(event.data)) return;
  const [op, data] = event.data;
  window.rpc.push([op, data && data.cmd ? data.cmd : null]);
  if (op === 0) {  // HANDSHAKE
    if (String(data.client_id) !== String(ctx.application_id) || String(data.frame_id) !== ctx.frame_id) return;
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
      config: {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production"},
      user: {id: ctx.user.id, username: ctx.user.username, discriminator: "0"}}});
    return;
  }
  if (op !== 1) return;
  const {cmd, nonce, args} = data;
  if (cmd === "AUTHORIZE") {
    const r = await fetch("/api/v10" + ctx.authorize_path, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({client_id: args.client_id, user_id: ctx.user.id, scopes: args.scope})});
    if (!r.ok) return error(cmd, nonce, 4002, "authorization failed");
    const body = await r.json();
    return reply({cmd, nonce, evt: null, data: {code: body.code}});
  }
  if (cmd === "AUTHENTICATE") {
    const r = await fetch("/api/v10/__fake/oauth2/authenticate", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({access_token: args.access_token})});
    if (!r.ok) return error(cmd, nonce, 4009, "Invalid access token");
    return reply({cmd, nonce, evt: null, data: await r.json()});
  }
  if (cmd === "GET_CHANNEL") {
    return reply({cmd, nonce, evt: null, data: {id: ctx.channel_id, type: 0, guild_id: ctx.guild_id, name: ctx.channel_name,
      voice_states: [], messages: []}});
  }
  if (cmd === "SUBSCRIBE" || cmd === "UNSUBSCRIBE" || cmd === "CAPTURE_LOG" || cmd === "SET_CONFIG") {
    return reply({cmd, nonce, evt: null, data: cmd === "SET_CONFIG" ? {use_interactive_pip: false} : null});
  }
  error(cmd, nonce, 4000, "the fake client does not know " + cmd);
});
</script></body></html>"""


class ActivityClient:
    """Discord's client running the bot's Activity in a Playwright browser context (see the module's docstring)."""

    def __init__(self, fake: FakeDiscord, app_base_url: str) -> None:
        self.fake = fake
        self.app_base_url = app_base_url.rstrip("/")
        self.app_origin = f"https://{fake.application_id}.discordsays.com"
        self.proxied: list[str] = []  # every URL the Activity asked for, as the browser asked

    async def attach(self, context: Any, *, proxy: bool = True) -> None:
        """Route Discord's client pages, its API and the Activity's proxied origin in `context` (a Playwright
        BrowserContext): nothing leaves the machine. `proxy=False`: the Activity's origin is left to an
        `ActivityProxy` (a streaming server the browser reaches by its host mapping)."""
        await context.route("https://discord.com/activities/**", self._frame)
        await context.route("https://discord.com/api/**", self._api)
        if proxy:
            await context.route(self.app_origin + "/**", self._proxy)

    def frame_url(
        self, launch: ActivityLaunch, *, platform: str = "mobile", path: str = "", user: FakeUser | None = None
    ) -> str:
        """Where Discord's client shows `launch` to `user` (default: the person it was launched for; another one
        joins the instance)."""
        fields = {"instance": launch.instance_id, "platform": platform, "path": path}
        if user is not None:
            launch.join(user)
            fields["user"] = str(user.id)
        query = urllib.parse.urlencode(fields)
        return f"https://discord.com/activities/{self.fake.application_id}?{query}"

    def _launch(self, instance_id: str) -> ActivityLaunch | None:
        return next((a for a in self.fake.activities.launches if a.instance_id == instance_id), None)

    async def _frame(self, route: Any) -> None:
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(route.request.url).query)
        launch = self._launch((query.get("instance") or [""])[0])
        if launch is None:
            await route.fulfill(status=404, body="no such Activity instance")
            return
        who = (query.get("user") or [""])[0]
        viewer = next((u for u in launch.users if str(u.id) == who), launch.user)
        context = {
            "application_id": str(self.fake.application_id),
            "frame_id": "frame-" + launch.instance_id,
            "instance_id": launch.instance_id,
            "platform": (query.get("platform") or ["mobile"])[0],
            "path": (query.get("path") or [""])[0],
            "guild_id": str(launch.guild_id) if launch.guild_id else None,
            "channel_id": str(launch.channel.id),
            "channel_name": launch.channel.name,
            "user": {"id": str(viewer.id), "username": viewer.name},
            "authorize_path": FAKE_AUTHORIZE,
        }
        body = FRAME_HTML.replace("__CONTEXT__", json.dumps(context))
        await route.fulfill(status=200, body=body, headers={"Content-Type": "text/html; charset=utf-8"})

    async def _api(self, route: Any) -> None:
        """The client frame's own calls to Discord, answered by the fake."""
        url = urllib.parse.urlsplit(route.request.url)
        path = url.path.removeprefix("/api")
        if path.startswith("/v10"):
            path = path[len("/v10") :]
        if path == "/__fake/oauth2/authenticate":
            token = json.loads(route.request.post_data or "{}").get("access_token", "")
            answer = self.fake.activities.authenticate(token)
            if answer is None:
                await route.fulfill(status=401, body=json.dumps({"message": "401: Unauthorized", "code": 0}))
            else:
                await route.fulfill(status=200, body=json.dumps(answer), headers={"Content-Type": "application/json"})
            return
        response = await route.fetch(url=self.fake.base_url + "/api/v10" + path)
        await route.fulfill(response=response)

    async def _proxy(self, route: Any) -> None:
        """Discord's proxy for the Activity: https://{app}.discordsays.com/... -> the app's server (a root mapping;
        `/.proxy/x` reaches `/x` too)."""
        url = urllib.parse.urlsplit(route.request.url)
        path = url.path.removeprefix("/.proxy")
        self.proxied.append(route.request.url)
        target = self.app_base_url + (path or "/") + (f"?{url.query}" if url.query else "")
        response = await route.fetch(url=target)
        await route.fulfill(response=response)


HOP_HEADERS = frozenset({"host", "connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"})


class ActivityProxy:
    """Discord's proxy for the Activity as a real server: https://{app}.discordsays.com/... -> the app's server,
    streaming each response as it comes (the board's live updates are Server-Sent Events, which Playwright's routing
    cannot pass: it waits for a whole body). Chromium reaches it through `chromium_args()` (the app's host mapped to
    this proxy's port; its certificate is self-signed, made by `openssl` for the test)."""

    def __init__(self, fake: FakeDiscord, app_base_url: str, workdir: Any) -> None:
        self.fake = fake
        self.app_base_url = app_base_url.rstrip("/")
        self.workdir = workdir
        self.host = f"{fake.application_id}.discordsays.com"
        self.app_origin = f"https://{self.host}"
        self.proxied: list[str] = []
        self.finished: list[str] = []  # the requests whose forwarding has ended (answered, or their page gone)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._http: Any = None

    async def start(self) -> None:
        import asyncio
        import ssl

        import aiohttp

        cert, key = self.workdir / "proxy.crt", self.workdir / "proxy.key"
        made = await asyncio.create_subprocess_exec(
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={self.host}",
            "-addext", f"subjectAltName=DNS:{self.host}", "-keyout", str(key), "-out", str(cert),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        assert await made.wait() == 0, "openssl could not make the proxy's certificate"
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        self._http = aiohttp.ClientSession(auto_decompress=False, timeout=aiohttp.ClientTimeout(total=None))
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=context)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._http is not None:
            await self._http.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def chromium_args(self) -> list[str]:
        # The mapped host is this machine: Chromium would block a public page's frame reaching "the local network".
        local_network = (
            "LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessForNavigations"
        )
        return [
            f"--host-resolver-rules=MAP {self.host}:443 127.0.0.1:{self.port}",
            "--ignore-certificate-errors",
            f"--disable-features={local_network}",
        ]

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        path = request.path.removeprefix("/.proxy") or "/"
        self.proxied.append(f"https://{self.host}{request.path_qs}")
        target = self.app_base_url + path + (f"?{request.query_string}" if request.query_string else "")
        try:
            return await self._stream(request, target)
        finally:
            self.finished.append(f"https://{self.host}{request.path_qs}")

    async def _stream(self, request: web.Request, target: str) -> web.StreamResponse:
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        body = await request.read()
        async with self._http.request(
            request.method, target, headers=headers, data=body or None, allow_redirects=False
        ) as upstream:
            response = web.StreamResponse(status=upstream.status)
            for k, v in upstream.headers.items():
                if k.lower() not in HOP_HEADERS:
                    response.headers.add(k, v)
            try:
                await response.prepare(request)
                async for chunk in upstream.content.iter_any():
                    await response.write(chunk)
            except ConnectionError:
                # The page went away (a stream closed as the board navigates, a browser closing): nothing to answer.
                # aiohttp's own finish of the response takes the same error quietly.
                pass
            return response
