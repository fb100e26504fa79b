"""Counts as a sentence says them: ``1 deck``, ``2 decks``, ``1 success``, ``3 successes``."""


def plural(count: int, noun: str, many: str | None = None) -> str:
    return f"{count} {noun if count == 1 else many or noun + 's'}"
