"""Property fuzzing (hypothesis) of every parser and of the search language: whatever bytes or text they are
given, they answer or raise a ``CarddbError`` (which the CLI turns into one ``Error:`` line), nothing else.

Derandomized, so every run tries the same inputs and the counts in the closing note stay comparable.
"""

from __future__ import annotations

import json
import shutil
import string
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from carddb.catalogue import search
from carddb.catalogue.api import Catalogue, open_catalogue
from carddb.catalogue.backup import dump, restore
from carddb.catalogue.cardfiles import read_card_file
from carddb.catalogue.validate import build_cards
from carddb.core.browser import check_deck_json
from carddb.core.cards.slugs import CARD_RESERVED, MAX_STEM, WINDOWS_RESERVED, card_stems, slugify
from carddb.core.checker.check import check_deck
from carddb.core.decks.file import decode_deck_bytes
from carddb.core.decks.parse import parse_deck
from carddb.core.game.definition import GameDefinition, load_game_text
from carddb.errors import CarddbError, mask_secrets
from carddb.exporters.lackey.reader import read_card_data, read_dek, read_plugininfo, read_updatelist
from carddb.files.reading import decode_text, load_json, load_toml, load_yaml
from carddb.site.serve import refused_path
from tests.hostile.conftest import Ledger

FUZZ = settings(max_examples=80, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
FEW = settings(FUZZ, max_examples=30)

YAML_PIECES = st.sampled_from(["cards:", "\n", "- ", "  ", "{", "}", "[", "]", ", ", ": ", "name: A", "kind: unit",
                               "kind: action", "cost: ", "power: 2", "colour: Red", "set: core", "text: ", "&a ",
                               "*a", "<<: *a", "!!str ", "!!python/name:os.system", "? ", "'", '"', "#", "|\n",
                               "99999999999999999999", "-1", ".inf", "~", "null", "printings:", "- {set: core}",
                               "sample: [x]", "game: mini", "\t", "\ufeff", "\x00", "é", "火の鳥"])
CSV_PIECES = st.sampled_from(["name,kind,cost,power,colour,set\n", "A", ",", "unit", "1", "Red", "core", "\n",
                              '"', '""', "\r\n", "=1+1", "'", "9" * 30, "\x00", ";", "é", " "])
LACKEY_PIECES = st.sampled_from(["Name\tSet\tImageFile\tKind\tCost\tPower\tColour\n", "A", "\t", "core", "Unit",
                                 "1", "Red", "\n", "\r", "Action", "99999999999999999999", "x" * 50, "\x00"])
DECK_PIECES = st.sampled_from(["4 ", "4x ", "1\t", "SB:  2 ", "Main:\n", "Deck:\n", "Side:\n", "<deck>", "</deck>",
                               "<superzone name=\"Deck\">", "<card><name>", "</name><set>core</set></card>", "//",
                               "//NAME: ", "#", "(core) ", "[", "]", "0 ", "Blue Unit 1", "Red Action 12", "\n",
                               "999999 ", "99999999999999999999 ", "<!ENTITY", "<Deck>", "<Cards Quantity=\"9\" ",
                               "Name=\"Blue Unit 1\"/>", "\x00", "\r\n", "&amp;", "&x;"])
QUERY_PIECES = st.sampled_from(["cost", "power", "colour", "name", "text", "kind", "set", "rarity", "game", ":", "=",
                                "!=", "<", "<=", ">", ">=", "(", ")", "-", '"', " ", " or ", "OR", "unit", "red",
                                "1", "-3", "99999999999999999999", "zzz", "\\", "%", "_", "*", "é", "\x00", "limited"])


@pytest.fixture(scope="module")
def game(hostile_ws: Path) -> GameDefinition:
    path = hostile_ws / "rules" / "mini" / "game.toml"
    return load_game_text(path.read_text(encoding="utf-8"), str(path))


@pytest.fixture(scope="module")
def scratch() -> Path:
    with tempfile.TemporaryDirectory(prefix="carddb-fuzz-") as folder:
        yield Path(folder)


def _only_carddb_errors(call, *args):  # type: ignore[no-untyped-def]
    try:
        return call(*args)
    except CarddbError as exc:
        assert str(exc)  # a message for a person, never empty
        return None


def _card_file(scratch: Path, suffix: str, data: bytes, game: GameDefinition) -> None:
    path = scratch / f"fuzz{suffix}"
    path.write_bytes(data)
    if suffix == ".txt":
        _only_carddb_errors(read_card_data, path, game)
        return
    found = _only_carddb_errors(read_card_file, path)
    if found is not None:
        _only_carddb_errors(build_cards, game, found[1], str(path))


@FUZZ
@given(suffix=st.sampled_from([".yaml", ".csv", ".txt"]), data=st.binary(max_size=600))
def test_card_files_of_any_bytes(scratch: Path, game: GameDefinition, ledger: Ledger, suffix: str,
                                 data: bytes) -> None:
    ledger.tried("fuzz: card file bytes")
    _card_file(scratch, suffix, data, game)


@FUZZ
@given(pieces=st.lists(YAML_PIECES, max_size=60))
def test_yaml_card_files_made_of_yaml(scratch: Path, game: GameDefinition, ledger: Ledger, pieces: list[str]) -> None:
    ledger.tried("fuzz: card file YAML")
    _card_file(scratch, ".yaml", "".join(pieces).encode("utf-8", "surrogatepass"), game)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=4), max_leaves=20)
