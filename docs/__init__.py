"""The documents of mjscore: the notation and the rules.  Installed as the package
`mjscore.docs` so that `mjscore help` finds them wherever mjscore is installed; there is no
code here."""
