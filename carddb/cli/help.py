"""Help texts shown as written: no ``<str>``/``<bool>`` type noise, no text eaten as Rich markup.

Typer 0.29 shows each parameter's Python type (``<str>``, ``<list[str]>``) and reads every help text as Rich
markup, so ``[booster]`` in a sentence vanishes. ``tidy_help`` walks the built command tree once: a flag shows
no value, an option shows its value as a word (``--game GAME``), an argument's name says enough, and every
help text has its brackets escaped so Rich prints it unchanged.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

#: A value's word in the help, by the Python type Typer converts it to; other options show their own name.
_TYPE_WORDS = {int: "N", float: "N"}


def tidy_help(command: Any) -> None:
    """Fix the help of ``command`` and of every command under it, in place."""
    rich = getattr(command, "rich_markup_mode", None) == "rich"
    if rich:
        for attribute in ("help", "short_help", "epilog"):
            text = getattr(command, attribute, None)
            if text:
                setattr(command, attribute, escape(text))
    for param in getattr(command, "params", []):
        if rich and getattr(param, "help", None):
            param.help = escape(param.help)
        if param.param_type_name == "argument":
            param.display_type_rich = _no_type  # the argument's name is its description
            if param.hidden:  # an old spelling kept working: not in the usage line either
                param.get_usage_pieces = _no_usage
        elif param.metavar is None:
            param.metavar = "" if param.is_flag or param.count else _value_word(param)
    make_help_option = command.get_help_option

    def help_option(ctx: Any) -> Any:  # --help is made when asked for; it is a flag like the others
        option = make_help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = help_option
    for sub in (getattr(command, "commands", None) or {}).values():
        tidy_help(sub)


def _no_type(ctx: Any) -> None:
    return None


def _no_usage(ctx: Any) -> list[str]:
    return []


def _value_word(option: Any) -> str:
    """``--game`` -> ``GAME``, ``--base-url`` -> ``BASE-URL``, a number -> ``N``."""
    annotation = getattr(getattr(option, "type_descriptor", None), "annotation", None)
    if annotation in _TYPE_WORDS:
        return _TYPE_WORDS[annotation]
    longest = max(option.opts, key=len)
    return longest.lstrip("-").upper()
