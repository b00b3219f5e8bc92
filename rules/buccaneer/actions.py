"""Buccaneer's action text: reading what a person types (``parse``) and the words a picker shows for an action
(``label``, ``describe``). Actions are lower-case words (docs/games/buccaneer.md#the-action-language)."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board
from rules.buccaneer.model import CHANCE_EFFECTS, KEEPER_EFFECT, KEEPER_TITLE, KEEPERS, chance_title
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
    return action


def describe(view: dict[str, Any], action: Action) -> str:
    words = action.split()
    if len(words) >= 2 and words[0] in _VERB and words[-1] in KEEPERS:
        item = words[-1]
        return f"{_VERB[words[0]].capitalize()} {KEEPER_TITLE[item]} ({KEEPER_EFFECT[item]})"[:100]
    if words[:1] == ["choose"]:
        card = ((view.get("last") or {}).get("chance") or {}).get("card")
        if card:
            return f"{card} {chance_title(card)}: {CHANCE_EFFECTS[card]}"[:100]
    return ""
