"""The print-and-play kit (``carddb kit``): a game's rulebook typeset, its cards with backs, a quick-reference
card, a tuck box sized to the deck, the pieces its ``[components]`` declare and a checklist, as one PDF and as
separate parts, checked after writing. ``make.make_kit`` is the entry point; docs/kit.md is the user's guide.
"""
