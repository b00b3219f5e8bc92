// Parley's replay viewer: first / previous / next / last, a scrubber, and the keys ← → Home End (PageUp and
// PageDown jump ten moves). The page works without it (each step is a plain link); this only makes stepping instant.
"use strict";
(function () {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const img = $("board");
  const scrub = $("scrub");
  const seat = body.dataset.seat;
  const total = Number(body.dataset.total) || 0;
  let at = Number(body.dataset.n) || 0;
  let moves = null;
  let summaries = null;
  const cache = {};

  function src(n) { return body.dataset.board + n + ".png" + (seat ? "?seat=" + seat : ""); }
  function preload(n) {
    if (n < 0 || n > total || cache[n]) return;
    cache[n] = new Image();
    cache[n].src = src(n);
  }
  function line(text) {
    const p = document.createElement("p");
    text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).forEach(function (part) {
      if (!part) return;
      let node;
      if (part.length > 4 && part.startsWith("**") && part.endsWith("**")) {
        node = document.createElement("strong"); node.textContent = part.slice(2, -2);
      } else if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) {
        node = document.createElement("code"); node.textContent = part.slice(1, -1);
      } else {
        node = document.createTextNode(part);
      }
      p.appendChild(node);
    });
    return p;
  }
  function fill(el, lines) { if (el) el.replaceChildren.apply(el, (lines || []).map(line)); }
  function link(id, n, off) {
    const a = $("step-" + id);
    if (!a) return;
    a.href = "?n=" + n + (seat ? "&seat=" + seat : "");
    if (off) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
  }

  function go(n) {
    n = Math.max(0, Math.min(total, n));
    at = n;
    img.src = src(n);
    img.alt = "The board after move " + n;
    $("at").textContent = n;
    $("title-n").textContent = n;
    if (scrub) scrub.value = n;
    if (moves) {
      const m = moves[n] || { lines: [], action: "" };
      fill($("lines"), m.lines.length ? m.lines : (n === 0 ? ["The deal."] : []));
      const action = $("action");
      action.textContent = m.action || "";
      action.hidden = !m.action;
    }
    if (summaries) fill($("summary"), summaries[n]);
    link("first", 0, n === 0);
    link("prev", Math.max(0, n - 1), n === 0);
    link("next", Math.min(total, n + 1), n >= total);
    link("last", total, n >= total);
    history.replaceState(null, "", "?n=" + n + (seat ? "&seat=" + seat : ""));
    preload(n + 1); preload(n - 1);
  }

  ["first", "prev", "next", "last"].forEach(function (id) {
    const a = $("step-" + id);
    if (!a) return;
    a.addEventListener("click", function (event) {
      event.preventDefault();
      const to = { first: 0, prev: at - 1, next: at + 1, last: total }[id];
      go(to);
    });
  });
  if (scrub) {
    scrub.hidden = false;
    scrub.addEventListener("input", function () { go(Number(scrub.value)); });
  }
  document.addEventListener("keydown", function (event) {
    if (event.target === scrub || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 }[event.key];
    if (step) { go(at + step); event.preventDefault(); }
    else if (event.key === "Home") { go(0); event.preventDefault(); }
    else if (event.key === "End") { go(total); event.preventDefault(); }
  });
  fetch(body.dataset.replay, { credentials: "same-origin" })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (data) {
      if (!data) return;
      moves = data.moves;
      summaries = data.summaries || null;
      preload(at + 1);
    });
})();
