"""A deck, the deck file formats it is read from and written to, and booster packs."""
