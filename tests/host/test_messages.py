"""The host's refusals have one home (bot/host/messages.py): no other module of bot/host/ writes a refusal's
words, and every code the host names has a template."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.host.messages import MESSAGES, not_your_turn, say
from rules.refusals import not_your_turn as engines_not_your_turn

HOST = Path(__file__).resolve().parents[2] / "bot" / "host"
#: calls whose arguments are codes and values, not words
SAYING = {"say", "refuse", "refusal", "not_your_turn"}
WORDS = re.compile(r"[A-Za-z]{2,}")


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _words(node: ast.AST) -> list[str]:
    """The literal words in an expression, leaving out the arguments of calls that take codes."""
    if isinstance(node, ast.Call) and _name(node) in SAYING:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and WORDS.search(node.value):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [ast.unparse(node)]
    return [w for child in ast.iter_child_nodes(node) for w in _words(child)]


def refusal_literals(source: str) -> list[str]:
    """Words written into a refusal: the reply of ``Outputs(ok=False, …)``, a setting's ``_Refusal`` or an
    ``IllegalAction`` the host raises."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node)
        keywords = {k.arg: k.value for k in node.keywords}
        refusing = name == "Outputs" and isinstance(keywords.get("ok"), ast.Constant) and not keywords["ok"].value
        if refusing and "reply" in keywords:
            found += _words(keywords["reply"])
        elif name in ("_Refusal", "IllegalAction"):
            words = node.args[1:] if name == "IllegalAction" else node.args  # an IllegalAction's first is its code
            found += [w for arg in words for w in _words(arg)]
    return found


def test_no_host_module_but_messages_writes_a_refusal() -> None:
    written = {
        path.name: refusal_literals(path.read_text(encoding="utf-8"))
        for path in sorted(HOST.glob("*.py"))
        if path.name != "messages.py"
    }
    assert {name: words for name, words in written.items() if words} == {}


def test_the_check_finds_words_in_a_refusal() -> None:
    source = (
        'Outputs(ok=False, reply=f"Seat {n} is taken.")\n'
        'Outputs(ok=False, reply=clip("Nope, not now."))\n'
        'Outputs(ok=False, reply=say("seat_taken", seat=3, free=", ".join(x)))\n'
        'Outputs(reply="The game has started.")\n'
        '_Refusal("The host role must be a role.")\n'
    )
    assert refusal_literals(source) == ["f'Seat {n} is taken.'", "Nope, not now.", "The host role must be a role."]


def _codes_named() -> set[str]:
    """Every code the host's modules pass to ``say`` or ``refuse``, and the rights and refusals its commands
    declare (``@command(host="end", lobby="already_started")``)."""
    codes: set[str] = set()
    for path in HOST.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            first = node.args[0] if node.args else None
            if _name(node) in ("say", "refuse") and isinstance(first, ast.Constant):
                codes.add(first.value)
            if _name(node) == "command":
                for k in node.keywords:
                    if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
                        codes.add(f"right:{k.value.value}" if k.arg == "host" else k.value.value)
    return codes


def test_every_code_the_host_names_has_a_template() -> None:
    named = _codes_named()
    assert named - set(MESSAGES) == set()
    assert {"no_seat", "right:end", "already_started"} <= named


def test_not_your_turn_is_worded_as_the_engines_word_it() -> None:
    assert not_your_turn(["Ana (Red)"]) == engines_not_your_turn(["Ana (Red)"]).message
    assert say("not_host", what=say("right:end")) == "Only the table's host or a moderator can end the table."
