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

from collections.abc import Callable, Mapping
from typing import Any

from mjscore.model.money import with_money
from mjscore.model.tiles import SEAT_LETTERS, SEAT_WORDS


# An evening whose header says `finished` (a game Kajongg ended, or one a club closed): what
# `session` says where it would name the next hand, and why `add` refuses one.
FINISHED: str = "The game is over (the evening's header says 'finished'): no hand follows."
FINISHED_REFUSAL = "the game is over: the evening's header says 'finished' (take that line out to play on)"


def said(hand: Mapping[str, Any]) -> dict[str, list[str]]:
    """Who pays whom ("Ann pays Bob 120", largest first), each penalty on a line of its own, and
    the kitty or extra-hand bonus: the sentences under a hand's scores wherever it is shown."""
    names = dict(hand.get("names") or {})
    s = hand.get("settlement") or {}
    who = lambda seat: names.get(seat, SEAT_WORDS[seat])  # noqa: E731 - a name, or the seat's word
    return {"payments": payment_sentences(hand), "penalties": penalty_sentences(s, who),
            "specials": [special_sentence(x, s.get("paying", ""), names) for x in s.get("specials", [])]}


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
                out.append((-abs(d), f"{who} pays {names.get(payee, SEAT_WORDS[payee])} {abs(d)}"))
    return [text for _, text in sorted(out)]


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
            out.append(f"Penalty: {who(payer)} pays {amount}, taken off the total (add-up)")
        elif len(payees) == 3:
            a, b, c = (who(p) for p in payees if p is not None)
            out.append(f"Penalty: {who(payer)} pays {a}, {b} and {c} {amount} each")
        else:
            out.extend(f"Penalty: {who(payer)} pays {who(p)} {amount}" for p in payees if p is not None)
    return out


def special_sentence(x: Mapping[str, Any], paying: str, names: Mapping[str, str]) -> str:
    """The kitty or the extra-hand bonus, on a line of its own: what it was and where it went."""
    n, unit = x["count"], x["unit"]
    if x["kind"] == "kitty":
        what = f"Kitty: {n} deal{'s' if n != 1 else ''} x {unit} from each player"
    else:
        what = f"Extra hands: East's {n} extra hand{'s' if n != 1 else ''} in a row x {unit}"
    if x["to"] is None:
        return f"{what}; {x.get('why', 'not paid')}"
    who = f"{names[x['to']]} ({x['to']})" if x["to"] in names else SEAT_WORDS[x["to"]]
    if paying == "add-up":
        return f"{what}: {who}'s total grows by {x['amount']}"
    return f"{what}: {who} receives {x['amount']} (in the payments above)"


def outcome(hand: Mapping[str, Any]) -> str:
    """What came of a hand, as every shell says it: "Ann (E) wins on Bob's discard", "... robbed
    from Bob's kong", "... self-drawn", "a draw", "no winner" (a sentence begins it with a capital).

    >>> outcome({"winner": "E", "names": {"E": "Ann", "S": "Bob"}, "win": {"from": "S", "flags": ["robbed"]}})
    "Ann (E) wins robbed from Bob's kong"
    """
    if hand.get("draw"):
        return "a draw"
    winner = hand.get("winner")
    if not winner:
        return "no winner"
    names = hand.get("names") or {}
    return f"{names.get(winner, winner)} ({winner}) wins {how_won(hand.get('win') or {}, lambda s: names.get(s, s))}"


def how_won(win: Mapping[str, Any], who: Callable[[str], str]) -> str:
    """How the winner went out: "self-drawn", "on Bob's discard", "robbed from Bob's kong" (a
    robbed tile is no discard); `who` names the seat it came from."""
    discarder = win.get("from")
    if not discarder:
        return "self-drawn"
    flags = win.get("flags") or ()
    if "unrecorded" in flags:
        # `from` only stands in for a discarder the record did not keep: never stated as fact.
        return "on a discard (whose was not recorded)"
    if "robbed" in flags:
        return f"robbed from {who(discarder)}'s kong"
    return f"on {who(discarder)}'s discard"


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
        return "counted"
    points, doubles = player.get("points", 0), player.get("doubles", 0)
    if not (points or doubles or player.get("score") or player.get("arrangement") or player.get("items")):
        return "nothing"
    return f"{_count(points, 'point')}, {_count(doubles, 'double')}"


def _count(n: int, word: str) -> str:
    """`1 double`, `2 doubles`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def evening_words(evening: Mapping[str, Any]) -> dict[str, list[str]]:
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
    out = {"standings": [won_or_lost(p["total"], start, p.get("money"), currency) for p in evening["standings"]],
           "settle_up": [f"{t['from']} pays {t['to']} {amount(t['amount'], t.get('money'), currency)}"
                         for t in evening.get("settle_up") or ()]}
    if isinstance(evening.get("hands"), list):
        out["hands"] = [outcome(h) for h in evening["hands"]]
    return out
