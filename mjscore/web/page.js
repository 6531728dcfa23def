// The table page: each player enters their own line of the hand; the server checks each line as
// it changes, adds the hand to the evening's file when it is settled, and every phone shows the
// result.  Plain script, no library, nothing from any other host.  Text always goes in as text
// (textContent), never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const SEATS = ["E", "S", "W", "N"];
const SEAT_WORDS = { E: "East", S: "South", W: "West", N: "North" };
const FLAGS = [["loose", "loose tile"], ["last", "last tile"], ["robbed", "robbed a kong"], ["heaven", "heaven"],
               ["earth", "earth"], ["original-call", "original call"], ["twofold", "twofold"]];
const SUIT = { m: ["char", "characters"], p: ["dots", "dots"], s: ["bam", "bamboo"] };
const HONOUR = { E: ["E", "wind", "east wind"], S: ["S", "wind", "south wind"], W: ["W", "wind", "west wind"],
                 N: ["N", "wind", "north wind"], C: ["R", "dragon", "red dragon"], F: ["G", "dragon", "green dragon"],
                 P: ["Wh", "dragon", "white dragon"] };
const ORDER = "ESWNCFP";

const S = {
  status: null, version: "", me: localStorage.getItem("mj_me"), seat: null, tab: "hand", hands: -1,
  outcome: null, from: null, mode: "score", score: "", nothing: false,
  items: [],            // my tiles: {code} loose, or {group: kind, codes: [...]}
  sel: new Set(), win: null, flags: new Set(), tokens: [], sent: "", timer: 0,
  scoreItem: { err: false },     // the score field, as a word of the line
  accepted: null,       // the line the server took for this hand, as {hand, text}
  retry: 0, retryTimer: 0,       // a line not taken yet: how many tries, and the next one
  lastAnswer: Date.now(), notices: new Map(),    // notice id -> when it was first shown
};
const TIMEOUT = 8000;            // a request without an answer by then has failed
const NOTICE_MS = 12000;         // a notice ("Hand 8 was taken back by Ann") stays this long, at least

// -- talking to the server ---------------------------------------------------------------------

async function call(method, path, body) {
  // Every change says it is JSON (the server refuses one that does not); no answer within
  // TIMEOUT is a failure, as a lost answer is: status 0.
  const init = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET") init.headers["Content-Type"] = "application/json";
  if (body !== undefined) init.body = JSON.stringify(body);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), TIMEOUT);
  init.signal = stop.signal;
  try {
    const r = await fetch(path, init);
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    S.lastAnswer = Date.now();
    $("offline").hidden = true;
    return { status: r.status, data };
  } catch (e) {
    return { status: 0, data: null };
  } finally { clearTimeout(timer); }
}

function watchConnection() {
  // The banner shows after three seconds without an answer, and goes when one comes.
  $("offline").hidden = Date.now() - S.lastAnswer < 3000;
}

async function poll() {
  const { status, data } = await call("GET", "/api/status");
  if (status === 200 && data.version !== S.version) { S.version = data.version; S.status = data; await changed(); }
}

async function changed() {
  const st = S.status;
  showNotices(st.notices || []);
  const fileError = $("file-error");
  fileError.hidden = !st.error;
  if (st.error) {
    const e = st.error;
    fileError.textContent = `The evening's file cannot be played (${e.file || "the file"}${e.line ? ", line " + e.line : ""}): ${e.message}. Nothing can be settled until it is mended.`;
    render();
    return;
  }
  const seats = (st.next && st.next.seats) || {};
  S.seat = SEATS.find((s) => seats[s] === S.me) || null;
  if (S.hands >= 0 && st.hands !== S.hands) {
    // A new next hand. A line typed here and not taken for the old one is kept, and sent for
    // this one (under the player's seat now); one the server took is done with.
    const typed = lineText();
    const taken = S.accepted && S.accepted.text === typed;
    if (!typed || taken) resetMine(); else { S.sent = ""; clearTimeout(S.retryTimer); S.retry = 0; lineChanged(); }
    S.accepted = null;
    if (st.hands > 0) { await showHand(st.hands); if (st.hands > S.hands) choose("last"); }
    else { $("result").replaceChildren(hint("No hand has been played yet.")); }
  } else if (S.hands < 0 && st.hands > 0) { await showHand(st.hands); }
  S.hands = st.hands;
  render();
}

