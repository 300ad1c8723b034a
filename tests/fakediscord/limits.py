"""Discord's limits on what a bot sends. Each check returns problems as (JSON path, message) pairs.

The numbers are Discord's documented limits. Command and option names are held to `^[-_a-z0-9]{1,32}$`:
Discord also accepts non-ASCII letters, this project does not use them.
"""

from __future__ import annotations

import re
from typing import Any

from .model import MAX_FILE_SIZE, MessageFlag, UploadedFile, walk_components

Problem = tuple[str, str]

NAME_RE = re.compile(r"^[-_a-z0-9]{1,32}$")
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_OPTIONS = 25  # command options, choices, select options, autocomplete choices
MAX_CUSTOM_ID = 100
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
SELECT_TYPES = (3, 5, 6, 7, 8)
ALLOWED_MESSAGE_FLAGS = (
    MessageFlag.SUPPRESS_EMBEDS
    | MessageFlag.EPHEMERAL
    | MessageFlag.SUPPRESS_NOTIFICATIONS
    | MessageFlag.IS_COMPONENTS_V2
)


def _length(problems: list[Problem], path: str, value: Any, low: int, high: int, *, required: bool = True) -> None:
    if value is None:
        if required and low > 0:
            problems.append((path, "This field is required."))
        return
    if not isinstance(value, str):
        problems.append((path, f"Must be a string, not {type(value).__name__}."))
        return
    if not low <= len(value) <= high:
        problems.append((path, f"Must be between {low} and {high} in length (got {len(value)})."))


def _count(problems: list[Problem], path: str, items: Any, high: int, *, low: int = 0) -> list[Any]:
    if items is None:
        items = []
    if not isinstance(items, list):
        problems.append((path, "Must be an array."))
        return []
    if not low <= len(items) <= high:
        problems.append((path, f"Must be between {low} and {high} in length (got {len(items)})."))
    return items


# --- application commands ----------------------------------------------------------------------------

OPTION_TYPES = range(1, 12)
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


def validate_commands(commands: Any) -> list[Problem]:
    """A bulk overwrite (`PUT .../commands`) body."""
    problems: list[Problem] = []
    commands = _count(problems, "", commands, 200)
    seen: set[tuple[int, str]] = set()
    per_type: dict[int, int] = {}
    for i, command in enumerate(commands):
        path = str(i)
        if not isinstance(command, dict):
            problems.append((path, "Must be an object."))
            continue
        kind = command.get("type", 1)
        per_type[kind] = per_type.get(kind, 0) + 1
        name = command.get("name")
        key = (kind, str(name))
        if key in seen:
            problems.append((f"{path}.name", f"Application command names must be unique ({name!r} repeats)."))
        seen.add(key)
        if kind == 1:
            if not isinstance(name, str) or not NAME_RE.match(name):
                problems.append((f"{path}.name", f"Command name {name!r} does not match ^[-_a-z0-9]{{1,32}}$."))
            _length(problems, f"{path}.description", command.get("description"), 1, 100)
            _validate_options(problems, f"{path}.options", command.get("options"), depth=0)
            total = _command_characters(command)
            if total > 4000:
                problems.append(
                    (path, f"Command {name!r} has {total} characters of names and descriptions (max 4000).")
                )
        elif kind in (2, 3):
            _length(problems, f"{path}.name", name, 1, 32)
            if command.get("description"):
                problems.append((f"{path}.description", "Context menu commands cannot have a description."))
            if command.get("options"):
                problems.append((f"{path}.options", "Context menu commands cannot have options."))
        elif (
            kind == 4
        ):  # PRIMARY_ENTRY_POINT: the App Launcher's command (handler 1 APP_HANDLER, 2 DISCORD_LAUNCH_ACTIVITY)
            if not isinstance(name, str) or not NAME_RE.match(name):
                problems.append((f"{path}.name", f"Command name {name!r} does not match ^[-_a-z0-9]{{1,32}}$."))
            _length(problems, f"{path}.description", command.get("description"), 1, 100)
            if command.get("options"):
                problems.append((f"{path}.options", "An Entry Point command cannot have options."))
            if command.get("handler", 1) not in (1, 2):
                problems.append((f"{path}.handler", "Must be 1 (APP_HANDLER) or 2 (DISCORD_LAUNCH_ACTIVITY)."))
        else:
            problems.append((f"{path}.type", f"Unknown application command type {kind!r}."))
    if per_type.get(4, 0) > 1:
        problems.append(("", "An application has at most one Primary Entry Point command."))
    if per_type.get(1, 0) > 100:
        problems.append(("", f"At most 100 slash commands (got {per_type[1]})."))
    for kind in (2, 3):
        if per_type.get(kind, 0) > 15:
            problems.append(("", f"At most 15 context menu commands of type {kind} (got {per_type[kind]})."))
    return problems


