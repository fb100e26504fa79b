"""The hostile corpus, generated: bad inputs for every reader carddb has, as bytes built here (no binary
blob is committed). Each entry is ``(name, bytes)``; the tests write them to files and hand them to the CLI.

The game attacked is ``mini``, the starter game of ``carddb init`` (kinds unit and action; fields cost, power
and colour; set core).
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Callable
from pathlib import Path

GOOD_CARD = "- {name: Ok, kind: unit, cost: 1, power: 1, colour: Red, set: core}\n"


def _yaml_alias_bomb(levels: int = 9, width: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    return "\n".join(lines)


def alias_bomb_card_file() -> bytes:
    """The classic "billion laughs" in a card's text field: 9^9 strings if it were ever expanded."""
    bomb = _yaml_alias_bomb()
    body = "\n".join("  " + line for line in bomb.splitlines())
    return (f"shared:\n{body}\ncards:\n- name: Bomb\n  kind: unit\n  cost: 1\n  power: 1\n  colour: Red\n"
            f"  set: core\n  text: *a8\n").encode()


def yaml_card_files() -> list[tuple[str, bytes]]:
    big = 2**63
    cases = [
        ("empty.yaml", b""),
        ("blank.yaml", b" \n\t\n"),
        ("bom-only.yaml", codecs.BOM_UTF8),
        ("utf16-odd.yaml", codecs.BOM_UTF16_LE + ("cards:\n" + GOOD_CARD).encode("utf-16-le") + b"x"),
        ("utf16-lone-surrogate.yaml", codecs.BOM_UTF16_LE + b"\x00\xd8a\x00"),
        ("utf32-odd.yaml", codecs.BOM_UTF32_LE + "cards: []".encode("utf-32-le") + b"xy"),
        ("latin1.yaml", "cards:\n- {name: Café, kind: unit}\n".encode("latin-1")),
        ("binary.yaml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))),
        ("nul.yaml", b"cards:\n- {name: \x00}\n"),
        ("deep-flow.yaml", b"cards: " + b"[" * 5000),
        ("deep-block.yaml", "".join("  " * i + f"k{i}:\n" for i in range(200)).encode()),
        ("alias-bomb.yaml", alias_bomb_card_file()),
        ("alias-self.yaml", b"cards: &c [*c]\n"),
        ("alias-undefined.yaml", b"cards: [*nothing]\n"),
        ("anchor-twice.yaml", b"a: &x 1\nb: &x 2\ncards: []\n"),
        ("merge-bomb.yaml", (_yaml_alias_bomb(6, 6).replace("[", "{").replace("]", "}") + "\ncards: []\n").encode()),
        ("python-tag.yaml", b"cards: !!python/object/apply:os.system ['true']\n"),
        ("binary-tag.yaml", b"cards: !!binary aGVsbG8=\n"),
        ("complex-key.yaml", b"? [a, b]\n: 1\ncards: []\n"),
        ("scalar.yaml", b"just words\n"),
        ("list-of-scalars.yaml", b"- a\n- b\n"),
        ("cards-not-list.yaml", b"cards: {a: 1}\n"),
        ("card-not-mapping.yaml", b"cards: [1, 2]\n"),
        ("unknown-top.yaml", b"cards: []\n1: x\nzzz: y\n"),
        ("no-name.yaml", b"cards:\n- {kind: unit, cost: 1, power: 1, colour: Red, set: core}\n"),
        ("name-mapping.yaml", b"cards:\n- {name: {a: 1}, kind: unit, cost: 1, power: 1, colour: Red, set: core}\n"),
        ("name-list.yaml", b"cards:\n- {name: [a], kind: unit, cost: 1, power: 1, colour: Red, set: core}\n"),
        ("kind-huge.yaml", ("cards:\n- {name: A, kind: " + "k" * 100_000 + "}\n").encode()),
        ("cost-2-63.yaml", f"cards:\n- {{name: A, kind: unit, cost: {big}, power: 1, colour: Red, set: core}}\n"
         .encode()),
        ("cost-minus-2-63.yaml", f"cards:\n- {{name: A, kind: unit, cost: {-big - 1}, power: 1, colour: Red, "
         f"set: core}}\n".encode()),
        ("cost-2-31.yaml", b"cards:\n- {name: A, kind: unit, cost: 2147483648, power: 1, colour: Red, set: core}\n"),
        ("cost-5000-digits.yaml", ("cards:\n- {name: A, kind: unit, cost: " + "9" * 5000
                                   + ", power: 1, colour: Red, set: core}\n").encode()),
        ("cost-inf.yaml", b"cards:\n- {name: A, kind: unit, cost: .inf, power: 1, colour: Red, set: core}\n"),
        ("cost-nan.yaml", b"cards:\n- {name: A, kind: unit, cost: .nan, power: 1, colour: Red, set: core}\n"),
        ("cost-list.yaml", b"cards:\n- {name: A, kind: unit, cost: [1, 2], power: 1, colour: Red, set: core}\n"),
        ("cost-bool.yaml", b"cards:\n- {name: A, kind: unit, cost: true, power: 1, colour: Red, set: core}\n"),
        ("text-mapping.yaml", b"cards:\n- {name: A, kind: unit, cost: 1, power: 1, colour: Red, set: core, "
                              b"text: {a: [1, 2]}}\n"),
        ("colour-list.yaml", b"cards:\n- {name: A, kind: unit, cost: 1, power: 1, colour: [Red], set: core}\n"),
        ("set-mapping.yaml", b"set: {a: 1}\ncards:\n- {name: A, kind: unit, cost: 1, power: 1, colour: Red}\n"),
        ("printings-bad.yaml", b"cards:\n- {name: A, kind: unit, cost: 1, power: 1, colour: Red, "
                               b"printings: [{set: core, number: [1]}]}\n"),
        ("printings-not-list.yaml", b"cards:\n- {name: A, kind: unit, cost: 1, power: 1, colour: Red, "
                                    b"printings: 3}\n"),
        ("sample-nested.yaml", b"cards:\n- {name: A, kind: unit, cost: 1, power: 1, colour: Red, set: core, "
                               b"sample: [[1]]}\n"),
        ("duplicate-card.yaml", ("cards:\n" + GOOD_CARD + GOOD_CARD).encode()),
        ("many-problems.yaml", ("cards:\n" + "".join(f"- {{name: C{i}, kind: nope}}\n" for i in range(500)))
         .encode()),
        ("long-line.yaml", ("cards:\n- {name: " + "x" * 2_000_000 + "}\n").encode()),
        ("no-cards.yaml", b"cards: []\n"),
        ("game-list.yaml", b"game: [a]\ncards: []\n"),
    ]
    return cases


def csv_card_files() -> list[tuple[str, bytes]]:
    header = b"name,kind,cost,power,colour,set\n"
    return [
        ("empty.csv", b""),
        ("header-only.csv", header),
        ("no-name.csv", b"kind,cost\nunit,1\n"),
        ("duplicate-column.csv", b"name,name,kind\nA,B,unit\n"),
        ("more-cells.csv", header + b"A,unit,1,1,Red,core,extra\n"),
        ("unclosed-quote.csv", header + b'"A,unit,1,1,Red,core\n'),
        ("huge-field.csv", header + b'"' + b"x" * 300_000 + b'",unit,1,1,Red,core\n'),
        ("nul.csv", header + b"A\x00,unit,1,1,Red,core\n"),
        ("cost-2-63.csv", header + f"A,unit,{2**63},1,Red,core\n".encode()),
        ("cost-5000-digits.csv", header + b"A,unit," + b"9" * 5000 + b",1,Red,core\n"),
        ("utf16-odd.csv", codecs.BOM_UTF16_BE + header.decode().encode("utf-16-be") + b"\x00"),
        ("cp1252.csv", header + "Caf\xe9,unit,1,1,Red,core\n".encode("cp1252")),
        ("unknown-column.csv", b"name,kind,zzz\nA,unit,1\n"),
        ("many-rows-bad.csv", header + b"".join(f"C{i},nope,1,1,Red,core\n".encode() for i in range(2000))),
    ]


def lackey_card_files() -> list[tuple[str, bytes]]:
    header = b"Name\tSet\tImageFile\tKind\tCost\tPower\tColour\n"
    return [
        ("empty.txt", b""),
        ("blank.txt", b"\r\n\r\n"),
        ("header-only.txt", header),
        ("two-columns.txt", b"Name\tSet\n"),
        ("unknown-columns.txt", b"Name\tSet\tImageFile\tZzz\nA\tcore\ta\t1\n"),
        ("more-cells.txt", header + b"A\tcore\ta\tUnit\t1\t1\tRed\textra\n"),
        ("no-name.txt", header + b"\tcore\ta\tUnit\t1\t1\tRed\n"),
        ("kind-unknown.txt", header + b"A\tcore\ta\tDragon\t1\t1\tRed\n"),
        ("cost-2-63.txt", header + f"A\tcore\ta\tUnit\t{2**63}\t1\tRed\n".encode()),
        ("binary.txt", b"\x00\x01\x02" * 100),
        ("utf16.txt", codecs.BOM_UTF16_LE + header.decode().encode("utf-16-le")),
    ]


def deck_files() -> list[tuple[str, bytes]]:
    return [
        ("empty.txt", b""),
        ("comments.txt", b"# nothing\n// nothing\n"),
        ("huge-count.txt", b"99999999999999999999999 Blue Unit 1\n"),
        ("long-line.txt", b"1 " + b"x" * 100_000 + b"\n"),
        ("many-lines.txt", b"1 Nope\n" * 20_000),
        ("controls.txt", b"1 Blue\x07Unit\x1b[31m 1\n"),
        ("binary.txt", bytes(range(256)) * 40),
        ("utf16-odd.txt", codecs.BOM_UTF16_LE + "3 Blue Unit 1\n".encode("utf-16-le") + b"\x00"),
        ("utf8-bad.txt", b"3 Blue Unit \xff\xfe 1\n"),
        ("headers-only.txt", b"Main:\nSide:\nDeck:\n"),
        ("qualifiers.txt", b"3 Blue Unit 1 (" + b"(" * 1000 + b")\n3 Blue Unit 1 [[[[]]]]\n"),
        ("lackey-text.txt", b"3\tBlue Unit 1\n99999999999\tRed Unit 3\n"),
        ("billion-laughs.dek", (b'<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
                                b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
                                b'<deck version="0.8"><superzone name="Deck"><card><name id="x">&c;</name>'
                                b"<set>core</set></card></superzone></deck>\n")),
        ("xxe.dek", (b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                     b'<deck version="0.8"><superzone name="Deck"><card><name id="x">&x;</name><set>core</set>'
                     b"</card></superzone></deck>")),
        ("doctype-external.dek", b'<!DOCTYPE deck SYSTEM "http://127.0.0.1:9/x.dtd"><deck version="0.8"></deck>'),
        ("malformed.dek", b'<deck version="0.8"><superzone name="Deck"><card><name>A</superzone>'),
        ("deep.dek", b"<deck>" + b"<a>" * 5000 + b"</a>" * 5000 + b"</deck>"),
        ("many-cards.dek", b'<deck version="0.8"><superzone name="Deck">'
         + b'<card><name id="b">Blue Unit 1</name><set>core</set></card>' * 20_000 + b"</superzone></deck>"),
        ("attributes.dek", b'<deck version="0.8" ' + b" ".join(f'a{i}="x"'.encode() for i in range(5000)) + b"/>"),
        ("wrong-root.dek", b"<html><body>not a deck</body></html>"),
        ("mtgo.dek", b'<Deck><Cards CatID="1" Quantity="99999999999999" Sideboard="false" Name="Blue Unit 1"/></Deck>'),
        ("encoding-lie.dek", b'<?xml version="1.0" encoding="utf-16"?><deck version="0.8"></deck>'),
        ("apprentice.dec", b"//NAME: x\r\n        99999999999999 Blue Unit 1\r\nSB:  3 Nope\r\n"),
        ("apprentice-only-name.dec", b"//NAME:\r\n"),
        ("apprentice-zone.dec", b"// ZONE: " + b"z" * 10_000 + b"\r\n        1 Blue Unit 1\r\n"),
    ]


def search_queries() -> list[str]:
    return [
        "level>=99999999999999999999999", "cost>=99999999999999999999999", "cost=-99999999999999999999999",
        "cost:" + "9" * 5000, "(" * 5000 + "x" + ")" * 5000, " or ".join(["x"] * 10_000),
        "(" * 900 + "x" + ")" * 900, " or ".join(["x"] * 300), "-" * 1500 + "x", '"', '"""', "(", ")", "(((",
        ")))x", "or", "or or or", "x or", "-", "- -", "cost>=x", "cost>=1e5", "cost>=0x10", "cost<", "cost:",
        "zzz:1", "_:1", "name:" + "n" * 1999, "name:\x00", "x\u202ey", "colour:🙂", "cost>=-0", "cost!=",
        "set:" + "s" * 1000, "text:%_\\", "\\", "kind:unit (cost>1 or -(power<2 colour:red))",
    ]


def _put(relative: str, content: object) -> Callable[[Path], None]:
    def mutate(folder: Path) -> None:
        path = folder / relative
        if content == "<fifo>":
            path.unlink()
            os.mkfifo(path)
        else:
            path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())

    return mutate