function showNotices(list) {
  // Each notice for NOTICE_MS at least from when this phone first saw it, newest last.
  const now = Date.now();
  for (const n of list) if (!S.notices.has(n.id)) S.notices.set(n.id, { at: now, text: n.text });
  for (const [id, n] of S.notices) if (now - n.at > NOTICE_MS && !list.some((x) => x.id === id)) S.notices.delete(id);
  // The newest first, two at most: one that came in the meantime does not hide the last.
  const shown = [...S.notices.values()].filter((n) => now - n.at <= NOTICE_MS).map((n) => n.text).reverse().slice(0, 2);
  $("notice").hidden = !shown.length;
  $("notice").textContent = shown.join(" · ");
}

// -- the deal and who I am ---------------------------------------------------------------------

function render() {
  const st = S.status;
  if (!st) return;
  const n = st.next;
  $("deal").textContent = n ? handTitle(n.hand, n.dealer, n.round) : "mjscore";
  if (!S.me) { showPick(); return; }
  $("pick").hidden = true;
  $("tabs").hidden = false;
  $("who").hidden = false;
  $("who").textContent = S.me === "-" ? "watching" : `${S.me}${S.seat ? " · " + SEAT_WORDS[S.seat] : ""}`;
  for (const b of document.querySelectorAll("[data-tab]")) b.setAttribute("aria-selected", String(b.dataset.tab === S.tab));
  for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== S.tab;
  $("mine").hidden = !S.seat;
  $("mine-title").textContent = S.seat ? `Your hand — you are ${SEAT_WORDS[S.seat]}` : "";
  renderMine();
  renderTable();
}

function handTitle(hand, dealer, round) {
  // A hand named one way everywhere, as the command line names it: "Hand 2: Ann deals, East round".
  return `Hand ${hand}: ${dealer} deals, ${SEAT_WORDS[round]} round`;
}

function showPick() {
  $("tabs").hidden = true;
  for (const p of document.querySelectorAll("[data-panel]")) p.hidden = true;
  $("pick").hidden = false;
  const box = $("pick-names");
  box.replaceChildren(...S.status.players.map((name) => button(name, () => { setMe(name); })));
}

function setMe(name) { S.me = name; localStorage.setItem("mj_me", name); S.version = ""; resetMine(); poll(); }

function choose(tab) { S.tab = tab; render(); if (tab === "standings") showStandings(); }

// -- my line -----------------------------------------------------------------------------------

function resetMine() {
  Object.assign(S, { outcome: null, from: null, mode: "score", score: "", nothing: false, items: [], sel: new Set(),
                     win: null, flags: new Set(), tokens: [], sent: "", retry: 0 });
  clearTimeout(S.retryTimer);
  $("pending").hidden = true;
  $("score").value = "";
  $("check").textContent = "";
  $("line").textContent = "";
  $("submit-error").textContent = "";
  $("others-nothing").checked = false;
}

function renderMine() {
  if (!S.seat) return;
  for (const b of document.querySelectorAll("[data-outcome]")) b.setAttribute("aria-pressed", String(b.dataset.outcome === S.outcome));
  const others = SEATS.filter((s) => s !== S.seat).map((s) => S.status.next.seats[s]);
  const how = $("won-how");
  how.hidden = S.outcome !== "won";
  how.replaceChildren(
    pressed(button("Self-drawn", () => { S.from = "self"; lineChanged(); }), S.from === "self"),
    ...others.map((name) => pressed(button(`from ${name}`, () => { S.from = name; lineChanged(); }), S.from === name)));
  $("by-score").hidden = !S.outcome || S.mode !== "score";
  $("nothing").hidden = S.outcome !== "lost";
  $("nothing").setAttribute("aria-pressed", String(S.nothing));
  $("count-tiles").hidden = !S.outcome || S.mode !== "score";
  $("tiles").hidden = S.mode !== "tiles";
  if (S.mode === "tiles") renderTiles();
}