CARD_KEYS = st.sampled_from(["name", "kind", "cost", "power", "colour", "set", "text", "flavor", "number", "rarity",
                             "art", "sample", "printings", "qualifier", "game", "zzz"])


@FUZZ
@given(cards=st.lists(st.dictionaries(CARD_KEYS, JSON_VALUES, max_size=8), max_size=5),
       top=st.dictionaries(st.sampled_from(["set", "game", "zzz"]), JSON_VALUES, max_size=2))
def test_yaml_card_files_of_any_shape(scratch: Path, game: GameDefinition, ledger: Ledger, cards: list,
                                      top: dict) -> None:
    ledger.tried("fuzz: card file shapes")
    text = yaml.safe_dump({**top, "cards": cards}, allow_unicode=True)
    _card_file(scratch, ".yaml", text.encode("utf-8", "surrogatepass"), game)


@FUZZ
@given(pieces=st.lists(CSV_PIECES, max_size=60))
def test_csv_card_files(scratch: Path, game: GameDefinition, ledger: Ledger, pieces: list[str]) -> None:
    ledger.tried("fuzz: card file CSV")
    _card_file(scratch, ".csv", "".join(pieces).encode(), game)


@FUZZ
@given(pieces=st.lists(LACKEY_PIECES, max_size=40))
def test_lackey_card_files(scratch: Path, game: GameDefinition, ledger: Ledger, pieces: list[str]) -> None:
    ledger.tried("fuzz: LackeyCCG card data")
    _card_file(scratch, ".txt", "".join(pieces).encode(), game)


@FUZZ
@given(data=st.binary(max_size=400))
def test_deck_bytes(game: GameDefinition, ledger: Ledger, data: bytes) -> None:
    ledger.tried("fuzz: deck bytes")
    text = _only_carddb_errors(decode_deck_bytes, data, "deck.txt")
    if text is not None:
        check_deck(parse_deck(text, game), game, [])


@FUZZ
@given(pieces=st.lists(DECK_PIECES, max_size=50), text=st.text(max_size=100))
def test_deck_texts_of_every_format_never_raise(game: GameDefinition, ledger: Ledger, pieces: list[str],
                                                text: str) -> None:
    """The deck parsers report problems, never raise: .dek XML, MTGO .dek, .dec, Lackey text, deck lists."""
    ledger.tried("fuzz: deck text", 2)
    for deck_text in ("".join(pieces), text):
        deck = parse_deck(deck_text, game, "fuzz.dek")
        check_deck(deck, game, [])
        assert all(1 <= entry.count <= 999 for entry in deck.entries)


@FUZZ
@given(pieces=st.lists(DECK_PIECES, max_size=30))
def test_the_browser_checker_always_answers_json(hostile_ws: Path, ledger: Ledger, pieces: list[str]) -> None:
    ledger.tried("fuzz: browser checker")
    toml = (hostile_ws / "rules" / "mini" / "game.toml").read_text(encoding="utf-8")
    answer = json.loads(check_deck_json(toml, "[]", "".join(pieces), None, "fuzz.txt"))
    assert isinstance(answer, dict)


@pytest.fixture(scope="module")
def catalogue(hostile_ws: Path, scratch: Path) -> Catalogue:
    import shutil

    db = scratch / "search.db"
    shutil.copy(hostile_ws / "output" / "catalogue.db", db)
    return open_catalogue(str(db))


@FUZZ
@given(pieces=st.lists(QUERY_PIECES, max_size=25), text=st.text(max_size=60))
def test_the_search_language(catalogue: Catalogue, ledger: Ledger, pieces: list[str], text: str) -> None:
    """Parse, compile and run: a query finds cards or is a ``SearchError``, on any text."""
    ledger.tried("fuzz: search", 2)
    for query in ("".join(pieces), text):
        for game_id in ("mini", None):
            found = _only_carddb_errors(catalogue.search, query, game_id, 5)
            assert found is None or isinstance(found, list)


@FUZZ
@given(depth=st.integers(0, 3000), kind=st.sampled_from(["(", "-", "(-"]), width=st.integers(0, 400))
def test_the_search_language_has_limits_not_recursion(ledger: Ledger, depth: int, kind: str, width: int) -> None:
    ledger.tried("fuzz: search limits")
    nested = kind * depth + "x" + ")" * (depth * kind.count("("))
    for query in (nested, " or ".join(["cost:1"] * width)):
        try:
            search.compile_query(search.parse(query), {}, query)
        except search.SearchError as exc:
            assert "search" in str(exc) and len(str(exc)) < 400


