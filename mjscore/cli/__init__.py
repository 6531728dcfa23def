"""The command line.  `main` chooses the language first (mjscore.cli.language), then makes the app:
Typer's help is written when the commands are declared, so the language must be known by then."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mjscore.cli.commands import app

__all__ = ["app", "main"]


def main() -> None:
    from mjscore.cli.start import main as start

    start()


def __getattr__(name: str) -> Any:
    # `app`, made when first asked for (in the language in use then).
    if name == "app":
        from mjscore.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
