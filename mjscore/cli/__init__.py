from mjscore.cli.commands import app, main

__all__ = ["app", "main"]
