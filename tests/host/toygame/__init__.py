"""Toy Gems: a tiny game used as a fast fixture for the table host, and the worked example of
docs/adding-a-game.md (every module of the game skeleton, in a few lines each).

Setup: a shuffled deck of 30 uniquely named gems (``gem01`` … ``gem30``, worth 1–3 each); every seat gets
two. Phase ``ready``: every seat must type ``ready`` (all at once). Then turns in seat order, up to three
actions a turn: ``play <gem>`` (reveals it, adds its value to the pile), ``mark`` (a public tally, reveals
nothing: undoable), ``draw`` (a secret draw), ``end``. The seat whose play takes the pile to the target
(option ``length``: short 6, long 12) wins.

A real game's picture is ``renderers/<game>.py``; the toy's lives with it (``renderer.py``) so that it is never
offered to players, and the tests register it as ``renderers.toy``; that is the one name besides ``GAME`` this
package exports.
"""

from __future__ import annotations

from tests.host.toygame.game import GAME
from tests.host.toygame.renderer import render

__all__ = ["GAME", "render"]