def _command_characters(command: dict[str, Any]) -> int:
    total = len(command.get("name") or "") + len(command.get("description") or "")
    for option in command.get("options") or []:
        total += _command_characters(option)
        for choice in option.get("choices") or []:
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total


def _validate_options(problems: list[Problem], path: str, options: Any, *, depth: int) -> None:
    options = _count(problems, path, options, MAX_OPTIONS)
    names: set[str] = set()
    kinds = [o.get("type") for o in options if isinstance(o, dict)]
    subs = [k for k in kinds if k in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if subs and len(subs) != len(kinds):
        problems.append((path, "Subcommands and groups cannot be mixed with other options."))
    seen_optional = False
    for i, option in enumerate(options):
        opath = f"{path}.{i}"
        if not isinstance(option, dict):
            problems.append((opath, "Must be an object."))
            continue
        kind = option.get("type")
        name = option.get("name")
        if kind not in OPTION_TYPES:
            problems.append((f"{opath}.type", f"Unknown option type {kind!r}."))
        if not isinstance(name, str) or not NAME_RE.match(name):
            problems.append((f"{opath}.name", f"Option name {name!r} does not match ^[-_a-z0-9]{{1,32}}$."))
        elif name in names:
            problems.append((f"{opath}.name", f"Option names must be unique ({name!r} repeats)."))
        names.add(str(name))
        _length(problems, f"{opath}.description", option.get("description"), 1, 100)
        if kind == SUB_COMMAND_GROUP:
            if depth > 0:
                problems.append((opath, "A subcommand group can only be at the top level."))
            if any(o.get("type") != SUB_COMMAND for o in option.get("options") or []):
                problems.append((f"{opath}.options", "A subcommand group can only contain subcommands."))
            _validate_options(problems, f"{opath}.options", option.get("options"), depth=depth + 1)
            continue
        if kind == SUB_COMMAND:
            if depth > 1:
                problems.append((opath, "Subcommands cannot be nested this deep."))
            if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in option.get("options") or []):
                problems.append((f"{opath}.options", "A subcommand cannot contain subcommands or groups."))
            _validate_options(problems, f"{opath}.options", option.get("options"), depth=depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                problems.append((opath, "Required options must be placed before non-required options."))
        else:
            seen_optional = True
        choices = option.get("choices")
        if choices:
            if kind not in (3, 4, 10):
                problems.append((f"{opath}.choices", "Only string, integer and number options can have choices."))
            if option.get("autocomplete"):
                problems.append((f"{opath}.autocomplete", "Autocomplete and choices are mutually exclusive."))
            _validate_choices(problems, f"{opath}.choices", choices, kind)
        if option.get("autocomplete") and kind not in (3, 4, 10):
            problems.append((f"{opath}.autocomplete", "Only string, integer and number options can autocomplete."))
        for key in ("min_length", "max_length"):
            if key in option and option[key] is not None:
                if kind != 3:
                    problems.append((f"{opath}.{key}", f"{key} is only for string options."))
                elif not 0 <= option[key] <= 6000:
                    problems.append((f"{opath}.{key}", f"{key} must be between 0 and 6000."))
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None or high is not None) and kind not in (4, 10):
            problems.append((opath, "min_value and max_value are only for integer and number options."))
        if low is not None and high is not None and low > high:
            problems.append((opath, "min_value must not exceed max_value."))


def _validate_choices(problems: list[Problem], path: str, choices: Any, kind: Any) -> None:
    choices = _count(problems, path, choices, MAX_OPTIONS)
    for i, choice in enumerate(choices):
        cpath = f"{path}.{i}"
        if not isinstance(choice, dict):
            problems.append((cpath, "Must be an object."))
            continue
        _length(problems, f"{cpath}.name", choice.get("name"), 1, 100)
        value = choice.get("value")
        if kind == 3 or isinstance(value, str):
            _length(problems, f"{cpath}.value", value, 1, 100)
        elif isinstance(value, bool) or not isinstance(value, int | float):
            problems.append((f"{cpath}.value", f"Must be a string or a number, not {value!r}."))
        elif kind == 4 and not isinstance(value, int):
            problems.append((f"{cpath}.value", f"Must be an integer, not {value!r}."))


