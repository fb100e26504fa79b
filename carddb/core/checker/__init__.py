"""The deck checker: each game's construction rules, the problems they find and the report of a check."""
