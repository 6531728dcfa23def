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

from mjscore.model.tiles import SEAT_LETTERS, SEAT_WORDS


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
