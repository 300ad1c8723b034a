"""Every event and refusal code the engine can produce has its sentence in the catalogues (i18n/messages.py),
so the cogs can word them in any language from `code` and `params`."""

from __future__ import annotations

import ast
from pathlib import Path

from i18n import messages as M

ENGINE = Path(__file__).resolve().parents[2] / "engine"
ERRORS = {"IllegalAction", "IllegalPlacement", "NotEnoughCoins", "WrongPhase", "NotYourTurn", "GameOver", "ConfigError"}


def _code(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.replace("_", "").isalpha():
        return node.value if node.value == node.value.lower() else None
    return None


def engine_codes() -> tuple[set[str], set[str]]:
    """(event codes, error codes) written in the engine's source."""
    events, errors = set(), set()
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name == "Event" and node.args and (code := _code(node.args[0])):
                    events.add(code)
                elif name in ERRORS:
                    candidates = [node.args[1]] if len(node.args) > 1 else []
                    candidates += [k.value for k in node.keywords if k.arg == "code"]
                    errors.update(c for c in map(_code, candidates) if c)
            # refusals returned as (code, params, sentence)
            elif (
                isinstance(node, ast.Tuple)
                and len(node.elts) == 3
                and isinstance(node.elts[1], ast.Dict)
                and (code := _code(node.elts[0]))
            ):
                errors.add(code)
    return events, errors


def covered(code: str, sentences: dict) -> bool:
    return code in sentences or any(key.startswith(code + "_") for key in sentences)


def test_the_engine_has_codes_to_translate():
    events, errors = engine_codes()
    assert {"claimed", "placed", "built", "round_end"} <= events
    assert {"domino_taken", "not_connected", "dragon_flown", "player_count"} <= errors


def test_every_event_code_has_a_sentence():
    events, _ = engine_codes()
    missing = sorted(c for c in events if not covered(c, M.EVENTS))
    assert not missing, f"add sentences for these engine events to i18n/messages.py EVENTS: {missing}"


def test_every_refusal_code_has_a_sentence():
    _, errors = engine_codes()
    sentences = {**M.REFUSALS, **M.CONFIG_REFUSALS}
    missing = sorted(c for c in errors if not covered(c, sentences))
    assert not missing, f"add sentences for these engine refusals to i18n/messages.py REFUSALS: {missing}"
