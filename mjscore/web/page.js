// The table page: each player enters their own line of the hand; the server checks each line as
// it changes, adds the hand to the evening's file when it is settled, and every phone shows the
// result above the next hand's entry.  Plain script, no library, nothing from any other host.
// Text always goes in as text (textContent), never as markup; every sentence about a hand
// (who pays whom, penalties, the next deal) is the library's, shown as it comes, and every other
// word of the page is the library's too (mjscore.evening.page_words), written into page.html.
"use strict";

const $ = (id) => document.getElementById(id);
const WORDS = JSON.parse($("words").textContent);
const PLURAL = new Intl.PluralRules(WORDS.lang);
function T(key, places) {
  // A word of the page by its key, its named places filled ("{hand}"); a word that counts takes
  // the form the language gives `places.n` ("1 point", "2 points").
  let w = WORDS[key];
  if (w === undefined) return key;
  if (typeof w === "object") w = w[PLURAL.select(places.n)] || w.other;
  return places ? w.replace(/\{(\w+)\}/g, (all, name) => (name in places ? String(places[name]) : all)) : w;
}
const SEATS = ["E", "S", "W", "N"];
const SEAT_WORDS = { E: T("E"), S: T("S"), W: T("W"), N: T("N") };
const FLAGS = ["loose", "last", "robbed", "heaven", "earth", "original-call", "twofold"].map((f) => [f, T(`flag_${f}`)]);
const SUIT = { m: [T("char"), T("characters")], p: [T("dots"), T("dots")], s: [T("bam"), T("bamboo")] };
const HONOUR = { E: ["E", T("wind"), T("east_wind")], S: ["S", T("wind"), T("south_wind")], W: ["W", T("wind"), T("west_wind")],
                 N: ["N", T("wind"), T("north_wind")], C: ["R", T("dragon"), T("red_dragon")],
                 F: ["G", T("dragon"), T("green_dragon")], P: ["Wh", T("dragon"), T("white_dragon")] };
const ORDER = "ESWNCFP";
const SHAPES = ["circle", "square", "triangle", "diamond"];    // a marker each: colour is not needed to tell them apart

const S = {
  status: null, version: "", me: localStorage.getItem("mj_me"), seat: null, tab: "table", hands: -1,
  from: null,           // how I won: "self", a player's name, or null (I lost)
  mode: "score", score: "", nothing: false,
  items: [],            // my tiles: {code} loose, or {group: kind, codes: [...]}
  sel: new Set(), win: null, flags: new Set(), tokens: [], sent: "", timer: 0,
  scoreItem: { err: false },     // the score, as a word of the line
  accepted: null,       // the line the server took for this hand, as {hand, text}
  restoredFor: 0,       // the hand whose held line this phone has looked at (a reload finds it again)
  retry: 0, retryTimer: 0,       // a line not taken yet: how many tries, and the next one
  notices: new Map(),   // notice id -> when it was first shown
  evening: null,        // the last /api/evening, for the Hands and Standings views
  file: "",             // the evening file's version the views were drawn from
};
const TIMEOUT = 15000;           // a request without an answer by then has failed (Slow 3G: 2 s a round trip)
const WAIT = 25;                 // seconds the server holds a status request while nothing changes
// The one status request of this phone: whether one is under way, the failures in a row (the
// banner shows from the third: on Slow 3G with one request in twenty lost, two in a row came
// once in 240 requests and put it up for 3 s of 100 while the server was up), when the next try
// is, and what cuts a wait short.
const NET = { busy: false, fails: 0, next: 0, wake: null, force: false };
const NOTICE_MS = 12000;         // a notice ("Hand 8 was taken back by Ann") stays this long, at least

// -- talking to the server ---------------------------------------------------------------------

async function call(method, path, body, headers, timeout, cut) {
  // Every change says it is JSON (the server refuses one that does not); no answer within
  // `timeout` (TIMEOUT) is a failure, as a lost answer is: status 0.
  const init = { method, headers: { ...(headers || {}) }, credentials: "same-origin", cache: "no-store" };
  if (method !== "GET") init.headers["Content-Type"] = "application/json";
  if (body !== undefined) init.body = JSON.stringify(body);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeout || TIMEOUT);
  init.signal = stop.signal;
  if (cut) cut.abort = () => stop.abort();       // the caller may give up on it (the phone went offline)
  try {
    const r = await fetch(path, init);
    let data = null;
    if (r.status !== 304) { try { data = await r.json(); } catch (e) { data = null; } }
    return { status: r.status, data };
  } catch (e) {
    return { status: 0, data: null };
  } finally { clearTimeout(timer); }
}

function backoff(tries) { return Math.min(8000, 500 * 2 ** Math.max(0, tries - 1)) * (0.8 + 0.4 * Math.random()); }

function sleep(ms) {
  // A pause that `poll()` cuts short (the player did something: ask the server now).
  return new Promise((done) => { const t = setTimeout(done, ms); NET.wake = () => { clearTimeout(t); done(); }; })
    .then(() => { NET.wake = null; });
}

async function statusLoop() {
  // The phone's one status request, again and again: it waits at the server for the next change
  // (a long poll: at most WAIT seconds, then 304), so an idle phone costs one small request every
  // 25 s and a change shows at once; a failed one is tried again later and later (at most 8 s).
  for (;;) {
    NET.busy = true;
    const known = S.version && !NET.force;
    NET.force = false;
    const r = await call("GET", known ? `/api/status?wait=${WAIT}` : "/api/status", undefined,
                         known ? { "If-None-Match": `"${S.version}"` } : {}, (WAIT + 20) * 1000, NET);
    NET.busy = false; NET.abort = null;
    if (r.status === 200 && r.data) {
      NET.fails = 0; showOffline();
      if (r.data.version !== S.version || !known) {
        S.version = r.data.version; S.status = r.data;
        // Whatever one status makes of the page, the next one is asked for all the same.
        try { await changed(); } catch (e) { console.error(e); }
      }
    } else if (r.status === 304) {
      NET.fails = 0; showOffline();
    } else {
      NET.fails += 1;
      NET.next = Date.now() + backoff(NET.fails);
      showOffline();
      await sleep(NET.next - Date.now());
    }
  }
}

function poll() {
  // Ask the server now what changed: the waiting request answers by itself when this phone's
  // own change reaches the server; a phone between two tries tries at once.
  NET.force = true;
  if (NET.wake) { NET.fails = Math.min(NET.fails, 1); NET.wake(); }
}

function showOffline() {
  // At the top, where the eye is, and only while the table's computer is really out of reach.
  const box = $("offline");
  box.hidden = NET.fails < 3;
  if (box.hidden) return;
  const left = Math.ceil((NET.next - Date.now()) / 1000);
  box.textContent = NET.busy || left <= 0 ? T("cannot_reach_now") : T("cannot_reach_in", { seconds: left });
}

