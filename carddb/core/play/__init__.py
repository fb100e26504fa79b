"""What every game's play helpers share (answers, requests, cards by name), the registry that finds each game's
helpers, and the playtest table."""
