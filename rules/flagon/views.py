"""What each Flagon seat may see: the public board, its own characters' hands and its crew's planned cards; and the
table's words from a view: what a seat owes, its name (its characters) and its private summary."""

from __future__ import annotations

from typing import Any

from rules.core import State, clone
from rules.flagon.actions import dragon_lock
from rules.flagon.board import SHIP_NAME
from rules.flagon.cards import CARD, CHAR_NAME, TAG, card_name
from rules.flagon.engine import crew_label, scores
from rules.flagon.moves import to_act


def view(state: State, seat: int | None) -> dict[str, Any]:
    my_crews = set()
    if seat is not None:
        my_crews = {c["crew"] for c in state["chars"] if c["seat"] == seat}
        my_crews |= {crew for crew, seats in state["crews"].items() if seat in seats}
    chars = []
    for c in state["chars"]:
        row = {
            k: c[k]
            for k in (
                "idx",
                "id",
                "crew",
                "seat",
                "pos",
                "facing",
                "rep",
                "time",
                "duration",
                "held",
                "dragon",
                "dazed",
                "spoiled",
                "waiting",
            )
        }
        row["duration"] = list(c["duration"])
        row["name"] = CHAR_NAME.get(c["id"] or "", "")
        row["tag"] = TAG.get(c["id"] or "", "?")
        row["queued"] = len(c["queue"])
        row["owed"] = state["owed"].get(str(c["idx"]), 0)
        row["used"] = list(c["used"])
        if seat is not None and c["seat"] == seat:
            row["hand"] = list(c["hand"])
        if seat is not None and c["crew"] in my_crews:
            row["queue"] = list(c["queue"])
        chars.append(row)
    pend = state["pending"]
    pending = None
    if pend is not None:
        pending = {k: v for k, v in pend.items() if k != "data"}
        if pend.get("data", {}).get("target") is not None:
            pending["target"] = pend["data"]["target"]
        if pend.get("data", {}).get("parried"):
            # who parried the card being resolved was narrated; a sampler needs it to rebuild the state
            pending["parried"] = list(pend["data"]["parried"])
    return {
        "game": "flagon",
        "seat": seat,
        "players": state["players"],
        "phase": state["phase"],
        "step": pend["step"] if pend else state["phase"],
        "to_act": to_act(state),
        "T": state["T"],
        "end_spaces": list(state["end_spaces"]),
        "end_revealed": dict(state["end_revealed"]),
        "map": state.get("map", "ships"),
        "crews": {
            crew: {"name": crew_label(state, crew), "ship": SHIP_NAME.get(crew, ""), "seats": list(seats)}
            for crew, seats in state["crews"].items()
        },
        "chars": chars,
        "objects": clone(state["objects"]),
        "pending": pending,
        "last": clone(state["last"]),
        "scores": scores(state),
        # characters knocked overboard by the card being resolved (public), who replan once it ends
        "victims": list(state["victims"]),
        "result": clone(state["result"]),
    }


# -- the table's voice ------------------------------------------------------------------------------------
#: what a card's reveal-time step asks for, by step and card (docs/games/flagon.md#drawing-and-revealing); "{who}" is
#: the character
_STEP_ASKS = {
    "to": {
        "step": "choose the square to step to (or stay and turn), then a facing",
        "move": "choose the square to walk to, then a facing",
        "dash": "choose the square to walk to, then a facing",
        "shadow-step": "choose the square to teleport to, then a facing",
        "shadow-dash": "choose the square to teleport to, then a facing",
        "leap": "choose the square to land on, then a facing",
        "dragon-kick": "choose the square to land on, then the target",
    },
    "at": {
        "push-table": "choose the table to push (or skip)",
        "heave": "choose the table to push (or skip)",
        "pull-rug": "choose the rug to pull (or skip)",
        "kick": "choose whom or which barrel to kick (or skip)",
        "fireball": "choose the square the blast is centred on (or skip)",
        "lure-of-the-sea": "choose whom to shove, then the direction (or skip)",
    },
    "aim": {
        "throw": "choose which way to throw (or skip)",
        "swing": "choose which way to swing (or skip)",
        "daring-swing": "choose which way to swing (or skip)",
        "arr": "choose which way to swing (or skip)",
    },
}
_STEP_DEFAULT = {
    "to": "choose the square to move to, then a facing",
    "at": "choose the target (or skip)",
    "aim": "choose which way to aim (or skip)",
    "shove": "choose which way to shove the target (or skip)",
    "pickup": "take an object, drop the one held, or skip",
    "face": "choose which way the {who} faces",
}