async function changed() {
  const st = S.status;
  showNotices(st.notices || []);
  const fileError = $("file-error");
  fileError.hidden = !st.error;
  if (st.error) {
    const e = st.error;
    const where = e.line ? T("file_line", { file: e.file || T("the_file"), line: e.line }) : e.file || T("the_file");
    fileError.textContent = T("file_broken", { where, message: e.message });
    S.seat = null;              // no next hand, so no seat in it, until the file is mended
    render();
    return;
  }
  const seats = (st.next && st.next.seats) || {};
  S.seat = SEATS.find((s) => seats[s] === S.me) || null;
  const file = st.version.slice(0, st.version.lastIndexOf("."));
  const evening = S.hands !== st.hands || S.hands < 0 || file !== S.file;    // a hand corrected changes the file only
  S.file = file;
  if (S.hands >= 0 && st.hands !== S.hands) {
    // A new next hand. A line typed here and not taken for the old one is kept, and sent for
    // this one (under the player's seat now); one the server took is done with.
    const typed = lineText();
    const taken = S.accepted && S.accepted.text === typed;
    if (!typed || taken) resetMine(); else { S.sent = ""; clearTimeout(S.retryTimer); S.retry = 0; lineChanged(); }
    S.accepted = null;
  }
  if (S.accepted && S.seat && S.accepted.hand === st.hand) heldStill(st);
  if (S.seat && st.hand !== S.restoredFor) {
    // The line the server holds for me (typed before a reload, or brought back with a hand
    // taken back) comes back to my entry, so nobody types it again.
    S.restoredFor = st.hand;
    const d = st.drafts[S.seat];
    if (d && !lineText() && restore(d.text)) {
      S.sent = lineText();
      S.accepted = { hand: st.hand, text: S.sent, run: st.run, at: st.version };
      $("line").textContent = `${S.seat}: ${S.sent}`;
      showCheck(d);
    }
  }
  if (evening) {
    // A hand settled, taken back or corrected (its result, and every total after it, may be another).
    S.resultWanted = st.hands; S.resultShown = 0;
    if (st.hands <= 0) { S.resultShown = 0; $("result").hidden = true; $("result").replaceChildren(); }
    S.evening = null;
    if (S.tab !== "table") retrying("view", showTab);
  }
  if (S.resultWanted > 0 && S.resultShown !== S.resultWanted) retrying("result", () => showHand(S.resultWanted));
  S.hands = st.hands;
  render();
}

function heldStill(st) {
  // My line as the server holds it: ✓ only while it does.  A server started again without it
  // (another run) is sent it again by this phone; one another phone dropped on purpose (a draw,
  // a settle) is not; a status older than the server's taking of the line says nothing.
  const d = st.drafts[S.seat], a = S.accepted;
  if (d && d.text === a.text) return;
  const count = (v) => Number(v.slice(v.lastIndexOf(".") + 1));
  const sameFile = (v, w) => v.slice(0, v.lastIndexOf(".")) === w.slice(0, w.lastIndexOf("."));
  if (a.run === st.run && sameFile(a.at, st.version) && count(st.version) < count(a.at)) return;
  S.accepted = null;
  const typed = lineText();
  if (a.run !== st.run && typed === a.text) {
    S.sent = ""; showCheck(null); $("pending").hidden = false; sendLine(typed);
  } else {
    showCheck(null);
  }
}

