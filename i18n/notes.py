"""Translator notes: what every catalogue entry carries as `#.` comments, so any .po editor or translation platform
shows where a message appears, how long it may be and what its placeholders hold.

Three sources, joined by `python -m i18n extract` (i18n/extract.py):

1. The code's own comments tagged `Translators:`, written next to the message: on the line of the marked call,
   in the comment block just above it, or in the block above its statement (so a note above a dict of messages
   covers every entry):

       BUTTON_JOIN = N_("Join")  # Translators: button on the lobby message; everyone at the table sees it.

   The tagged line and the comment lines after it in the same block are the note.
2. Where a message is registered for Discord's limits (`messages.BUTTON_LABELS` ...), its kind and limit.
3. For each placeholder the note does not already explain (`{cell}` named in it), the meaning below; a
   placeholder with no meaning here must be explained in the message's own note (the tests check it).

Slash-command strings and game terms get their notes from where they come from (the command and option they
describe, the term's group): see `slash_note` and `term_note`.
"""

from __future__ import annotations

import ast
import re

from .terms import Term

TAG = re.compile(r"^\s*translators\s*:\s*", re.IGNORECASE)

# Placeholders that mean the same in every message. Ambiguous names ({first}, {last}, {second}, {total}, {coins},
# {knights}, {towers}, {free}, {choices}, {number}, {size}...) are left out on purpose: each message says.
PLACEHOLDERS: dict[str, str] = {
    "n": "the number the plural form is chosen by",
    "name": "a player's display name as Discord shows it (never declined; put it where no case ending is needed)",
    "names": "one or more players' names, joined with your language's 'and' (a team: 'Ann & Bob')",
    "player": "a player's name, or an @mention where they are pinged",
    "owners": "the kingdom's player, or a team's two names",
    "kingdom": "the kingdom's player(s), by name",
    "players": "the number of players",
    "game": "the game's name: Kingdomino, Queendomino, or Royal Wedding in your language (term:royal-wedding)",
    "game_id": "the game's number, like 12",
    "cell": "a cell of the kingdom grid: its column letter and row number, like E5 (the same in every language)",
    "cells": "cells of the kingdom grid, like 'E4 and F4' or 'E4, F5'",
    "domino": "a domino's number, like 23 (K23 or Q23 in Royal Wedding), sometimes with its two squares in words",
    "dominoes": "domino numbers joined with your language's 'and'",
    "direction": "a direction word (up, right, down, left) from this catalogue",
    "directions": "direction words from this catalogue, joined with commas or 'and'",
    "building": "a building's name, from the glossary (term:building.*)",
    "buildings": "building names (with their cells), joined with commas",
    "terrain": "a terrain's word from the glossary, like 'forest'",
    "round": "the round's number",
    "rounds": "the number of rounds in the game (12, or 6 with two players)",
    "deal": "which of the Dynasty's three games (1, 2 or 3)",
    "deals": "how many games the Dynasty has (3)",
    "hours": "a number of hours, like 12 or 0.5",
    "seconds": "a number of seconds",
    "minutes": "a number of minutes",
    "link": "empty, or ' — ' and the table's address (a Discord jump link)",
    "channel": "the channel's mention, shown by Discord as #name",
    "host": "the host: their @mention or display name",
    "level": "a computer level word (easy, medium, hard) from this catalogue",
    "gain": "what the placement scores, in words from this catalogue: '+3 points'",
    "points": "a number of points, like 12, or 3.2 with one decimal",
    "scores": "each player's name and score, like 'Ann 12, Bob 9'",
    "tiebreak": "what broke the tie, a phrase from this catalogue ('the largest territory')",
    "error": "a technical error (Discord's or the database's, in English): leave it as it is",
    "reason": "a whole sentence saying why, already in your language",
    "what": "what the player must do: a whole clause from this catalogue ('place domino 23'), starting in lower case",
    "limit": "a number: the limit",
    "typed": "what the player typed, as they typed it",
    "zone": "a time-zone name as typed, like Europe/Prague",
    "start": "a time of day, like 22:30",
    "end": "a time of day, like 07:00",
    "option": "a slash-command option's name, as the reader's Discord shows it",
    "page": "the page's number",
    "pages": "the number of pages",
    "slot": "a slot of the builders' board, 1 to 6",
    "square": "a square in words: its terrain and crowns ('forest 1 crown')",
    "spot": "a spot's button text: a cell and an arrow, like 'E5 →'",
    "arrow": "an arrow: ↑ → ↓ ←",
    "effect": "what a building does, a phrase from this catalogue ('+1 knight', '2 points per forest territory')",
    "variants": "variant names from the glossary, joined with commas",
    "variant": "a variant's name as typed (an unknown one)",
    "winners": "the winner's or winners' names",
    "user": "the member's name or @mention",
    "members": "the team's two players, 'Ann & Bob'",
    "status": "a table state from this catalogue ('lobby', 'playing')",
    "setup": "the game's set-up in words from this catalogue ('Queendomino, 4 players')",
    "letters": "each terrain's grid letter and word, like 'P obilné pole, L les'",
    "castle": "the castle's two grid letters (context grid:castle)",
    "parts": "the score's parts, like 'Mine 2 · Coins 2'",
    "place": "a rank: 1, 2, 3...",
    "games": "each Dynasty game's score, like '31, 28, 40'",
    "rank": "a rank: 1, 2, 3...",
    "rating": "a rating number, like 21.4",
    "wins": "a number of games won",
    "played": "a number of games played (the stats lines) or a move in words (the review)",
    "average": "an average score, like 41.5",
    "best": "the best score",
    "permissions": "Discord permission names from this catalogue, joined with commas",
    "language": "a language's own name (Čeština, Español...)",
    "languages": "the languages' codes, like en, ro, es, cs",
    "value": "what the player typed or chose",
    "view": "an internal view name (a bug if shown)",
    "action": "an internal action name (a bug if shown)",
    "field": "a field of the web board's request (its English name)",
    "allowed": "the allowed values of that field",
    "guild": "a Discord server's numeric id",
    "row": "a row number of the grid, 1 to 7 (13 in a 7×7 frame)",
    "drawn": "how many of those dominoes will still be drawn",
    "taken": "how many seats are taken",
    "reminder": "the hours before a reminder",
    "deadline": "the hours before a computer plays for an absent player",
    "lobbies": "a number: open tables",
    "low": "the smallest number of players",
    "high": "the largest number of players",
    "when": "'Round 3' or 'Set-up', from this catalogue",
    "better": "the hard computer player's move in words, from this catalogue",
    "score": "a score (a number)",
    "others": "the other tied players' names",
    "how": "what broke the tie, a phrase from this catalogue",
    "next": "the next page's number",
    "alt": "the table's description in words (already in your language)",
    "extra": "extra coins from buildings",
    "length": "a number of characters",
    "wanted": "the number of knights asked for",
    "sent": "how many knights were sent this round",
    "left": "how many more knights may be sent",
    "detail": "the score's parts in words, like 'forest 6, coins 2'",
    "details": "the buildings and their points in words",
    "finished": "the Dynasty game just finished (1 or 2)",
    "crowns": "a number of crowns",
    "top": "the first row number",
    "bottom": "the last row number",
    "teams": "the number of teams",
}

