"""Characters and cards as data (docs/games/flagon.md#characters-and-cards): names, times, deck order and one-line texts
for pickers."""

from __future__ import annotations

# id -> (name, time, one-line effect)
COMMON: dict[str, tuple[str, int, str]] = {
    "step": ("Step", 1, "move 1 square (or turn)"),
    "move": ("Move", 2, "walk 3 points"),
    "dash": ("Dash", 3, "walk 5 points"),
    "charge": ("Charge", 3, "run ahead up to 4; hit 2 + knockback 1"),
    "punch": ("Punch", 1, "front arc: 1 damage"),
    "slash": ("Slash", 2, "front arc: 2 damage (chair: 3 + Dazed)"),
    "kick": ("Kick", 2, "front arc: 1 damage + knockback 2, or roll a barrel"),
    "pick-up": ("Pick Up", 1, "take or drop an object"),
    "throw": ("Throw", 2, "throw mug (5, 1 dmg) or chair (3, 2 dmg) + Dazed"),
    "swing": ("Swing", 3, "near rigging: fly 4, kick 1 + Fall"),
    "push-table": ("Push Table", 2, "push a table 1 square"),
    "pull-rug": ("Pull Rug", 2, "everyone on a rug: 1 damage + Fall"),
    "boast": ("Boast", 2, "Duration: +2 Rep (+4 on a table) next turn"),
}

SPECIAL: dict[str, tuple[str, int, str]] = {
    "pistol-shot": ("Pistol Shot", 3, "ray 6: 2 damage + Dazed"),
    "lure-of-the-sea": ("Lure of the Sea", 2, "ray 3: shove 1 (into the sea too)"),
    "broadside": ("Broadside", 3, "Dragon: ray 5, opponents 2 dmg + knockback 1"),
    "arr": ("Arr!", 2, "fly 3 (no rigging), kick 1 + Fall"),
    "grog": ("Grog", 1, "drink a mug: +2 Rep, clear Dazed"),
    "walk-the-plank": ("Walk the Plank", 3, "Dragon: knockback 3 + Dazed"),
    "leap": ("Leap", 2, "jump 2-3 squares in a line"),
    "flurry": ("Flurry", 1, "adjacent opponents: 1 damage"),
    "dragon-kick": ("Dragon Kick", 3, "Dragon: jump 0-3 ahead, 3 dmg + knockback 3"),
    "shield-bash": ("Shield Bash", 2, "front arc: 1 dmg, knockback 1, Dazed"),
    "stand-firm": ("Stand Firm", 1, "Duration: ignore knockback, Dazed, Falls"),
    "god-smack": ("God Smack", 3, "Dragon: 3 dmg, fly 4 squares"),
    "shadow-step": ("Shadow Step", 1, "teleport within 2"),
    "shadow-dash": ("Shadow Dash", 2, "teleport within 4"),
    "backstab": ("Backstab", 2, "Dragon: adjacent 3 dmg (5 from behind) + Dazed"),
    "daring-swing": ("Daring Swing", 2, "rigging within 2: fly 4, kick 2 + Fall"),
    "parry": ("Parry", 1, "Duration: cancel the first enemy card on you"),
    "flourish": ("Flourish", 3, "Dragon: adjacent opponents 2 dmg + Dazed"),
    "cleave": ("Cleave", 2, "front arc opponents: 2 damage"),
    "heave": ("Heave", 3, "push a table 2 squares"),
    "rampage": ("Rampage", 3, "Dragon: charge 6, hit 3 + knockback 2"),
    "lightning": ("Lightning", 3, "ray 5: opponents 1 dmg + Dazed"),
    "arcane-push": ("Arcane Push", 2, "ray 3: 1 dmg + knockback 2"),
    "fireball": ("Fireball", 3, "Dragon: blast 2-4 ahead, 2 dmg + Dazed"),
}

CARD: dict[str, tuple[str, int, str]] = {**COMMON, **SPECIAL}
DURATION = frozenset({"boast", "stand-firm", "parry"})

# roster order: id, name, tag, gold cards, Dragon card
ROSTER: tuple[tuple[str, str, str, tuple[str, str], str], ...] = (
    ("buccaneer", "Buccaneer", "Bu", ("pistol-shot", "lure-of-the-sea"), "broadside"),
    ("jack", "Two-Eyed Jack", "Ja", ("arr", "grog"), "walk-the-plank"),
    ("monk", "Monk", "Mo", ("leap", "flurry"), "dragon-kick"),
    ("paladin", "Paladin", "Pa", ("shield-bash", "stand-firm"), "god-smack"),
    ("rogue", "Rogue", "Ro", ("shadow-step", "shadow-dash"), "backstab"),
    ("swashbuckler", "Swashbuckler", "Sw", ("daring-swing", "parry"), "flourish"),
    ("barbarian", "Barbarian", "Ba", ("cleave", "heave"), "rampage"),
    ("wizard", "Wizard", "Wi", ("lightning", "arcane-push"), "fireball"),
)
ROSTER_IDS: tuple[str, ...] = tuple(r[0] for r in ROSTER)
CHAR_NAME = {r[0]: r[1] for r in ROSTER}
TAG = {r[0]: r[2] for r in ROSTER}
DRAGON = {r[0]: r[4] for r in ROSTER}


def deck(char_id: str) -> list[str]:
    """The 16 cards of a character in deck order: commons, gold, gold, Dragon."""
    row = ROSTER[ROSTER_IDS.index(char_id)]
    return [*COMMON, *row[3], row[4]]


def deck_index(char_id: str) -> dict[str, int]:
    return {c: i for i, c in enumerate(deck(char_id))}


def card_name(card: str) -> str:
    return CARD[card][0]


def card_time(card: str) -> int:
    return CARD[card][1]
