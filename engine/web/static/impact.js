// Rule-change impact: a report of `riichi impact --json` (opened from a file, or run on the sample games) drawn as
// the per-item table, the changed wins with their hands as tiles, the rounds whose course changes and the games.
"use strict";

const $ = (id) => document.getElementById(id);
const MAX_REPORT_BYTES = 50 * 1024 * 1024;

function points(n) {
  return n ? (n > 0 ? "+" : "") + n.toLocaleString("en") : "0";
}

function count(n) {
  return (n || 0).toLocaleString("en");
}

function baseName(file) {
  return String(file || "").split(/[\\/]/).pop();
}

function parseHand(text) {
  // "678m11z chi 345m pon 222z win 6m ron seat S" (the report's hand, as `riichi score` reads it) -> a score
  // request's hand, melds and winning tile, for handPicture.
  const words = String(text || "").trim().split(/\s+/);
  const req = { hand: words[0] || "", melds: [], win: "" };
  for (let i = 1; i < words.length; i++) {
    if (words[i] === "win") { req.win = words[++i] || ""; req.how = words[++i] || ""; }
    else if (words[i] === "seat") req.seat = words[++i] || "";
    else if (/^[0-9]+[mpsz]/.test(words[i + 1] || "")) req.melds.push({ type: words[i], tiles: words[++i] });
  }
  return req;
}

function resultWords(side) {
  if (!side || !side.ok) return "not a win (" + ((side && side.error) || "refused") + ")";
  const shape = side.yakuman ? "yakuman ×" + side.yakuman : side.han + " han " + side.fu + " fu";
  return side.total.toLocaleString("en") + " (" + shape + (side.limit ? ", " + side.limit : "") + ")";
}

function sideBox(name, side) {
  const yaku = side && side.ok ? side.yaku.join(", ") : "";
  return el("div", { class: "score-box" }, el("b", { text: name }), " ", el("span", { class: "total", text: side && side.ok ? side.total.toLocaleString("en") : "—" }),
    " " + resultWords(side).replace(/^[\d,]+ /, ""), el("div", { class: "muted", text: yaku }));
}

function charged(item) {
  return Boolean(item.wins || item.rounds_course_changed || item.rounds_diverged);
}

function cell(text, num) {
  return el("td", { class: num ? "num" : "", text: String(text) });
}

function itemTable(report) {
  const head = ["item", "rounds", "wins", "points to winners", "wins no longer legal", "rounds changing course", "rounds diverging"];
  const rows = report.items.filter(charged).map((item) => el("tr", {},
    el("td", {}, el("code", { text: item.item })), cell(count(item.rounds), true), cell(count(item.wins), true),
    cell(points(item.points_to_winners), true), cell(count(item.illegal_wins), true),
    cell(count(item.rounds_course_changed), true), cell(count(item.rounds_diverged), true)));
  if (report.unattributed_wins) rows.push(el("tr", {}, cell("(no single item)"), cell(""), cell(count(report.unattributed_wins), true), cell(""), cell(""), cell(""), cell("")));
  if (report.points_interaction) rows.push(el("tr", {}, cell("(items acting together)"), cell(""), cell(""), cell(points(report.points_interaction), true), cell(""), cell(""), cell("")));
  if (!rows.length) rows.push(el("tr", {}, el("td", { colspan: "7", class: "muted", text: "No item changes any of these rounds." })));
  const table = el("table", { class: "lines impact-table", id: "impact-table" },
    el("thead", {}, el("tr", {}, ...head.map((h, i) => el("th", { class: i ? "num" : "", text: h })))), el("tbody", {}, ...rows));
  return el("div", { class: "scroll" }, table);
}

function winCard(report, win) {
  const req = parseHand(win.hand);
  const where = baseName(win.file) + " · " + win.round + " · seat " + win.seat + (req.how ? " · " + req.how : "");
  const charges = (win.items || []).map((c) => c.item + " " + points(c.delta) + (c.alone ? "" : " (with others)")).join("; ");
  return el("article", { class: "card change win-card" },
    el("div", { class: "muted", text: where }),
    req.win ? handPicture(req) : el("code", { text: win.hand }),
    el("div", { class: "both" }, sideBox("before (" + report.a + ")", win.a), sideBox("after (" + report.b + ")", win.b)),
    el("div", { class: "difference", text: win.illegal ? "no longer a legal win under " + report.b : "winner " + points(win.delta) }),
    charges ? el("div", { class: "clause", text: "charged to: " + charges }) : null);
}

function roundLine(r) {
  return el("li", {}, el("b", { text: baseName(r.file) + " " + r.round + ": " }), r.text || "");
}

function itemSection(report, item) {
  const wins = (item.examples || []).map((w) => winCard(report, w));
  const rounds = (item.round_examples || []).map(roundLine);
  return el("section", { class: "panel impact-item" },
    el("h3", {}, el("code", { text: item.item }), " ", el("span", { class: "badge", text: item.change })),
    wins.length ? el("div", { class: "results" }, ...wins) : null,
    rounds.length ? el("div", {}, el("h4", { text: "rounds whose course changes" }), el("ul", { class: "rounds" }, ...rounds)) : null);
}

