"""Recorded bodies checked against Discord's OpenAPI description (github.com/discord/discord-api-spec).

`discord_api_spec.json` holds, unchanged, the schemas the Activity's requests use and every schema they refer to
(its `_source` names the spec's commit). `problems(name, value)` checks a value against one of them with the part
of JSON Schema those schemas use: type, enum, const, oneOf, allOf, $ref, properties, required,
additionalProperties, items, the length, size and range bounds, pattern and uniqueItems."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

SPEC = Path(__file__).with_name("discord_api_spec.json")
TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
}


@cache
def schemas() -> dict[str, Any]:
    return json.loads(SPEC.read_text())["schemas"]


def problems(name: str, value: Any) -> list[str]:
    """What in `value` does not fit Discord's schema `name` (empty: it fits)."""
    out: list[str] = []
    _check(schemas()[name], value, name, out)
    return out


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, TYPES[kind])


def _check(schema: dict, value: Any, path: str, out: list[str]) -> None:
    if "$ref" in schema:
        _check(schemas()[schema["$ref"].rsplit("/", 1)[1]], value, path, out)
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            out.append(f"{path}: {value!r} is not of type {'/'.join(kinds)}")
            return
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: {value!r} is not {schema['const']!r}")
    for part in schema.get("allOf", []):
        _check(part, value, path, out)
    if "oneOf" in schema:
        fits = [p for p in schema["oneOf"] if not _sub(p, value, path)]
        if len(fits) != 1:
            out.append(f"{path}: {value!r} fits {len(fits)} of the oneOf choices, not exactly one")
    _bounds(schema, value, path, out)
    if isinstance(value, dict):
        _object(schema, value, path, out)
    if isinstance(value, list):
        for i, item in enumerate(value):
            if "items" in schema:
                _check(schema["items"], item, f"{path}[{i}]", out)


def _sub(schema: dict, value: Any, path: str) -> list[str]:
    found: list[str] = []
    _check(schema, value, path, found)
    return found


def _bounds(schema: dict, value: Any, path: str, out: list[str]) -> None:
    size = len(value) if isinstance(value, str | list | dict) else None
    for key, test in (
        ("minLength", lambda n: size is None or size >= n),
        ("maxLength", lambda n: size is None or size <= n),
        ("minItems", lambda n: size is None or size >= n),
        ("maxItems", lambda n: size is None or size <= n),
        ("maxProperties", lambda n: size is None or size <= n),
        ("minimum", lambda n: not isinstance(value, int | float) or value >= n),
        ("maximum", lambda n: not isinstance(value, int | float) or value <= n),
        ("pattern", lambda p: not isinstance(value, str) or re.search(p, value) is not None),
    ):
        if key in schema and not test(schema[key]):
            out.append(f"{path}: {value!r} breaks {key} {schema[key]!r}")
    if schema.get("uniqueItems") and isinstance(value, list) and len({json.dumps(v) for v in value}) != len(value):
        out.append(f"{path}: items repeat")


def _object(schema: dict, value: dict, path: str, out: list[str]) -> None:
    properties = schema.get("properties", {})
    for key in schema.get("required", []):
        if key not in value:
            out.append(f"{path}: {key!r} is required")
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if key in properties:
            _check(properties[key], item, f"{path}.{key}", out)
        elif extra is False:
            out.append(f"{path}: {key!r} is not a property of this schema")
        elif isinstance(extra, dict):
            _check(extra, item, f"{path}.{key}", out)