def validate_autocomplete(data: Any) -> list[Problem]:
    problems: list[Problem] = []
    if not isinstance(data, dict):
        return [("data", "Must be an object with choices.")]
    _validate_choices(problems, "data.choices", data.get("choices"), None)
    return problems


# --- messages ----------------------------------------------------------------------------------------


def validate_message(
    data: Any, files: list[UploadedFile], *, creating: bool, interaction: bool, path: str = ""
) -> list[Problem]:
    """A message create or edit body (channel message, interaction response data, follow-up, webhook edit)."""
    problems: list[Problem] = []
    pre = f"{path}." if path else ""
    if not isinstance(data, dict):
        return [(path, "Must be an object.")]
    content = data.get("content")
    if content is not None:
        if not isinstance(content, str):
            problems.append((f"{pre}content", "Must be a string."))
        elif len(content) > MAX_CONTENT:
            problems.append((f"{pre}content", f"Must be {MAX_CONTENT} or fewer in length (got {len(content)})."))
    flags = data.get("flags") or 0
    if not isinstance(flags, int):
        problems.append((f"{pre}flags", "Must be an integer."))
        flags = 0
    if flags & ~ALLOWED_MESSAGE_FLAGS:
        problems.append((f"{pre}flags", f"Flags {flags & ~ALLOWED_MESSAGE_FLAGS} cannot be set by a bot."))
    if flags & MessageFlag.EPHEMERAL and not interaction:
        problems.append((f"{pre}flags", "Only interaction responses can be ephemeral."))
    problems += validate_embeds(data.get("embeds"), path=f"{pre}embeds")
    v2 = bool(flags & MessageFlag.IS_COMPONENTS_V2)
    if v2 and (content or data.get("embeds")):
        problems.append((f"{pre}content", "A components v2 message cannot have content or embeds."))
    problems += validate_components(data.get("components"), v2=v2, path=f"{pre}components")
    if len(files) > MAX_FILES:
        problems.append((f"{pre}attachments", f"At most {MAX_FILES} files per message (got {len(files)})."))
    for upload in files:
        if len(upload.data) > MAX_FILE_SIZE:
            problems.append(
                (
                    f"files[{upload.index}]",
                    f"File {upload.filename!r} is {len(upload.data)} bytes; the limit is {MAX_FILE_SIZE} "
                    "(Request entity too large).",
                )
            )
    if creating and not (content or data.get("embeds") or files or data.get("components") or data.get("poll")):
        problems.append((pre.rstrip(".") or "message", "Cannot send an empty message."))
    return problems