const RETRY = {};              // what is fetched again until it comes: its tries so far
async function retrying(what, fetchIt) {
  // A result or a view this phone could not fetch is fetched again, later and later, until it has it.
  if (RETRY[what] && RETRY[what].busy) { RETRY[what].again = true; return; }
  const r = RETRY[what] = RETRY[what] || { tries: 0 };
  r.busy = true;
  for (;;) {
    r.again = false;
    const ok = await fetchIt();
    if (ok !== false && !r.again) break;
    if (ok === false) { r.tries += 1; await new Promise((done) => setTimeout(done, backoff(r.tries))); }
  }
  r.busy = false; r.tries = 0;
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

// What the page has drawn, so that a poll draws again only what changed: a tap between two polls
// lands on the button that was there, and a live region is not read out again for nothing.
const UI = {
  drawn: { pick: null, won: null, hand: null, penalties: null },    // what each was drawn from
  result: { hand: null, open: false },      // the settled hand shown, and whether its rest is open
  firstHands: null,                         // how many hands were settled when the page was first drawn
  measure: null,                            // a canvas, to measure the chart's words
};

function render() {
  const st = S.status;
  if (!st) return;
  if (UI.firstHands === null) UI.firstHands = st.hands;
  const n = st.next;
  put($("deal"), n ? handTitle(n) : "mjscore");
  if (!S.me) { showPick(); return; }
  $("pick").hidden = true;
  $("tabs").hidden = false;
  $("who").hidden = false;
  put($("who"), (S.me === "-" ? T("watching") : `${S.me}${S.seat ? " · " + SEAT_WORDS[S.seat] : ""}`) + (S.table ? ` · ${S.table}` : ""));
  $("who").setAttribute("aria-label", T("not_you", { who: $("who").textContent }));
  // The tabs as WAI-ARIA's pattern has them: only the selected tab is a Tab stop (the arrow keys
  // move between them, wire()), and Tab goes on into its panel.
  for (const b of document.querySelectorAll("[data-tab]")) {
    b.setAttribute("aria-selected", String(b.dataset.tab === S.tab));
    b.tabIndex = b.dataset.tab === S.tab ? 0 : -1;
  }
  for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== S.tab;
  $("moves").hidden = !(n && n.moves);
  put($("moves"), n && n.moves ? n.moves : "");
  $("mine").hidden = !S.seat;
  put($("mine-title"), S.seat ? T("you_are", { seat: SEAT_WORDS[S.seat] }) : "");
  renderMine();
  renderTable();
}

function handTitle(n) {
  // The next deal as the library names it ("Hand 2: Ann deals, East round").
  return n.title || "";
}

function showPick() {
  $("tabs").hidden = true;
  for (const p of document.querySelectorAll("[data-panel]")) p.hidden = true;
  $("pick").hidden = false;
  const box = $("pick-names");
  const names = S.status.players.join("\n");
  if (UI.drawn.pick === names) return;
  UI.drawn.pick = names;
  box.replaceChildren(...S.status.players.map((name) => button(name, () => { setMe(name); })));
}

function setMe(name) {
  // Shown at once from the status this phone has: a slow network never keeps a player waiting on "Who are you?".
  S.me = name; localStorage.setItem("mj_me", name); S.restoredFor = 0; resetMine();
  if (S.status) changed(); else poll();
}

async function choose(tab) { S.tab = tab; S.confirmed = null; render(); await retrying("view", showTab); }

async function showTab() {
  // False when the view's answer could not be fetched (`retrying` asks again).
  if (S.tab === "hands") return showHands();
  if (S.tab === "standings") return showStandings();
  if (S.tab === "rules") return showRules();
  if (S.tab === "night") return showNight();
  return true;
}

// -- my line -----------------------------------------------------------------------------------

function resetMine() {
  Object.assign(S, { from: null, mode: "score", score: "", nothing: false, items: [], sel: new Set(),
                     win: null, flags: new Set(), tokens: [], sent: "", retry: 0 });
  clearTimeout(S.retryTimer);
  $("pending").hidden = true;
  $("check").textContent = "";
  $("line").textContent = "";
  $("submit-error").textContent = "";
  $("others-nothing").checked = false;
}

function renderMine() {
  if (!S.seat) return;
  // One tap says I won and how: self-drawn, or on whose discard.  No tap at all: I lost.  The
  // buttons are made again only when the other players change (a new seat, a new hand's seats).
  const whose = ["self", ...SEATS.filter((s) => s !== S.seat).map((s) => S.status.next.seats[s])];
  const box = $("won-how");
  if (UI.drawn.won !== whose.join("\n")) {
    UI.drawn.won = whose.join("\n");
    box.replaceChildren(...whose.map((from) => button(from === "self" ? T("self_drawn") : T("from_player", { player: from }), () => {
      S.from = S.from === from ? null : from; S.nothing = false; lineChanged(); })));
  }
  [...box.children].forEach((b, i) => pressed(b, S.from === whose[i]));
  $("by-score").hidden = S.mode !== "score";
  $("count-tiles").hidden = S.mode !== "score";
  put($("score"), S.nothing ? T("nothing") : S.score || "–");
  const nothing = $("keypad").querySelector("[data-key=nothing]");
  if (nothing) {
    // Out of reach for a winner, but kept in its place: 0 and ⌫ never move under a thumb.
    nothing.style.visibility = S.from ? "hidden" : "";
    nothing.setAttribute("aria-pressed", String(S.nothing));
  }
  $("tiles").hidden = S.mode !== "tiles";
  // What the server made of my line: above the keypad for a score (in view as it is typed), and
  // below the hand for tiles (so the palette never moves under a finger as the line grows).
  const said = [$("line"), $("check"), $("pending")];
  const above = S.mode === "score", there = $("pending").nextElementSibling === $("by-score");
  if (above !== there) { if (above) $("by-score").before(...said); else $("tiles").after(...said); }
  if (S.mode === "tiles") renderTiles();
}

function key(k) {
  // A digit, "back" or "nothing" from the keypad (or the keyboard).
  if (k === "back") S.score = S.score.slice(0, -1);
  else if (k === "nothing") { S.nothing = !S.nothing; S.score = ""; }
  else if (S.score.length < 6) { S.score = (S.score + k).replace(/^0+(?=\d)/, ""); S.nothing = false; }
  lineChanged();
}

function lineText() {
  // The line, and each of its words with the elements it stands for (to show an error at its tiles).
  const words = [];
  const add = (text, items) => words.push({ text, items });
  if (S.mode === "score") {
    if (S.nothing && !S.from) add("...", []);
    else if (S.score !== "") add(`score ${S.score}`, [S.scoreItem]);
  } else {
    for (const it of S.items) if (it.group) add(bracket(it.group, runText(it.codes)), [it]);
    for (const run of concealedRuns(S.items.filter((it) => !it.group))) add(runText(run.map((it) => it.code)), run);
  }
  if (S.from && words.length && (S.mode === "score" || S.win)) {
    const tile = S.mode === "tiles" ? ` ${S.win.code}` : "";
    add(`win${tile} ${S.from === "self" ? "self" : "from " + S.from}`, []);
    if (S.mode === "tiles") for (const [f] of FLAGS) if (S.flags.has(f)) add(f, []);
  }
  let col = 1;
  S.tokens = words.map((w) => { const t = { ...w, from: col, to: col + w.text.length - 1 }; col += w.text.length + 1; return t; });
  return words.map((w) => w.text).join(" ");
}

function concealedRuns(loose) {
  // The concealed tiles as `mjscore show` writes them: one run a suit in order (123456s), each
  // honour's tiles together (EEE), each bonus tile alone.
  const sorted = [...loose].sort((a, b) => tileOrder(a.code, b.code));
  const runs = [];
  for (const it of sorted) {
    const last = runs[runs.length - 1];
    const kind = (c) => /^[1-9][mps]$/.test(c) ? c[1] : /^[1-4][fy]$/.test(c) ? `bonus${c}` : c;
    if (last && kind(last[0].code) === kind(it.code)) last.push(it); else runs.push([it]);
  }
  return runs;
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

function codesOf(run) {
  // A run of the notation as tiles: "123m" -> 1m 2m 3m, "EEE" -> E E E, "1f" -> 1f; null if the
  // page cannot show it (another spelling: the line stays as the server holds it).
  const out = [];
  let digits = "";
  for (const ch of run) {
    if (/[1-9]/.test(ch)) digits += ch;
    else if (/[mpsfy]/.test(ch) && digits) { for (const d of digits) out.push(d + ch); digits = ""; }
    else if (ORDER.includes(ch) && !digits) out.push(ch);
    else return null;
  }
  return digits ? null : out;
}

function restore(text) {
  // My entry as the line held for me says it: a score, nothing, or tiles with the win clause.
  const words = (text || "").trim().split(/\s+/);
  const at = words.indexOf("win");
  const head = at < 0 ? words : words.slice(0, at), tail = at < 0 ? [] : words.slice(at + 1);
  let from = null, winTile = null;
  const flags = new Set();
  if (at >= 0) {
    if (tail[0] && tail[0] !== "self" && tail[0] !== "from") winTile = tail.shift();
    if (tail[0] === "self") { from = "self"; tail.shift(); }
    else if (tail[0] === "from" && tail[1]) { from = S.status.next.seats[tail[1]] || tail[1]; tail.splice(0, 2); }
    else return false;
    for (const f of tail) { if (!FLAGS.some(([x]) => x === f)) return false; flags.add(f); }
    if (from !== "self" && !Object.values(S.status.next.seats).includes(from)) return false;
  }
  if (head.length === 1 && head[0] === "..." && !from) { Object.assign(S, { mode: "score", nothing: true }); return true; }
  if (head.length === 2 && head[0] === "score" && /^\d{1,6}$/.test(head[1])) {
    Object.assign(S, { mode: "score", score: head[1], from }); return true;
  }
  const items = [];
  for (const w of head) {
    const m = /^([[(<])(.*)([\])>])$/.exec(w);
    const codes = codesOf(m ? m[2] : w);
    if (!codes || !codes.length) return false;
    if (m) items.push({ group: { "[": "exposed", "(": "declared", "<": "claimed" }[m[1]], codes });
    else for (const code of codes) items.push({ code });
  }
  if (!items.length) return false;
  let win = null;
  if (winTile) { win = [...items].reverse().find((it) => !it.group && it.code === winTile) || null; if (!win) return false; }
  Object.assign(S, { mode: "tiles", items, from, win, flags });
  return true;
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
  if (S.from && text && S.mode === "tiles" && !S.win) {
    // A winner's tiles go to be checked once they say which tile went out.
    check.className = "check";
    check.textContent = T("tap_winning");
    S.sent = "";
    return;
  }
  const hand = S.status.hand;
  if (!text) {
    // Cleared: the line held for me is withdrawn, so no other phone settles with it.
    check.textContent = "";
    if (S.status.drafts[S.seat]) {
      // Only my own line is withdrawn (by names me); a lost answer is tried again.
      const r = await call("DELETE", `/api/drafts/${S.seat}?hand=${hand}&by=${encodeURIComponent(me() || "")}`);
      if (r.status === 0 || r.status >= 500) { S.sent = null; later(""); return; }   // null: "" is sent again
      S.accepted = null; poll();
    }
    return;
  }
  const { status, data } = await call("PUT", `/api/drafts/${S.seat}`, { text, hand, by: me() });
  if (text !== S.sent) return;                     // typed on since: the newer line is on its way
  if (status === 409) {
    // The hand moved on while this was typed (settled or taken back): not kept there. Shown,
    // and sent again for the next hand once the phone knows it (and its seat in it).
    check.className = "check bad";
    check.textContent = data && data.error ? data.error.message : T("no_longer_next", { hand });
    S.sent = "";
    // My seat moved (a correction re-seated the hand): the server says where I sit now.
    if (data && data.error && data.error.seat && SEATS.includes(data.error.seat)) S.seat = data.error.seat;
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
  // Taken by this run of the server, at this version of what it holds (see heldStill).
  S.accepted = { hand, text, run: data.run, at: data.held };
  showCheck(data);
  poll();
}

function showCheck(data) {
  const check = $("check");
  if (!data) { check.className = "check"; check.textContent = ""; return; }   // not held: no ✓
  if (data.ok) {
    check.className = "check ok";
    const limit = S.status.limit, typed = S.mode === "score" ? Number(S.score) : 0;
    // The library caps a counted score at the limit: a score above it is most likely a slip.
    check.textContent = `✓ ${figures(data.player)}${limit && typed > limit ? ` (${T("a_slip", { typed, limit })})` : ""}`;
  } else {
    check.className = "check bad";
    check.textContent = `✗ ${data.error.message}`;
    // An error marks tiles only where it names them (not "Cid holds 14 tiles", said of the line).
    const t = S.tokens.find((w) => data.error.column >= w.from && data.error.column <= w.to);
    if (t && data.error.token && t.text.includes(data.error.token)) for (const it of t.items) it.err = true;
    markErrors();
  }
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
  if (p.counted) return T("counted", { score: p.score });
  if (p.limit) return T("limit_figures", { limit: p.limit, score: p.score });
  if (!p.points && !p.doubles && !p.score) return T("nothing");
  const points = T("points", { n: p.points });
  if (!p.doubles && p.points === p.score) return points;
  return p.doubles ? T("points_doubles_score", { points, doubles: T("doubles", { n: p.doubles }), score: p.score })
    : T("points_score", { points, score: p.score });
}

function draftText(d) {
  // A line as the table sees it, its score said once: "8 counted", "40 counted, win self", "nothing".
  if (!d.ok) return `${d.text} — ${d.error.message}`;
  const p = d.player;
  if (p && p.counted) {
    const rest = (d.line || "").replace(/^score\s+\d+\s*/, "");
    return `${figures(p)}${rest ? ", " + rest : ""}`;
  }
  if ((d.line || "").trim() === "...") return T("nothing");
  return p ? `${d.line || d.text} — ${figures(p)}` : d.line || d.text;
}

// -- the tiles ---------------------------------------------------------------------------------

function tile(code, onTap) {
  // A tile button: its notation in data-tile, its name beginning with what it shows ("1 char,
  // characters"), so a voice command that says what is seen finds it.
  const el = document.createElement("button");
  el.type = "button";
  el.dataset.tile = code;
  let rank, under, name, cls;
  if (/^[1-9][mps]$/.test(code)) { rank = code[0]; under = SUIT[code[1]][0]; name = SUIT[code[1]][1]; cls = code[1]; }
  else if (/^[1-4][fy]$/.test(code)) { rank = code[0]; under = code[1] === "f" ? T("flower") : T("season"); name = under; cls = code[1]; }
  else { [rank, under, name] = HONOUR[code]; cls = `z ${code}`; }
  el.className = `tile ${cls}`;
  el.setAttribute("aria-label", name === under ? T("tile_name", { rank, face: under }) : T("tile_named", { rank, face: under, name }));
  const r = document.createElement("span"); r.className = "r"; r.textContent = rank;
  const u = document.createElement("span"); u.className = "u"; u.textContent = under;
  el.append(r, " ", u);            // the space makes its text "1 char", as its name begins
  if (onTap) el.addEventListener("click", onTap);
  return el;
}

function buildPalette() {
  const box = $("palette");
  const all = [];
  for (const s of "mps") for (let r = 1; r <= 9; r++) all.push(`${r}${s}`);
  for (const code of [...all, ...ORDER, "1f", "2f", "3f", "4f", "1y", "2y", "3y", "4y"]) box.append(tile(code, () => addTile(code)));
}

function addTile(code) { S.items.push({ code }); lineChanged(); }

function renderTiles() {
  // The hand's tiles are made again only when they change (a tile added, grouped or removed); a
  // tile selected, the winning tile or an error marks the tiles already there.
  const hand = $("hand");
  const tiles = S.items.map((it) => it.group ? `${it.group}:${it.codes.join("")}` : it.code).join(" ");
  if (UI.drawn.hand !== tiles || hand.children.length !== S.items.length) {
    UI.drawn.hand = tiles;
    hand.replaceChildren(...S.items.map((it, n) => {
      if (!it.group) return tile(it.code, () => select(n));
      const g = document.createElement("span");
      g.className = `group ${it.group}`;
      g.setAttribute("role", "group");
      g.setAttribute("aria-label", T("a_set", { kind: T(it.group) }));
      g.append(...it.codes.map((c) => tile(c, () => select(n))));
      return g;
    }));
  }
  S.items.forEach((it, n) => {
    // A line brought back (a reload, a hand taken back) has new items for the same tiles: each
    // takes the element at its place, which markErrors marks.
    const el = hand.children[n];
    it.el = el;
    const on = S.sel.has(n);
    el.classList.toggle("sel", on);
    el.classList.toggle("err", !!it.err);
    for (const t of it.group ? el.children : [el]) pressed(t, on);
    if (!it.group) {
      const won = S.win === it;
      const name = el.dataset.name || (el.dataset.name = el.getAttribute("aria-label"));
      el.classList.toggle("won", won);
      el.setAttribute("aria-label", won ? T("the_winning_tile", { tile: name }) : name);
    }
  });
  const flags = $("flags");
  flags.hidden = !S.from;
  if (!flags.childElementCount) {
    flags.append(...FLAGS.map(([f, label]) => button(label, () => {
      if (S.flags.has(f)) S.flags.delete(f); else S.flags.add(f);
      lineChanged(); })));
  }
  [...flags.children].forEach((b, i) => pressed(b, S.flags.has(FLAGS[i][0])));
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
  const rank = (c) => /^[1-9][mps]$/.test(c) ? "mps".indexOf(c[1]) * 10 + +c[0] : /^[1-4][fy]$/.test(c) ? 200 + "fy".indexOf(c[1]) * 10 + +c[0] : 100 + ORDER.indexOf(c);
  return rank(a) - rank(b);
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
  // A line a seat, made once and written over as the lines come in.
  const list = $("lines");
  if (list.children.length !== SEATS.length) {
    list.replaceChildren(...SEATS.map(() => {
      const li = document.createElement("li");
      const who = document.createElement("span"); who.className = "who";
      const what = document.createElement("span"); what.className = "what";
      li.append(who, what);
      return li;
    }));
  }
  SEATS.forEach((seat, k) => {
    const d = st.drafts[seat], li = list.children[k];
    li.className = d ? (d.ok ? "ok" : "bad") : "";
    put(li.firstChild, T("seat_of", { name: st.next.seats[seat], seat }));
    put(li.lastChild, !d ? T("not_in_yet") : draftText(d));
  });
  // The penalties' Remove buttons are made again only when the penalties change.
  const penalties = JSON.stringify(st.penalties || []);
  if (UI.drawn.penalties !== penalties) {
    UI.drawn.penalties = penalties;
    $("penalties").replaceChildren(...(st.penalties || []).map((p, i) => {
      const li = document.createElement("li");
      const what = document.createElement("span");
      what.textContent = p.said;                        // the library's words
      const drop = button(T("remove"), () => removePenalty(i));
      drop.className = "quiet";
      drop.setAttribute("aria-label", T("remove_penalty", { penalty: what.textContent }));
      li.append(what, drop);
      return li;
    }));
  }
  $("submit").disabled = !ready() || !!st.error;
  // Someone just watching sees the table; the players settle it.
  for (const id of ["submit", "draw", "penalty", "undo"]) $(id).hidden = S.me === "-";
  $("others-nothing").parentElement.hidden = S.me === "-";
  put($("undo"), st.hands ? T("undo_hand", { hand: st.hands }) : T("undo_last"));
  $("undo").disabled = !st.hands;
}

async function removePenalty(i) {
  const kept = S.status.penalties.filter((_, k) => k !== i);
  const { status, data } = await call("PUT", "/api/penalties", { hand: S.status.hand, penalties: kept, by: me() });
  $("pen-error").textContent = status === 200 ? "" : (data && data.error ? data.error.message : T("penalty_not_removed"));
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
  const body = { hand, by: me(), draw: !!draw, others_nothing: !draw && $("others-nothing").checked };
  const { status, data } = await call("POST", "/api/hands", body);
  if (status === 201) { S.version = ""; await poll(); return; }
  if (status === 409) { err.textContent = data && data.error ? data.error.message : T("settled_already", { hand }); S.version = ""; await poll(); return; }
  if (status === 0 || status >= 500) { err.textContent = T("not_settled", { hand }); return; }
  const e = data && data.error ? data.error : { message: T("cannot_settle") };
  err.textContent = `${e.seat && S.status.next ? S.status.next.seats[e.seat] + ": " : ""}${e.message}`;
}

// -- a hand's result ---------------------------------------------------------------------------

function para(cls, text) { const p = document.createElement("p"); p.className = cls; p.textContent = text; return p; }

function handResult(data, title) {
  // A settled hand: its title, who pays whom and each penalty on its own line (the library's
  // sentences), each net and total, then each player's breakdown, the winner first.
  const names = data.names;
  const parts = [];
  const h = document.createElement(title ? "h2" : "h3");
  h.textContent = T("title_outcome", { title: data.title, outcome: data.outcome });
  if (title !== false) parts.push(h);
  const s = data.settlement, said = data.said || { payments: [], penalties: [], specials: [] };
  if (s) {
    const pays = said.payments.length ? said.payments : said.nobody || [];     // the library's words, as the CLI's
    for (const line of pays) parts.push(para("pays", line));
    if (said.penalties.length && said.payments.length) parts.push(para("small", T("payments_include")));
    for (const line of said.penalties) parts.push(para("penalty-line", line));
    for (const line of said.specials) parts.push(para("small", line));
    const score = Object.fromEntries(data.players.map((p) => [p.seat, p.score]));
    parts.push(figuresTable([T("player"), T("score"), T("net"), T("total")], SEATS.map((seat) => [T("seat_of", { name: names[seat], seat }), score[seat] ?? "–",
      signed(s.net[seat] || 0), data.totals[names[seat]]]), [1, 2, 3]));
  } else {
    parts.push(hint(T("no_payments", { why: data.settlement_error })));
  }
  // Each score's breakdown, folded away under one line: the winner's first, then the others in
  // turn from the winner, as the table scores them.
  const start = data.winner ? SEATS.indexOf(data.winner) : 0;
  const inTurn = [...data.players].sort((a, b) => (SEATS.indexOf(a.seat) - start + 4) % 4 - (SEATS.indexOf(b.seat) - start + 4) % 4);
  const det = document.createElement("details");
  det.className = "breakdown";
  const sum = document.createElement("summary");
  sum.textContent = T("how_made");
  det.append(sum);
  for (const p of inTurn) {
    const who = document.createElement("p");
    who.className = "whose";
    const whose = { who: T("seat_of", { name: names[p.seat], seat: p.seat }), figures: figures(p) };
    who.textContent = p.winner ? T("winner", whose) : T("loser", whose);
    const ul = document.createElement("ul"); ul.className = "items";
    if (p.completed && data.win) {
      // A set written concealed, shown exposed: the discard completed it.
      const li = document.createElement("li");
      li.textContent = `${p.completed}: ${(said.completed || [""])[0]}`;       // the library's words
      ul.append(li);
    }
    for (const i of p.items) {
      const li = document.createElement("li");
      const value = i.limit ? (i.limit === 1 ? T("limit_once") : T("limit_times", { n: i.limit })) : i.doubles ? T("doubles", { n: i.doubles }) : `${i.points}`;
      li.textContent = i.applies_to ? T("item_for", { text: i.text, whose: i.applies_to, value }) : T("item", { text: i.text, value });
      ul.append(li);
    }
    det.append(who, ul);
  }
  if (inTurn.length) parts.push(det);          // a draw has no scores to break down
  return parts;
}

async function showHand(n) {
  // The hand just settled, at the top of the Table view, with the next deal in the library's
  // words; false when it could not be fetched (it is fetched again: `retrying`).
  if (n !== S.resultWanted) return true;          // another hand settled meanwhile: that one is wanted
  const { status, data } = await call("GET", `/api/hands/${n}`);
  if (status === 404) return true;               // taken back meanwhile: the next status says so
  if (status !== 200) return false;
  if (n !== S.resultWanted) return true;
  showResult(data);
  S.resultShown = n;
  return true;
}

function showResult(data) {
  // The settled hand, compact above the next hand's entry so that the keypad is in view without a
  // swipe: its title and who pays whom (each penalty too) open; the nets and totals, the next deal
  // in the library's words and how each score was made one tap away.
  const box = $("result");
  const parts = handResult(data, true);
  const is = (el, cls) => el.classList.contains(cls);
  const table = parts.find((el) => is(el, "scroll")), breakdown = parts.find((el) => is(el, "breakdown"));
  const shown = parts.filter((el) => el !== table && el !== breakdown && !is(el, "pays"));
  const pays = parts.filter((el) => is(el, "pays"));
  if (pays.length) {
    // Who pays whom as one run of sentences that wraps, not a line each: two lines, not six.
    const paid = document.createElement("ul");
    paid.className = "paid";
    for (const p of pays) { const li = document.createElement("li"); li.className = "pays"; money(li, p.textContent); paid.append(li); }
    shown.splice(1, 0, paid);
  }
  const rest = table ? [table] : [];
  const nx = S.status && S.status.next;
  if (nx) rest.push(hint(nx.text));
  if (breakdown) {
    // Open under the one tap: the breakdown is what a player opens the rest for.
    const h = document.createElement("h3"); h.textContent = T("how_made");
    rest.push(h, ...[...breakdown.children].filter((el) => el.tagName !== "SUMMARY"));
  }
  const more = document.createElement("details");
  more.className = "more";
  const sum = document.createElement("summary");
  sum.textContent = table && breakdown ? T("nets_totals_breakdowns") : table ? T("nets_totals")
    : breakdown ? T("how_made") : T("the_next_deal");
  more.append(sum, ...rest);
  // Drawn again for the same hand (a hand corrected, a total changed), the rest stays as the
  // player left it; a new hand's result starts folded.
  const same = UI.result.hand === data.hand;
  // Settled or taken back since this page was drawn (the result a page opens on moves nothing).
  const settled = !same && !(UI.result.hand === null && data.hand === UI.firstHands);
  more.open = same && UI.result.open;
  UI.result = { hand: data.hand, open: more.open };
  more.addEventListener("toggle", () => { if (UI.result.hand === data.hand) UI.result.open = more.open; });
  box.replaceChildren(...shown, more);
  box.hidden = false;
  if (settled) backToTheEntry();
}

function backToTheEntry() {
  // After a settle the next hand's entry comes back into view for a player who scrolled down to
  // press Settle; one reading another view (or just watching) stays where they are.  Looked at
  // once the page is drawn for the new hand (render() runs after this, in the same task).
  if (S.tab !== "table") return;
  requestAnimationFrame(() => {
    const entry = S.mode === "score" ? $("keypad") : $("palette");
    if (S.tab !== "table" || $("mine").hidden || !entry.getClientRects().length) return;
    // The result's title and the whole entry below it in view (the browser keeps Settle where it
    // was as the result grows above it, which leaves the title out): nothing moves if they are.
    const bar = $("bar").getBoundingClientRect().bottom, at = entry.getBoundingClientRect();
    const from = $("result").getBoundingClientRect().top;
    if (from >= bar && at.bottom <= innerHeight) return;
    // The least scroll that shows the entry whole, but never past the result's title.
    const whole = at.bottom + scrollY + 8 - innerHeight, title = from + scrollY - bar - 8;
    scrollTo({ top: Math.max(0, Math.min(whole, title)) });
  });
}

// -- the evening's hands, and correcting one ---------------------------------------------------

async function evening() {
  if (!S.evening) {
    const { status, data } = await call("GET", "/api/evening");
    if (status !== 200) return null;
    S.evening = data;
  }
  return S.evening;
}

async function showHands() {
  const data = await evening();
  if (!data) return false;
  $("hands-title").textContent = T("hands_count", { n: data.hands.length });
  const list = $("hands");
  if (!data.hands.length) { list.replaceChildren(hint(T("no_hand_yet"))); return; }
  list.replaceChildren(...data.hands.map((h, k) => [h, data.said.hands[k]]).reverse().map(([h, outcome]) => {
    const li = document.createElement("li");
    const det = document.createElement("details");
    det.dataset.hand = h.hand;
    const sum = document.createElement("summary");
    const what = document.createElement("span");
    const head = document.createElement("span"); head.textContent = T("hand_line", { hand: h.hand, dealer: h.dealer, outcome });
    const nets = document.createElement("span"); nets.className = "nets";
    const net = (h.settlement && h.settlement.net) || {};
    // The players in one order all evening (the header's), so each finds their own net in one place.
    const seatOf = Object.fromEntries(SEATS.map((seat) => [h.names[seat], seat]));
    nets.textContent = data.players.map((name) => `${name} ${signed(net[seatOf[name]] || 0)}`).join(" · ");
    what.append(head, nets);
    sum.append(what);
    const body = document.createElement("div");
    det.append(sum, body);
    det.addEventListener("toggle", () => { if (det.open && !body.childElementCount) openHand(h.hand, body); });
    li.append(det);
    return li;
  }));
  reopenConfirmed();
  return true;
}

async function openHand(n, body) {
  const { status, data } = await call("GET", `/api/hands/${n}`);
  if (status !== 200) { body.replaceChildren(hint(T("hand_unread", { hand: n }))); return; }
  const fix = button(T("correct_hand", { hand: n }), () => correctForm(n, body, fix));
  // A correction just saved is confirmed here, above the hand as it is now, until the player
  // moves on (another view, or another hand's correction).
  const done = S.confirmed && S.confirmed.hand === n ? [para("check ok", S.confirmed.text)] : [];
  if (done.length) done[0].setAttribute("role", "status");
  body.replaceChildren(...done, ...handResult(data, false), fix);
}

function reopenConfirmed() {
  // The Hands view drawn again (every phone's evening changed): the hand just corrected stays open.
  if (!S.confirmed || S.tab !== "hands") { S.confirmed = null; return; }
  const det = document.querySelector(`details[data-hand="${S.confirmed.hand}"]`);
  if (det && !det.open) det.open = true;
}

async function correctForm(n, body, opener) {
  // The hand's text as the file holds it, to change and save: the hands after it are played
  // again, and every phone is told which totals changed.
  const { status, data } = await call("GET", `/api/hands/${n}/text`);
  if (status !== 200) return;
  S.confirmed = null;
  let version = data.version;     // the hand as this correction began from: another correction first is a 409
  const form = document.createElement("form");
  form.className = "correct";
  const label = document.createElement("label");
  label.textContent = T("hand_as_held", { hand: n, seats: SEATS.map((s) => `${s} ${data.seats[s]}`).join(", ") });
  const area = document.createElement("textarea");
  area.rows = Math.min(10, data.text.split("\n").length + 1);
  area.value = data.text;
  area.id = `correct-${n}`;
  label.htmlFor = area.id;
  label.style.display = "block";
  const said = para("check", "");
  said.setAttribute("role", "status");
  const save = document.createElement("button"); save.type = "submit"; save.className = "go"; save.textContent = T("save_correction");
  const cancel = button(T("cancel"), () => { form.remove(); opener.hidden = false; });
  const row = document.createElement("div"); row.className = "row wrap"; row.append(save, cancel);
  form.append(label, area, row, said);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (save.disabled) return;                  // one correction on its way at a time
    save.disabled = true;
    const typed = area.value;
    const r = await call("PUT", `/api/hands/${n}`, { text: typed, version, by: me() });
    save.disabled = false;
    if (r.status === 200) {
      const moved = Object.entries(r.data.changed).map(([who, c]) => `${who} ${c.before} → ${c.after}`);
      S.confirmed = { hand: n, text: moved.length ? T("corrected_moved", { hand: n, moved: moved.join(", ") }) : T("corrected_same", { hand: n }) };
      S.evening = null; poll(); await showHands();
      return;
    }
    said.className = "check bad";
    said.textContent = r.data && r.data.error ? r.data.error.message : T("not_corrected", { hand: n });
    if (r.status === 409) {
      const now = await call("GET", `/api/hands/${n}/text`);
      if (now.status === 200 && now.data.version !== version) {
        if (now.data.text.trim() === typed.trim()) {
          // It is as typed: this correction's own first try, whose answer was lost.
          S.confirmed = { hand: n, text: T("corrected", { hand: n }) };
          S.evening = null; poll(); await showHands();
          return;
        }
        // Corrected by someone else first: the hand as it is now, to correct again from there.
        area.value = now.data.text; version = now.data.version;
      }
    }
  });
  opener.hidden = true;
  body.append(form);
  area.focus();
}

// -- standings ---------------------------------------------------------------------------------

async function showStandings() {
  const data = await evening();
  if (!data) return false;
  const parts = [];
  const h = document.createElement("h2"); h.textContent = T("standings_after", { n: data.hands.length });
  parts.push(h);
  if (data.hands.length) parts.push(chart(data));
  const stake = data.stake || null;
  parts.push(figuresTable([T("player"), T("total"), T("won_or_lost")],
    data.standings.map((s, i) => [`${i + 1}. ${s.name}`, s.total, data.said.standings[i]]), [1, 2]));
  const settle = document.createElement("h2"); settle.textContent = T("settle_up");
  parts.push(settle);
  if (stake) parts.push(para("small", T("a_point_is", { money: data.said.stake })));
  if (data.settle_up === null) parts.push(hint(data.settle_up_note));
  else if (!data.settle_up.length) parts.push(hint(T("nobody_owes")));
  else for (const line of data.said.settle_up) { const p = para("pays", ""); money(p, line); parts.push(p); }
  if (data.next) parts.push(hint(data.next.text));
  parts.push(...await figuresOfEach());
  $("standings").replaceChildren(...parts);
}

async function figuresOfEach() {
  // Each player's figures of the evening (GET /api/stats: what `mjscore session --stats` prints).
  const { status, data } = await call("GET", "/api/stats");
  if (status !== 200 || !data.players.length) return [];
  const h = document.createElement("h2"); h.textContent = T("figures_of_each");
  const ps = data.players;
  const head = (text) => { const x = document.createElement("h3"); x.textContent = text; return x; };
  const biggest = (b) => !b ? ["–", T("no_hand_won")] : [b.score, b.limit ? T("hand_n_limit", { hand: b.hand, limit: b.limit }) : T("hand_n", { hand: b.hand })];
  const limits = ps.flatMap((p) => Object.entries(p.limit_hands).map(([name, n]) => `${p.name}: ${n > 1 ? T("times", { name, n }) : name}`));
  return [h,
    head(T("won")), figuresTable([T("player"), T("hands"), T("self_drawn_col"), T("on_a_discard")],
      ps.map((p) => [p.name, p.hands_won, p.won_self_drawn, p.won_on_discard]), [1, 2, 3]),
    head(T("played")), figuresTable([T("player"), T("hands"), T("dealt"), T("draws")], ps.map((p) => [p.name, p.hands, p.dealt, p.draws]), [1, 2, 3]),
    head(T("biggest_hand")), figuresTable([T("player"), T("score"), T("which")], ps.map((p) => [p.name, ...biggest(p.biggest_hand)]), [1]),
    para("small", limits.length ? T("limit_hands", { hands: limits.join("; ") }) : T("no_limit_hands")),
    head(T("penalties_and_all")), figuresTable([T("player"), T("paid"), T("received"), T("paid_for_all")],
      ps.map((p) => [p.name, p.penalties_paid, p.penalties_received, p.paid_for_all]), [1, 2, 3])];
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) { const el = document.createElementNS(SVG, tag); for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v)); return el; }

