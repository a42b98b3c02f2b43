// Score a hand: pick tiles by tapping them, set the situation, read the breakdown (under two rulebooks if asked).
"use strict";

const state = { hand: [], win: null, melds: [], pending: null, dora: [], ura: [], target: "hand" };
const MELD_SIZE = { chi: 3, pon: 3, daiminkan: 4, ankan: 4 };
const $ = (id) => document.getElementById(id);

function kindOf(code) { return (code[0] === "0" ? "5" : code[0]) + code[1]; }

function copiesUsed(code) {
  const all = [...state.hand, ...(state.win ? [state.win] : []), ...state.dora, ...state.ura,
    ...state.melds.flatMap((m) => m.tiles), ...(state.pending ? state.pending.tiles : [])];
  return all.filter((c) => kindOf(c) === kindOf(code)).length;
}

function room() { return 13 - 3 * state.melds.length; }

function setTarget(target) {
  state.target = target;
  if (MELD_SIZE[target]) {
    if (!state.pending || state.pending.type !== target) state.pending = { type: target, tiles: [] };
  } else {
    state.pending = null;
  }
  for (const b of document.querySelectorAll("[data-target]")) b.setAttribute("aria-pressed", String(b.dataset.target === target));
  draw();
}

function add(code) {
  if (copiesUsed(code) >= 4) return flash("all four copies of " + tileName(code) + " are already placed");
  if (code[0] === "0" && copiesUsed(code.replace("0", "5")) >= 4) return;
  const t = state.target;
  if (t === "hand") {
    if (state.hand.length >= room()) { setTarget("win"); return add(code); }
    state.hand.push(code);
    if (state.hand.length === room() && !state.win) setTarget("win");
  } else if (t === "win") {
    state.win = code;
  } else if (t === "dora" || t === "ura") {
    if (state[t].length < 5) state[t].push(code);
  } else {
    const p = state.pending;
    p.tiles.push(code);
    if (p.tiles.length === MELD_SIZE[p.type]) {
      state.melds.push(p);
      state.pending = { type: p.type, tiles: [] };
      while (state.hand.length > room()) state.hand.pop();
    }
  }
  draw();
  autoScore();
}

function flash(message) {
  const box = $("result");
  box.replaceChildren(el("p", { class: "notice", text: message }));
}

function draw() {
  const tileButton = (code, remove) => el("button", { type: "button", class: "tile-button", "aria-label": "remove " + tileName(code), onclick: remove }, tileImg(code));
  $("hand").replaceChildren(...sorted(state.hand).map((c) => tileButton(c, () => { state.hand.splice(state.hand.indexOf(c), 1); draw(); autoScore(); })));
  $("hand-count").textContent = state.hand.length + "/" + room();
  $("win").replaceChildren(...(state.win ? [tileButton(state.win, () => { state.win = null; draw(); })] : [el("span", { class: "empty", text: "tap “Winning tile”, then a tile" })]));
  $("melds").replaceChildren(...state.melds.map((m, i) => el("button", { type: "button", class: "meld", "aria-label": "remove " + m.type, onclick: () => { state.melds.splice(i, 1); draw(); autoScore(); } },
    el("span", { class: "meld-type", text: m.type }), ...m.tiles.map((c) => tileImg(c)))));
  $("pending").replaceChildren(...(state.pending && state.pending.tiles.length ? [el("span", { class: "meld-type", text: state.pending.type + "…" }), ...state.pending.tiles.map((c) => tileImg(c))] : []));
  for (const k of ["dora", "ura"]) {
    $(k).replaceChildren(...state[k].map((c, i) => tileButton(c, () => { state[k].splice(i, 1); draw(); autoScore(); })));
  }
}

// The palette follows the chosen rulebook's tile set (its red fives, a three-player game's missing 2m-8m): the
// default rulebook's comes with the page, another's is asked of the server once.
const tileSets = new Map();

async function tileSetOf(name) {
  if (!tileSets.has(name)) {
    let answer;
    try {
      answer = await (await fetch("/tile-set?rulebook=" + encodeURIComponent(name))).json();
    } catch (err) {
      answer = { ok: false, error: { code: "network", message: "the server cannot be reached: " + err } };
    }
    if (!answer.ok) return answer;
    tileSets.set(name, answer);
  }
  return tileSets.get(name);
}

async function drawPalette() {
  const name = $("rulebook").value;
  const found = await tileSetOf(name);
  if ($("rulebook").value !== name) return;  // another rulebook was chosen meanwhile
  if (!found.ok) { $("result").replaceChildren(errorBox(found)); return; }
  $("palette").replaceChildren(...found.tiles.map((code) => el("button", { type: "button", class: "tile-button", "aria-label": "add " + tileName(code), onclick: () => add(code) }, tileImg(code))));
  $("palette").dataset.rulebook = name;
  const taken = keepOnly(new Set(found.tiles));
  draw();
  if (taken.length) flash(taken.length + (taken.length === 1 ? " tile is" : " tiles are") + " not in the tile set of " + name + " and went back: " + taken.map(tileName).join(", "));
  else autoScore();
}

function keepOnly(allowed) {
  // the placed tiles outside a rulebook's tile set go back (a meld holding one goes back whole)
  const taken = [];
  const keep = (code) => allowed.has(code) || (taken.push(code), false);
  state.hand = state.hand.filter(keep);
  if (state.win && !keep(state.win)) state.win = null;
  state.dora = state.dora.filter(keep);
  state.ura = state.ura.filter(keep);
  state.melds = state.melds.filter((m) => m.tiles.filter(keep).length === m.tiles.length);
  if (state.pending) state.pending.tiles = state.pending.tiles.filter(keep);
  return taken;
}

