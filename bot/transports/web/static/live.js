// Parley: a table page (or a player's seat page) kept live by server-sent events. Each move arrives once, as a
// "move" event whose id is its number (a reconnect resumes after the last one); "table" says how the table stands
// now, "seat" what only this seat sees, "revoked" that this seat page is closed. Text only ever goes in as text.
"use strict";
(function () {
  const body = document.body;
  const url = body.dataset.events;
  if (!url || !window.EventSource) return;
  const $ = (id) => document.getElementById(id);
  let last = Number(body.dataset.n) || 0; // the newest move on the page
  let shown = last; // the move the board shows
  const MAX_MOVES = 200;

  // the host's text: **bold**, `code`, and "-# " small print, built as nodes (never as HTML)
  function nodes(text) {
    return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).filter(Boolean).map(function (part) {
      let node;
      if (part.length > 4 && part.startsWith("**") && part.endsWith("**")) {
        node = document.createElement("strong");
        node.textContent = part.slice(2, -2);
      } else if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) {
        node = document.createElement("code");
        node.textContent = part.slice(1, -1);
      } else {
        node = document.createTextNode(part);
      }
      return node;
    });
  }
  function line(text) {
    const p = document.createElement("p");
    if (text.startsWith("-# ")) {
      const small = document.createElement("small");
      small.className = "fine";
      small.append.apply(small, nodes(text.slice(3)));
      p.append(small);
    } else {
      p.append.apply(p, nodes(text));
    }
    return p;
  }
  function fill(el, lines) {
    if (!el) return;
    el.replaceChildren.apply(el, (lines || []).map(function (t) { return line(t); }));
  }
  function show(el, on) { if (el) el.hidden = !on; }
  function swap(img, src) {
    if (!img || !src || img.getAttribute("src") === src) return;
    const next = new Image();
    next.onload = function () { img.src = src; };
    next.onerror = function () { img.src = src; };
    next.src = src;
  }

  // a seat page leaves the table's prompt out while it says the same as "Your move"
  let prompt = "";
  let owes = !!($("yourturn") && !$("yourturn").hidden);
  function showPrompt() {
    const el = $("prompt");
    if (!el) return;
    el.replaceChildren.apply(el, nodes(prompt));
    show(el, !!prompt && !owes);
  }

  function onMove(event) {
    const m = JSON.parse(event.data);
    if (m.n <= last) return; // already shown
    last = m.n;
    const list = $("moves");
    if (!list) return;
    const li = document.createElement("li");
    li.dataset.n = m.n;
    li.className = "new";
    const num = document.createElement("span");
    num.className = "mn";
    num.textContent = m.n;
    const text = document.createElement("div");
    text.className = "ml";
    fill(text, m.lines);
    li.append(num, text);
    list.prepend(li);
    while (list.children.length > MAX_MOVES) list.lastElementChild.remove();
    show($("replay"), true);
  }

  function onTable(event) {
    const c = JSON.parse(event.data);
    if (c.n < shown) return; // an older picture of the table than the one shown
    shown = c.n;
    if (c.board && !$("board")) {
      // the game has started under a lobby's page: its board takes the empty frame's place
      const frame = $("board-box");
      if (frame) {
        const img = document.createElement("img");
        img.id = "board";
        img.width = 1100;
        img.height = 700;
        img.alt = "The " + c.title + " board";
        frame.classList.remove("empty");
        frame.replaceChildren(img);
      }
    }
    swap($("board"), c.board);
    prompt = c.prompt || "";
    showPrompt();
    fill($("result"), c.result); show($("result"), c.result.length > 0);
    const note = $("note");
    if (note) { note.textContent = c.note; show(note, !!c.note); }
    fill($("caption"), c.caption); show($("caption-box"), c.caption.length > 0);
    const status = $("status");
    if (status) { status.textContent = c.status_text; status.className = "pill " + c.status; }
    const seats = $("seats");
    if (seats) {
      const you = seats.querySelector("li.you");
      const mine = you ? you.dataset.seat : null;
      seats.replaceChildren.apply(seats, c.seats.map(function (s) {
        const li = document.createElement("li");
        li.dataset.seat = s.n;
        if (s.acting) li.classList.add("acting");
        if (String(s.n) === mine) li.classList.add("you");
        if (s.acting) { const t = document.createElement("span"); t.className = "turn"; t.textContent = "▶"; li.append(t); }
        const name = document.createElement("span"); name.className = "name"; name.textContent = s.name; li.append(name);
        if (s.ai) { const a = document.createElement("span"); a.className = "tag"; a.textContent = "AI"; li.append(a); }
        if (String(s.n) === mine) { const y = document.createElement("span"); y.className = "tag you"; y.textContent = "you"; li.append(y); }
        return li;
      }));
    }
    document.title = c.title + " · " + c.status_text + " · Parley";
    if (c.over) finish();
  }

  function onSeat(event) {
    const s = JSON.parse(event.data);
    swap($("mine"), s.picture);
    fill($("summary"), s.summary);
    fill($("fine"), s.fine);
    const you = $("you");
    if (you) you.textContent = s.you;
    const turn = $("yourturn");
    if (turn) { turn.textContent = s.owes ? "Your move: " + s.owed + "." : ""; show(turn, s.owes); }
    owes = s.owes;
    showPrompt();
  }

  const live = $("live");
  const es = new EventSource(url);
  es.addEventListener("move", onMove);
  es.addEventListener("table", onTable);
  es.addEventListener("seat", onSeat);
  es.addEventListener("revoked", function (event) {
    es.close();
    const reason = JSON.parse(event.data).reason;
    const note = $("note");
    if (note) { note.textContent = reason + " Use /hand in Discord if you are back at the table."; show(note, true); }
    const mine = $("mine");
    if (mine) mine.closest("figure").hidden = true;
    fill($("summary"), []);
    if (live) { live.textContent = "○ closed"; live.classList.add("off"); }
  });
  es.onopen = function () { if (live) { live.hidden = false; live.textContent = "● live"; live.classList.remove("off"); } };
  es.onerror = function () {
    if (!live) return;
    live.textContent = es.readyState === EventSource.CLOSED ? "○ offline: reload the page" : "○ reconnecting…";
    live.classList.add("off");
  };
  function finish() {
    es.close();
    if (live) live.hidden = true;
    show($("replay"), last > 0);
  }
})();