function lineText() {
  // The line, and each of its words with the element it stands for (to show an error at its tile).
  const words = [];
  const add = (text, item) => words.push({ text, item });
  if (S.mode === "score") {
    if (S.outcome === "lost" && (S.nothing || S.score === "")) { if (S.nothing) add("...", null); }
    else if (S.score !== "") add(`score ${S.score}`, S.scoreItem);
  } else {
    for (const it of S.items) {
      if (it.group) add(bracket(it.group, runText(it.codes)), it);
    }
    for (const it of S.items) {
      if (!it.group) add(it.code, it);
    }
  }
  if (S.outcome === "won" && words.length && S.from && (S.mode === "score" || S.win)) {
    const tile = S.mode === "tiles" ? ` ${S.win.code}` : "";
    add(`win${tile} ${S.from === "self" ? "self" : "from " + S.from}`, null);
    if (S.mode === "tiles") for (const [f] of FLAGS) if (S.flags.has(f)) add(f, null);
  }
  let col = 1;
  S.tokens = words.map((w) => { const t = { ...w, from: col, to: col + w.text.length - 1 }; col += w.text.length + 1; return t; });
  return words.map((w) => w.text).join(" ");
}

function bracket(kind, run) { return { exposed: `[${run}]`, declared: `(${run})`, claimed: `<${run}>` }[kind]; }

function runText(codes) {
  // Tiles as the notation writes a run: 123m, EEE.
  let out = "", digits = "", suit = "";
  for (const c of codes) {
    if (/^[1-9][mps]$/.test(c)) {
      if (suit && suit !== c[1]) { out += digits + suit; digits = ""; }
      digits += c[0]; suit = c[1];
    } else { if (digits) { out += digits + suit; digits = ""; suit = ""; } out += c; }
  }
  return out + (digits ? digits + suit : "");
}

function lineChanged() {
  const text = lineText();
  $("line").textContent = text ? `${S.seat}: ${text}` : "";
  renderMine();
  clearTimeout(S.timer);
  S.timer = setTimeout(() => sendLine(text), 150);
}

async function sendLine(text) {
  if (text === S.sent) return;
  S.sent = text;
  for (const it of [...S.items, S.scoreItem]) it.err = false;
  markErrors();
  const check = $("check");
  if (S.outcome === "won" && text && (!S.from || (S.mode === "tiles" && !S.win))) {
    // A winner's line goes to be checked once it says how the hand was won.
    check.className = "check";
    check.textContent = !S.from ? "Self-drawn, or from whom?" : "Tap the tile you went out on, then “Winning tile”.";
    S.sent = "";
    return;
  }
  if (!text) { check.textContent = ""; return; }
  const hand = S.status.hand;
  const { status, data } = await call("PUT", `/api/drafts/${S.seat}`, { text, hand, by: S.me });
  if (text !== S.sent) return;                     // typed on since: the newer line is on its way
  if (status === 409) {
    // The hand moved on while this was typed (settled or taken back): not kept there. Shown,
    // and sent again for the next hand once the phone knows it (and its seat in it).
    check.className = "check bad";
    check.textContent = data && data.error ? data.error.message : `hand ${hand} is no longer the next hand`;
    S.sent = "";
    S.version = ""; await poll();
    later(text);
    return;
  }
  if (status !== 200) {
    // No answer, or the server failed: sent again, each time a little later, and said so.
    S.sent = "";
    later(text);
    return;
  }
  S.retry = 0;
  $("pending").hidden = true;
  S.accepted = { hand, text };
  if (data.ok) {
    check.className = "check ok";
    check.textContent = `✓ ${figures(data.player)}`;
  } else {
    check.className = "check bad";
    check.textContent = `✗ ${data.error.message}`;
    const t = S.tokens.find((w) => data.error.column >= w.from && data.error.column <= w.to);
    if (t && t.item) t.item.err = true;
    markErrors();
  }
  S.version = ""; poll();
}

