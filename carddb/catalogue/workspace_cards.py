"""A workspace game's cards as its card files give them (``rules/<game>/cards/*.yaml|csv``), each with its file.

Read and checked whole before anything is written: a problem anywhere (a bad value, an undeclared set, the
same card in two files) is one ``CardDataError`` naming every problem, and nothing changes. No SQLAlchemy here:
``deck check`` reads a game this way when the catalogue does not hold it yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from carddb.catalogue.cardfiles import read_card_file
from carddb.catalogue.definitions import workspace_definition
from carddb.catalogue.validate import RawCard, build_cards_with_origins
from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.errors import CardDataError
from carddb.workspace import Workspace


@dataclass(frozen=True)
class WorkspaceGame:
    game: GameDefinition
    definition_text: str
    #: every card of the card files, in file order, with the file it is in (its path from the workspace root)
    cards: list[tuple[Card, str]]
    files: list[str]

    @property
    def sets(self) -> list[str]:
        return sorted({p.set for card, _ in self.cards for p in card.printings})


def read_workspace_game(workspace: Workspace, game_id: str) -> WorkspaceGame:
    folder = workspace.game_dir(game_id)  # UnknownGameError naming the games there
    found = workspace_definition(workspace, game_id)
    assert found is not None  # game_dir found the game.toml
    game, text = found
    raws: list[RawCard] = []
    files = []
    for card_file in workspace.card_files(game_id):
        name = card_file.relative_to(workspace.root).as_posix()
        named, file_raws = read_card_file(card_file)
        if named and named != game_id:
            raise CardDataError(f"{card_file}: the file is for {named!r}, not {game_id!r}")
        for raw in file_raws:
            raw.origin = name
        raws.extend(file_raws)
        files.append(name)
    cards = build_cards_with_origins(game, raws, str(folder / "cards"), refused="no card was loaded")
    return WorkspaceGame(game, text, cards, files)
