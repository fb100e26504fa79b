"""The names of Typer's own copy of Click (``typer._click``, bundled since Typer 0.26) that carddb's command line
uses: its context, parameters and exceptions. Typer exports few of them; this is the one module that reaches
into its private package, so a change of Typer's layout is mended here."""

from typer import Abort, Exit
from typer._click import ClickException, Command, Context, HelpFormatter, Parameter, echo
from typer._click.exceptions import BadParameter, MissingParameter, NoArgsIsHelpError, NoSuchOption, UsageError
from typer._click.types import FloatParamType, IntParamType, ParamType
from typer.core import TyperArgument as Argument
from typer.core import TyperGroup as Group
from typer.core import TyperOption as Option

__all__ = ["Abort", "Argument", "BadParameter", "ClickException", "Command", "Context", "Exit", "FloatParamType",
           "Group", "HelpFormatter", "IntParamType", "MissingParameter", "NoArgsIsHelpError", "NoSuchOption",
           "Option", "ParamType", "Parameter", "UsageError", "echo"]
