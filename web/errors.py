"""The board's answers that are not a page: a refused request (an HTTP status and a sentence in the reader's
language) and a declined move (a well-formed request the game declines: HTTP 200, `ok: false`)."""

from __future__ import annotations


class Refusal(Exception):
    """A request the board refuses: HTTP status and a sentence in the reader's language."""

    def __init__(self, status: int, text: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(text)
        self.status, self.text, self.headers = status, text, dict(headers or {})


class Declined(Refusal):
    """A well-formed move the game declines (not your turn, the table changed, nothing to undo...): an answer
    (HTTP 200, `ok: false`) that the board shows, not a failed request."""

    def __init__(self, text: str) -> None:
        super().__init__(200, text)
