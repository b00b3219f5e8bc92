"""The words players read: the blurb, the ``/rules`` summary (spec §1.1) and the option help."""

from __future__ import annotations

BLURB = (
    "Thirty pirates break out of the fortress of Cartagena through a secret tunnel. Play a card to send one of "
    "your pirates forward to the next free space with that symbol, jumping over everyone in the way, or pull a "
    "pirate back to a space where one or two pirates wait, and draw a card for each of them. Up to three actions "
    "a turn; the first crew with all six pirates aboard the sloop escapes and wins."
)

RULES = """\
**Cartagena** — get all six of your pirates from the fortress (START) through the 36-space tunnel onto the SLOOP.

**Your turn: 1 to 3 actions, in any mix**
- **Play a card** — `forward <from> <symbol>`: one of your pirates on `<from>` (`start` or a space number) \
moves forward to the next *empty* space showing that symbol, jumping over occupied ones. If there is none, \
it boards the sloop. Example: `forward start skull`, `forward 12 key`.
- **Move back** — `back <from>`: one of your pirates moves back to the nearest space holding 1 or 2 pirates \
(empty and full spaces are passed over; never to START). Draw 1 card for each pirate already there. \
Example: `back 14`, `back sloop`.
- `end` finishes your turn after 1 or 2 actions; after the 3rd it ends by itself. `pass` only when you can do \
nothing at all.

A space holds at most 3 pirates. The same pirate may act several times, and a card drawn this turn may be \
played at once.

**Symbols**: B bottle, D dagger, H hat, K key, P pistol, S skull. Each section of 6 spaces shows each symbol \
once; the deck has 17 cards of each.

**Modes**
- **Jamaica** (default): hands are secret; you draw from a face-down pile. Played cards come back only with \
the table option `reshuffle on`.
- **Tortuga**: every hand is face up; you draw from a face-up row of 12 cards, always the first one. A new \
row is laid out when it is used up, reshuffling the played cards if needed.

**End**: the first crew with all six pirates on the sloop wins at once. If the game can no longer change \
(every seat passes in a row, or in Jamaica without reshuffle nobody holds a card and the pile is empty), \
the most pirates aboard wins, then the furthest crew (sum of positions).

**Options**: `mode` jamaica/tortuga · `reshuffle` off/on (Jamaica) · `back_from_sloop` on/off · \
`board` random/fixed.
"""

OPTION_HELP: dict[str, str] = {
    "mode": "jamaica: secret hands, draw from a face-down pile; tortuga: open hands, draw from a face-up row of 12",
    "reshuffle": (
        "Jamaica only: shuffle played cards into a new pile when it runs out (a house rule); "
        "suggested with 4–5 players, where the pile often runs dry"
    ),
    "back_from_sloop": "whether a pirate already on the sloop may move back to draw cards",
    "board": "random: each section's symbols shuffled; fixed: the standard tournament passage",
}
