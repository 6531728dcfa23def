"""The command line's own words about itself, in the reader's language: the usage line ("Usage:
mjscore score [OPTIONS] [FILE]"), the help option's help, and the refusal of a line Typer cannot
parse (an unknown option, a value that is none of the choices, an option without its value).

Typer 0.28 carries its own copy of click (`typer._click`), which writes these in English as they
stand, where click said them through gettext.  Typer's classes are extended here (its `cls=` hook),
and a refusal is said again from its parts: the kind of refusal (its class), the option it names,
and the reason the copy wrote, read back by `reasons()` (the copy's English sentences, each with the
message mjscore says instead; a reason none of them matches, such as mjscore's own, already said,
is written as it stands).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
import typer.core
from typer import _click  # Typer 0.28's copy of click: its refusals' classes

from mjscore.model.say import N_, _

# The reasons Typer 0.28's copy of click gives, as it writes them (typer/_click/types.py,
# parser.py, core.py; typer/_types.py), each with mjscore's message of the same words, whose
# places are the pattern's groups.  Full matches only; re.S for the choices listed a line each.
# Compiled when a line is first refused, not at every start (compiled at import they cost a
# one-hand `score` 7 M instructions of its 533 M, callgrind).
@functools.cache
def reasons() -> tuple[tuple[re.Pattern[str], str], ...]:
    return (
        (re.compile(r"(?P<value>.*) is not one of (?P<choices>.*)\.", re.S),
         N_("{value} is not one of {choices}.")),
        (re.compile(r"(?P<value>.*) is not a valid integer\.", re.S),
         N_("{value} is not a valid integer.")),
        (re.compile(r"(?P<value>.*) is not a valid float\.", re.S),
         N_("{value} is not a valid float.")),
        (re.compile(r"(?P<value>.*) is not a valid int range\.", re.S),
         N_("{value} is not a valid int range.")),
        (re.compile(r"(?P<value>.*) is not a valid float range\.", re.S),
         N_("{value} is not a valid float range.")),
        (re.compile(r"(?P<value>.*) is not in the range (?P<range>.*)\.", re.S),
         N_("{value} is not in the range {range}.")),
        (re.compile(r"(?P<value>.*) is not a valid boolean\. Recognized values: (?P<states>.*)", re.S),
         N_("{value} is not a valid boolean. Recognized values: {states}")),
        (re.compile(r"Option (?P<name>.*) requires an argument\.", re.S),
         N_("Option {name} requires an argument.")),
        (re.compile(r"Option (?P<name>.*) requires (?P<nargs>\d+) arguments\.", re.S),
         N_("Option {name} requires {nargs} arguments.")),
        (re.compile(r"Option (?P<name>.*) does not take a value\.", re.S),
         N_("Option {name} does not take a value.")),
        (re.compile(r"Argument (?P<name>.*) takes (?P<nargs>\d+) values\.", re.S),
         N_("Argument {name} takes {nargs} values.")),
        (re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", re.S),
         N_("Got unexpected extra argument(s) ({args})")),
        (re.compile(r"Choose from:\n\t(?P<choices>.*)", re.S),
         N_("Choose from:\n\t{choices}")),
        (re.compile(r"No such option: (?P<name>.*)", re.S),
         N_("No such option: {name}")),
    )

# Typer's own options' help, written where Typer declares them (typer/completion.py, the copy's
# help option): said in the reader's language where they are shown.
OPTION_HELP = (
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
    N_("Show this message and exit."),
)


def reason(written: str) -> str:
    """What the copy of click wrote, in the language in use."""
    for pattern, message in reasons():
        m = pattern.fullmatch(written)
        if m:
            return _(message).format(**m.groupdict())
    return written


def _hint(e: _click.exceptions.BadParameter) -> str | None:
    hint: Sequence[str] | str | None = e.param_hint
    if hint is None and e.param is not None and e.ctx is not None:
        hint = e.param.get_error_hint(e.ctx)
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(x) for x in hint)
    return hint


def message(e: _click.exceptions.ClickException) -> str:
    """The refusal's sentence, as the copy of click makes it (exceptions.py's format_message), said."""
    if isinstance(e, _click.exceptions.MissingParameter):
        hint = _hint(e)
        kind = e.param_type or (e.param.param_type_name if e.param is not None else None)
        missing = {"argument": _("Missing argument"), "option": _("Missing option"),
                   "parameter": _("Missing parameter")}.get(kind or "") or _("Missing {param_type}").format(
                       param_type=kind)
        said = reason(e.message) if e.message else ""
        if e.param is not None and e.ctx is not None:
            extra = e.param.type.get_missing_message(param=e.param, ctx=e.ctx)
            if extra:
                said = f"{said}. {reason(extra)}" if said else reason(extra)
        return missing + (f" {hint}" if hint else "") + "." + (f" {said}" if said else "")
    if isinstance(e, _click.exceptions.BadParameter):
        hint = _hint(e)
        if hint is None:
            return _("Invalid value: {message}").format(message=reason(e.message))
        return _("Invalid value for {param_hint}: {message}").format(param_hint=hint, message=reason(e.message))
    if isinstance(e, _click.exceptions.NoSuchOption):
        said = reason(e.message)
        if e.possibilities:
            said += " " + _("(Possible options: {options})").format(options=", ".join(sorted(e.possibilities)))
        return said
    return reason(e.message)


def refusal(e: _click.exceptions.ClickException) -> str:
    """The whole text the command line writes for `e`: the usage line and where to find help, when
    it knows the command, then the error (click's layout, in the language in use)."""
    lines = []
    if isinstance(e, _click.exceptions.UsageError) and e.ctx is not None:
        lines.append(e.ctx.get_usage())
        if e.ctx.command.get_help_option(e.ctx) is not None:
            lines.append(_("Try '{command} {option}' for help.").format(
                command=e.ctx.command_path, option=e.ctx.help_option_names[0]))
        lines.append("")
    lines.append(_("Error: {message}").format(message=message(e)))
    return "\n".join(lines) + "\n"


def _format_usage(command: _click.Command, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
    formatter.write_usage(ctx.command_path, " ".join(command.collect_usage_pieces(ctx)), prefix=_("Usage:") + " ")


def _said_options(params: list[Any]) -> list[Any]:
    for param in params:
        if getattr(param, "help", None) in OPTION_HELP:
            param.help = _(param.help)
    return params


class Command(typer.core.TyperCommand):
    """A command whose usage line and help option speak the reader's language."""

    def format_usage(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _format_usage(self, ctx, formatter)

    def get_params(self, ctx: _click.Context) -> list[Any]:
        return _said_options(super().get_params(ctx))


class Group(typer.core.TyperGroup):
    """The app and its groups (`schemes`, `import`): as `Command`, and a line's refusal said by
    `refusal`, a mistyped command's suggestion too."""

    def format_usage(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _format_usage(self, ctx, formatter)

    def get_params(self, ctx: _click.Context) -> list[Any]:
        return _said_options(super().get_params(ctx))

    def resolve_command(self, ctx: _click.Context, args: list[str]) -> Any:
        # Typer's own resolve_command adds its suggestion in English.
        try:
            return self._click_resolve_command(ctx, args)
        except _click.exceptions.UsageError as e:
            import difflib

            matches = difflib.get_close_matches(args[0], list(self.commands)) if self.suggest_commands and args else []
            if matches:
                e.message = e.message.rstrip(".") + ". " + _("Did you mean {commands}?").format(
                    commands=", ".join(repr(m) for m in matches))
            raise

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        """As Typer's, but a refusal or an abort is written here, in the reader's language (Typer's
        standalone mode writes its copy of click's English)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except _click.exceptions.NoArgsIsHelpError as e:  # a group named alone: its help
            _click.echo(e.ctx.get_help(), file=sys.stderr)
            sys.exit(e.exit_code)
        except _click.exceptions.ClickException as e:
            _click.echo(refusal(e), file=sys.stderr, nl=False)
            sys.exit(e.exit_code)
        except typer.Abort:
            _click.echo(_("Aborted!"), file=sys.stderr)
            sys.exit(1)
        _exit(code)


def _exit(code: Any) -> NoReturn:
    # Out of standalone mode Typer returns an Exit's status, and a command's own value otherwise
    # (mjscore's commands return none): the status the process ends with.
    sys.exit(code if isinstance(code, int) else 0)

