"""Spellings of secrets that ``game.secrets()`` cannot list, checked by the leak tests on top of it.

The contract test (tests/rules/test_all_games.py) requires that a secret found in a seat's ``/hand`` text also
be in that seat's view JSON. The spellings below are how lines and ``/hand`` texts write a secret, not how views
do, so they live here: T as the ``(x,y)`` of the lines, a Jamaica hand as its ``/hand`` line lists it, a Flagon
hand or plan as a comma list.
"""

from __future__ import annotations

from rules.core import State


def text_forms(game_id: str, state: State) -> list[str]:
    if game_id == "treasure_island":
        return _treasure_island(state)
    if game_id == "cartagena" and state["options"]["mode"] == "jamaica":
        from rules.cartagena.board import SYMBOLS

        out = []
        for hand in state["hands"]:
            if sum(hand) >= 2:
                out.append(", ".join(f"{s} ×{n}" for s, n in zip(SYMBOLS, hand, strict=True) if n))
        return out
    if game_id == "flagon":
        out = []
        for c in state["chars"]:
            if len(c["hand"]) >= 3:
                out.append(", ".join(c["hand"]))
            if len(c["queue"]) >= 2:
                out.append(", ".join(c["queue"]))
        return out
    return []


def _treasure_island(s: State) -> list[str]:
    from rules.treasure_island import geometry

    if s["state"] == "over" or s["treasure"] is None:
        return []
    t = tuple(s["treasure"])
    text = geometry.fmt(t)
    # T's coordinates are no secret in a line once a mover stood there, a search, a Compass or fog was made there
    # or a played hint names the point: such a line names it for a public reason
    pts = []
    for mi in s["minis"].values():
        pts.append(mi["pos"])
        pts += [p for a, b, *_ in mi["trail"] for p in (a, b)]
    for f in s["figures"]:
        pts.append(f["pos"])
        pts += [p for a, b, *_ in f["trail"] for p in (a, b)]
    pts += [p for sr in s["searches"] for p in (sr["centre"], sr["anchor"])]
    pts += [c["pos"] for c in s["compass_uses"]] + [f["centre"] for f in s["fog"]]
    if any(tuple(p) == t for p in pts) or any(f"({text})" in h["text"] for h in s["hints"]):
        return []
    return [f"({text})"]
