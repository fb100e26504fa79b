"""Super Smash Quest Skirmish, the rules of the table between fights: losing a life and the Game Over (half the
coins lost, a session sat out in the infirmary, three lives on return), and the one Smash Power a turn.
Pure standard library (the turn calculator page answers with it in the browser).

The numbers a house rule might change are in ``[play]`` of ``rules/ssq/game.toml`` (the lives a fighter comes
back with, the share of coins lost and which way it rounds, the sessions sat out); the Smash Powers a turn allows
is ``[turn] smash_powers_per_turn``, the number ``carddb play ssq turn`` checks too, so the two always agree. The
readings taken where the rulebook is unclear are notes of ``rules/ssq/rulebook.md`` and ``[[readings]]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, choice, plural, setting
from carddb.errors import DefinitionError
from carddb.games.ssq.fight import turn_number

#: How a life is lost -> (what the sentence says, the rulebook section that says it costs a life).
CAUSES = {
    "fall": ("falls off a ledge and dies", "death"),
    "hp": ("drops to 0 HP in HP mode", "death"),
    "smash": ("is killed outright by a Smash (damage had reached HP)", "beyond-recovery"),
    "star-finish": ("is blasted off in a star finish", "star-finish"),
}
MAX_LIVES = 99
MAX_COINS = 999_999
MAX_SESSION = 9999


# ------------------------------------------------------------------------------------------- a life and Game Over
def lose_life(game: GameDefinition, fighter: Card, *, lives: int | None = None, coins: int | None = None,
              cause: str = "fall", session: int | None = None) -> Answer:
    """A fighter with ``lives`` (default: the fighter's sheet) loses one; at none left it is Game Over: the coins
    lost (``coins`` held before), the sessions sat out (``session``: the current one's number) and the lives the
    fighter comes back with. A fighter with no lives left cannot lose one: a problem, with its rule."""
    out = Answer(game.id, "lose-life")
    death = game.rule_link("death")
    before = lives if lives is not None else int(fighter.get("lives") or 0)
    how, section = CAUSES[cause]
    out.values = {"fighter": fighter.name, "cause": cause, "lives_before": before, "lives_left": before,
                  "game_over": False, "coins_before": coins, "coins_lost": 0 if coins is not None else None,
                  "coins_after": coins, "sits_out": [], "returns_in_session": None, "returns_with_lives": None}
    if before <= 0:
        out.problem(f"{fighter.name} has no lives left: a fighter at Game Over recovers in the infirmary and "
                    f"cannot lose another life.", death)
        out.summary = f"{fighter.name} has no lives left to lose."
        return out
    left = before - 1
    out.say(f"{fighter.name} {how}: a life lost.", game.rule_link(section))
    out.say(f"{_lives(before)} - 1 = {_lives(left)} left; lives do not come back between fights or "
            f"missions.", death)
    out.values["lives_left"] = left
    if left:
        out.summary = f"{fighter.name} loses a life: {_lives(left)} left."
        return out
    _game_over(game, out, fighter, coins, session)
    return out


def _game_over(game: GameDefinition, out: Answer, fighter: Card, coins: int | None, session: int | None) -> None:
    """The last life lost: the coins, the sessions in the infirmary, the lives on return (into ``out``)."""
    death = game.rule_link("death")
    out.values["game_over"] = True
    out.say("No lives left: Game Over.", death)
    if coins is not None:
        lost = _coins_lost(game, coins)
        out.values.update(coins_lost=lost, coins_after=coins - lost)
        rounded = (f" (the loss rounded {choice(game, 'game_over_coins_rounding', ('down', 'up'))})"
                   if coins % _divisor(game) else "")
        out.say(f"Loses {_share(game)} of {plural(coins, 'coin')}: {coins} - {lost} = {coins - lost}{rounded}.", death)
    else:
        out.say(f"Loses {_share(game)} of the coins held (give the coins to count them).", death)
    out_for, back_with = int(setting(game, "game_over_sessions_out")), int(setting(game, "lives_on_return"))
    out.values["returns_with_lives"] = back_with
    if session is not None:
        sat = [session + n for n in range(out_for + 1)]
        out.values.update(sits_out=sat, returns_in_session=session + out_for + 1)
        missed = f"the rest of session {session}" + "".join(f" and session {s}" for s in sat[1:])
        back = f"session {session + out_for + 1}"
    else:
        missed = "the rest of this session" + (f" and the next {plural(out_for, 'session')}" if out_for > 1
                                               else " and the next one" if out_for else "")
        back = "the session after that" if out_for else "the next session"
    out.say(f"In the infirmary: sits out {missed}; back in {back} with {_lives(back_with)}.", death)
    coins_words = (f"loses {out.values['coins_lost']} of {plural(coins, 'coin')}" if coins is not None
                   else f"loses {_share(game)} the coins")
    out.summary = (f"Game Over: {fighter.name} {coins_words} and sits out {missed}; back in {back} with "
                   f"{_lives(back_with)}.")


def _lives(count: int) -> str:
    return plural(count, "life", "lives")


def _coins_lost(game: GameDefinition, coins: int) -> int:
    """The coins a Game Over takes: the share of ``[play]`` (half), a part coin rounded as ``[play]`` says."""
    if choice(game, "game_over_coins_rounding", ("down", "up")) == "down":
        return coins // _divisor(game)
    return -(-coins // _divisor(game))


def _divisor(game: GameDefinition) -> int:
    part = int(setting(game, "game_over_coins_divisor"))
    if part < 1:
        raise DefinitionError(f"{game.id}'s game.toml: [play] game_over_coins_divisor is {part}; a Game Over loses "
                              f"1/N of the coins, N at least 1")
    return part


def _share(game: GameDefinition) -> str:
    part = _divisor(game)
    return "half" if part == 2 else "all" if part == 1 else f"1/{part}"


# ---------------------------------------------------------------------------------------- one Smash Power a turn
def smash_powers(game: GameDefinition, fighter: Card, turn: Sequence[Card], between: Sequence[Card] = ()) -> Answer:
    """The Smash Powers of one turn: the moves used on the turn (``turn``) and the defensive ones used between the
    fighter's turns (``between``, such as the Bubble Shield), which do not count. More than ``[turn]
    smash_powers_per_turn`` on the turn is a problem, as is a move of another fighter.

    Reading: a Smash Power is a move of type smash power; a special move's 1 SP, or Smash Points added to a Super
    Smash, do not make it one (``carddb play ssq turn`` counts the same way)."""
    out = Answer(game.id, "smash-powers")
    rule, kind_rule = game.rule_link("smash-points"), game.rule_link("move-anatomy")
    most = turn_number(game, "smash_powers_per_turn")
    counted: list[str] = []
    for move in turn:
        _owner(game, out, fighter, move)
        if _is_smash_power(move):
            counted.append(move.name)
            out.say(f"{move.name}, on the turn: a Smash Power ({len(counted)} this turn).", rule)
        else:
            out.say(f"{move.name}, on the turn: a {move.get('move_type') or 'move'} move, not a Smash Power.",
                    kind_rule)
    for move in between:
        _owner(game, out, fighter, move)
        what = "a defensive Smash Power" if _is_smash_power(move) else "not a Smash Power"
        out.say(f"{move.name}, between {fighter.name}'s turns: {what}; it does not count towards the turn's.", rule)
    if len(counted) > most:
        out.problem(f"{fighter.name} uses {plural(len(counted), 'Smash Power')} on one turn ({', '.join(counted)}); "
                    f"a turn allows {most}.", rule)
        out.summary = f"Not allowed: {fighter.name} uses {plural(len(counted), 'Smash Power')} on one turn."
    elif out.problems:
        out.summary = f"Not allowed: {out.problems[0].text}"
    elif counted:
        out.summary = (f"Allowed: {fighter.name} uses {plural(len(counted), 'Smash Power')} this turn; a turn allows "
                       f"{most}.")
    else:
        out.summary = f"Allowed: {fighter.name} uses no Smash Power this turn."
    out.values = {"fighter": fighter.name, "smash_powers": counted, "allowed": most,
                  "between_turns": [m.name for m in between]}
    return out


def _is_smash_power(move: Card) -> bool:
    return move.get("move_type") == "smash power"


def _owner(game: GameDefinition, out: Answer, fighter: Card, move: Card) -> None:
    owner = move.get("fighter")
    if owner and normalise_name(str(owner)) != normalise_name(fighter.name):
        out.problem(f"{move.name} is {owner}'s move, not {fighter.name}'s.", game.rule_link("move-anatomy"))
