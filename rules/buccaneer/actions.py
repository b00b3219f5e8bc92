"""Buccaneer's action text: reading what a person types (``parse``) and the words a picker shows for an action
(``label``, ``describe``). Actions are lower-case words (docs/games/buccaneer.md#the-action-language)."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board
from rules.buccaneer.model import (
    CHANCE_EFFECTS,
    CREW_VALUE,
    KEEPER_EFFECT,
    KEEPER_TITLE,
    KEEPERS,
    TREASURE_VALUE,
    chance_title,
)
from rules.core import Action, IllegalAction, normalize_text

_VERB = {
    "offer": "offer",
    "unoffer": "take back",
    "want": "ask for",
    "unwant": "stop asking for",
    "pickup": "pick up",
    "load": "load",
    "unload": "unload",
    "leave": "leave",
    "flat": "leave on Flat Island",
    "take": "take",
    "land": "land",
}


def parse(text: str) -> Action:
    action = normalize_text(text)
    if not action:
        raise IllegalAction("bad_syntax", "Type an action such as `sail n`, `go 3`, `face ne` or `end`.")
    return action


def label(view: dict[str, Any], action: Action) -> str:
    """The option in a player's words, said once: crew cards as the hand spells them (B3), harbours and kept cards
    by name, a distance with where it ends; a card's effect goes to the description (``describe``)."""
    window = view.get("challenge_open")
    if action == "challenge" and window:
        mover = view["players"][window["mover"]]
        name = board.HARBOUR[mover["harbour"]]["name"] if mover["harbour"] else mover["name"]
        return f"Challenge {name}'s move of {window['k']}"
    words = action.split()
    you = view.get("you") or {}
    plan = you.get("free_plan") or you.get("plan")
    if words and words[0] == "go" and plan and plan.get("dir"):
        me = view["players"][you["seat"]]
        ray = board.RAYS[me["ship"]["at"]][plan["dir"]]
        k = int(words[1])
        end = ray[k - 1]
        where = board.HARBOUR[end]["name"] if board.is_harbour(end) else end.upper()
        text = f"{plan['dir'].upper()} {k} → {where}"
        if len(words) == 4:
            text += f", attack {board.HARBOUR[words[3]]['name']}"
        if k > you.get("sailing", k) and not you.get("free_plan"):
            text += " (exceeds your sailing strength)"
        return text
    if len(words) == 2 and words[0] in ("home", "target", "harbour") and words[1] in board.HARBOUR:
        return board.HARBOUR[words[1]]["name"]
    if len(words) == 2 and words[0] in ("sail", "face"):
        return f"{words[0]} {words[1].upper()}"
    if action == "turn":
        return "turn (face another way)"
    if words[:1] == ["spoils"]:
        return _spoils(view, words)
    if words[:1] == ["choose"]:
        return _branch(view, words[1])
    if len(words) == 2 and words[0] == "pick" and words[1] in TREASURE_VALUE:
        return f"{words[1]} (worth {TREASURE_VALUE[words[1]]})"
    # crew cards as the hand and the picture spell them (`give b2` reads "give B2"), kept cards by their title
    item = words[-1]
    thing = KEEPER_TITLE.get(item) or (item.upper() if item in CREW_VALUE else item)
    if words[0] == "flat" and len(words) == 3:
        return f"take {thing} from Flat Island" if words[1] == "take" else f"leave {thing} on Flat Island"
    if len(words) == 3 and words[1] == "docks":
        return f"{words[0]} {thing} from your Docks"
    if action.startswith("safe ") and you.get("seat") is not None:
        # three of a kind go in first, one at a time once that kind is there (docs/games/buccaneer.md#home-window)
        home = view["players"][you["seat"]]["harbour"]
        safety = next((h["safety"] for h in view.get("harbours") or [] if h["id"] == home), {})
        return f"put {1 if safety.get(item, 0) >= 3 else 3} {item} in the Safety Zone"
    if len(words) == 2 and words[0] in _LABEL_VERB:
        return _LABEL_VERB[words[0]].format(thing)
    return " ".join(w.upper() if w in CREW_VALUE else w for w in words)


#: the words of a basket, home window or loss step, by verb (docs/games/buccaneer.md#the-action-language)
_LABEL_VERB = {
    "offer": "offer {}",
    "unoffer": "take back {}",
    "want": "ask for {}",
    "unwant": "stop asking for {}",
    "pickup": "pick up {} from the Docks",
    "load": "load {} aboard",
    "unload": "unload {} into the Docks",
    "leave": "leave {} in the Docks for sale",
    "safe": "put {} in the Safety Zone",
    "land": "land {} at Anchor Bay",
    "give": "give {}",
    "lose": "lose {}",
    "bury": "bury {}",
    "forfeit": "forfeit {} to Flat Island",
    "return": "return {} to Treasure Island",
    "place": "blown to {}",
}


def _spoils(view: dict[str, Any], words: list[str]) -> str:
    frame = (view.get("stack") or [{}])[-1]
    loser = frame.get("loser")
    players = view.get("players") or []
    if words[1] == "treasure" and isinstance(loser, int) and loser < len(players):
        return f"its treasure: {', '.join(players[loser]['ship']['hold'])}"
    n = int(words[-1])
    return f"{n} crew card{'s' if n != 1 else ''}"


def _branch(view: dict[str, Any], branch: str) -> str:
    """A Treasure-or-crew choice, with what each branch gives (or costs) by the card being obeyed."""
    frame = (view.get("stack") or [{}])[-1]
    if frame.get("kind") != "CHOICE":
        return f"choose {branch}"
    if frame.get("branch") == "gain":
        if branch == "treasure":
            return f"treasure worth up to {frame.get('budget')}"
        return f"{frame.get('n')} crew from Pirate Island"
    return "lose one treasure" if branch == "treasure" else "lose two crew cards"


def describe(view: dict[str, Any], action: Action) -> str:
    words = action.split()
    if len(words) >= 2 and words[0] in _VERB and words[-1] in KEEPERS:
        # the label names the card; this says what it does
        return KEEPER_EFFECT[words[-1]][:1].upper() + KEEPER_EFFECT[words[-1]][1:100]
    if words[:1] == ["choose"]:
        card = ((view.get("last") or {}).get("chance") or {}).get("card")
        if card:
            return f"{card} {chance_title(card)}: {CHANCE_EFFECTS[card]}"[:100]
    return ""
