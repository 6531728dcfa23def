"""mjscore: score and settle finished Mahjong hands under the classical Chinese rules."""

__version__ = "0.1.0"