# messages.<list> -> what it is and its limit (Discord's, or the picture's room).
KINDS: dict[str, str] = {
    "BUTTON_LABELS": "A button label: Discord allows 80 characters; a phone shows about 25 in one line.",
    "BUTTON_PLURALS": "A button label: Discord allows 80 characters; a phone shows about 25 in one line.",
    "SELECT_OPTIONS": "An option of a drop-down menu: Discord allows 100 characters.",
    "SELECT_PLURALS": "An option of a drop-down menu: Discord allows 100 characters.",
    "SELECT_PLACEHOLDERS": "The grey hint of a drop-down menu before a choice: Discord allows 150 characters.",
    "AUTOCOMPLETE_CHOICES": "A suggestion under a slash-command option as the player types: Discord allows 100 characters.",
    "AUTOCOMPLETE_PLURALS": "A suggestion under a slash-command option as the player types: Discord allows 100 characters.",
}


def kinds_by_constant(tree: ast.Module) -> dict[str, list[str]]:
    """In a module like i18n/messages.py: each constant named in one of the KINDS lists -> that list's note
    (`BUTTON_LABELS = [BUTTON_JOIN, *LOOKS.values()]` gives BUTTON_JOIN and LOOKS the button note). By the
    constant's name, not its English: the lobby's 'Cancel' is a Discord button, the web board's is not."""
    out: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id in KINDS:
            note = KINDS[node.targets[0].id]
            for name in ast.walk(node.value):
                if isinstance(name, ast.Name) and note not in out.setdefault(name.id, []):
                    out[name.id].append(note)
    return out


def assigned_name(statement: ast.AST | None) -> str | None:
    if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id
    return None


def mentioned(placeholder: str, notes: list[str]) -> bool:
    return any("{" + placeholder + "}" in note for note in notes)


def placeholder_notes(msgids: list[str], notes: list[str]) -> list[str]:
    """`{cell}: a cell of the kingdom grid...` for each placeholder of `msgids` the written notes do not explain."""
    names: list[str] = []
    for msgid in msgids:
        for found in re.findall(r"\{([^{}]*)\}", msgid):
            if found not in names:
                names.append(found)
    return [f"{{{p}}}: {PLACEHOLDERS[p]}." for p in names if p in PLACEHOLDERS and not mentioned(p, notes)]


def unexplained(msgids: list[str], notes: list[str]) -> list[str]:
    """Placeholders of `msgids` explained neither by `notes` nor by PLACEHOLDERS."""
    out = []
    for msgid in msgids:
        for found in re.findall(r"\{([^{}]*)\}", msgid):
            if found not in PLACEHOLDERS and not mentioned(found, notes) and found not in out:
                out.append(found)
    return out


GROUPS = {
    "piece": "a piece or part of the game",
    "terrain": "a terrain",
    "building": "a building's name (Queendomino)",
    "game": "a game's name",
    "variant": "a variant's name",
    "action": "a step of a turn, as an infinitive or short phrase",
}


def term_note(term: Term) -> str:
    plural = (
        " Its forms are the forms after a number (one / few / other in Czech and Romanian)."
        if term.plural is not None
        else ""
    )
    return (
        f"A game term, {GROUPS.get(term.group, term.group)}: '{term.singular}'. Use the rulebook's word, as "
        f"i18n/glossary/<your language>.md gives it; sentences name it the same way.{plural}"
    )


def slash_note(location: str, command: str, option: str | None, choice: str | None = None) -> str:
    """Where a slash-command string shows in Discord's command picker (`command`: one or more, joined with ', /'),
    and its limit."""
    if location == "parameter_name":
        return (
            f"The name of the option `{option}` of /{command}, in the command picker: lowercase, no spaces (use _), "
            "at most 32 characters, unique within the command."
        )
    if location == "parameter_description":
        return f"Describes the option `{option}` of /{command} in the command picker: at most 100 characters."
    if location == "choice_name":
        return f"A choice of the option `{option}` of /{command} in the command picker: at most 100 characters."
    if location == "group_description":
        return f"Describes the command group /{command} in the command picker: at most 100 characters."
    return f"Describes the command /{command} in the command picker: at most 100 characters."