function later(text) {
  // Try the line again after 0.5, 1, 2, 4 ... seconds (at most 8), until it is taken.
  $("pending").hidden = false;
  clearTimeout(S.retryTimer);
  const wait = Math.min(8000, 500 * 2 ** S.retry++);
  S.retryTimer = setTimeout(() => { if (lineText() === text) sendLine(text); }, wait);
}

function markErrors() {
  // The error stays at its tile (or the score) however often the tiles are drawn again.
  for (const it of S.items) if (it.el) it.el.classList.toggle("err", !!it.err);
  $("score").classList.toggle("err", !!S.scoreItem.err);
}

function figures(p) {
  // A player's score in words, as the command line gives it: "24 points, 1 double: 48".
  if (!p) return "";
  if (p.counted) return `${p.score} counted`;
  if (p.limit) return `${p.limit}: ${p.score}`;
  if (!p.points && !p.doubles && !p.score) return "nothing";
  const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return p.doubles ? `${count(p.points, "point")}, ${count(p.doubles, "double")}: ${p.score}` : `${count(p.points, "point")}: ${p.score}`;
}

function draftText(d) {
  // A line as the table sees it, its score said once: "8 counted", "40 counted, win self", "nothing".
  if (!d.ok) return `${d.text} — ${d.error.message}`;
  const p = d.player;
  if (p && p.counted) {
    const rest = (d.line || "").replace(/^score\s+\d+\s*/, "");
    return `${figures(p)}${rest ? ", " + rest : ""}`;
  }
  if ((d.line || "").trim() === "...") return "nothing";
  return p ? `${d.line || d.text} — ${figures(p)}` : d.line || d.text;
}

// -- the tiles ---------------------------------------------------------------------------------

function tile(code, onTap) {
  const el = document.createElement("button");
  el.type = "button";
  let rank, under, name, cls;
  if (/^[1-9][mps]$/.test(code)) { rank = code[0]; under = SUIT[code[1]][0]; name = `${code[0]} ${SUIT[code[1]][1]}`; cls = code[1]; }
  else if (/^[1-4][fy]$/.test(code)) { rank = code[0]; under = code[1] === "f" ? "flower" : "season";
    name = `${under} ${code[0]}`; cls = code[1]; }
  else { [rank, under, name] = HONOUR[code]; cls = `z ${code}`; }
  el.className = `tile ${cls}`;
  el.setAttribute("aria-label", name);
  const r = document.createElement("span"); r.className = "r"; r.textContent = rank;
  const u = document.createElement("span"); u.className = "u"; u.textContent = under; u.setAttribute("aria-hidden", "true");
  el.append(r, u);
  if (onTap) el.addEventListener("click", onTap);
  return el;
}

function buildPalette() {
  const box = $("palette");
  const all = [];
  for (const s of "mps") for (let r = 1; r <= 9; r++) all.push(`${r}${s}`);
  const rows = [all.slice(0, 9), all.slice(9, 18), all.slice(18, 27), [...ORDER], ["1f", "2f", "3f", "4f", "1y", "2y", "3y", "4y"]];
  for (const row of rows) for (const code of row) box.append(tile(code, () => addTile(code)));
}

function addTile(code) { S.items.push({ code }); lineChanged(); }