@FUZZ
@given(text=st.text(max_size=300))
def test_structured_text_readers(ledger: Ledger, text: str) -> None:
    ledger.tried("fuzz: YAML/JSON/TOML", 3)
    _only_carddb_errors(load_yaml, text, "f.yaml")
    _only_carddb_errors(load_json, text, "f.json")
    _only_carddb_errors(load_toml, text, "f.toml")
    _only_carddb_errors(decode_text, text.encode("utf-8", "surrogatepass"), "f.txt")
    _only_carddb_errors(load_game_text, text, "game.toml")


@FUZZ
@given(text=st.lists(st.sampled_from([*'<>/deckmtasuprzoncgiefl="\n ', "<card>", "<name>", "&x;", "<!ENTITY",
                                      "</"]), max_size=120).map("".join))
def test_lackey_deck_plugininfo_and_updatelist_readers(ledger: Ledger, text: str) -> None:
    ledger.tried("fuzz: LackeyCCG files", 3)
    _only_carddb_errors(read_dek, text)
    _only_carddb_errors(read_plugininfo, text)
    _only_carddb_errors(read_updatelist, text)


@pytest.fixture(scope="module")
def good_dump(hostile_ws: Path, scratch: Path) -> Path:
    folder = scratch / "dump"
    db = scratch / "dumped.db"  # a copy: opening the shared one would put SQLite's files beside it (test_limits)
    shutil.copyfile(hostile_ws / "output" / "catalogue.db", db)
    dump(open_catalogue(str(db)), folder)
    return folder


@FEW
@given(file=st.sampled_from(["manifest.json", "collections.json", "boosters.json"]), value=JSON_VALUES,
       patch=st.dictionaries(st.sampled_from(["game", "name", "cards", "player", "opened_at", "seed", "card_count",
                                              "format", "format_version", "games", "sets", "id", "definition"]),
                             JSON_VALUES, max_size=3))
def test_dumps_of_any_shape(good_dump: Path, scratch: Path, ledger: Ledger, file: str, value, patch) -> None:  # type: ignore[no-untyped-def]
    ledger.tried("fuzz: dump")
    import shutil

    folder = scratch / "spoilt"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(good_dump, folder)
    original = json.loads((folder / file).read_text(encoding="utf-8"))
    if isinstance(original, dict):
        spoilt = {**original, **patch}
    elif original:
        spoilt = [{**original[0], **patch}] if isinstance(original[0], dict) else [value]
    else:
        spoilt = [value, patch]
    (folder / file).write_text(json.dumps(spoilt), encoding="utf-8")
    db = scratch / "restored.db"
    db.unlink(missing_ok=True)
    target = open_catalogue(str(db))
    if _only_carddb_errors(restore, target, folder) is None:
        assert target.held_games() == []  # refused: nothing of it was written


@FUZZ
@given(keys=st.lists(st.text(max_size=80) | st.sampled_from(["Back", "back", "CON", "index", "..", "火の鳥",
                                                             "Fire!", "Fire?", "fire", "x" * 300]),
                     max_size=30, unique=True))
def test_card_file_names_are_safe_unique_and_stable(ledger: Ledger, keys: list[str]) -> None:
    ledger.tried("fuzz: file names")
    stems = card_stems(keys)
    assert set(stems) == set(keys)
    assert len(set(stems.values())) == len(keys)  # unique within the game
    for stem in stems.values():
        assert 0 < len(stem) <= MAX_STEM and set(stem) <= set(string.ascii_lowercase + string.digits + "-")
        assert stem not in CARD_RESERVED and stem not in WINDOWS_RESERVED and not stem.startswith("-")
    assert card_stems(list(reversed(keys))) == stems  # the same names whatever the order
    for key in keys:
        plain = slugify(key)
        assert 0 < len(plain) <= MAX_STEM and "/" not in plain and "." not in plain


@FUZZ
@given(scheme=st.sampled_from(["postgresql", "postgres", "mysql", "mysql+pymysql", "redis", "http", "sqlite"]),
       user=st.text(alphabet=string.ascii_letters + string.digits, max_size=8),
       password=st.text(alphabet=string.ascii_letters + string.digits + "!$%&()*+,;=@/?#~", min_size=6, max_size=20),
       host=st.sampled_from(["h", "db.example", "127.0.0.1:5432"]))
def test_no_password_survives_masking(ledger: Ledger, scheme: str, user: str, password: str, host: str) -> None:
    ledger.tried("fuzz: URL masking")
    assume(password not in f"cannot open the catalogue {scheme}://{user}:***@{host}/cards: refused")
    url = f"{scheme}://{user}:{password}@{host}/cards"
    message = CarddbError(f"cannot open the catalogue {url}: refused").message
    assert password not in message and f"{scheme}://{user}:***@" in message
    assert password not in mask_secrets(f"host={host} password={password} dbname=x")


@FUZZ
@given(path=st.text(max_size=80), raw=st.binary(max_size=40))
def test_site_paths_are_judged_without_error(ledger: Ledger, path: str, raw: bytes) -> None:
    ledger.tried("fuzz: site paths", 2)
    from urllib.parse import quote_from_bytes

    assert isinstance(refused_path("/" + path), bool)
    assert isinstance(refused_path("/" + quote_from_bytes(raw)), bool)
    if "\x00" in path or "\\" in path:
        assert refused_path("/" + path)
