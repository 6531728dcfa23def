"""A settled hand in words, made here once for every shell: the command line wraps these
sentences to its width, the page shows them as they are.  Each works on a hand's plain form
(`PlayedHand.to_dict()`, or a table's result with `names`), so any shell that has the JSON can
say what the other says.

>>> hand = {"names": {"E": "Ann", "S": "Bob", "W": "Cid", "N": "Dee"}, "winner": "S",
...         "settlement": {"paying": "between-all", "payments": [
...             {"from": "E", "to": "S", "amount": 336}, {"from": "N", "to": "E", "amount": 100},
...             {"from": "N", "to": "S", "amount": 100}, {"from": "N", "to": "W", "amount": 100}],
...             "penalties": [{"from": "N", "to": "E", "amount": 100}, {"from": "N", "to": "S", "amount": 100},
...                           {"from": "N", "to": "W", "amount": 100}]}}
>>> said(hand)["payments"]
['Ann pays Bob 336', 'Dee pays Ann 100', 'Dee pays Bob 100', 'Dee pays Cid 100']
>>> said(hand)["penalties"]
['Penalty: Dee pays Ann, Bob and Cid 100 each']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mjscore.model.money import with_money
from mjscore.model.say import number, _, n_
from mjscore.model.tiles import SEAT_LETTERS, SEAT_WORDS


# An evening whose header says `finished` (a game Kajongg ended, or one a club closed): what
# `session` says where it would name the next hand, and why `add` refuses one.
def finished() -> str:
    """What `session` says of a `finished` evening where it would name the next hand."""
    return _("The game is over (the evening's header says 'finished'): no hand follows.")


def finished_refusal() -> str:
    """Why `add` refuses a hand to a `finished` evening."""
    return _("the game is over: the evening's header says 'finished' (take that line out to play on)")


def said(hand: Mapping[str, Any]) -> dict[str, list[str]]:
    """Who pays whom ("Ann pays Bob 120", largest first), each penalty on a line of its own, and
    the kitty or extra-hand bonus: the sentences under a hand's scores wherever it is shown."""
    names = dict(hand.get("names") or {})
    s = hand.get("settlement") or {}
    who = lambda seat: names.get(seat, SEAT_WORDS[seat])  # noqa: E731 - a name, or the seat's word
    payments = payment_sentences(hand)
    out = {"payments": payments, "penalties": penalty_sentences(s, who),
           "specials": [special_sentence(x, s.get("paying", ""), names) for x in s.get("specials", [])]}
    if not payments:
        out["nobody"] = [nobody_pays(s)]
    win = hand.get("win")
    if win and any(p.get("completed") for p in hand.get("players", [])):
        out["completed"] = [completed_said(win, lambda seat: names.get(seat, SEAT_WORDS.get(seat, "")) if seat else "")]
    return out


def paid(settlement: Mapping[str, Any]) -> dict[tuple[str, str], int]:
    """(payer, payee) -> what one pays the other in all, the payment's reason aside."""
    out: dict[tuple[str, str], int] = {}
    for x in settlement.get("payments", []):
        out[x["from"], x["to"]] = out.get((x["from"], x["to"]), 0) + x["amount"]
    return out


def payment_sentences(hand: Mapping[str, Any]) -> list[str]:
    """"Ann pays Bob 120": for each two players, what one owes the other once all is counted
    (penalties too: each is said again on a line of its own), largest first."""
    names = dict(hand.get("names") or {})
    for p in hand.get("players", []):
        if p.get("name"):
            names[p["seat"]] = p["name"]
    owed = paid(hand.get("settlement") or {})
    out = []
    for i, a in enumerate(SEAT_LETTERS):
        for b in SEAT_LETTERS[i + 1:]:
            d = owed.get((a, b), 0) - owed.get((b, a), 0)
            if d:
                payer, payee = (a, b) if d > 0 else (b, a)
                who = names.get(payer, SEAT_WORDS[payer])
                out.append((-abs(d), pays(who, names.get(payee, SEAT_WORDS[payee]), str(abs(d)))))
    return [text for _rank, text in sorted(out)]