def owed(view: dict[str, Any], seat: int) -> str:
    """What the seat owes, naming the step: which card is being played out and what it asks for now (a square, then
    a facing; a target; a direction), all of it public (the revealed card and its step)."""
    phase = view.get("phase")
    if phase in ("plan", "replan"):
        return "plan your cards in secret"
    pend = view.get("pending") or {}
    chars = view.get("chars") or []
    slot = pend.get("char", pend.get("slot"))
    who = chars[slot]["name"] if isinstance(slot, int) and slot < len(chars) and chars[slot]["name"] else ""
    step = pend.get("step")
    if step == "pick":
        crew = (view.get("crews") or {}).get(chars[slot]["crew"], {}).get("name", "") if who == "" else ""
        return f"pick a character{f' for the {crew}' if crew else ''}"
    if step == "start":
        return f"choose where the {who} starts"
    if step == "enter":
        return f"choose where the {who} climbs back aboard, then a facing"
    card = pend.get("card")
    if card:
        asks = _STEP_ASKS.get(str(step), {}).get(card) or _STEP_DEFAULT.get(str(step), "play it out")
        return f"play out the {who}'s {card_name(card)}: {asks.format(who=who)}"
    if step == "face":
        return f"choose which way the {who} faces"
    return f"act for the {who}" if who else "take your turn"


def seat_name(view: dict[str, Any], seat: int) -> str:
    """The seat's characters: during secret planning only those still owing a card
    (docs/games/flagon.md#the-tables-voice: "waiting for: Ana (Monk)"), while a character acts that one if it is the
    seat's; before the draft, its crew."""
    mine = [c for c in view.get("chars") or [] if c.get("seat") == seat]
    picked = [c for c in mine if c.get("name")]
    if not picked:
        crews = view.get("crews") or {}
        names = [crews[c["crew"]]["name"] for c in mine if c["crew"] in crews]
        return names[0] if names and view.get("map", "ships") == "ships" else ""
    if view.get("phase") in ("plan", "replan"):
        owing = [c for c in picked if c.get("owed")]
        if owing:
            picked = owing
    else:
        pend = view.get("pending") or {}
        acting = [c for c in picked if c.get("idx") == pend.get("char")]
        if acting:
            picked = acting
    return " & ".join(c["name"] for c in picked)


def private_summary(view: dict[str, Any], seat: int) -> str:
    lines = []
    for char in view["chars"]:
        if char.get("seat") != seat or "hand" not in char or not char.get("name"):
            continue  # not this seat's, or not yet drafted (no name, no cards)
        planned = ", ".join(card_name(c) for c in char.get("queue") or []) or "nothing"
        lines.append(f"**{char['name']}** — planned: {planned}. Hand (time in brackets):")
        # each card with its time and what it does, so the hand can be read without the rules; a locked Dragon card
        # says so (docs/games/flagon.md#dragon-cards), or a player plans it and it fizzles
        for c in char["hand"]:
            if c in CARD:
                lock = " — 🔒 locked: fizzles until it picks up the Flagon" if dragon_lock(view, char["id"], c) else ""
                lines.append(f"• {CARD[c][0]} ({CARD[c][1]}): {CARD[c][2]}{lock}")
    return "\n".join(lines)
