from mjscore.cli.app import app, main

__all__ = ["app", "main"]