def penalty_sentences(settlement: Mapping[str, Any], who: Callable[[str], str]) -> list[str]:
    """Each penalty on a line of its own, so that the payments it is part of are explained:
    "Penalty: Bob pays Ann 100"; one paid to each other player, "... pays Ann, Cid and Dee 50
    each"; under add-up, taken off the payer's total.  `who(seat)` names a player."""
    groups: dict[tuple[str, int], list[str | None]] = {}
    for pen in settlement.get("penalties", []):
        groups.setdefault((pen["from"], pen["amount"]), []).append(pen["to"])
    out = []
    for (payer, amount), payees in groups.items():
        if None in payees:
            out.append(_("Penalty: {payer} pays {amount}, taken off the total (add-up)").format(
                payer=who(payer), amount=amount))
        elif len(payees) == 3:
            a, b, c = (who(p) for p in payees if p is not None)
            out.append(_("Penalty: {payer} pays {a}, {b} and {c} {amount} each").format(
                payer=who(payer), a=a, b=b, c=c, amount=amount))
        else:
            out.extend(_("Penalty: {payer} pays {payee} {amount}").format(payer=who(payer), payee=who(p), amount=amount)
                       for p in payees if p is not None)
    return out


def special_sentence(x: Mapping[str, Any], paying: str, names: Mapping[str, str]) -> str:
    """The kitty or the extra-hand bonus, on a line of its own: what it was and where it went."""
    n, unit = x["count"], x["unit"]
    if x["kind"] == "kitty":
        what = n_("Kitty: {n} deal x {unit} from each player", "Kitty: {n} deals x {unit} from each player",
                  n).format(n=n, unit=unit)
    else:
        what = n_("Extra hands: East's {n} extra hand in a row x {unit}",
                  "Extra hands: East's {n} extra hands in a row x {unit}", n).format(n=n, unit=unit)
    if x["to"] is None:
        return _("{what}; {why}").format(what=what, why=x.get("why") or _("not paid"))
    who = f"{names[x['to']]} ({x['to']})" if x["to"] in names else SEAT_WORDS[x["to"]]
    if paying == "add-up":
        return _("{what}: {who}'s total grows by {amount}").format(what=what, who=who, amount=x["amount"])
    return _("{what}: {who} receives {amount} (in the payments above)").format(what=what, who=who, amount=x["amount"])


def outcome(hand: Mapping[str, Any]) -> str:
    """What came of a hand, as every shell says it: "Ann (E) wins on Bob's discard", "... robbed
    from Bob's kong", "... self-drawn", "a draw", "no winner" (a sentence begins it with a capital).

    >>> outcome({"winner": "E", "names": {"E": "Ann", "S": "Bob"}, "win": {"from": "S", "flags": ["robbed"]}})
    "Ann (E) wins robbed from Bob's kong"
    """
    if hand.get("draw"):
        return _("a draw")
    winner = hand.get("winner")
    if not winner:
        return _("no winner")
    names = hand.get("names") or {}
    return _("{winner} ({seat}) wins {how}").format(winner=names.get(winner, winner), seat=winner,
                                                   how=how_won(hand.get("win") or {}, lambda s: names.get(s, s)))


def how_won(win: Mapping[str, Any], who: Callable[[str], str]) -> str:
    """How the winner went out: "self-drawn", "on Bob's discard", "robbed from Bob's kong" (a
    robbed tile is no discard); `who` names the seat it came from."""
    discarder = win.get("from")
    if not discarder:
        return _("self-drawn")
    flags = win.get("flags") or ()
    if "unrecorded" in flags:
        # `from` only stands in for a discarder the record did not keep: never stated as fact.
        return _("on a discard (whose was not recorded)")
    if "robbed" in flags:
        return _("robbed from {player}'s kong").format(player=who(discarder))
    return _("on {player}'s discard").format(player=who(discarder))


def won_or_lost(total: int, start: int, money: str | None, currency: str | None) -> str:
    """A player's won or lost, signed, with its money under a stake: "+898", "+898 (EUR +44.90)"."""
    return with_money(total - start, money, currency, signed=True) if money is not None else f"{total - start:+d}"


def amount(points: int, money: str | None, currency: str | None) -> str:
    """An amount paid, with its money under a stake: "596", "596 (EUR 29.80)"."""
    return with_money(points, money, currency) if money is not None else str(points)