function marker(shape, x, y, r) {
  if (shape === "circle") return svg("circle", { cx: x, cy: y, r });
  if (shape === "square") return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r });
  if (shape === "triangle") return svg("polygon", { points: `${x},${y - r * 1.2} ${x - r * 1.1},${y + r * .8} ${x + r * 1.1},${y + r * .8}` });
  return svg("polygon", { points: `${x},${y - r * 1.3} ${x + r * 1.3},${y} ${x},${y + r * 1.3} ${x - r * 1.3},${y}` });
}

function chart(data) {
  // The running totals, drawn here: a line, a marker shape and a name for each player (as the
  // terminal chart has them), so no colour is needed to tell the players apart.  Drawn at the
  // size it is shown, a unit a CSS pixel, its margins as wide as its words at the phone's text
  // size: larger text gives larger words, never words cut at the edge or run together.
  const players = data.players;
  const series = players.map((name) => [data.start, ...data.hands.map((h) => h.totals[name])]);
  const all = series.flat();
  let lo = Math.min(...all), hi = Math.max(...all);
  if (lo === hi) { lo -= 100; hi += 100; }
  const em = 0.8 * parseFloat(getComputedStyle(document.documentElement).fontSize);    // .chart text is .8rem
  const card = $("standings"), pad = parseFloat(getComputedStyle(card).paddingLeft) || 0;
  const W = card.clientWidth > 4 * pad ? Math.floor(card.clientWidth - 2 * pad) : 360;
  const H = Math.round(Math.max(W * 0.6, em * 12));
  const wide = textWidth(em);
  const n = series[0].length - 1;
  const top = em, bottom = em * 2, inset = em * 0.6;
  let step = niceStep(hi - lo);
  while ((step * (H - top - bottom)) / (hi - lo) < em * 1.6) step *= 2;      // a label's height apart, at least
  const marks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) marks.push(v);
  const left = Math.ceil(Math.max(...marks.map((v) => wide(String(v))))) + em * 0.5;
  // A name longer than a third of the chart is shortened there; the chart's name says it whole.
  const short = (name) => { let s = name; while (s.length > 1 && wide(s) > W / 3) s = s.slice(0, -1); return s === name ? s : s + "…"; };
  const right = Math.ceil(Math.max(...players.map((p) => wide(short(p))))) + em * 0.6;
  const x = (i) => left + inset + (n ? (i * (W - left - right - inset * 2)) / n : 0);
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img" });
  box.style.fontSize = `${em}px`;       // the size it was measured at, should the text size change after
  const words = players.map((name, k) => `${name} (${T(SHAPES[k])}) ${series[k][n]}`).join(", ");
  box.setAttribute("aria-label", T("running_totals_after", { totals: words }));
  const title = svg("title", {}); title.textContent = T("running_totals", { totals: words });
  box.append(title);
  for (const v of marks) {
    box.append(svg("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: "grid" }));
    const t = svg("text", { x: left - em * 0.3, y: y(v) + em * 0.35, "text-anchor": "end" }); t.textContent = String(v); box.append(t);
  }
  box.append(svg("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "axis" }));
  // The hands' numbers under the axis, as many as fit side by side.
  const fit = Math.max(1, Math.floor((W - left - right - inset * 2) / (wide(String(n)) + em)));
  const ticks = Math.max(1, Math.ceil(n / fit));
  for (let i = 0; i <= n; i += ticks) { const t = svg("text", { x: x(i), y: H - em * 0.5, "text-anchor": "middle" }); t.textContent = String(i); box.append(t); }
  const colours = ["var(--c1)", "var(--c2)", "var(--c3)", "var(--c4)"];
  const dashes = ["", "6 3", "2 3", "8 3 2 3"];
  const ends = [];
  series.forEach((values, k) => {
    const g = svg("g", { fill: colours[k], stroke: colours[k] });
    g.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", "stroke-width": 2,
                               "stroke-dasharray": dashes[k] }));
    const every = Math.max(1, Math.ceil(n / 12));
    values.forEach((v, i) => { if (i % every === 0 || i === n) g.append(marker(SHAPES[k], x(i), y(v), em * 0.28)); });
    box.append(g);
    ends.push({ k, y: y(values[n]) });
  });
  // Each name at the end of its line, moved apart where two lines end close together (and up
  // from the axis's numbers, where they would run into them).
  ends.sort((a, b) => a.y - b.y);
  const apart = em * 1.15;
  for (let i = 1; i < ends.length; i++) if (ends[i].y - ends[i - 1].y < apart) ends[i].y = ends[i - 1].y + apart;
  const over = ends.length ? ends[ends.length - 1].y - (H - bottom) : 0;
  if (over > 0) for (const e of ends) e.y = Math.max(top, e.y - over);
  for (const e of ends) {
    const t = svg("text", { x: W - right + em * 0.45, y: e.y + em * 0.35 }); t.textContent = short(players[e.k]); box.append(t);
  }
  return box;
}