function renderTiles() {
  const hand = $("hand");
  hand.replaceChildren();
  S.items.forEach((it, n) => {
    if (it.group) {
      const g = document.createElement("span");
      g.className = `group ${it.group}`;
      g.setAttribute("aria-label", `${it.group} set`);
      for (const c of it.codes) g.append(tile(c, () => select(n)));
      if (S.sel.has(n)) g.classList.add("sel");
      if (it.err) g.classList.add("err");
      it.el = g; hand.append(g);
    } else {
      const t = tile(it.code, () => select(n));
      if (S.sel.has(n)) t.classList.add("sel");
      if (S.win === it) t.classList.add("won");
      if (it.err) t.classList.add("err");
      it.el = t; hand.append(t);
    }
  });
  const flags = $("flags");
  flags.hidden = S.outcome !== "won";
  flags.replaceChildren(...FLAGS.map(([f, label]) => pressed(button(label, () => {
    if (S.flags.has(f)) S.flags.delete(f); else S.flags.add(f);
    lineChanged(); }), S.flags.has(f))));
}

function select(n) { if (S.sel.has(n)) S.sel.delete(n); else S.sel.add(n); renderTiles(); }

function groupSelected(kind) {
  const picked = [...S.sel].sort((a, b) => a - b).map((n) => S.items[n]).filter((it) => !it.group);
  if (!picked.length) return;
  const codes = picked.map((it) => it.code).sort(tileOrder);
  S.items = S.items.filter((it) => !picked.includes(it));
  S.items.unshift({ group: kind, codes });
  S.sel = new Set();
  lineChanged();
}

