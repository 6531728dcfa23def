// A night of several tables on one address (`mjscore serve NIGHT`), only on a night's page, and
// run before page.js: what it adds to the page (the table picker, the Night tab and its view) is
// there when page.js writes the page's words in and wires its tabs.  The phone picks its table
// first and keeps it, as it keeps its name.  Plain script, nothing from any other host.
"use strict";

function made(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}
document.querySelector("#tabs [role=tablist]").append(made("button", {
  role: "tab", id: "tab-night", "data-tab": "night", "aria-controls": "panel-night", "aria-selected": "false",
  "data-w": "tab_night" }));
document.querySelector("main").append(made("section", {
  id: "panel-night", "data-panel": "night", role: "tabpanel", "aria-labelledby": "tab-night", tabindex: "0",
  hidden: "" }, made("div", { id: "night", class: "card" })));
document.getElementById("pick").after(made("section", { id: "pick-table", hidden: "" },
  made("h2", { "data-w": "which_table" }), made("div", { id: "table-names", class: "names" })));
document.getElementById("pick").append(made("button", {
  id: "pick-other-table", class: "link", type: "button", "data-w": "another_table" }));

async function nightStart() {
  // The night's tables (asked again until they come); a phone that picked one before keeps it.
  let tries = 0, list = null;
  while (!list) {
    const r = await call("GET", "/api/tables");
    if (r.status === 200 && r.data) list = r.data.tables;
    else await new Promise((done) => setTimeout(done, backoff(++tries)));
  }
  if (S.table && list.some((t) => t.table === S.table)) { statusLoop(); return; }
  S.table = null;
  $("pick-table").hidden = false;
  $("table-names").replaceChildren(...list.map((t) => {
    const b = button("", () => chooseTable(t));
    const who = document.createElement("small"); who.textContent = t.players.join(", ");
    b.append(t.table, document.createElement("br"), who);
    return b;
  }));
}

function chooseTable(t) {
  // One tap: the table is this phone's; its name is asked next (kept if the player sits at this table).
  S.table = t.table; localStorage.setItem("mj_table", t.table);
  if (S.me && S.me !== "-" && !t.players.includes(S.me)) { S.me = null; localStorage.removeItem("mj_me"); }
  $("pick-table").hidden = true;
  statusLoop();
}

async function showNight() {
  // Every table's standings and the night's, and who pays whom across the tables (GET /api/night).
  const { status, data } = await call("GET", "/api/night");
  if (status !== 200 || !data) return false;
  const head = (tag, text) => { const x = document.createElement(tag); x.textContent = text; return x; };
  const parts = [head("h2", T("night_title"))];
  if (data.stake) parts.push(para("small", T("a_point_is", { money: data.said.stake })));
  parts.push(figuresTable([T("player"), T("won_or_lost"), T("tables_col")],
    data.standings.map((s, i) => [`${i + 1}. ${s.name}`, data.said.standings[i], s.tables.join(", ")]), [1]));
  parts.push(head("h2", T("night_settle_up")));
  if (!data.settle_up.length) parts.push(hint(T("nobody_owes")));
  for (const line of data.said.settle_up) { const p = para("pays", ""); money(p, line); parts.push(p); }
  for (const note of data.notes || []) parts.push(hint(note));
  data.tables.forEach((t, k) => {
    parts.push(head("h3", T("table_after", { table: t.table, n: t.hands })));
    parts.push(figuresTable([T("player"), T("total"), T("won_or_lost")],
      t.standings.map((s, i) => [`${i + 1}. ${s.name}`, s.total, data.said.tables[k].standings[i]]), [1, 2]));
  });
  $("night").replaceChildren(...parts);
  return true;
}

document.addEventListener("DOMContentLoaded", () => {
  // page.js has run: every call of the page names the phone's table, its path under
  // /api/tables/TABLE/ (the night's own, /api/tables and /api/night, as they are).
  S.table = localStorage.getItem("mj_table");
  const fetchAny = window.fetch.bind(window);
  window.fetch = (path, init) => fetchAny(typeof path === "string" && S.table && path.startsWith("/api/")
    && !/^\/api\/(night|tables)(\?|$)/.test(path) ? `/api/tables/${encodeURIComponent(S.table)}/${path.slice(5)}` : path, init);
  $("pick-other-table").addEventListener("click", () => {
    localStorage.removeItem("mj_table"); localStorage.removeItem("mj_me"); location.reload(); });
  // The Night view adds up the other tables too, whose changes this phone's status does not tell:
  // drawn again every 10 s while it is open (the server makes it once per state of the files).
  setInterval(() => { if (S.tab === "night" && !document.hidden) retrying("view", showTab); }, 10000);
  nightStart();
});
