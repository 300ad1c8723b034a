import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from settings import DEFAULT_DATABASE_PATH, Settings, SettingsError

ROOT = Path(__file__).resolve().parents[1]


def test_missing_token_means_local_games_on_the_board():
    s = Settings.from_env({})
    assert s.local and s.token == ""
    assert (s.web_host, s.web_port, s.web_secret) == ("127.0.0.1", 8080, None)
    assert not Settings.from_env({"DISCORD_TOKEN": "x"}).local


def test_web_settings():
    s = Settings.from_env({"WEB_HOST": "0.0.0.0", "WEB_PORT": "0", "WEB_SECRET": "s" * 40})
    assert (s.web_host, s.web_port) == ("0.0.0.0", 0)
    assert "s" * 40 not in repr(s) and "web_secret=<set>" in repr(s)
    assert Settings.from_env({"WEB_PORT": "off"}).web_port is None


def test_activity_settings():
    s = Settings.from_env({"DISCORD_TOKEN": "x"})
    assert (s.activity, s.public_url, s.discord_client_id, s.discord_client_secret) == ("auto", None, None, None)
    env = {"ACTIVITY": "ON", "PUBLIC_URL": "https://board.example.org", "DISCORD_CLIENT_ID": "42"}
    s = Settings.from_env({"DISCORD_TOKEN": "x", "DISCORD_CLIENT_SECRET": "hush-hush", **env})
    assert (s.activity, s.public_url, s.discord_client_id) == ("on", "https://board.example.org/", 42)
    assert "hush-hush" not in repr(s) and "discord_client_secret=<set>" in repr(s)


def test_defaults_and_parsing():
    s = Settings.from_env({"DISCORD_TOKEN": "abc.def", "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug"})
    assert s.database_path == Path(DEFAULT_DATABASE_PATH)
    assert s.dev_guild_id == 123
    assert s.log_level == logging.DEBUG
    assert "abc.def" not in repr(s) and "abc.def" not in str(s)


def test_worker_processes_default_to_the_cores_and_zero_means_threads():
    s = Settings.from_env({"DISCORD_TOKEN": "x"})
    assert s.ai_workers == s.picture_workers == (os.cpu_count() or 1)
    s = Settings.from_env({"DISCORD_TOKEN": "x", "AI_WORKERS": "3", "PICTURE_WORKERS": "0"})
    assert (s.ai_workers, s.picture_workers) == (3, 0)
    assert "picture_workers=0" in repr(s)


def test_computers_wait_a_few_seconds_by_default_for_an_undo():
    assert Settings.from_env({"DISCORD_TOKEN": "x"}).computer_delay == 6.0
    assert Settings.from_env({"DISCORD_TOKEN": "x", "COMPUTER_DELAY": "0"}).computer_delay == 0.0
    assert Settings.from_env({"DISCORD_TOKEN": "x", "COMPUTER_DELAY": "2.5"}).computer_delay == 2.5


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"COMPUTER_DELAY": "soon"}, "COMPUTER_DELAY must be a number of seconds from 0 to 60"),
        ({"COMPUTER_DELAY": "-1"}, "COMPUTER_DELAY must be a number of seconds from 0 to 60"),
        ({"COMPUTER_DELAY": "nan"}, "COMPUTER_DELAY must be a number of seconds from 0 to 60"),
        ({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"AI_WORKERS": "two"}, "AI_WORKERS must be a number of processes"),
        ({"PICTURE_WORKERS": "-1"}, "PICTURE_WORKERS must be a number of processes"),
        ({"WEB_PORT": "http"}, "WEB_PORT must be a port number"),
        ({"WEB_PORT": "70000"}, "WEB_PORT must be a port number"),
        ({"WEB_HOST": "http://x"}, "WEB_HOST must be an address"),
        ({"WEB_SECRET": "short"}, "WEB_SECRET must be at least 32 characters"),
        ({"ACTIVITY": "maybe"}, "ACTIVITY must be auto, on or off"),
        ({"PUBLIC_URL": "board.example.org"}, "PUBLIC_URL must be the board's address"),
        ({"PUBLIC_URL": "https://board.example.org/?x=1"}, "PUBLIC_URL must be the board's address"),
        ({"DISCORD_CLIENT_ID": "app"}, "DISCORD_CLIENT_ID must be the application's id"),
        ({"BACKUP_EVERY_HOURS": "daily"}, "BACKUP_EVERY_HOURS must be a number from 0 to 8760"),
        ({"BACKUP_EVERY_HOURS": "-1"}, "BACKUP_EVERY_HOURS must be a number from 0 to 8760"),
        ({"BACKUP_KEEP": "0"}, "BACKUP_KEEP must be how many backups to keep"),
        ({"PG_BIN": "/nowhere"}, "PG_BIN must be the folder holding pg_dump"),
        ({"STOP_SECONDS": "forever"}, "STOP_SECONDS must be a number from 0 to 600"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be lines or json"),
        ({"REMOVED_SERVER_DAYS": "nan"}, "REMOVED_SERVER_DAYS must be a number from 0 to 3650"),
    ],
)
def test_malformed_settings_are_refused(env, message):
    with pytest.raises(SettingsError, match=message):
        Settings.from_env({"DISCORD_TOKEN": "x", **env})


def test_running_it_for_real_has_its_settings():
    s = Settings.from_env({"DISCORD_TOKEN": "x", "DATABASE_PATH": "/srv/kd/games.sqlite3"})
    assert s.backup_dir == Path("/srv/kd/backups"), "the backups beside the database by default"
    assert (s.backup_every_hours, s.backup_keep, s.pg_bin) == (24.0, 7, None)
    assert (s.stop_seconds, s.log_format, s.removed_server_days) == (8.0, "lines", 30.0)
    env = {"BACKUP_DIR": "/backups", "BACKUP_EVERY_HOURS": "0", "BACKUP_KEEP": "3", "STOP_SECONDS": "20"}
    s = Settings.from_env({"DISCORD_TOKEN": "x", **env, "LOG_FORMAT": "JSON", "REMOVED_SERVER_DAYS": "7"})
    assert (s.backup_dir, s.backup_every_hours, s.backup_keep) == (Path("/backups"), 0.0, 3)
    assert (s.stop_seconds, s.log_format, s.removed_server_days) == (20.0, "json", 7.0)
    assert "backup_keep=3" in repr(s) and "log_format=json" in repr(s)


def test_run_command_without_token_and_without_board_exits_with_guidance(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "WEB_PORT": "off"}
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "copy .env.example to .env and set DISCORD_TOKEN" in result.stderr
    assert result.stdout == ""
