"""The shipped scheme files.  Installed as the package `mjscore.schemes` so that mjscore finds
them with importlib.resources wherever it is installed; there is no code here."""