def figures(player: Mapping[str, Any]) -> str:
    """What a player's score is made of, said beside it: the limit's name, "counted" (a score
    counted at the table), "nothing" (a loser who entered nothing: `...`, or Enter at the
    prompt), or its points and doubles, "24 points, 1 double" (tiles that count 0 say so).

    >>> [figures(p) for p in ({"points": 24, "doubles": 1, "score": 48, "limit": None, "arrangement": ["CCC"]},
    ...                       {"points": 0, "doubles": 0, "score": 0, "limit": None, "arrangement": []},
    ...                       {"points": 0, "doubles": 0, "score": 0, "limit": None, "arrangement": ["123m"]},
    ...                       {"points": 8, "doubles": 0, "score": 8, "limit": None, "counted": True})]
    ['24 points, 1 double', 'nothing', '0 points, 0 doubles', 'counted']
    """
    if player.get("limit"):
        return str(player["limit"])
    if player.get("counted"):
        return _("counted")
    points, doubles = player.get("points", 0), player.get("doubles", 0)
    if not (points or doubles or player.get("score") or player.get("arrangement") or player.get("items")):
        return _("nothing")
    return _("{points}, {doubles}").format(points=n_("{n} point", "{n} points", points).format(n=points),
                                           doubles=n_("{n} double", "{n} doubles", doubles).format(n=doubles))


def evening_words(evening: Mapping[str, Any]) -> dict[str, Any]:
    """The evening's phrases that every shell shows (its plain form, `session --format json`, or
    its summary with `start`): each standing's won or lost, in the standings' order; each payment
    of the settle-up ("Ann pays Bob 596 (EUR 29.80)"); and, where its hands are listed, what came
    of each.

    >>> evening_words({"start": 2000, "standings": [{"name": "Ann", "total": 2100}, {"name": "Bob", "total": 1900}],
    ...                "settle_up": [{"from": "Bob", "to": "Ann", "amount": 100}]})
    {'standings': ['+100', '-100'], 'settle_up': ['Bob pays Ann 100']}
    """
    currency = (evening.get("stake") or {}).get("currency")
    start = evening["start"]
    out: dict[str, Any] = {"standings": [won_or_lost(p["total"], start, p.get("money"), currency)
                                         for p in evening["standings"]],
                           "settle_up": transfer_sentences(evening)}
    if isinstance(evening.get("hands"), list):
        out["hands"] = [outcome(h) for h in evening["hands"]]
    if evening.get("stake"):
        out["stake"] = stake_words(evening["stake"])
    return out


def stake_words(stake: Mapping[str, Any]) -> str:
    """What a point is worth, as the reader's language writes money: "EUR 0.05", German "0,05 EUR"."""
    money = number(str(stake["per_point"]))
    if stake.get("currency"):
        return _("{currency} {money}").format(currency=stake["currency"], money=money)
    return money


def pays(payer: str, payee: str, amount: str) -> str:
    """"Ann pays Bob 120": one payment, or one transfer of the settle-up, by the players' names."""
    return _("{payer} pays {payee} {amount}").format(payer=payer, payee=payee, amount=amount)


def nobody_pays(settlement: Mapping[str, Any] | None) -> str:
    """What a settled hand in which nobody pays says instead of its payments."""
    if settlement is not None and settlement.get("paying") == "add-up":
        return _("Add-up: nobody pays; the scores are added to the totals.")
    return _("Nobody pays.")


def settle_up_lines(evening: Mapping[str, Any]) -> list[str]:
    """The evening's settle-up as the command line lists it under the standings: its heading,
    then each transfer indented ("  Bob pays Ann 596 (EUR 29.80)"), or that nobody owes anything;
    an evening settled hand by hand says so (`settle_up_note`).

    >>> settle_up_lines({"start": 0, "standings": [], "settle_up": [{"from": "Bob", "to": "Ann", "amount": 100}]})
    ['Settle-up (1 transfer):', '  Bob pays Ann 100']
    """
    transfers = evening.get("settle_up")
    if transfers is None:
        return [_("Settle-up: {note}").format(note=evening.get("settle_up_note") or _("none"))]
    if not transfers:
        return [_("Settle-up: nobody owes anything.")]
    return [n_("Settle-up ({n} transfer):", "Settle-up ({n} transfers):", len(transfers)).format(n=len(transfers)),
            *("  " + line for line in transfer_sentences(evening))]


