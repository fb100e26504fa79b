"""Shmod at the table: battle outcomes, Life after a Battle Phase, paying mana, and what a turn allows (one mana
charge, no trap the turn it is set, no Battle Phase on the first player's first turn). Pure standard library; the
numbers and readings are ``[play]`` of ``rules/shmod/game.toml``.

Battles as the rulebook's table gives them: attack against attack, the lower ATK is destroyed and its owner takes
1 (equal: both, and both players take 1); attack against defense, ATK above DEF destroys the defender, below costs
the attacker's owner 1, **Reading** equal destroys nothing and costs nothing (``equal_atk_def``); a direct attack,
allowed only against a player with no monsters, deals 1, and none from a 0-ATK monster.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from carddb.errors import InputError
from carddb.rules.cards import Card, normalise_name
from carddb.rules.checker import CardIndex
from carddb.rules.game import GameDefinition
from carddb.rules.play import (
    Answer,
    Helper,
    choice,
    find_card,
    find_cards,
    flag,
    plural,
    rows,
    setting,
    whole,
    word,
)

EQUAL_READINGS = ("nothing", "destroy-defender", "attacker-takes-damage")


def _int(value: Any) -> int:
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
        self.atk = _int(self.card.get("atk")) if self.atk is None else self.atk
        self.defence = _int(self.card.get("def")) if self.defence is None else self.defence

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


def battle_phase(game: GameDefinition, mine: Side, theirs: Side, attacks: Sequence[Declared], *,
                 first_turn: bool = False) -> Answer:
    """A Battle Phase: each declared attack in order, monsters destroyed, and both players' Life afterwards.

    Each monster attacks once a Battle Phase unless its text says otherwise; a direct attack needs the defender to
    have no monsters at that moment; the first player skips the Battle Phase of the first turn. VAMPIRISIM: a
    card that deals damage to the opponent while its owner has less than 10 Life gains its owner 1 Life.
    **Reading**: a player at 0 Life has lost (``lose_at_life``; the rulebook leaves it to Yu-Gi-Oh!).
    """
    out = Answer(game.id, "phase")
    rule, start = game.rule_link("battling"), int(setting(game, "life"))
    before = (mine.life, theirs.life)
    if first_turn:
        out.problem("The player who goes first skips the Battle Phase of the first turn: no attacks.",
                    game.rule_link("the-first-turn"))
    for number, declared in enumerate(attacks, 1):
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
    out.say(f"Life: yours {before[0]} → {mine.life}, the defending player's {before[1]} → {theirs.life}.",
            game.rule_link("setting-up-a-game"))
    lose = int(setting(game, "lose_at_life"))
    beaten = [who for who, side in (("you", mine), ("the defending player", theirs)) if side.life <= lose]
    if beaten:
        out.say(f"{' and '.join(beaten).capitalize()} at {lose} Life or less: lost (the rulebook does not say; as "
                f"in Yu-Gi-Oh!).", game.rule_link("setting-up-a-game"))
    out.summary = f"After the Battle Phase: your Life {mine.life}, the defending player's {theirs.life}."
    out.values = {"life": mine.life, "their_life": theirs.life, "mine": [m.name for m in mine.monsters],
                  "theirs": [m.name for m in theirs.monsters], "lost": beaten}
    return out


# ------------------------------------------------------------------------------------------------------- mana
def pay_mana(game: GameDefinition, card: Card, mana: Mapping[str, int], *, x: int | None = None,
             by_effect: bool = False) -> Answer:
    """Tap mana equal to the card's LEVEL (a Level X card: any amount, which becomes X); a monster's mana includes
    at least 1 of its TYPE, except a COLOURLESS one. A monster played by an effect pays nothing.

    **Reading**: a MULTI-TYPE monster's 1 mana of its TYPE may be any TYPE but COLOURLESS (``mana_any_colour``).
    """
    out = Answer(game.id, "mana")
    rule = game.rule_link({"monster": "monsters", "spell": "spells", "trap": "traps"}.get(card.kind, "mana"))
    tapped = {t: n for t, n in mana.items() if n}
    total = sum(tapped.values())
    shown = " + ".join(f"{t} {n}" for t, n in tapped.items()) or "nothing"
    kind = game.kinds[card.kind].label if card.kind in game.kinds else card.kind
    mtype = str(card.get("type") or "")
    level = card.get("level")
    out.values = {"card": card.name, "level": level, "tapped": total, "x": None, "paid": False}
    if by_effect and card.kind == "monster":
        out.say(f"{card.name} is played by an effect: it costs no mana.", rule)
        if total:
            out.say(f"The {plural(total, 'mana', 'mana')} tapped are not needed.", rule)
        out.values["paid"] = True
        out.summary = f"{card.name} is played by an effect: no mana."
        return out
    if level == "X":
        xrule = game.rule_link("level-x-cards")
        if x is not None and x != total:
            out.problem(f"X is the mana tapped: {total}, not {x}.", xrule)
        out.say(f"{card.name} is Level X: the {plural(total, 'mana', 'mana')} tapped make X = {total} for all of its "
                f"effect.",
                xrule)
        level = total
        out.values["x"] = total
    elif total != _int(level):
        out.problem(f"{card.name} is Level {level}: tap exactly {level} mana, not {total}.", rule)
    head = f"{card.name}, Level {card.get('level')} {mtype + ' ' if mtype else ''}{kind.lower()}"
    if card.kind == "monster" and mtype not in setting(game, "mana_exempt"):
        any_colour = mtype in setting(game, "mana_any_colour")
        exempt = set(setting(game, "mana_exempt"))
        own = sum(n for t, n in tapped.items() if (t not in exempt if any_colour else t == mtype))
        need = f"mana of any TYPE but {'/'.join(sorted(exempt))}" if any_colour else mtype
        out.say(f"{head}: tap {level} mana including at least 1 {need}; tapped {shown} = {total}.", rule)
        if not own:
            out.problem(f"{card.name} needs at least 1 {need}{'' if any_colour else ' mana'} among the mana tapped.",
                        rule)
    else:
        why = " (COLOURLESS monsters need no mana of their TYPE)" if card.kind == "monster" else ""
        out.say(f"{head}: tap {level} mana of any TYPE{why}; tapped {shown} = {total}.", rule)
    out.values["paid"] = out.legal
    out.summary = f"{card.name} is paid for." if out.legal else f"{card.name} is not paid for."
    return out


# ------------------------------------------------------------------------------------------------------- turn
def plan_turn(game: GameDefinition, *, first_turn: bool = False, charges: Sequence[Card] = (),
              set_traps: Sequence[Card] = (), activate: Sequence[Card] = (), attackers: Sequence[Card] = ()) -> Answer:
    """A turn's six phases and what they allow: 1 mana charge a turn though there are two Main Phases, a trap not
    activated the turn it is set, each monster attacking once, and no Battle Phase on the first player's first
    turn (**Reading**, from the forum thread: the first player still draws)."""
    out = Answer(game.id, "turn")
    phases = game.rule_link("phases")
    charge_rule, trap_rule = game.rule_link("mana"), game.rule_link("traps")
    if first_turn:
        out.say(f"Setting up: each player has {setting(game, 'life')} Life and draws {setting(game, 'opening_hand')} "
                f"cards.", game.rule_link("setting-up-a-game"))
        out.say("Draw Phase: draw 1 card (the first player draws too, as the forum thread settles it).",
                game.rule_link("the-first-turn"))
    else:
        out.say("Draw Phase: draw 1 card.", phases)
    out.say("Untap Phase: untap every card in your Mana Zone.", phases)
    most = int(setting(game, "charges_per_turn"))
    for number, card in enumerate(charges, 1):
        mtype = str(card.get("type") or "COLOURLESS") if card.kind == "monster" else "COLOURLESS"
        if number > most:
            out.problem(f"Charging {card.name}: only {plural(most, 'mana', 'mana')} may be charged a turn, though "
                        f"a turn has two Main Phases.", charge_rule)
        else:
            out.say(f"Main Phase: charge {card.name} into the Mana Zone as 1 {mtype} mana.", charge_rule)
    for card in set_traps:
        out.say(f"Main Phase: set {card.name} face down; it cannot be activated this turn.", trap_rule)
    set_names = {normalise_name(c.name) for c in set_traps}
    for card in activate:
        if normalise_name(card.name) in set_names:
            out.problem(f"{card.name} was set this turn: a trap cannot be activated the turn it is set.", trap_rule)
        else:
            out.say(f"Activate {card.name}: turn it face up and tap {card.get('level')} mana (its LEVEL).", trap_rule)
    battle_rule = game.rule_link("battling")
    if first_turn:
        out.say("Battle Phase: skipped (the first player's first turn).", game.rule_link("the-first-turn"))
        if attackers:
            out.problem("The player who goes first skips the Battle Phase of the first turn: no attacks.",
                        game.rule_link("the-first-turn"))
    else:
        counted: dict[str, int] = {}
        for card in attackers:
            key = normalise_name(card.name)
            counted[key] = counted.get(key, 0) + 1
            allowed = Monster(card).attacks_allowed(game)
            if counted[key] == allowed + 1:
                out.problem(f"{card.name} attacks {counted[key]} times; a monster attacks "
                            f"{'once' if allowed == 1 else plural(allowed, 'time')} a Battle Phase.", battle_rule)
        out.say(f"Battle Phase: {plural(len(attackers), 'attack')} declared.", battle_rule)
    out.say("Second Main Phase: as the first (the one charge of the turn may be in either).", phases)
    out.say("End Phase: resolve effects; the next player's turn begins.", phases)
    out.summary = "The turn is legal." if out.legal else f"The turn breaks {plural(len(out.problems), 'rule')}."
    out.values = {"first_turn": first_turn, "charges": len(charges), "attacks": len(attackers)}
    return out


# --------------------------------------------------------------------------------------------- JSON requests
def _monster(game: GameDefinition, index: CardIndex, row: Mapping[str, Any], key: str = "card",
             default_position: str = "attack") -> Monster:
    card = find_card(game, index, row.get(key), ("monster",), "monster")
    return Monster(card, word(row, "position", ("attack", "defense"), default_position),
                   whole(row, "atk", high=99, what=f"{card.name}'s ATK"),
                   whole(row, "def", high=99, what=f"{card.name}'s DEF"))


def _battle(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"attacker": "Night Reaver", "atk": null, "defender": "Coral Warden", "position": "defense",
    "defender_atk": null, "defender_def": null, "defender_has_monsters": false}``; no defender attacks directly."""
    attacker = _monster(game, index, {"card": request.get("attacker"), "atk": request.get("atk")})
    defender = None
    if request.get("defender"):
        defender = _monster(game, index, {"card": request.get("defender"), "position": request.get("position"),
                                          "atk": request.get("defender_atk"), "def": request.get("defender_def")},
                            default_position="attack")
    return battle(game, attacker, defender, defender_has_monsters=flag(request, "defender_has_monsters"))


