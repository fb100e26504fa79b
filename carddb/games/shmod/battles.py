"""Shmod's battles: one attack as the rulebook's table resolves it, and a Battle Phase of attacks in order, with
the ATK changes made during it. Pure standard library (the site runs it in the browser); the numbers and readings
are ``[play]`` of ``rules/shmod/game.toml``.

Battles as the rulebook's table gives them: attack against attack, the lower ATK is destroyed and its owner takes
1 (equal: both, and both players take 1); attack against defense, ATK above DEF destroys the defender, below costs
the attacker's owner 1, **Reading** equal destroys nothing and costs nothing (``equal_atk_def``); a direct attack,
allowed only against a player with no monsters, deals 1, and none from a 0-ATK monster.

An ATK changed inside the Battle Phase (an Equip, a Field card, an effect) counts from the moment it is made:
**Reading** each battle compares the ATK its monsters have when it is fought, so a battle already fought stands
and only the attacks after the change use the new ATK; ATK does not fall below ``atk_floor``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, choice, plural, setting

EQUAL_READINGS = ("nothing", "destroy-defender", "attacker-takes-damage")


def int_value(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _says(card: Card, words: str) -> bool:
    return words.lower() in card.text.lower()


@dataclass(slots=True)
class Monster:
    """A monster on the field: its card, position, and ATK/DEF as they are now (equips and fields included)."""

    card: Card
    position: str = "attack"  # attack | defense
    atk: int | None = None
    defence: int | None = None
    attacks_made: int = 0

    def __post_init__(self) -> None:
        self.atk = int_value(self.card.get("atk")) if self.atk is None else self.atk
        self.defence = int_value(self.card.get("def")) if self.defence is None else self.defence

    @property
    def name(self) -> str:
        return self.card.name

    def attacks_allowed(self, game: GameDefinition) -> int:
        """Once a Battle Phase unless the card says otherwise (**Reading**: "can attack twice" in its text)."""
        return 2 if _says(self.card, "attack twice") else int(setting(game, "attacks_per_monster"))


@dataclass(frozen=True, slots=True)
class Result:
    """What one battle did: the monsters destroyed and the Life each side lost."""

    destroyed_attacker: bool = False
    destroyed_defender: bool = False
    attacker_loses: int = 0
    defender_loses: int = 0


def resolve(game: GameDefinition, attacker: Monster, defender: Monster | None, out: Answer) -> Result:
    """One attack, its outcome explained in ``out``; ``defender`` None is a direct attack."""
    rule, hit = game.rule_link("battling"), int(setting(game, "battle_damage"))
    if defender is None:
        if attacker.atk == 0:
            out.say(f"{attacker.name} attacks directly with 0 ATK: no damage.", rule)
            return Result()
        out.say(f"{attacker.name} attacks directly: the defending player takes {hit}.", rule)
        return Result(defender_loses=hit)
    a, name_a, name_d = attacker.atk, attacker.name, defender.name
    if defender.position == "attack":
        d = defender.atk
        if a > d:
            out.say(f"{name_a} (ATK {a}) against {name_d} (ATK {d}): {name_d} has the lower ATK, is destroyed, and "
                    f"its owner takes {hit}.", rule)
            return Result(destroyed_defender=True, defender_loses=hit)
        if a < d:
            out.say(f"{name_a} (ATK {a}) against {name_d} (ATK {d}): {name_a} has the lower ATK, is destroyed, and "
                    f"its owner takes {hit}.", rule)
            return Result(destroyed_attacker=True, attacker_loses=hit)
        out.say(f"{name_a} (ATK {a}) against {name_d} (ATK {d}): equal ATK, both are destroyed and both players "
                f"take {hit}.", rule)
        return Result(True, True, hit, hit)
    d = defender.defence
    if a > d:
        out.say(f"{name_a} (ATK {a}) against {name_d} in Defense Position (DEF {d}): ATK is higher, {name_d} is "
                f"destroyed; no one takes damage.", rule)
        return Result(destroyed_defender=True)
    if a < d:
        out.say(f"{name_a} (ATK {a}) against {name_d} in Defense Position (DEF {d}): ATK is lower, neither is "
                f"destroyed and the attacker's owner takes {hit}.", rule)
        return Result(attacker_loses=hit)
    reading = choice(game, "equal_atk_def", EQUAL_READINGS)
    start = f"{name_a} (ATK {a}) against {name_d} in Defense Position (DEF {d}): ATK equals DEF"
    if reading == "destroy-defender":
        out.say(f"{start}; by this format's reading {name_d} is destroyed, no one takes damage.", rule)
        return Result(destroyed_defender=True)
    if reading == "attacker-takes-damage":
        out.say(f"{start}; by this format's reading the attacker's owner takes {hit}.", rule)
        return Result(attacker_loses=hit)
    out.say(f"{start}: the rulebook does not say; by our reading nothing is destroyed and no one takes damage.",
            rule)
    return Result()


def battle(game: GameDefinition, attacker: Monster, defender: Monster | None, *,
           defender_has_monsters: bool = False) -> Answer:
    """One battle: an attack on a monster, or a direct attack (``defender`` None), allowed only when the defending
    player has no monsters in play."""
    out = Answer(game.id, "battle")
    rule = game.rule_link("battling")
    if attacker.position != "attack":
        out.problem(f"{attacker.name} is in Defense Position: only monsters in Attack Position attack.", rule)
    if defender is None and defender_has_monsters:
        out.problem("A direct attack is allowed only when the defending player has no monsters in play.", rule)
    result = resolve(game, attacker, defender, out)
    out.values = {"attacker": attacker.name, "defender": defender.name if defender else None,
                  "position": defender.position if defender else None, **_result(result)}
    out.summary = _summary(attacker, defender, result)
    return out


def _result(result: Result) -> dict[str, Any]:
    return {"attacker_destroyed": result.destroyed_attacker, "defender_destroyed": result.destroyed_defender,
            "attacker_loses": result.attacker_loses, "defender_loses": result.defender_loses}


def _summary(attacker: Monster, defender: Monster | None, result: Result) -> str:
    gone = [m.name for m, lost in ((attacker, result.destroyed_attacker), (defender, result.destroyed_defender))
            if m is not None and lost]
    damage = [f"{who} takes {n}" for who, n in (("the attacking player", result.attacker_loses),
                                               ("the defending player", result.defender_loses)) if n]
    parts = ([f"{' and '.join(gone)} {'is' if len(gone) == 1 else 'are'} destroyed"] if gone else []) + damage
    text = ", ".join(parts) if parts else "nothing happens"
    return text[0].upper() + text[1:] + "."


# ------------------------------------------------------------------------------------------------ battle phase
@dataclass(frozen=True, slots=True)
class Declared:
    """An attack declared in the Battle Phase: the attacker by name, the target by name ("" attacks directly)."""

    attacker: str
    target: str = ""


@dataclass(slots=True)
class Side:
    monsters: list[Monster] = field(default_factory=list)
    life: int = 10

    def find(self, name: str) -> list[Monster]:
        wanted = normalise_name(name)
        return [m for m in self.monsters if normalise_name(m.name) == wanted]


@dataclass(frozen=True, slots=True)
class Change:
    """An ATK change made in the Battle Phase after ``after`` attacks (0: before the first): ``by`` added to the ATK
    of the monster named, on ``whose`` field ("mine", "theirs", or "" for whichever holds it)."""

    after: int
    card: str
    by: int
    whose: str = ""


def battle_phase(game: GameDefinition, mine: Side, theirs: Side, attacks: Sequence[Declared], *,
                 first_turn: bool = False, changes: Sequence[Change] = (), helper: str = "phase") -> Answer:
    """A Battle Phase: each declared attack in order, monsters destroyed, and both players' Life afterwards.

    Each monster attacks once a Battle Phase unless its text says otherwise; a direct attack needs the defender to
    have no monsters at that moment; the first player skips the Battle Phase of the first turn. VAMPIRISIM: a
    card that deals damage to the opponent while its owner has less than 10 Life gains its owner 1 Life.
    **Reading**: a player at 0 Life has lost (``lose_at_life``; the rulebook leaves it to Yu-Gi-Oh!). ``changes``
    are applied between the attacks they follow.
    """
    out = Answer(game.id, helper)
    rule, start = game.rule_link("battling"), int(setting(game, "life"))
    before = (mine.life, theirs.life)
    fought: list[dict[str, Any]] = []
    if first_turn:
        out.problem("The player who goes first skips the Battle Phase of the first turn: no attacks.",
                    game.rule_link("the-first-turn"))
    for late in (c for c in changes if c.after > len(attacks)):
        out.problem(f"An ATK change after attack {late.after}: only {plural(len(attacks), 'attack')} "
                    f"{'is' if len(attacks) == 1 else 'are'} declared.", rule)
    for number, declared in enumerate(attacks, 1):
        for change in (c for c in changes if c.after == number - 1):
            _change_atk(game, mine, theirs, change, fought, out)
        able = [m for m in mine.find(declared.attacker) if m.attacks_made < m.attacks_allowed(game)]
        if not mine.find(declared.attacker):
            out.problem(f"Attack {number}: {declared.attacker} is not one of your monsters on the field.", rule)
            continue
        if not able:
            out.problem(f"Attack {number}: {declared.attacker} has already attacked this Battle Phase.", rule)
            continue
        attacker = next((m for m in able if m.position == "attack"), able[0])
        if attacker.position != "attack":
            out.problem(f"Attack {number}: {attacker.name} is in Defense Position and cannot attack.", rule)
            continue
        target = None
        if declared.target:
            found = theirs.find(declared.target)
            if not found:
                out.problem(f"Attack {number}: {declared.target} is not on the defending player's field.", rule)
                continue
            target = found[0]
        elif theirs.monsters:
            names = ", ".join(m.name for m in theirs.monsters)
            out.problem(f"Attack {number}: {attacker.name} cannot attack directly while the defending player has "
                        f"monsters ({names}).", rule)
            continue
        attacker.attacks_made += 1
        result = resolve(game, attacker, target, out)
        fought.append({"attack": number, "attacker": attacker.name, "atk": attacker.atk,
                       "defender": target.name if target else None,
                       "defender_value": None if target is None else
                       (target.atk if target.position == "attack" else target.defence), **_result(result)})
        if result.destroyed_attacker:
            mine.monsters.remove(attacker)
        if result.destroyed_defender and target is not None:
            theirs.monsters.remove(target)
        mine.life -= result.attacker_loses
        theirs.life -= result.defender_loses
        if result.defender_loses and "[vampirisim]" in attacker.card.text.lower() and mine.life < start:
            mine.life += 1
            out.say(f"VAMPIRISIM: {attacker.name} dealt damage while its owner had less than {start} Life: +1 Life.",
                    game.rule_link("vampirisim"))
    for change in (c for c in changes if c.after == len(attacks)):
        _change_atk(game, mine, theirs, change, fought, out)
    out.say(f"Life: yours {before[0]} → {mine.life}, the defending player's {before[1]} → {theirs.life}.",
            game.rule_link("setting-up-a-game"))
    lose = int(setting(game, "lose_at_life"))
    beaten = [who for who, side in (("you", mine), ("the defending player", theirs)) if side.life <= lose]
    if beaten:
        out.say(f"{' and '.join(beaten).capitalize()} at {lose} Life or less: lost (the rulebook does not say; as "
                f"in Yu-Gi-Oh!).", game.rule_link("setting-up-a-game"))
    out.summary = f"After the Battle Phase: your Life {mine.life}, the defending player's {theirs.life}."
    out.values = {"life": mine.life, "their_life": theirs.life, "mine": [m.name for m in mine.monsters],
                  "theirs": [m.name for m in theirs.monsters], "lost": beaten, "battles": fought,
                  "atk": {m.name: m.atk for m in (*mine.monsters, *theirs.monsters)}}
    return out


def _change_atk(game: GameDefinition, mine: Side, theirs: Side, change: Change, fought: list[dict[str, Any]],
                out: Answer) -> None:
    """Apply one ATK change where it falls in the phase, saying which battles it leaves as fought."""
    rule = game.rule_link("battling")
    when = "Before the first attack" if change.after == 0 else f"After attack {change.after}"
    sides = {"mine": [mine], "theirs": [theirs], "": [mine, theirs]}[change.whose]
    found = [m for side in sides for m in side.find(change.card)]
    if not found:
        where = {"mine": "your field", "theirs": "the defending player's field", "": "the field"}[change.whose]
        gone = any(normalise_name(b[who] or "") == normalise_name(change.card) and b[f"{who}_destroyed"]
                   for b in fought for who in ("attacker", "defender"))
        out.problem(f"{when}: {change.card} is not on {where}{' (destroyed in battle)' if gone else ''}, so its ATK "
                    f"cannot change.", rule)
        return
    if len({id(side) for side in sides if side.find(change.card)}) > 1:
        out.problem(f"{when}: both players have {found[0].name}; say whose ATK changes.", rule)
        return
    monster, floor = found[0], int(setting(game, "atk_floor"))
    old, new = monster.atk or 0, max(floor, (monster.atk or 0) + change.by)
    floored = f" (ATK does not fall below {floor})" if old + change.by < floor else ""
    out.say(f"{when}: {monster.name}'s ATK {old} → {new} ({change.by:+d}){floored}.", rule)
    monster.atk = new
    touched = [b for b in fought if monster.name in (b["attacker"], b["defender"])]
    if touched:
        numbers = " and ".join(str(b["attack"]) for b in touched)
        out.say(f"{'Attack' if len(touched) == 1 else 'Attacks'} {numbers}, fought before the change, "
                f"{'stands' if len(touched) == 1 else 'stand'}: a battle already fought is not fought again.", rule)
    if monster.attacks_made and monster in mine.monsters and monster.attacks_made >= monster.attacks_allowed(game):
        out.say(f"{monster.name} has already attacked this Battle Phase: a new ATK gives it no new attack.", rule)
    if monster.position == "defense":
        out.say(f"{monster.name} is in Defense Position: an attack on it compares its DEF ({monster.defence}), not "
                f"its ATK.", rule)