def transfer_sentences(evening: Mapping[str, Any]) -> list[str]:
    """Each transfer of the evening's settle-up, with its money under a stake: "Bob pays Ann 596
    (EUR 29.80)"."""
    currency = (evening.get("stake") or {}).get("currency")
    return [pays(t["from"], t["to"], amount(t["amount"], t.get("money"), currency))
            for t in evening.get("settle_up") or ()]


def totals_stop(errors: int, before: int | None, briefly: bool = False) -> str:
    """Why an evening's totals end early: the hands that could not be counted (`briefly`: as a
    batch's CSV cell says it, without a capital or a pointer to the errors)."""
    if briefly:
        return n_("the totals stop before hand {hand}: {n} hand could not be counted",
                  "the totals stop before hand {hand}: {n} hands could not be counted",
                  errors).format(hand="?" if before is None else before, n=errors)
    return n_("The totals stop before hand {hand}: {n} hand could not be counted (see the errors).",
              "The totals stop before hand {hand}: {n} hands could not be counted (see the errors).",
              errors).format(hand="?" if before is None else before, n=errors)


# -- the deal ------------------------------------------------------------------------------------

def hand_title(number: int, dealer: str, round_letter: str, kajongg_hand: int | None = None) -> str:
    """A hand of an evening named one way wherever it is shown (the prompt, `add`, `session`,
    the page): `Hand 5: Dee deals, East round`; a hand imported from Kajongg with Kajongg's own
    number beside ours where they differ: `Hand 5 (Kajongg's hand 4): Dee deals, East round`.

    >>> hand_title(5, "Dee", "E", kajongg_hand=4)
    "Hand 5 (Kajongg's hand 4): Dee deals, East round"
    """
    wind = _(SEAT_WORDS[round_letter])
    if kajongg_hand is not None and kajongg_hand != number:
        return _("Hand {number} (Kajongg's hand {theirs}): {dealer} deals, {wind} round").format(
            number=number, theirs=kajongg_hand, dealer=dealer, wind=wind)
    return _("Hand {number}: {dealer} deals, {wind} round").format(number=number, dealer=dealer, wind=wind)


def deals_again(dealer: str, by_a_win: bool) -> str:
    """Why the dealer deals again: `Dee deals again: the draw keeps the deal` (or East's win)."""
    if by_a_win:
        return _("{dealer} deals again: East's win keeps the deal").format(dealer=dealer)
    return _("{dealer} deals again: the draw keeps the deal").format(dealer=dealer)


def new_round(swaps: Sequence[tuple[str, str]]) -> str:
    """Who moves where at a new round: `New round: Ann and Dee swap chairs; Bob and Cid swap chairs`."""
    return _("New round: {swaps}").format(swaps="; ".join(_swap(a, b) for a, b in swaps))


def _swap(a: str, b: str) -> str:
    return _("{a} and {b} swap chairs").format(a=a, b=b)


def next_deal(title: str, kept: tuple[str, int] | None, kitty_deals: int, swaps: Sequence[tuple[str, str]] | None,
              chairs: Sequence[tuple[str, str]] | None) -> str:
    """The next deal in words, as every shell shows it: `Next: Hand 2: Ann deals, East round
    (Ann deals again: the draw keeps the deal, extra hand 1; the kitty holds 2 deals' stakes)`;
    `kept`: why the dealer deals again and the extra hand's number; `swaps` and `chairs` (seat
    letter, player) at a new round that changes seats."""
    more = []
    if kept is not None:
        more.append(_("{why}, extra hand {n}").format(why=kept[0], n=kept[1]))
    if kitty_deals:
        more.append(n_("the kitty holds {n} deal's stakes", "the kitty holds {n} deals' stakes",
                       kitty_deals).format(n=kitty_deals))
    if swaps is not None and chairs is not None:
        more.append(_("new round: {swaps}: {chairs}").format(
            swaps=", ".join(_swap(a, b) for a, b in swaps), chairs=", ".join(f"{n} {s}" for s, n in chairs)))
    if more:
        return _("Next: {title} ({more})").format(title=title, more="; ".join(more))
    return _("Next: {title}").format(title=title)


