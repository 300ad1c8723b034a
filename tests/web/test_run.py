"""`make run` without a token, in a clean copy of the project: the bot serves the board at the address it prints,
and a local game against computer players, played over HTTP as the page plays it, ends with the score sheet."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def clean_copy(where: Path) -> Path:
    """The project's tracked files only (no .env, no database, no virtual environment)."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        source = ROOT / name
        if source.is_file():
            target = where / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    assert not (where / ".env").exists()
    return where


def choose(actions: dict) -> dict:
    """The first action the board offers, as the page would send it."""
    if actions.get("place"):
        p = actions["place"][0]
        return {"type": "place", "cell": [p["row"], p["col"]], "direction": p["dir"]}
    if actions.get("claim"):
        return {"type": "claim", "domino": actions["claim"][0]}
    return {"type": "skip"}


async def play_over_http(url: str) -> dict:
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(base_url=url, cookie_jar=jar) as http:
        async with http.get("/") as r:
            assert r.status == 200 and "board.js" in await r.text()
        body = {"kind": "kingdomino", "players": 2, "computers": 1, "level": "random"}
        async with http.post("/api/games", json=body) as r:
            gid = (await r.json())["id"]
        async with http.get(f"/api/games/{gid}/events", timeout=aiohttp.ClientTimeout(total=600)) as stream:
            async for raw in stream.content:
                line = raw.decode().strip()
                if not line.startswith("data: "):
                    continue
                view = json.loads(line[6:])
                if view["turn"] is None:
                    return view
                if view["turn"]["you"] and not view.get("settling"):
                    act = {"version": view["version"], "action": choose(view["actions"])}
                    async with http.post(f"/api/games/{gid}/act", json=act) as r:
                        answer = await r.json()
                        assert answer["ok"] or "changed" in answer["error"], answer
    raise AssertionError("the stream ended before the game")


async def test_make_run_without_a_token_plays_a_local_game(tmp_path):
    project = clean_copy(tmp_path / "project")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "WEB_", "PYTHON"))}
    env["WEB_PORT"] = "0"  # any free port: the bot prints which
    env["COMPUTER_DELAY"] = "0"  # computer players answer at once (the time to take a misclick back is for people)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "bot.py", cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        found = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert found, first
        final = await play_over_http(found.group(0))
        assert final["status"] == "finished" and final["winners"]
        assert "points" in final["final"], final["final"]
        assert (project / "data" / "kingdomino.sqlite3").is_file(), "the embedded SQLite file"
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        output = (await asyncio.wait_for(process.communicate(), 60))[0].decode()
    assert process.returncode == 0, output
    assert "ERROR" not in output and "Traceback" not in output, output
