"""What every play helper shares: the answer it gives, cards looked up by name, and numbers read from a request.
Pure standard library (the site runs the helpers in the browser).

A play helper settles a question a table argues about (does this attack KO? who wins this battle? which critics
does my site win?). It is a pure function of typed inputs, catalogue cards and plain numbers, and returns an
``Answer``: the result in one sentence, the numbers, and the working step by step in a player's words
("7 + 3 = 10D"), each step linked to the rulebook section that sets its rule. A request that breaks a rule
(a fourth discard in a turn, two mana charges) is answered with ``problems``; a request that cannot be read
(an unknown card, a number out of range) raises ``InputError``, which the command line turns into ``Error: ...``.

Every helper also reads its request from a JSON object, checked against its typed signature
(``carddb.core.play.signature``; ``HELPERS`` of each game's helpers module, found by ``carddb.core.play.registry``,
called by ``answer``), so ``carddb play <game> <helper> --json`` and the site's forms give the same answer by
construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from carddb.core.cards.card import Card
from carddb.core.checker.check import CardIndex, card_index
from carddb.core.decks.parse import split_qualifier
from carddb.core.game.definition import GameDefinition
from carddb.core.play.registry import load, plugin, plugins
from carddb.core.wording import plural  # noqa: F401  (the helpers import it from here)
from carddb.errors import DefinitionError, InputError, NotFoundError

#: The largest number a request may hold (a damage, a life total, a count): beyond it nothing is a real game.
MAX_NUMBER = 9999


@dataclass(frozen=True, slots=True)
class Step:
    """One line of working, or one problem, with the rulebook section it follows."""

    text: str
    rule: str = ""


@dataclass(slots=True)
class Answer:
    game: str
    helper: str
    summary: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    working: list[Step] = field(default_factory=list)
    problems: list[Step] = field(default_factory=list)

    def say(self, text: str, rule: str = "") -> None:
        self.working.append(Step(text, rule))

    def problem(self, text: str, rule: str = "") -> None:
        self.problems.append(Step(text, rule))

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "helper": self.helper, "answer": self.summary, **self.values,
                "legal": self.legal, "working": [{"text": s.text, "rule": s.rule} for s in self.working],
                "problems": [{"message": p.text, "rule": p.rule} for p in self.problems]}

    def text(self) -> str:
        """The answer, then the working, then the problems, then the rulebook sections used."""
        lines = [self.summary] if self.summary else []
        lines += [f"  {step.text}" for step in self.working if step.text != self.summary]  # said once
        lines += [f"Problem: {p.text}" for p in self.problems]
        rules = list(dict.fromkeys(s.rule for s in (*self.working, *self.problems) if s.rule))
        if rules:
            lines.append(f"Rules: {', '.join(rules)}")
        return "".join(f"{line}\n" for line in lines)


def helpers(game: GameDefinition) -> Mapping[str, Any]:
    """The play helpers of a game, by name (``damage``, ``ko``, ...): each a ``signature.Described`` that answers a
    request, ``(game, index, request) -> Answer``."""
    found = plugin(game.id)
    if found is None:
        raise InputError(f"{game.name} has no play helpers (they exist for {', '.join(plugins())})")
    return load(found.helpers).HELPERS


def answer(game: GameDefinition, cards: Sequence[Card] | CardIndex, helper: str,
           request: Mapping[str, Any]) -> Answer:
    """Run one helper on a request (a JSON object; its keys are the helper's, see each module's ``HELPERS``)."""
    found = helpers(game).get(helper)
    if found is None:
        raise InputError(f"{game.name} has no play helper {helper!r} (helpers: {', '.join(helpers(game))})")
    if not isinstance(request, Mapping):
        raise InputError("the request is not a JSON object")
    return found(game, card_index(game, cards), request)


# ------------------------------------------------------------------------------------------- the game's numbers
def setting(game: GameDefinition, key: str) -> Any:
    """A value of ``[play]``, else the default its plugin declares (``PlayKey``); a game that lacks one with no
    default cannot answer the rule (no number is guessed here)."""
    if key not in game.play:
        found = plugin(game.id)
        declared = found.play.get(key) if found is not None else None
        if declared is not None and declared.default is not None:
            return declared.default
        raise DefinitionError(f"{game.id}'s game.toml has no [play] {key}; the rule needs it",
                              hint=f"if rules/{game.id}/game.toml has it, rebuild the catalogue with `carddb build`")
    return game.play[key]


def choice(game: GameDefinition, key: str, allowed: Sequence[str]) -> str:
    value = str(setting(game, key))
    if value not in allowed:
        raise DefinitionError(f"{game.id}'s game.toml: [play] {key} is {value!r}; use {' or '.join(allowed)}")
    return value


# ------------------------------------------------------------------------------------------------ cards by name
def find_card(game: GameDefinition, index: CardIndex, name: Any, kinds: Iterable[str] = (), what: str = "card"
              ) -> Card:
    """The card a player named, resolved as the deck checker resolves deck lines (case, spacing, apostrophes,
    the game's aliases, a ``(version)`` for same-named cards); an unknown name comes with close names."""
    text = str(name or "").strip()
    if not text:
        raise InputError(f"name a {what}")
    base, qualifier = split_qualifier(text)
    found = index.names.resolve(base, qualifier)
    kinds = tuple(kinds)
    if found.card is None:
        if found.status == "ambiguous":
            raise InputError(f"{len(found.choices)} cards are called {text!r}; write one of: "
                             f"{', '.join(found.choices)}")
        if found.status == "no-version":
            raise NotFoundError(f"no {text!r} in {game.name}; there are: {', '.join(found.choices)}")
        close = [n for n in found.choices if not kinds or _kind_of(index, n) in kinds] or list(found.choices)
        hint = f"; did you mean {_or(close)}?" if close else ""
        raise NotFoundError(f"no {what} called {text!r} in {game.name}{hint}")
    card = found.card
    if kinds and card.kind not in kinds:
        label = game.kinds[card.kind].label.lower() if card.kind in game.kinds else card.kind
        raise InputError(f"{card.key} is a {label}, not a {what}")
    return card


def _kind_of(index: CardIndex, name: str) -> str:
    found = index.names.resolve(name)
    return found.card.kind if found.card is not None else ""


def _or(names: Sequence[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


# -------------------------------------------------------------------------------------------- reading requests
def names_of(value: Any) -> list[str]:
    """A list of names from a request: a list (empty entries left out) or nothing."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list | tuple):
        raise InputError(f"expected a list of names, not {value!r}")
    return [str(v).strip() for v in value if v is not None and str(v).strip()]


def whole(request: Mapping[str, Any], key: str, default: int | None = None, *, low: int = 0,
          high: int = MAX_NUMBER, what: str = "") -> int | None:
    """A whole number of the request between ``low`` and ``high``; an absent or empty one is ``default``."""
    value = request.get(key)
    what = what or key.replace("_", " ")
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("-").isdigit():
            raise InputError(f"{what} must be a whole number, not {value!r}")
        value = int(text)
    if isinstance(value, float):
        if not value.is_integer():
            raise InputError(f"{what} must be a whole number, not {value!r}")
        value = int(value)
    if not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise InputError(f"{what} must be from {low} to {high}, not {value}")
    return value


def flag(request: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = request.get(key, default)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
        return value.lower() in ("true", "yes", "on", "1")
    raise InputError(f"{key.replace('_', ' ')} must be true or false, not {value!r}")


def word(request: Mapping[str, Any], key: str, allowed: Sequence[str], default: str) -> str:
    value = request.get(key)
    if value is None or value == "":
        return default
    text = str(value).strip().lower()
    if text not in allowed:
        raise InputError(f"{key.replace('_', ' ')} must be {' or '.join(allowed)}, not {value!r}")
    return text


def rows(request: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """A list of objects (a form's rows); rows whose every value is empty are left out."""
    value = request.get(key) or []
    if not isinstance(value, list) or not all(isinstance(row, Mapping) for row in value):
        raise InputError(f"{key.replace('_', ' ')} must be a list of objects")
    return [row for row in value if any(v not in (None, "", False, []) for v in row.values())]


# ------------------------------------------------------------------------------------------------- probabilities
def chance(value: Fraction) -> dict[str, Any]:
    """A probability as JSON: the exact fraction and the percentage (rounded to 2 places for reading)."""
    return {"fraction": f"{value.numerator}/{value.denominator}", "percent": round(float(value) * 100, 2)}


def percent_text(value: Fraction) -> str:
    """``3/8 (37.5%)``; 0 and 1 as ``0`` and ``1`` (``0%``, ``100%``)."""
    share = float(value) * 100
    shown = "<0.01" if 0 < share < 0.005 else f"{share:.2f}".rstrip("0").rstrip(".")
    fraction = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return f"{fraction} ({shown}%)"