# -- a table scored, as the command line lays it out -------------------------------------------

def draw_said() -> str:
    """A table's head, for a draw."""
    return _("Draw: the wall ran out")


def winner_said(who: str, tile: str | None, how: str, flags: Sequence[str]) -> str:
    """A table's head, for its winner: `Winner: Ann (E), 5p on Bob's discard (last tile)`."""
    shown = ", ".join(flags)
    return _("Winner: {who}, {tile}{how}{flags}").format(who=who, tile=f"{tile} " if tile else "", how=how,
                                                         flags=f" ({shown})" if shown else "")


def completed_said(win: Mapping[str, Any], name_of: Callable[[str], str]) -> str:
    """Why a set written concealed is shown exposed: `the 5p from North completed it`."""
    tile, flags = win.get("tile"), win.get("flags") or ()
    if "unrecorded" in flags:
        return _("the discarded {tile} completed it (whose discard was not recorded)").format(tile=tile)
    if "robbed" in flags:
        return _("the {tile} robbed from {player}'s kong completed it").format(tile=tile, player=name_of(win["from"]))
    return _("the {tile} from {player} completed it").format(tile=tile, player=name_of(win.get("from") or ""))


def total_said(player: Mapping[str, Any]) -> str:
    """How a player's score is reached, after "Total:": `24 points x 2^1 = 48`."""
    points, score = player["points"], player["score"]
    if player.get("counted"):
        if points != score:
            return _("score {points} (counted at the table), held to the limit: {score}").format(points=points,
                                                                                                   score=score)
        return _("score {score} (counted at the table)").format(score=score)
    if player["limit"]:
        return _("{limit}: limit hand, {score}").format(limit=player["limit"], score=score)
    d = player["doubles"]
    if d:
        return _("{points} points x 2^{doubles} = {score}").format(points=points, doubles=d, score=score)
    return _("{points} points = {score}").format(points=points, score=score)


def not_settled_said(why: str | None) -> list[str]:
    """A table that could not be settled, and why."""
    return [_("No payments:"), why or _("not computed")]


def added_up_said(draw: bool, penalties: bool, east_double: bool) -> str:
    """An added-up table's heading, before each seat's growth."""
    if draw and not penalties:
        what = _("the hand was a draw: nothing is added")
    elif east_double:
        what = _("each total grows by the player's score (East double)")
    else:
        what = _("each total grows by the player's score")
    return _("Add-up: nobody pays; {what}:").format(what=what)


def no_payments_said(draw: bool) -> str:
    """A settled table in which nothing changes hands."""
    return _("No payments: the hand was a draw.") if draw else _("No payments: every amount is 0.")


def payments_said(paying: str, payoff: str | None, east_double: bool | None) -> list[str]:
    """The heading of a table's payments grid: the method, the payoff, East's double where it
    applies (`east_double` None where it does not), and how to read the grid."""
    payoff_text = payoff or _("no payoff")
    if east_double is None:
        head = _("Payments ({paying}, {payoff}):").format(paying=paying, payoff=payoff_text)
    elif east_double:
        head = _("Payments ({paying}, {payoff}, East double on):").format(paying=paying, payoff=payoff_text)
    else:
        head = _("Payments ({paying}, {payoff}, East double off):").format(paying=paying, payoff=payoff_text)
    return [head, _("rows pay, columns receive")]


def grid_words() -> dict[str, str]:
    """The payments grid's corner, last column and last row."""
    return {"corner": _("pays \\ receives"), "in_all": _("in all"), "net": _("net")}


def settle_up_part(payee: str | None = None, payer: str | None = None, amount: str = "",
                   in_all: str | None = None) -> str:
    """One player's part of the settle-up, as a batch's CSV cell lists it: "pays Ann 816",
    "receives 816 from Bob", with a stake "in all +898 (EUR +44.90)"; none: "nothing to settle"."""
    if payee is not None:
        return _("pays {payee} {amount}").format(payee=payee, amount=amount)
    if payer is not None:
        return _("receives {amount} from {payer}").format(amount=amount, payer=payer)
    if in_all is not None:
        return _("in all {amount}").format(amount=in_all)
    return _("nothing to settle")