def _game_entry(**changes: object) -> Callable[[Path], None]:
    def mutate(folder: Path) -> None:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        for key, value in changes.items():
            if key in ("games", "collections"):
                manifest[key] = value
            else:
                manifest["games"][0][key] = value
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")

    return mutate


def dump_variants() -> list[tuple[str, Callable[[Path], None]]]:
    """Ways to spoil a real dump folder (each changes it in place)."""
    boosters = {"game": "mini", "player": "p", "opened_at": "2026-01-01T00:00:00", "seed": 1, "cards": []}
    return [
        ("manifest-not-json", _put("manifest.json", b"{not json")),
        ("manifest-empty", _put("manifest.json", b"")),
        ("manifest-list", _put("manifest.json", [])),
        ("manifest-deep", _put("manifest.json", b"[" * 5000 + b"]" * 5000)),
        ("manifest-huge-number", _put("manifest.json", b'{"format": "carddb-dump", "format_version": '
                                      + b"9" * 5000 + b"}")),
        ("manifest-version", _put("manifest.json", {"format": "carddb-dump", "format_version": 2**70})),
        ("manifest-games-not-list", _game_entry(games=5)),
        ("manifest-game-wrong-types", _game_entry(games=[{"id": 1}])),
        ("manifest-card-count", _game_entry(card_count=999)),
        ("manifest-card-count-huge", _game_entry(card_count=2**70)),
        ("manifest-traversal", _game_entry(cards="../../../../etc/passwd")),
        ("manifest-absolute", _game_entry(definition="/etc/passwd")),
        ("manifest-sets-bad", _game_entry(sets=[[1, 2, 3]])),
        ("manifest-collections-missing", _game_entry(collections=None)),
        ("manifest-fifo", _put("manifest.json", "<fifo>")),
        ("collections-game-int", _put("collections.json", [{"game": 5}])),
        ("collections-wrong-game", _put("collections.json", [{"game": "chess", "name": "x", "cards": []}])),
        ("collections-count-2-63", _put("collections.json", [{"game": "mini", "name": "x",
                                                              "cards": [["Blue Unit 1", 2**63]]}])),
        ("collections-count-negative", _put("collections.json", [{"game": "mini", "name": "x",
                                                                  "cards": [["Blue Unit 1", -3]]}])),
        ("collections-cards-dict", _put("collections.json", [{"game": "mini", "name": "x", "cards": {"a": 1}}])),
        ("collections-not-list", _put("collections.json", {"a": 1})),
        ("boosters-game-int", _put("boosters.json", [{"game": 5}])),
        ("boosters-seed-2-63", _put("boosters.json", [{**boosters, "seed": 2**63}])),
        ("boosters-date", _put("boosters.json", [{**boosters, "opened_at": "yesterday"}])),
        ("boosters-cards-ints", _put("boosters.json", [{**boosters, "cards": [1]}])),
        ("boosters-deep", _put("boosters.json", b"[" * 100_000)),
        ("cards-alias-bomb", _put("games/mini/cards.yaml", alias_bomb_card_file())),
        ("cards-empty", _put("games/mini/cards.yaml", b"")),
        ("cards-dev-zero", lambda folder: _symlink(folder / "games/mini/cards.yaml", "/dev/zero")),
        ("definition-binary", _put("games/mini/game.toml", b"\x00\x01\x02")),
        ("definition-deep", _put("games/mini/game.toml", b"a = " + b"[" * 5000)),
    ]


def _symlink(path: Path, target: str) -> None:
    path.unlink()
    path.symlink_to(target)


def database_urls() -> list[str]:
    return [
        "mysql://u:secret@h/db", "postgresql://u:secret@127.0.0.1:1/x", "sqlite:////nonexistent/dir/x.db",
        "::::", "postgresql://", "redis://:secret@h", "http://u:secret@h/db", "%00",
    ]


def lackey_base_urls() -> list[str]:
    return ["javascript:alert(1)", "ftp://h/x/", "http://", "file:///etc/", "http://h/" + "x" * 5000,
            "http://h/a b/", "http://u:secret@h/p/"]

