"""The components of a message as the bot reads them to tell a click on a control that is gone (cogs/views.py
`walk_components`, used by `answer_dropped_click`): every control, however deep Discord nests it."""

from __future__ import annotations

from discord.components import _component_factory

from cogs.views import walk_components


def button(custom_id: str) -> dict:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}


def select(custom_id: str) -> dict:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": "a", "value": "a"}]}


def parsed(*payloads: dict) -> list:
    return [_component_factory(p) for p in payloads]


def ids(components) -> list[str]:
    return [c.custom_id for c in walk_components(components) if getattr(c, "custom_id", None)]


def test_action_rows_give_their_buttons_and_selects_in_order():
    rows = parsed(
        {"type": 1, "components": [button("kd:turn:1"), button("kd:look:1")]},
        {"type": 1, "components": [select("kd:cell:1")]},
    )
    assert ids(rows) == ["kd:turn:1", "kd:look:1", "kd:cell:1"]
    kinds = [c.type.value for c in walk_components(rows)]
    assert kinds == [1, 2, 2, 1, 3]  # the rows themselves too


def test_components_v2_containers_sections_and_labels_are_walked_to_the_bottom():
    payload = {
        "type": 17,  # container
        "components": [
            {
                "type": 9,  # section: text, and a button as its accessory
                "components": [{"type": 10, "content": "Your turn"}],
                "accessory": button("kd:turn:2"),
            },
            {"type": 1, "components": [button("kd:look:2")]},
        ],
    }
    assert ids(parsed(payload)) == ["kd:turn:2", "kd:look:2"]


def test_a_message_without_components_has_none():
    assert list(walk_components([])) == []