function gamesSection(report) {
  const g = report.games || {};
  const parts = [el("h2", { text: "Games" }),
    el("p", { id: "impact-games", text: count(g.total) + " games; " + count(g.compared) + " compared to the end; final placements change in " +
      count(g.placement_changed) + "; " + count(g.diverged) + " diverge (the comparison stops at the round named); " + count(g.left_out) + " left out." })];
  const moved = (g.examples || []).map((x) => el("li", {}, el("b", { text: baseName(x.file) + ": " }),
    "places " + x.placements_a.join(", ") + " → " + x.placements_b.join(", ") + " (final scores " + x.scores_a.map(count).join(", ") + " → " + (x.scores_b || []).map(count).join(", ") + ")"));
  if (moved.length) parts.push(el("h4", { text: "placements that change" }), el("ul", {}, ...moved));
  const stops = (g.diverged_examples || []).map((x) => el("li", {}, el("b", { text: baseName(x.file) + ": " }), "stops at " + x.where));
  if (stops.length) parts.push(el("h4", { text: "diverging games" }), el("ul", { id: "impact-diverged" }, ...stops));
  const out = (g.left_out_examples || []).map((x) => el("li", {}, el("b", { text: baseName(x.file) + ": " }), "left out, " + x.where));
  if (out.length) parts.push(el("h4", { text: "games left out" }), el("ul", {}, ...out));
  return el("section", { class: "panel" }, ...parts);
}

function leftOutSection(report) {
  const rows = [...(report.left_out || []).map((e) => el("li", {}, el("b", { text: baseName(e.file) + " " + e.round + ": " }), e.reason)),
    ...(report.unreadable || []).map((e) => el("li", {}, el("b", { text: baseName(e.file) + ": " }), "unreadable, " + e.error))];
  if (!rows.length) return null;
  return el("section", { class: "panel" }, el("h2", { text: "Left out" }),
    el("p", { class: "muted", text: count(report.rounds_left_out) + " rounds " + report.a + " does not reproduce, " + count(report.unreadable_files) + " unreadable files" }),
    el("ul", {}, ...rows));
}

function looksLikeReport(data) {
  return data && typeof data === "object" && typeof data.a === "string" && typeof data.b === "string" && Array.isArray(data.items) && typeof data.rounds === "number";
}

function render(report) {
  const out = $("impact-result");
  if (!looksLikeReport(report)) {
    out.replaceChildren(errorBox({ error: { code: "invalid_request", message: "this is not a report of `riichi impact --json` (it needs a, b, rounds and items)" } }));
    return;
  }
  const summary = report.a + " → " + report.b + ": " + count(report.files) + " files, " + count(report.rounds) + " rounds, " + count(report.wins) +
    " wins re-scored; " + count(report.changed_rounds) + " rounds change (" + points(report.points_to_winners) + " points to winners); " +
    count(report.illegal_wins) + " wins not legal under " + report.b + "; " + count(report.rounds_left_out) + " rounds left out.";
  const resettled = report.rounds_resettled || {};
  const flow = resettled.files ? el("p", { class: "muted", text: "Rounds re-settled through the round engine: " + count(resettled.compared) + " compared, " +
    count(resettled.changed) + " settle otherwise, " + count(resettled.course_changed) + " change course, " + count(resettled.diverged) + " diverge from the log." }) : null;
  const quiet = report.items.filter((i) => !charged(i) && i.affects_score).map((i) => i.item);
  const blamed = report.items.filter(charged);
  const parts = [
    el("section", { class: "panel" }, el("h2", { text: "By rule item" }), el("p", { class: "summary", id: "impact-summary", text: summary }),
      report.tiles ? el("p", { class: "muted", id: "impact-tiles", text: "Tiles: " + report.tiles + "." }) : null, itemTable(report), flow,
      quiet.length ? el("p", { class: "muted", text: "No win charged to: " + quiet.join(", ") }) : null),
    ...(blamed.length ? [el("h2", { text: "Changed wins and rounds" }), ...blamed.map((item) => itemSection(report, item))] : []),
    gamesSection(report), leftOutSection(report),
    el("p", { class: "muted", text: "Scope: " + (report.scope || "") })];
  out.replaceChildren(...parts.filter((part) => part != null));
}

async function runSamples() {
  $("impact-status").textContent = "re-settling the sample games…";
  $("impact-run").disabled = true;
  const answer = await api("/impact", { a: $("impact-a").value, b: $("impact-b").value });
  $("impact-run").disabled = false;
  $("impact-status").textContent = "";
  if (!answer.ok) { $("impact-result").replaceChildren(errorBox(answer)); return; }
  render(answer);
}

async function openReport(input) {
  const file = input.files[0];
  if (!file) return;
  if (file.size > MAX_REPORT_BYTES) { $("impact-status").textContent = "that file is larger than " + MAX_REPORT_BYTES + " bytes"; return; }
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (err) {
    $("impact-result").replaceChildren(errorBox({ error: { code: "invalid_request", message: file.name + " is not JSON: " + err.message } }));
    return;
  }
  render(data);
}

function init() {
  rulebookOptions($("impact-a"), PAGE.played_under);
  const other = PAGE.rulebooks.find((r) => r.name !== PAGE.played_under && !r.file);
  rulebookOptions($("impact-b"), other ? other.name : PAGE.played_under);
  $("impact-samples").replaceChildren(...PAGE.samples.flatMap((s, i) => [i ? ", " : "", el("a", { href: s.url, download: s.name, title: s.source, text: s.name.replace(/^sample-/, "") })]));
  $("impact-run").addEventListener("click", runSamples);
  $("impact-upload").addEventListener("change", (e) => openReport(e.target));
  const params = new URLSearchParams(location.search);
  if (params.get("a")) $("impact-a").value = params.get("a");
  if (params.get("b")) $("impact-b").value = params.get("b");
  if (params.get("a") && params.get("b")) runSamples();
}

init();