function sorted(codes) { return splitTiles(joinTiles(codes)); }

function request(rulebook) {
  const req = {
    rulebook,
    hand: joinTiles([...state.hand, ...(state.win ? [state.win] : [])]),
    win: state.win || "",
    melds: state.melds.map((m) => ({ type: m.type, tiles: joinTiles(m.tiles) })),
    tsumo: $("tsumo").checked,
    seat_wind: $("seat").value,
    round_wind: $("round").value,
    dora_indicators: joinTiles(state.dora),
    ura_indicators: joinTiles(state.ura),
  };
  for (const box of document.querySelectorAll("[data-flag]")) req[box.dataset.flag] = box.checked;
  for (const input of document.querySelectorAll("[data-counter]")) req[input.dataset.counter] = Number(input.value) || 0;
  // pao: the liable seat, and a ron's discarder (sent only when chosen; a tsumo has no discarder)
  if ($("liable").value) req.liable = $("liable").value;
  if ($("from").value && !req.tsumo) req.from = $("from").value;
  return req;
}

const autoScore = debounce(() => { if (state.win && state.hand.length === room()) score(); }, 150);

async function score() {
  if (!state.win) return flash("choose the winning tile first");
  const a = $("rulebook").value, b = $("compare").value;
  const names = b ? [a, b] : [a];
  const answers = await api("/score", names.map(request));
  if (!Array.isArray(answers)) { $("result").replaceChildren(errorBox(answers)); return; }
  $("result").replaceChildren(card(a, answers[0]));
  $("result-compare").replaceChildren(...(b ? [card(b, answers[1])] : []));
  $("difference").textContent = b ? difference(a, answers[0], b, answers[1]) : "";
}

// A clause as players read it: an inherited one says whose it is ("from BASE: ..."), as `riichi explain` and
// `riichi score` print it (ruledsl.clause_origin); `from` is the line's clause_from, null for the rulebook's own.
function clauseText(clause, from, shown) {
  if (!clause || !from) return clause || "";
  if (!from.adopted) return "from " + from.rulebook + ": " + clause;
  const adopted = from.adopted + " (from " + from.rulebook + ": " + clause + ")";
  return from.adopted_in === shown ? adopted : "from " + from.adopted_in + ": " + adopted;
}

function card(name, answer) {
  if (!answer.ok) return el("div", { class: "card" }, el("h3", { text: name }), errorBox(answer));
  const head = answer.limit === "yakuman" ? "yakuman ×" + answer.yakuman
    : answer.han + " han " + answer.fu + " fu" + (answer.limit ? " · " + answer.limit : "");
  const yaku = el("table", { class: "lines" }, ...answer.yaku.map((y) => el("tr", {},
    el("td", { text: y.name }), el("td", { class: "num", text: y.yakuman ? "yakuman ×" + y.yakuman : y.han + " han" }),
    el("td", { class: "clause", text: clauseText(y.clause, y.clause_from, name) }))));
  const fu = el("table", { class: "lines" }, ...(answer.fu_items || []).map((f) => el("tr", {},
    el("td", { text: f.id.replace(/_/g, " ") }), el("td", { class: "num", text: f.fu + " fu" }), el("td", { class: "clause", text: clauseText(f.clause, f.clause_from, name) }))));
  const WIND = { E: "East", S: "South", W: "West", N: "North" };
  const role = (k) => (answer.liable && k === answer.liable ? " (liable)" : "");
  const pays = Object.entries(answer.payments).map(([k, v]) => (WIND[k] || k.replace("_", "-")) + role(k) + " " + v.toLocaleString("en")).join(" · ");
  return el("div", { class: "card", "data-rulebook": name },
    el("h3", { text: name }),
    el("p", { class: "total", text: answer.total.toLocaleString("en") }),
    el("p", { class: "head", text: head }),
    answer.limit_clause ? el("p", { class: "clause", text: "limit: " + clauseText(answer.limit_clause, answer.limit_clause_from, name) }) : null,
    yaku, el("h4", { text: "Fu" }), fu,
    el("p", { class: "pays", text: "base " + answer.base_points.toLocaleString("en") + " · " + pays }),
    answer.liability_clause ? el("p", { class: "clause liability", text: "liability: " + clauseText(answer.liability_clause, answer.liability_clause_from, name) }) : null);
}

function difference(a, x, b, y) {
  if (!x.ok || !y.ok) return x.ok === y.ok ? "" : (x.ok ? a : b) + " scores this hand; the other does not.";
  const d = y.total - x.total;
  if (d === 0) return "Both rulebooks pay the same.";
  return b + " pays " + Math.abs(d).toLocaleString("en") + (d > 0 ? " more" : " less") + " than " + a + ".";
}

function init() {
  rulebookOptions($("rulebook"), PAGE.default_rulebook);
  rulebookOptions($("compare"), "");
  if (PAGE.tile_set) tileSets.set(PAGE.tile_set.rulebook, PAGE.tile_set);
  drawPalette();
  $("rulebook").addEventListener("change", drawPalette);
  for (const b of document.querySelectorAll("[data-target]")) b.addEventListener("click", () => setTarget(b.dataset.target));
  for (const input of document.querySelectorAll("select, input")) input.addEventListener("change", autoScore);
  $("score-button").addEventListener("click", score);
  $("clear").addEventListener("click", () => { Object.assign(state, { hand: [], win: null, melds: [], dora: [], ura: [] }); setTarget("hand"); $("result").replaceChildren(); $("result-compare").replaceChildren(); $("difference").textContent = ""; });
  draw();
}

init();
