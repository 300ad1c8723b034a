"""Playing on the board as a person does: taps on what the page shows, nothing else. The page marks its state on
<main>: data-version (the game's version drawn) and data-turn (the viewer's step: place, claim, first_claim, tax,
build, dragon; or wait, lobby, over)."""

from __future__ import annotations

import random
import time

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
STEP_TIMEOUT_MS = 30_000
# Given to every page before its own scripts: the last frames of its live stream, for a step that timed out to say
# what the page was last told (`Page.story`).
RECORD_FRAMES = """
(() => {
  const Real = window.EventSource;
  if (!Real) return;
  window.__frames = [];
  window.EventSource = function (url, options) {
    const source = new Real(url, options);
    source.addEventListener("message", (e) => {
      let f;
      try { f = JSON.parse(e.data); } catch (err) { f = {}; }
      window.__frames.push({ at: Math.round(performance.now()), version: f.version, settling: !!f.settling,
        turn: f.turn ? f.turn.kind + (f.turn.you ? " (you)" : "") : null, actions: !!f.actions, wait: !!f.wait });
      if (window.__frames.length > 12) window.__frames.shift();
    });
    return source;
  };
  window.EventSource.prototype = Real.prototype;
  Object.assign(window.EventSource, { CONNECTING: 0, OPEN: 1, CLOSED: 2 });
})();
"""


class Page:
    """A Playwright page with the board's helpers; console errors and page errors are collected."""

    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.taps = 0
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    async def goto(self, url: str) -> None:
        await self.page.goto(url)

    async def tap(self, selector: str) -> None:
        """A touch on a phone, a click on a desktop."""
        locator = self.page.locator(selector).first
        touch = self.page.context.browser is not None and await self.page.evaluate("() => 'ontouchstart' in window")
        try:
            if touch:
                await locator.tap(timeout=STEP_TIMEOUT_MS)
            else:
                await locator.click(timeout=STEP_TIMEOUT_MS)
        except Exception as error:
            raise AssertionError(f"could not tap {selector}: {error}\n{await self.story()}") from error
        self.taps += 1

    async def story(self) -> str:
        """What the page shows (its <main>'s data) and the last frames its live stream sent, for a failure."""
        try:
            shown = await self.page.evaluate(
                "() => ({...document.querySelector('main').dataset, now: Math.round(performance.now()),"
                " toast: document.getElementById('toast') && document.getElementById('toast').innerText})"
            )
            frames = await self.page.evaluate("() => window.__frames || []")
        except Exception as error:  # the page itself is gone
            return f"(the page could not be read: {error})"
        return f"the page shows {shown}; its stream's last frames: {frames}"

    async def turn(self) -> str:
        return await self.page.get_attribute("main", "data-turn") or ""

    async def version(self) -> int:
        return int(await self.page.get_attribute("main", "data-version") or -1)

    async def wait_turn(self, *kinds: str, timeout: float = STEP_TIMEOUT_MS) -> str:
        """Wait until the page shows one of `kinds` (any step of the viewer's, or over, when none given)."""
        wanted = list(kinds) or ["place", "claim", "first_claim", "tax", "build", "dragon", "over"]
        try:
            await self.page.wait_for_function(
                "(wanted) => wanted.includes(document.querySelector('main').dataset.turn)", arg=wanted, timeout=timeout
            )
        except Exception as error:
            raise AssertionError(f"the page never showed a step of {wanted}: {error}\n{await self.story()}") from error
        return await self.turn()

    async def wait_version_after(self, version: int, timeout: float = STEP_TIMEOUT_MS) -> None:
        """Wait until the page draws a later version than `version`, or shows a refusal."""
        try:
            await self.page.wait_for_function(
                "(v) => +document.querySelector('main').dataset.version > v || !document.getElementById('toast').hidden",
                arg=version,
                timeout=timeout,
            )
        except Exception as error:
            raise AssertionError(
                f"the page never drew a version after {version}: {error}\n{await self.story()}"
            ) from error

    async def toast(self) -> str:
        box = self.page.locator("#toast")
        return "" if await box.is_hidden() else (await box.inner_text())

    async def count(self, selector: str) -> int:
        return await self.page.locator(selector).count()


async def play_step(page: Page, rng: random.Random, *, optional: bool = True) -> str:
    """One decision of the viewer's by taps; returns the step it was."""
    kind = await page.turn()
    version = await page.version()
    if kind == "place":
        await page.tap(".cell-legal[id^=cell-]")
        await page.page.wait_for_selector("#confirm")
        if rng.random() < 0.3 and await page.page.locator("#rotate:not([disabled])").count():
            await page.tap("#rotate")
        await page.tap("#confirm")
    elif kind in ("claim", "first_claim"):
        await page.tap(f".dom.legal >> nth={rng.randrange(await page.count('.dom.legal'))}")
    else:  # Queendomino's optional steps: tax, build, dragon; or straight to the claim; or skip
        choices = ["claim" if await page.count(".dom.legal") else "skip"]
        if optional and await page.count("[id^=tax-]"):
            choices += ["tax"] * 3
        if optional and await page.count(".slot.legal"):
            choices += ["slot"] * 3
        choice = rng.choice(choices)
        if choice == "tax":
            await page.tap("[id^=tax-]")
        elif choice == "slot":
            await page.tap(".slot.legal")
            if await page.count("[id^=build-]"):
                await page.tap("[id^=build-]")
            else:  # the dragon: confirm the burn
                await page.tap("#confirm")
        elif choice == "claim":
            await page.tap(f".dom.legal >> nth={rng.randrange(await page.count('.dom.legal'))}")
        else:
            await page.tap("#skip")
    await page.wait_version_after(version)
    problem = await page.toast()
    assert not problem, f"the board refused a {kind} step it offered: {problem}"
    return kind


async def play_to_end(page: Page, *, seed: int = 1, max_steps: int = 600, optional: bool = True) -> list[str]:
    """Play the viewer's seats until the game is over; returns the steps taken."""
    rng = random.Random(seed)
    steps: list[str] = []
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline and len(steps) < max_steps:
        kind = await page.wait_turn()
        if kind == "over":
            return steps
        steps.append(await play_step(page, rng, optional=optional))
    raise AssertionError(f"the game did not end after {len(steps)} steps")