def validate_embeds(embeds: Any, *, path: str = "embeds") -> list[Problem]:
    problems: list[Problem] = []
    embeds = _count(problems, path, embeds, MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        epath = f"{path}.{i}"
        if not isinstance(embed, dict):
            problems.append((epath, "Must be an object."))
            continue
        title, description = embed.get("title"), embed.get("description")
        _length(problems, f"{epath}.title", title, 0, 256, required=False)
        _length(problems, f"{epath}.description", description, 0, 4096, required=False)
        total += len(title or "") + len(description or "")
        fields = _count(problems, f"{epath}.fields", embed.get("fields"), 25)
        for j, f in enumerate(fields):
            _length(problems, f"{epath}.fields.{j}.name", f.get("name"), 1, 256)
            _length(problems, f"{epath}.fields.{j}.value", f.get("value"), 1, 1024)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        footer = (embed.get("footer") or {}).get("text")
        _length(problems, f"{epath}.footer.text", footer, 0, 2048, required=False)
        author = (embed.get("author") or {}).get("name")
        _length(problems, f"{epath}.author.name", author, 0, 256, required=False)
        total += len(footer or "") + len(author or "")
    if total > MAX_EMBED_TOTAL:
        problems.append((path, f"Embeds hold {total} characters in all; the limit is {MAX_EMBED_TOTAL}."))
    return problems


def validate_components(components: Any, *, v2: bool, path: str = "components") -> list[Problem]:
    problems: list[Problem] = []
    if components is None:
        return problems
    if not isinstance(components, list):
        return [(path, "Must be an array.")]
    if v2:
        total = sum(1 for _ in walk_components(components))
        if total > MAX_V2_COMPONENTS:
            problems.append((path, f"At most {MAX_V2_COMPONENTS} components in a message (got {total})."))
        text = sum(len(c.get("content") or "") for c in walk_components(components) if c.get("type") == 10)
        if text > MAX_V2_TEXT:
            problems.append((path, f"At most {MAX_V2_TEXT} characters of text display (got {text})."))
        for i, component in enumerate(components):
            if component.get("type") not in (1, 9, 10, 12, 13, 14, 17):
                problems.append((f"{path}.{i}.type", f"Component type {component.get('type')} cannot be top level."))
            _validate_v2(problems, f"{path}.{i}", component)
    else:
        _count(problems, path, components, MAX_ROWS)
        for i, row in enumerate(components):
            if not isinstance(row, dict) or row.get("type") != 1:
                problems.append((f"{path}.{i}.type", "Top-level components must be action rows (type 1)."))
                continue
            _validate_row(problems, f"{path}.{i}", row)
    custom_ids: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in custom_ids:
            problems.append((path, f"Component custom id {custom_id!r} is used twice."))
        custom_ids.add(custom_id)
    return problems


def _validate_v2(problems: list[Problem], path: str, component: dict[str, Any]) -> None:
    kind = component.get("type")
    if kind == 1:
        _validate_row(problems, path, component)
    elif kind == 17:  # container
        for i, child in enumerate(component.get("components") or []):
            if child.get("type") not in (1, 9, 10, 12, 13, 14):
                problems.append((f"{path}.components.{i}", f"Type {child.get('type')} cannot be in a container."))
            _validate_v2(problems, f"{path}.components.{i}", child)
    elif kind == 9:  # section
        _count(problems, f"{path}.components", component.get("components"), 3, low=1)
        accessory = component.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
            problems.append((f"{path}.accessory", "A section needs a button or thumbnail accessory."))
        elif accessory.get("type") == 2:
            _validate_button(problems, f"{path}.accessory", accessory)


def _validate_row(problems: list[Problem], path: str, row: dict[str, Any]) -> None:
    children = _count(problems, f"{path}.components", row.get("components"), MAX_ROW_BUTTONS, low=1)
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        problems.append((f"{path}.components", "A select menu takes a whole action row."))
    for j, child in enumerate(children):
        cpath = f"{path}.components.{j}"
        kind = child.get("type")
        if kind == 2:
            _validate_button(problems, cpath, child)
        elif kind in SELECT_TYPES:
            _validate_select(problems, cpath, child)
        else:
            problems.append((f"{cpath}.type", f"Component type {kind} cannot be in a message action row."))


def _validate_button(problems: list[Problem], path: str, button: dict[str, Any]) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        problems.append((f"{path}.style", f"Unknown button style {style!r}."))
    if style == 5:
        if not button.get("url"):
            problems.append((f"{path}.url", "A link button needs a url."))
        if button.get("custom_id"):
            problems.append((f"{path}.custom_id", "A link button cannot have a custom_id."))
    elif style == 6:
        if not button.get("sku_id"):
            problems.append((f"{path}.sku_id", "A premium button needs a sku_id."))
    else:
        _length(problems, f"{path}.custom_id", button.get("custom_id"), 1, MAX_CUSTOM_ID)
        if button.get("url"):
            problems.append((f"{path}.url", "Only link buttons have a url."))
    if style != 6 and not button.get("label") and not button.get("emoji"):
        problems.append((path, "A button needs a label or an emoji."))
    _length(problems, f"{path}.label", button.get("label"), 0, 80, required=False)


def _validate_select(problems: list[Problem], path: str, select: dict[str, Any]) -> None:
    _length(problems, f"{path}.custom_id", select.get("custom_id"), 1, MAX_CUSTOM_ID)
    _length(problems, f"{path}.placeholder", select.get("placeholder"), 0, 150, required=False)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= 25:
        problems.append((f"{path}.min_values", f"Must be between 0 and 25 (got {low})."))
    if not 1 <= high <= 25:
        problems.append((f"{path}.max_values", f"Must be between 1 and 25 (got {high})."))
    if low > high:
        problems.append((f"{path}.min_values", "min_values must not exceed max_values."))
    if select.get("type") == 3:
        options = _count(problems, f"{path}.options", select.get("options"), MAX_OPTIONS, low=1)
        values: set[str] = set()
        for k, option in enumerate(options):
            opath = f"{path}.options.{k}"
            _length(problems, f"{opath}.label", option.get("label"), 1, 100)
            _length(problems, f"{opath}.value", option.get("value"), 1, 100)
            _length(problems, f"{opath}.description", option.get("description"), 0, 100, required=False)
            if option.get("value") in values:
                problems.append((f"{opath}.value", f"Select option values must be unique ({option.get('value')!r})."))
            values.add(option.get("value"))
        if options and low > len(options):
            problems.append((f"{path}.min_values", "min_values exceeds the number of options."))
        defaults = sum(1 for o in options if o.get("default"))
        if defaults > high:
            problems.append((f"{path}.options", f"{defaults} default options but max_values is {high}."))
    elif len(select.get("default_values") or []) > high:
        problems.append((f"{path}.default_values", "More default values than max_values."))


# --- modals --------------------------------------------------------------------------------------------


def validate_modal(data: Any) -> list[Problem]:
    problems: list[Problem] = []
    if not isinstance(data, dict):
        return [("data", "Must be an object.")]
    _length(problems, "data.title", data.get("title"), 1, 45)
    _length(problems, "data.custom_id", data.get("custom_id"), 1, MAX_CUSTOM_ID)
    components = _count(problems, "data.components", data.get("components"), 5, low=1)
    for i, component in enumerate(components):
        cpath = f"data.components.{i}"
        kind = component.get("type")
        if kind == 1:
            children = _count(problems, f"{cpath}.components", component.get("components"), 1, low=1)
            for child in children:
                if child.get("type") != 4:
                    problems.append((cpath, "An action row in a modal holds exactly one text input."))
                else:
                    _validate_text_input(problems, f"{cpath}.components.0", child, labelled=False)
        elif kind == 18:
            _length(problems, f"{cpath}.label", component.get("label"), 1, 45)
            _length(problems, f"{cpath}.description", component.get("description"), 0, 100, required=False)
            inner = component.get("component") or {}
            if inner.get("type") == 4:
                _validate_text_input(problems, f"{cpath}.component", inner, labelled=True)
            elif inner.get("type") in SELECT_TYPES:
                _validate_select(problems, f"{cpath}.component", inner)
            elif inner.get("type") not in (19,):  # file upload
                problems.append((f"{cpath}.component", f"Component type {inner.get('type')} cannot be in a label."))
        elif kind != 10:
            problems.append((f"{cpath}.type", f"Component type {kind} cannot be in a modal."))
    return problems


def _validate_text_input(problems: list[Problem], path: str, text_input: dict[str, Any], *, labelled: bool) -> None:
    _length(problems, f"{path}.custom_id", text_input.get("custom_id"), 1, MAX_CUSTOM_ID)
    if text_input.get("style") not in (1, 2):
        problems.append((f"{path}.style", "Text input style must be 1 (short) or 2 (paragraph)."))
    if labelled:
        if text_input.get("label"):
            problems.append((f"{path}.label", "A text input inside a label component has no label of its own."))
    else:
        _length(problems, f"{path}.label", text_input.get("label"), 1, 45)
    low, high = text_input.get("min_length"), text_input.get("max_length")
    if low is not None and not 0 <= low <= 4000:
        problems.append((f"{path}.min_length", "Must be between 0 and 4000."))
    if high is not None and not 1 <= high <= 4000:
        problems.append((f"{path}.max_length", "Must be between 1 and 4000."))
    _length(problems, f"{path}.value", text_input.get("value"), 0, 4000, required=False)
    _length(problems, f"{path}.placeholder", text_input.get("placeholder"), 0, 100, required=False)


def error_tree(problems: list[Problem]) -> dict[str, Any]:
    """Discord's nested `errors` object for an Invalid Form Body answer."""
    tree: dict[str, Any] = {}
    for path, message in problems:
        node = tree
        for part in [p for p in path.split(".") if p]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "INVALID", "message": message})
    return tree