# -- a season's figures ------------------------------------------------------------------------

def season_heading(evenings: int, hands: int, players: int, one_file: str | None = None,
                   nights: int | None = None) -> list[str]:
    """A season's first line, in phrases: `Season: 3 evenings, 60 hands, 5 players`; with
    `nights` (a night of several tables counted): `Season: 2 nights, 4 evenings, ...`; one
    evening's figures (`one_file`): `Evening: FILE; 20 hands`."""
    if one_file is not None:
        return [_("Evening: {file};").format(file=one_file), n_("{n} hand", "{n} hands", hands).format(n=hands)]
    if nights is not None:
        return [n_("Season: {n} night,", "Season: {n} nights,", nights).format(n=nights),
                n_("{n} evening,", "{n} evenings,", evenings).format(n=evenings),
                n_("{n} hand,", "{n} hands,", hands).format(n=hands),
                n_("{n} player", "{n} players", players).format(n=players)]
    return [n_("Season: {n} evening,", "Season: {n} evenings,", evenings).format(n=evenings),
            n_("{n} hand,", "{n} hands,", hands).format(n=hands),
            n_("{n} player", "{n} players", players).format(n=players)]


def stakes_differ_said(stakes: Sequence[str], unstaked: int) -> str:
    """The one line of a season whose evenings played for different stakes (or some for none)."""
    if unstaked:
        return n_("The evenings' stakes differ ({stakes}; {n} evening for none): each night's money below, "
                  "a total for each currency.",
                  "The evenings' stakes differ ({stakes}; {n} evenings for none): each night's money below, "
                  "a total for each currency.", unstaked).format(stakes=", ".join(stakes), n=unstaked)
    return _("The evenings' stakes differ ({stakes}): each night's money below, a total for each currency.").format(
        stakes=", ".join(stakes))


def money_total_said(currency: str | None) -> str:
    """Before each player's money over the season in one currency."""
    if currency is None:
        return _("Money, the season's total (no currency named):")
    return _("Money in {currency}, the season's total:").format(currency=currency)


def left_out_said(evenings: int) -> str:
    """Before the evenings a season could not count."""
    return n_("{n} evening left out (see the errors):", "{n} evenings left out (see the errors):",
              evenings).format(n=evenings)


def season_words() -> dict[str, str]:
    """A season's headings, its grids' columns and its blanks, by what each is."""
    return {"no_hands": _("No hands counted."), "standings": _("Standings"), "played": _("Played"), "won": _("Won"),
            "biggest_hands": _("Biggest hands"), "no_limit_hands": _("Limit hands: none."),
            "limit_hands": _("Limit hands:"), "penalties": _("Penalties, and paying for all (liable)"),
            "no_hand_won": _("no hand won"), "place": _("place"), "player": _("player"),
            "won_or_lost": _("won or lost"), "an_evening": _("an evening"), "a_hand": _("a hand"),
            "evenings": _("evenings"), "hands": _("hands"), "dealt": _("dealt"), "draws": _("draws"),
            "self_drawn": _("self-drawn"), "on_a_discard": _("on a discard"), "score": _("score"),
            "limit_hand": _("limit hand"), "evening": _("evening"), "hand": _("hand"), "paid": _("paid"),
            "received": _("received"), "paid_for_all": _("paid for all"),
            "a_night": _("a night"), "nights": _("nights"), "total": _("total"),
            "night_by_night": _("Night by night (won or lost)"), "money_by_night": _("Money night by night")}


# -- the command line's headings and labels ------------------------------------------------------