function textWidth(em) {
  // How wide a word is drawn in the chart's text (measured on a canvas, in the page's font).
  if (!UI.measure) UI.measure = document.createElement("canvas").getContext("2d");
  UI.measure.font = `${em}px ${getComputedStyle(document.body).fontFamily}`;
  return (word) => UI.measure.measureText(word).width;
}

function niceStep(span) {
  const raw = span / 5, mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

// -- the rules in force ------------------------------------------------------------------------

async function showRules() {
  const { status, data } = await call("GET", "/api/rules");
  if (status !== 200) return false;
  const parts = [];
  const h = document.createElement("h2"); h.textContent = T("scheme_title", { title: data.title, scheme: data.scheme });
  parts.push(h, para("small", data.description));
  if (data.base) {
    const b = document.createElement("h3"); b.textContent = T("changes_from", { scheme: data.file || data.scheme, base: data.base });
    parts.push(b);
    if (!data.changes.length) parts.push(hint(T("no_changes")));
    else parts.push(figuresTable([T("what"), data.base, T("here")], data.changes.map((c) => [c.what, c.base, c.here]), []));
  }
  const t = document.createElement("h3"); t.textContent = T("settings");
  parts.push(t, para("small", T("starts_with", { start: data.start })));
  const dl = document.createElement("dl"); dl.className = "settings";
  for (const s of data.settings) {
    const dt = document.createElement("dt"); dt.textContent = s.word; dt.title = s.help;
    const dd = document.createElement("dd"); dd.textContent = `${s.value}${s.given ? " ★" : ""}`;
    dl.append(dt, dd);
  }
  parts.push(dl);
  $("rules").replaceChildren(...parts);
}

// -- small helpers -----------------------------------------------------------------------------

function me() { return S.me && S.me !== "-" ? S.me : null; }    // who a change is said to be by (a watcher: nobody named)
function button(text, onClick) { const b = document.createElement("button"); b.type = "button"; b.textContent = text; b.addEventListener("click", onClick); return b; }
function pressed(b, on) { b.setAttribute("aria-pressed", String(!!on)); return b; }
function hint(text) { const p = document.createElement("p"); p.className = "hint"; p.textContent = text; return p; }
function signed(n) { return n > 0 ? `+${n}` : `${n}`; }
function put(el, text) {
  // Text written only when it changed: a live region (the deal) is not read out again on every
  // poll, and the element keeps its place under a finger.
  if (el.textContent !== text) el.textContent = text;
}
function money(el, text) {
  // A figure or a sentence with money in brackets ("+504 (EUR +25.20)"): the brackets kept on
  // one line, so that large text breaks the line before the money, never inside it.
  el.replaceChildren(...text.split(/(\([^()]{1,24}\))/).filter(Boolean).map((part) => {
    if (!/^\(.*\)$/.test(part)) return part;
    const s = document.createElement("span"); s.className = "together"; s.textContent = part; return s;
  }));
}
function figuresTable(heads, rows, numbers) {
  // A small table; the columns in `numbers` are figures, set to the right.  Each cell carries its
  // column's name: where the table is too wide for the phone (large text, a narrow screen), each
  // row is laid out on lines of its own, each figure after its name (page.css), not cut.
  const t = document.createElement("table"); t.className = `figures cols-${heads.length}`;
  const tr = t.createTHead().insertRow();
  heads.forEach((h, i) => { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; if (numbers.includes(i)) th.className = "n"; tr.append(th); });
  const body = t.createTBody();
  for (const row of rows) {
    const r = body.insertRow();
    row.forEach((v, i) => {
      const td = r.insertCell();
      td.dataset.label = heads[i];
      if (numbers.includes(i)) { td.className = "n"; money(td, String(v)); } else td.textContent = String(v);
    });
  }
  const box = document.createElement("div"); box.className = "scroll";
  box.append(t);
  return box;
}

// -- wiring ------------------------------------------------------------------------------------

function wire() {
  const tabs = [...document.querySelectorAll("[data-tab]")];
  for (const b of tabs) b.addEventListener("click", () => choose(b.dataset.tab));
  $("tabs").addEventListener("keydown", (ev) => {
    // WAI-ARIA's tabs: Left and Right (round the ends), Home and End move to a tab and open it.
    const at = tabs.indexOf(ev.target);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[ev.key];
    if (at < 0 || to === undefined || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    const b = tabs[(to + tabs.length) % tabs.length];
    choose(b.dataset.tab);
    b.focus();
  });
  const pad = $("keypad");
  for (const k of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "nothing", "0", "back"]) {
    const b = button(k === "nothing" ? T("nothing_key") : k === "back" ? "⌫" : k, () => key(k));
    b.dataset.key = k;
    if (k === "nothing") { b.className = "word"; b.setAttribute("aria-pressed", "false"); }
    if (k === "back") b.setAttribute("aria-label", T("delete_digit"));
    pad.append(b);
  }
  document.addEventListener("keydown", (ev) => {
    // Digits typed on a keyboard go to the score too, unless a field of its own has the focus.
    const t = ev.target;
    if (S.tab !== "table" || !S.seat || S.mode !== "score" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) return;
    if (/^[0-9]$/.test(ev.key)) { key(ev.key); ev.preventDefault(); }
    else if (ev.key === "Backspace") { key("back"); ev.preventDefault(); }
  });
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
    if (!confirm(held.length ? T("draw_lines", { hand, whose }) : T("draw_sure", { hand }))) return;
    if (held.length) {
      const { status, data } = await call("DELETE", `/api/drafts?hand=${hand}`);
      if (status !== 200) { $("submit-error").textContent = data && data.error ? data.error.message : T("draw_lost"); return; }
    }
    submit(true); });
  $("undo").addEventListener("click", async () => {
    const last = S.status.hands;
    if (!last || !confirm(T("undo_sure", { hand: last }))) return;
    const { status, data } = await call("DELETE", `/api/hands/last?hand=${last}&by=${encodeURIComponent(me() || "")}`);
    $("submit-error").textContent = status === 200 ? "" : data && data.error ? data.error.message : T("undo_lost", { hand: last });
    S.version = ""; await poll(); });
  $("penalty").addEventListener("click", () => {
    // The form starts empty each time: no amount is kept from the last penalty.
    const form = $("penalty-form");
    const names = SEATS.map((s) => S.status.next.seats[s]);
    $("pen-payer").replaceChildren(...names.map((n) => new Option(n, n)));
    $("pen-payee").replaceChildren(new Option(T("each_other"), ""), ...names.map((n) => new Option(n, n)));
    $("pen-amount").value = "";
    $("pen-error").textContent = "";
    form.hidden = !form.hidden;
    if (!form.hidden) $("pen-amount").focus(); });
  $("penalty-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("pen-error").textContent = "";
    const typed = $("pen-amount").value.trim();
    if (!/^[1-9][0-9]{0,8}$/.test(typed)) { $("pen-error").textContent = T("penalty_whole"); return; }
    const amount = Number(typed);
    const limit = S.status.limit;
    if (limit && amount > limit && !confirm(T("penalty_over", { amount, limit }))) return;
    const payer = $("pen-payer").value, payee = $("pen-payee").value || null;
    if (payer === payee) { $("pen-error").textContent = T("penalty_self"); return; }
    const { status, data } = await call("POST", "/api/penalties", { hand: S.status.hand, from: payer, amount, to: payee, by: me() });
    if (status !== 200) { $("pen-error").textContent = data && data.error ? data.error.message : T("penalty_lost"); return; }
    $("pen-amount").value = "";
    $("pen-error").textContent = "";
    $("penalty-form").hidden = true;
    S.version = ""; await poll(); });
  $("who").addEventListener("click", () => { localStorage.removeItem("mj_me"); S.me = null; render(); });
  $("pick-watch").addEventListener("click", () => setMe("-"));
  buildPalette();
  // Each phone its own language: the choice is a cookie the phone keeps (a year), which the server
  // reads before the browser's Accept-Language; the page comes again in it.
  const lang = $("lang");
  for (const [code, name] of Object.entries(WORDS.languages)) {
    const o = document.createElement("option");
    o.value = code; o.textContent = name; o.lang = code; o.selected = code === WORDS.lang;
    lang.append(o);
  }
  lang.addEventListener("change", () => {
    document.cookie = `${lang.dataset.cookie}=${lang.value}; Path=/; Max-Age=31536000; SameSite=Strict`;
    location.reload();
  });
}

function words() {
  // The page's frame in the page's words: an element names its word (data-w), its label's
  // (data-w-label) and its title's (data-w-title).
  document.documentElement.lang = WORDS.lang;
  for (const el of document.querySelectorAll("[data-w]")) el.textContent = T(el.dataset.w);
  for (const el of document.querySelectorAll("[data-w-label]")) el.setAttribute("aria-label", T(el.dataset.wLabel));
  for (const el of document.querySelectorAll("[data-w-title]")) el.title = T(el.dataset.wTitle);
}

words();
wire();
// The phone's own network gone: its waiting request will not be answered, so it fails now (the
// banner says so at once); back, it asks at once.
window.addEventListener("offline", () => { if (NET.abort) NET.abort(); });
window.addEventListener("online", poll);
if (!document.body.dataset.night) statusLoop();    // a night's phone picks its table first (night.js)
setInterval(showOffline, 1000);         // the banner's countdown
