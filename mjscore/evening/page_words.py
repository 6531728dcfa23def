"""The table page's own words: every label, button, heading and sentence the page shows that
is not already in an answer, made here through the one door (`mjscore.model.say`), so that the
page speaks the language the command line does and a translation turns both.

The page is handed them once, with the page itself (`page_words()`, written into page.html
where the server serves it); its script fills them in.  A word with named places (`{hand}`) is
filled by the script as `_()`'s sentences are filled here, each place by its name; a word that
counts is a pair (`one`: its form for 1, `other`: for 2) the script chooses between by the language's plural rule
(`Intl.PluralRules`).  The sentences about a settled hand, a payment, a standing and the next
deal are not here: the answers carry them, made by mjscore.evening.words as the command line's.
"""

from __future__ import annotations

from mjscore.evening import words
from mjscore.model.say import LANGUAGES, _, language, n_
from mjscore.model.tiles import SEAT_WORDS


def page_words() -> dict[str, str | dict[str, str]]:
    """Every word of the page by its key, in the language in use (a key is the page's, never shown)."""
    season = words.season_words()
    return {
        "lang": language(),
        # each language by its own name, for the phone's choice (what it is called by its readers)
        "languages": {code.value: name for code, name in LANGUAGES.items()},
        "language": _("Language"),
        # -- the page's frame (page.html)
        "title": _("mjscore · the table"),
        "offline": _("The table's computer cannot be reached; retrying…"),
        "who_are_you": _("Who are you?"),
        "each_their_own": _("Each player enters their own hand on their own phone."),
        "just_watching": _("Just watching"),
        "views": _("Views"),
        "tab_table": _("Table"), "tab_hands": _("Hands"), "tab_standings": _("Standings"), "tab_rules": _("Rules"),
        "your_hand": _("Your hand"),
        "i_won": _("I won:"),
        "not_in_yet_sending": _("Your line is not in yet: sending it again…"),
        "my_score": _("My score"),
        "digits": _("Digits of my score"),
        "count_tiles": _("Count my tiles instead"),
        "tiles_to_add": _("Tiles to add"),
        "exposed_set": _("Exposed set"), "exposed_set_why": _("A set claimed from a discard"),
        "concealed_kong": _("Concealed kong"), "concealed_kong_why": _("A concealed kong, declared"),
        "claimed_kong": _("Claimed kong"), "claimed_kong_why": _("A concealed pung made a kong with a discard"),
        "winning_tile": _("Winning tile"),
        "remove": _("Remove"),
        "your_tiles": _("Your tiles"),
        "ways_of_winning": _("Ways of winning"),
        "enter_score": _("Enter my score instead"),
        "the_table": _("The table"),
        "others_nothing": _("The others scored nothing"),
        "settle": _("Settle the hand"),
        "draw": _("Draw"),
        "penalty": _("Penalty…"),
        "undo_last": _("Undo last hand"),
        "who_pays": _("Who pays"), "how_much": _("How much"), "to": _("To"), "add": _("Add"),
        "hands_title": _("The evening's hands"),
        # -- the seats, the ways of winning and the tiles
        "E": _(SEAT_WORDS["E"]), "S": _(SEAT_WORDS["S"]), "W": _(SEAT_WORDS["W"]), "N": _(SEAT_WORDS["N"]),
        "flag_loose": _("loose tile"), "flag_last": _("last tile"), "flag_robbed": _("robbed a kong"),
        "flag_heaven": _("heaven"), "flag_earth": _("earth"), "flag_original-call": _("original call"),
        "flag_twofold": _("twofold"),
        # A tile's face: a short word under its rank, and its suit's name (the button's name).
        "char": _("char"), "characters": _("characters"), "dots": _("dots"), "bam": _("bam"), "bamboo": _("bamboo"),
        "wind": _("wind"), "dragon": _("dragon"), "flower": _("flower"), "season": _("season"),
        "east_wind": _("east wind"), "south_wind": _("south wind"), "west_wind": _("west wind"),
        "north_wind": _("north wind"), "red_dragon": _("red dragon"), "green_dragon": _("green dragon"),
        "white_dragon": _("white dragon"),
        "tile_name": _("{rank} {face}"), "tile_named": _("{rank} {face}, {name}"),
        "the_winning_tile": _("{tile}, the winning tile"),
        "a_set": _("{kind} set"), "exposed": _("exposed"), "declared": _("declared"), "claimed": _("claimed"),
        # -- the bar, the entry and the table
        "cannot_reach_now": _("The table's computer cannot be reached: trying again now…"),
        "cannot_reach_in": _("The table's computer cannot be reached: trying again in {seconds} s "
                             "(Wi-Fi on? the same network as the table?)"),
        "file_broken": _("The evening's file cannot be played ({where}): {message}. Nothing can be settled until "
                         "it is mended."),
        "the_file": _("the file"), "file_line": _("{file}, line {line}"),
        "watching": _("watching"),
        "not_you": _("{who}: not you? Choose again"),
        "you_are": _("Your hand — you are {seat}"),
        "self_drawn": _("Self-drawn"), "from_player": _("from {player}"),
        "nothing": _("nothing"), "nothing_key": _("Nothing"), "delete_digit": _("Delete a digit"),
        "tap_winning": _("Tap the tile you went out on, then “Winning tile”."),
        "no_longer_next": _("hand {hand} is no longer the next hand"),
        "a_slip": _("{typed} is more than the limit, {limit}: a slip?"),
        "counted": _("{score} counted"),
        "limit_figures": _("{limit}: {score}"),
        "points": {"one": n_("{n} point", "{n} points", 1), "other": n_("{n} point", "{n} points", 2)},
        "doubles": {"one": n_("{n} double", "{n} doubles", 1), "other": n_("{n} double", "{n} doubles", 2)},
        "points_doubles_score": _("{points}, {doubles}: {score}"),
        "points_score": _("{points}: {score}"),
        "seat_of": _("{name} ({seat})"),
        "not_in_yet": _("not in yet"),
        "remove_penalty": _("Remove the penalty: {penalty}"),
        "penalty_not_removed": _("the penalty could not be removed: try again"),
        "undo_hand": _("Undo hand {hand}"),
        "settled_already": _("hand {hand} is settled already"),
        "not_settled": _("Hand {hand} was not settled (no answer from the table's computer): press again."),
        "cannot_settle": _("the hand could not be settled"),
        "each_other": _("each other player"),
        "penalty_whole": _("A penalty is a whole number from 1 up."),
        "penalty_over": _("{amount} is more than the limit ({limit}). Enter it all the same?"),
        "penalty_self": _("A player does not pay a penalty to themselves."),
        "penalty_lost": _("The penalty was not entered (no answer): press Add again."),
        "draw_lines": _("Record a draw for hand {hand}? The lines entered ({whose}) are dropped; the penalties stay."),
        "draw_sure": _("Record a draw for hand {hand}?"),
        "draw_lost": _("The draw was not recorded (no answer): press again."),
        "undo_sure": _("Take hand {hand} back out of the evening?"),
        "undo_lost": _("Hand {hand} was not taken back (no answer): try again."),
        # -- a settled hand
        "title_outcome": _("{title} — {outcome}"),
        "payments_include": _("The payments above include:"),
        "no_payments": _("No payments: {why}"),
        "how_made": _("How each score was made"),
        "winner": _("{who} — winner: {figures}"), "loser": _("{who}: {figures}"),
        "nets_totals_breakdowns": _("Nets, totals and breakdowns"), "nets_totals": _("Nets and totals"),
        "the_next_deal": _("The next deal"),
        "player": season["player"], "score": season["score"], "net": _("net"), "total": _("total"),
        "limit_once": _("limit"), "limit_times": _("{n} limit"),
        "item": _("{text}: {value}"), "item_for": _("{text} {whose}: {value}"),
        # -- the evening's hands, and correcting one
        "hands_count": _("The evening's hands: {n}"),
        "no_hand_yet": _("No hand has been played yet."),
        "hand_line": _("Hand {hand} · {dealer} dealt · {outcome}"),
        "hand_unread": _("Hand {hand} could not be read: try again."),
        "correct_hand": _("Correct hand {hand}"),
        "hand_as_held": _("Hand {hand} as the evening's file holds it (seats as at that hand: {seats})"),
        "save_correction": _("Save the correction"), "cancel": _("Cancel"),
        "corrected_moved": _("Hand {hand} corrected: {moved}."),
        "corrected_same": _("Hand {hand} corrected; no total changed."),
        "corrected": _("Hand {hand} corrected."),
        "not_corrected": _("Hand {hand} was not corrected (no answer): save again."),
        # -- standings
        "standings_after": {"one": n_("Standings after {n} hand", "Standings after {n} hands", 1),
                            "other": n_("Standings after {n} hand", "Standings after {n} hands", 2)},
        "won_or_lost": season["won_or_lost"],
        "settle_up": _("Settle-up"),
        "a_point_is": _("A point is {money}."),
        "nobody_owes": _("Nobody owes anything."),
        "figures_of_each": _("Each player's figures"),
        "won": season["won"], "played": _("Played"), "biggest_hand": _("Biggest hand"),
        "penalties_and_all": _("Penalties, and paying for all"),
        "hands": season["hands"], "self_drawn_col": season["self_drawn"], "on_a_discard": season["on_a_discard"],
        "dealt": season["dealt"], "draws": season["draws"], "which": _("which"),
        "no_hand_won": season["no_hand_won"], "hand_n": _("hand {hand}"), "hand_n_limit": _("hand {hand}, {limit}"),
        "limit_hands": _("Limit hands: {hands}."), "no_limit_hands": season["no_limit_hands"],
        "times": _("{name} × {n}"),
        "paid": season["paid"], "received": season["received"], "paid_for_all": season["paid_for_all"],
        "running_totals_after": _("Running totals after each hand: {totals}"),
        "running_totals": _("Running totals: {totals}"),
        # A marker's shape, named beside a player in the chart's words (colour is not needed).
        "circle": _("circle"), "square": _("square"), "triangle": _("triangle"), "diamond": _("diamond"),
        # -- the rules in force
        "scheme_title": _("Scheme: {title} ({scheme})"),
        "changes_from": _("What {scheme} changes from {base}"),
        "no_changes": _("Nothing: it scores as its base does."),
        "what": _("what"), "here": _("here"),
        "settings": _("The evening's settings"),
        "starts_with": _("Each player starts with {start}. Marked ★: set by the evening's header; the others are "
                         "the scheme's."),
    }


def night_page_words() -> dict[str, str | dict[str, str]]:
    """The words only a night's page shows (`mjscore serve NIGHT`: a table picked first, the Night
    view), added to `page_words()` on a night's page only: one evening's page carries none of them."""
    return {
        "tab_night": _("Night"),
        "which_table": _("Which table are you at?"),
        "another_table": _("Another table"),
        "night_title": _("The night"),
        "table_after": {"one": n_("{table} after {n} hand", "{table} after {n} hands", 1),
                        "other": n_("{table} after {n} hand", "{table} after {n} hands", 2)},
        "tables_col": _("tables"),
        "night_settle_up": _("The night's settle-up"),
    }