def headings() -> dict[str, str]:
    """The labels around a table's, an evening's and a hand's figures as the command line lays
    them out, by what each is (a `{}` place filled by the caller's `.format`)."""
    return {
        "scheme": _("Scheme: {scheme}"), "round": _("Round: {round}"), "ruling": _("Ruling:"),
        "winner_mark": _(" - winner"), "item": _("item"), "for": _("for"), "points": _("points"),
        "doubles": _("doubles"), "limit": _("limit"), "not_counted": _("  (not counted:"), "total": _("Total:"),
        "runner_up": _("Runner-up arrangement:"), "lacks": _("  lacks {item}"), "has": _("  has {item}"),
        "yes": _("yes"), "player": _("player"), "won": _("won"), "score": _("score"),
        "net_in_money": _("Net in money:"), "won_or_lost": _("Won or lost:"),
        "session": _("Session: {players};"), "starts": _("each starts with {start}"), "#": _("#"),
        "round_column": _("round"), "East": _("East"), "result": _("result"),
        "seat_score": _("{name}: seat score net = total"), "place": _("place"), "total_column": _("total"),
        "won_or_lost_column": _("won or lost"), "final_standings": _("Final standings"),
        "standings": _("Standings"), "net": _("Net:"), "totals": _("Totals:"),
        "running_totals": _("Running totals"), "season_totals": _("Season totals"), "hand": _("hand"),
        "evening": _("evening"), "night": _("night"), "full": _("full"), "half": _("half"), "times": _("{share} x"),
        "share_of_limit": _("{share} limit"),
    }


# -- the prompt that asks for a hand (`mjscore add` at a terminal) --------------------------------

def prompt_words() -> dict[str, str]:
    """What the prompt says, by what each is.  Its help is at most two lines of 60 columns; a
    counted score needs no tile on the winner's line ('score 40 win self'); tiles do, and their
    check says so ("the win clause needs the winning tile")."""
    return {
        "help": _("A score (12), or tiles, or Enter for none; the winner adds\n"
                  "win self or win from NAME. Or draw, penalty NAME N [to NAME]"),
        "moved": _(" The players have changed seats: {seats}."),
        "kept": _("Kept as they were: {kept}"),
        "who_went_out": _("  Nobody went out: who did? (a name, or draw)"),
        "winners_line": _("  {player}'s line, with win TILE self or win TILE from NAME:"),
        "error": _("  error: {message}"),
        "penalty_noted": _("  Penalty noted. {player}'s line:"),
        "who": _("Who went out? "),
        "no_player": _("  no player '{name}' at this table: {players}"),
        "no_evening": _("no such evening file: name the players to start one (--players A B C D)"),
        "unfinished": _("nothing written: the hand was not finished"),
    }


# -- a scheme as `mjscore schemes` shows it ------------------------------------------------------

def scheme_words() -> dict[str, str]:
    """The headings and sentences around a scheme's values, a diff of two and the payoff tables."""
    return {
        "parameter": _("parameter"), "value": _("value"), "house_writes": _("a house file writes"), "set": _("set"),
        "exposed": _("exposed"), "concealed": _("concealed"), "pair": _("pair"), "points": _("points"),
        "no_pairs": _("(no pair scores)"), "id": _("id"), "rule_when": _("rule, and when it counts"),
        "item": _("item"), "situation": _("situation"), "sources": _("Sources:"),
        "sets_how": _("A house file writes sets: {{KIND: {{CLASS: [EXPOSED, CONCEALED]}}}}, as {example}"),
        "pairs_how": _("A house file writes pairs: {{PAIR: POINTS}}, as {example}"),
        "rules_how": _("A house file changes a rule by its id and value: rules: [{example}] ('mjscore help "
                       "schemes')."),
        "scope_every": _("Every hand"), "scope_winner": _("The winner only"), "scope_loser": _("Losers only"),
        "alike": _("{a} and {b} give every value alike."),
        "differences": _("{n} differences between {a} and {b} (- = not in that scheme):"),
        "default": _(" (the scheme's default)"),
        "east_switch": _("East pays and receives double when --east-double is on"),
        "east_built_in": _("East's double is in the figures"), "east_none": _("East is never doubled"),
    }


def items_said(value: Any) -> Any:
    """An answer (a hand, an evening, a table's result: plain JSON) with each scoring item's text
    said in the reader's language (`{"rule": ..., "text": "Pair of dragons"}`): results are kept
    in English, the words a scheme's file writes, and said where they are shown.  A club's own
    rule name no catalogue knows is shown as its file writes it."""
    if isinstance(value, dict):
        out = {k: items_said(v) for k, v in value.items()}
        if isinstance(out.get("rule"), str) and isinstance(out.get("text"), str):
            out["text"] = _(out["text"])
        return out
    if isinstance(value, list):
        return [items_said(v) for v in value]
    return value