function tileOrder(a, b) {
  const key = (c) => /^[1-9][mps]$/.test(c) ? "mps".indexOf(c[1]) * 10 + +c[0] : /^[1-4][fy]$/.test(c) ? 200 + c : 100 + ORDER.indexOf(c);
  const x = key(a), y = key(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function act(what) {
  const picked = [...S.sel].map((n) => S.items[n]);
  if (what === "remove") {
    S.items = S.items.filter((it) => !picked.includes(it)).concat(...picked.filter((it) => it.group).map((g) => g.codes.map((code) => ({ code }))));
    if (picked.includes(S.win)) S.win = null;
  } else if (what === "winning") {
    const one = picked.filter((it) => !it.group);
    if (one.length === 1) S.win = one[0];
  }
  S.sel = new Set();
  lineChanged();
}

// -- the table ---------------------------------------------------------------------------------

function renderTable() {
  const st = S.status;
  if (!st || !st.next) return;
  const list = $("lines");
  list.replaceChildren(...SEATS.map((seat) => {
    const d = st.drafts[seat];
    const li = document.createElement("li");
    li.className = d ? (d.ok ? "ok" : "bad") : "";
    const who = document.createElement("span"); who.className = "who"; who.textContent = `${st.next.seats[seat]} (${seat})`;
    const what = document.createElement("span"); what.className = "what";
    what.textContent = !d ? "not in yet" : draftText(d);
    li.append(who, what);
    return li;
  }));
  $("penalties").replaceChildren(...(st.penalties || []).map((p, i) => {
    const li = document.createElement("li");
    const what = document.createElement("span");
    what.textContent = `Penalty: ${p.from} pays ${p.amount}${p.to ? " to " + p.to : " to each"}${p.by ? " (entered by " + p.by + ")" : ""}`;
    const drop = button("Remove", () => removePenalty(i));
    drop.className = "quiet";
    drop.setAttribute("aria-label", `Remove the penalty: ${what.textContent}`);
    li.append(what, drop);
    return li;
  }));
  $("submit").disabled = !ready() || !!st.error;
}

async function removePenalty(i) {
  const kept = S.status.penalties.filter((_, k) => k !== i);
  const { status, data } = await call("PUT", "/api/penalties", { hand: S.status.hand, penalties: kept, by: S.me });
  $("pen-error").textContent = status === 200 ? "" : (data && data.error ? data.error.message : "the penalty could not be removed: try again");
  S.version = ""; await poll();
}

function ready() {
  const d = S.status.drafts;
  const ok = SEATS.filter((s) => d[s] && d[s].ok);
  const winner = ok.some((s) => /\bwin\b/.test(d[s].text));
  if (ok.length === 4) return true;
  return $("others-nothing").checked && winner && SEATS.every((s) => !d[s] || d[s].ok);
}

async function submit(draw) {
  // The server writes the hand as it holds it: the lines and penalties of this hand's number.
  // Pressing again after a failure is safe: a hand written already is not written twice.
  const hand = S.status.hand;
  const err = $("submit-error");
  err.textContent = "";
  const body = { hand, by: S.me, draw: !!draw, others_nothing: !draw && $("others-nothing").checked };
  const { status, data } = await call("POST", "/api/hands", body);
  if (status === 201) { S.version = ""; await poll(); return; }
  if (status === 409) { err.textContent = data && data.error ? data.error.message : `hand ${hand} is settled already`; S.version = ""; await poll(); return; }
  if (status === 0 || status >= 500) { err.textContent = `Hand ${hand} was not settled (no answer from the table's computer): press again.`; return; }
  const e = data && data.error ? data.error : { message: "the hand could not be settled" };
  err.textContent = `${e.seat && S.status.next ? S.status.next.seats[e.seat] + ": " : ""}${e.message}`;
}

// -- results -----------------------------------------------------------------------------------

async function showHand(n) {
  const { status, data } = await call("GET", `/api/hands/${n}`);
  if (status !== 200) return;
  const box = $("result");
  const names = data.names;
  const title = document.createElement("h2");
  title.textContent = `${handTitle(data.hand, data.dealer, data.round)} — ${outcome(data)}`;
  const parts = [title];
  // The winner's hand first, then the others in turn from the winner, as the table scores them.
  const start = data.winner ? SEATS.indexOf(data.winner) : 0;
  const inTurn = [...data.players].sort((a, b) => (SEATS.indexOf(a.seat) - start + 4) % 4 - (SEATS.indexOf(b.seat) - start + 4) % 4);
  for (const p of inTurn) {
    const det = document.createElement("details");
    const sum = document.createElement("summary");
    sum.textContent = `${names[p.seat]} (${p.seat})${p.winner ? " — winner" : ""}: ${p.score}`;
    const ul = document.createElement("ul"); ul.className = "items";
    if (p.completed && data.win) {
      // A set written concealed, shown exposed: the discard completed it.
      const li = document.createElement("li");
      const robbed = (data.win.flags || []).includes("robbed");
      li.textContent = `${p.completed}: the ${data.win.tile} ${robbed ? "robbed from" : "from"} ${names[data.win.from]}${robbed ? "'s kong" : ""} completed it`;
      ul.append(li);
    }
    for (const i of p.items) {
      const li = document.createElement("li");
      const v = i.limit ? `${i.limit === 1 ? "limit" : i.limit + " limit"}` : i.doubles ? `${i.doubles} double${i.doubles > 1 ? "s" : ""}` : `${i.points}`;
      li.textContent = `${i.text}${i.applies_to ? " " + i.applies_to : ""}: ${v}`;
      ul.append(li);
    }
    const total = document.createElement("p"); total.className = "small"; total.textContent = figures(p);
    det.append(sum, ul, total);
    parts.push(det);
  }
  const s = data.settlement;
  if (s) {
    for (const line of payLines(s.payments, names)) { const p = document.createElement("p"); p.className = "pays"; p.textContent = line; parts.push(p); }
    for (const x of s.specials || []) { const p = document.createElement("p"); p.className = "small"; p.textContent = special(x, names); parts.push(p); }
    parts.push(figuresTable(["player", "net", "total"], SEATS.map((seat) => [names[seat], signed(s.net[seat] || 0), data.totals[names[seat]]]), [1, 2]));
  } else {
    parts.push(hint(`No payments: ${data.settlement_error}`));
  }
  const nx = S.status && S.status.next;
  if (nx) parts.push(hint(nx.text));         // the library's words, as the command line shows them
  box.replaceChildren(...parts);
}

function outcome(h) {
  if (h.draw) return "a draw";
  if (!h.winner) return "no winner";
  const from = h.win && h.win.from ? `on ${h.names[h.win.from]}'s discard` : "self-drawn";
  return `${h.names[h.winner]} wins ${from}`;
}

function payLines(payments, names) {
  // For each two players, what one owes the other once all is counted: "Ann pays Bob 120".
  const owed = {};
  for (const p of payments) owed[p.from + p.to] = (owed[p.from + p.to] || 0) + p.amount;
  const out = [];
  SEATS.forEach((a, i) => SEATS.slice(i + 1).forEach((b) => {
    const d = (owed[a + b] || 0) - (owed[b + a] || 0);
    if (d) out.push([Math.abs(d), d > 0 ? `${names[a]} pays ${names[b]} ${d}` : `${names[b]} pays ${names[a]} ${-d}`]);
  }));
  out.sort((x, y) => y[0] - x[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));   // as the command line orders them
  return out.length ? out.map((x) => x[1]) : ["Nobody pays."];
}

function special(x, names) {
  const what = x.kind === "kitty" ? `Kitty: ${x.count} deal${x.count === 1 ? "" : "s"} × ${x.unit}` : `Extra hands: ${x.count} × ${x.unit}`;
  return x.to ? `${what}: ${names[x.to]} receives ${x.amount}` : `${what}; ${x.why || "not paid"}`;
}

async function showStandings() {
  const { status, data } = await call("GET", "/api/evening");
  if (status !== 200) return;
  const parts = [];
  const h = document.createElement("h2"); h.textContent = `Standings after ${data.hands.length} hand${data.hands.length === 1 ? "" : "s"}`;
  parts.push(h, figuresTable(["place", "player", "total", "won or lost"],
    data.standings.map((s, i) => [i + 1, s.name, s.total, signed(s.total - data.start)]), [0, 2, 3]));
  const settle = document.createElement("h2"); settle.textContent = "Settle-up";
  parts.push(settle);
  if (data.settle_up === null) parts.push(hint(data.settle_up_note));
  else if (!data.settle_up.length) parts.push(hint("Nobody owes anything."));
  else for (const t of data.settle_up) { const p = document.createElement("p"); p.className = "pays"; p.textContent = `${t.from} pays ${t.to} ${t.amount}`; parts.push(p); }
  $("standings").replaceChildren(...parts);
}

// -- small helpers -----------------------------------------------------------------------------

function button(text, onClick) { const b = document.createElement("button"); b.type = "button"; b.textContent = text; b.addEventListener("click", onClick); return b; }
function pressed(b, on) { b.setAttribute("aria-pressed", String(!!on)); return b; }
function hint(text) { const p = document.createElement("p"); p.className = "hint"; p.textContent = text; return p; }
function signed(n) { return n > 0 ? `+${n}` : `${n}`; }
function figuresTable(heads, rows, numbers) {
  // A small table; the columns in `numbers` are figures, set to the right.
  const t = document.createElement("table"); t.className = "figures";
  const tr = document.createElement("tr");
  heads.forEach((h, i) => { const th = document.createElement("th"); th.textContent = h; if (numbers.includes(i)) th.className = "n"; tr.append(th); });
  t.append(tr);
  for (const row of rows) {
    const r = document.createElement("tr");
    row.forEach((v, i) => { const td = document.createElement("td"); td.textContent = String(v); if (numbers.includes(i)) td.className = "n"; r.append(td); });
    t.append(r);
  }
  return t;
}

// -- wiring ------------------------------------------------------------------------------------

function wire() {
  for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => choose(b.dataset.tab));
  for (const b of document.querySelectorAll("[data-outcome]")) b.addEventListener("click", () => {
    S.outcome = b.dataset.outcome; S.from = S.outcome === "won" ? S.from : null; S.nothing = false; lineChanged(); });
  $("score").addEventListener("input", () => { S.score = $("score").value.replace(/[^0-9]/g, ""); S.nothing = false; lineChanged(); });
  $("nothing").addEventListener("click", () => { S.nothing = !S.nothing; S.score = ""; $("score").value = ""; lineChanged(); });
  $("count-tiles").addEventListener("click", () => { S.mode = "tiles"; lineChanged(); });
  $("by-count").addEventListener("click", () => { S.mode = "score"; lineChanged(); });
  for (const b of document.querySelectorAll("[data-group]")) b.addEventListener("click", () => groupSelected(b.dataset.group));
  for (const b of document.querySelectorAll("[data-act]")) b.addEventListener("click", () => act(b.dataset.act));
  $("others-nothing").addEventListener("change", renderTable);
  $("submit").addEventListener("click", () => submit());
  $("draw").addEventListener("click", async () => {
    // A draw is written as held: the lines entered are dropped first, when the player says so.
    const hand = S.status.hand, held = SEATS.filter((s) => S.status.drafts[s]);
    const whose = held.map((s) => S.status.next.seats[s]).join(", ");
    if (!confirm(held.length ? `Record a draw for hand ${hand}? The lines entered (${whose}) are dropped; the penalties stay.`
                             : `Record a draw for hand ${hand}?`)) return;
    if (held.length) {
      const { status, data } = await call("DELETE", `/api/drafts?hand=${hand}`);
      if (status !== 200) { $("submit-error").textContent = data && data.error ? data.error.message : "The draw was not recorded (no answer): press again."; return; }
    }
    submit(true); });
  $("undo").addEventListener("click", async () => {
    const last = S.status.hands;
    if (!last || !confirm(`Take hand ${last} back out of the evening?`)) return;
    const { status, data } = await call("DELETE", `/api/hands/last?hand=${last}&by=${encodeURIComponent(S.me || "")}`);
    $("submit-error").textContent = status === 200 ? "" : data && data.error ? data.error.message : `Hand ${last} was not taken back (no answer): try again.`;
    S.version = ""; await poll(); });
  $("penalty").addEventListener("click", () => {
    // The form starts empty each time: no amount is kept from the last penalty.
    const form = $("penalty-form");
    const names = SEATS.map((s) => S.status.next.seats[s]);
    $("pen-payer").replaceChildren(...names.map((n) => new Option(n, n)));
    $("pen-payee").replaceChildren(new Option("each other player", ""), ...names.map((n) => new Option(n, n)));
    $("pen-amount").value = "";
    $("pen-error").textContent = "";
    form.hidden = !form.hidden;
    if (!form.hidden) $("pen-amount").focus(); });
  $("penalty-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const typed = $("pen-amount").value.trim();
    if (!/^[1-9][0-9]{0,8}$/.test(typed)) { $("pen-error").textContent = "A penalty is a whole number from 1 up."; return; }
    const amount = Number(typed);
    const limit = S.status.limit;
    if (limit && amount > limit && !confirm(`${amount} is more than the limit (${limit}). Enter it all the same?`)) return;
    const payer = $("pen-payer").value, payee = $("pen-payee").value || null;
    if (payer === payee) { $("pen-error").textContent = "A player does not pay a penalty to themselves."; return; }
    const { status, data } = await call("POST", "/api/penalties", { hand: S.status.hand, from: payer, amount, to: payee, by: S.me });
    if (status !== 200) { $("pen-error").textContent = data && data.error ? data.error.message : "The penalty was not entered (no answer): press Add again."; return; }
    $("pen-amount").value = "";
    $("pen-error").textContent = "";
    $("penalty-form").hidden = true;
    S.version = ""; await poll(); });
  $("who").addEventListener("click", () => { localStorage.removeItem("mj_me"); S.me = null; render(); });
  $("pick-watch").addEventListener("click", () => setMe("-"));
  buildPalette();
}

wire();
poll();
setInterval(poll, 1000);
setInterval(watchConnection, 500);
