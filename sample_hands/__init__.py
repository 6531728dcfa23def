"""The sample tables and evenings.  Installed as the package `mjscore.sample_hands` so that
`mjscore example` finds them wherever mjscore is installed; there is no code here."""
