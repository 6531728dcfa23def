"""The table page: `mjscore serve`'s web server, a shell over `mjscore.api` (see `app`)."""