def _phase(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"mine": [{"card": "Night Reaver", "position": "attack"}], "theirs": [{"card": "Coral Warden",
    "position": "defense"}], "attacks": [{"attacker": "Night Reaver", "target": "Coral Warden"}], "life": 10,
    "their_life": 10, "first_turn": false}``; an attack without a target is direct."""
    start = int(setting(game, "life"))
    mine = Side([_monster(game, index, row) for row in rows(request, "mine")],
                whole(request, "life", start, high=99) or 0)
    theirs = Side([_monster(game, index, row) for row in rows(request, "theirs")],
                  whole(request, "their_life", start, high=99) or 0)
    attacks = [Declared(str(row.get("attacker") or "").strip(), str(row.get("target") or "").strip())
               for row in rows(request, "attacks")]
    for row in attacks:
        if not row.attacker:
            raise InputError("each attack names its attacking monster")
    for row in rows(request, "attacks"):  # names must be monsters of the game, even when not on the field
        find_card(game, index, row.get("attacker"), ("monster",), "monster")
        if row.get("target"):
            find_card(game, index, row.get("target"), ("monster",), "monster")
    return battle_phase(game, mine, theirs, attacks, first_turn=flag(request, "first_turn"))


def _mana(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"card": "Magma Colossus", "mana": {"FIRE": 2, "EARTH": 3}, "x": null, "by_effect": false}``"""
    card = find_card(game, index, request.get("card"), ("monster", "spell", "trap"), "monster, spell or trap")
    raw = request.get("mana") or {}
    if not isinstance(raw, Mapping):
        raise InputError("mana is a table of TYPE to the mana of it tapped, e.g. FIRE=2")
    types = list(game.fields["type"].choices) if "type" in game.fields else []
    mana: dict[str, int] = {}
    for key, value in raw.items():
        wanted = str(key).strip().upper()
        if wanted not in types:
            raise InputError(f"{key!r} is not a TYPE of mana; use {', '.join(types)}")
        count = whole({"n": value}, "n", 0, high=99, what=f"{wanted} mana") or 0
        mana[wanted] = mana.get(wanted, 0) + count
    return pay_mana(game, card, mana, x=whole(request, "x", high=99, what="X"), by_effect=flag(request, "by_effect"))


def _turn(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"first_turn": false, "charges": ["Ember Whelp"], "set": ["Pitfall Snare"], "activate": ["Mirror Guard"],
    "attacks": ["Night Reaver"]}``"""
    traps = find_cards(game, index, request.get("set"), ("trap",), "trap")
    return plan_turn(game, first_turn=flag(request, "first_turn"),
                     charges=find_cards(game, index, request.get("charges")), set_traps=traps,
                     activate=find_cards(game, index, request.get("activate"), ("trap",), "trap"),
                     attackers=find_cards(game, index, request.get("attacks"), ("monster",), "monster"))


HELPERS: dict[str, Helper] = {"battle": _battle, "phase": _phase, "mana": _mana, "turn": _turn}
