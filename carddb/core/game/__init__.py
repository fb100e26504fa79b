"""A game definition (``rules/<game>/game.toml``) and the parser that makes it, with the selectors its rules use."""
