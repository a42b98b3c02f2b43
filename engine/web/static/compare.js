// Compare rulebooks: every difference of A and B, each scoring change drawn on a witness hand with both scores.
"use strict";

const $ = (id) => document.getElementById(id);
const EDITOR = "riichi-editor-text";
const uploaded = { a: null, b: null };

function ref(value, side) {
  if (value === "@editor") return { text: localStorage.getItem(EDITOR) || "", file: "editor.rulebook" };
  if (value === "@upload") return uploaded[side];
  return value;
}

function situationWords(req) {
  const words = [req.tsumo ? "tsumo" : "ron", req.seat_wind === "E" || !req.seat_wind ? "dealer" : "seat " + req.seat_wind];
  if (req.round_wind && req.round_wind !== "E") words.push("round " + req.round_wind);
  for (const f of PAGE.situation_flags) if (req[f]) words.push(f.replace(/_/g, " "));  // engine.core.situation's flags but tsumo
  for (const c of PAGE.situation_counters) if (req[c.name]) words.push(c.label + " " + req[c.name]);  // and its counters
  return words.join(" · ");
}

function scoreLine(name, answer) {
  if (!answer.ok) return el("div", { class: "score-box" }, el("b", { text: name }), " ", answer.error.code.replace(/_/g, " "));
  const head = answer.limit === "yakuman" ? "yakuman ×" + answer.yakuman : answer.han + " han " + answer.fu + " fu";
  const yaku = answer.yaku.map((y) => y.name).join(", ");
  return el("div", { class: "score-box" }, el("b", { text: name }), " ", el("span", { class: "total", text: answer.total.toLocaleString("en") }),
    " (" + head + ")", el("div", { class: "muted", text: yaku }));
}

// A change's value for people: the JSON keeps numbers, booleans and lists (1000, true, ["0m", "0p"]).
function show(value) {
  if (value == null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return value.toLocaleString("en");
  if (Array.isArray(value)) return value.length ? value.map(show).join(", ") : "none";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => k + " = " + show(v)).join("; ");
  return String(value);
}

// The label of A with only this change (and the changes it is valid only with): never B's name, which labels the
// whole of B.
function aloneLabel(report, c, s) {
  const names = [c.item.startsWith("setting ") ? c.item.slice(8) : c.item, ...((s && s.together_with) || []).map((i) => i.replace(/^setting /, ""))];
  return report.a + " + " + names.map((n) => "`" + n + "`").join(", ") + " only";
}

function points(list) {
  return list.map((p) => p.toLocaleString("en")).join(" / ");
}

// What one rulebook makes of a scenario, in words (null: the scenario cannot arise under it).
function sideWords(s, side) {
  if (side == null) return "this situation cannot arise under it";
  if (s.kind === "round") return side.words;
  if (s.kind === "round_end") return side;
  return "scores " + side.scores.map((x) => (x > 0 ? "+" : "") + x.toFixed(1)).join(" / ");
}

// A game-flow change shown on a scenario (engine.game.witness, engine.round.witness): a scripted round, a round's
// end, or a final table, under A, under A with only this change, and under the whole of B, each labelled so.
function scenarioCard(report, c, s) {
  const side = (name, words, cls) => el("div", { class: "score-box " + cls }, el("b", { text: name }), " ", words);
  let head = s.situation || "";
  if (s.kind === "round_end") head += " (" + s.round + ", scores after it " + points(s.scores_after) + ")";
  else if (s.kind === "final_table") head = "final points " + points(s.points) + (s.sticks ? ", " + s.sticks + " riichi sticks left" : "");
  const together = s.together_with ? el("div", { class: "muted", text: "shown together with " + s.together_with.join(", ") }) : "";
  const boxes = [side(report.a, sideWords(s, s.a), "side-a"), side(aloneLabel(report, c, s), sideWords(s, s.b), "side-alone")];
  if (s.whole) boxes.push(side(report.b, sideWords(s, s.whole.b), "side-b"));
  return el("div", { class: "witness scenario" }, el("div", { class: "muted", text: head }), together, el("div", { class: "both" }, ...boxes));
}

function changeCard(report, c) {
  const body = c.change === "changed" ? [el("div", { class: "was", text: show(c.a) }), el("div", { class: "now", text: "→ " + show(c.b) })]
    : c.change === "added" ? [el("div", { class: "now", text: "added: " + show(c.b) })]
      : [el("div", { class: "was", text: "removed (was " + show(c.a) + ")" })];
  const clauses = el("div", { class: "clauses" },
    el("div", { class: "clause" }, el("b", { text: report.a + ": " }), c.clause_a || "—"),
    el("div", { class: "clause" }, el("b", { text: report.b + ": " }), c.clause_b || "—"));
  let witness;
  if (c.witness) {
    witness = el("div", { class: "witness" }, handPicture(c.witness.request), el("div", { class: "muted", text: situationWords(c.witness.request) }),
      el("div", { class: "both" }, scoreLine(report.a, c.witness.a), scoreLine(report.b, c.witness.b),
        ...(c.witness.alone ? [scoreLine(aloneLabel(report, c, null), c.witness.alone)] : [])));
  } else if (c.scenario) {
    witness = scenarioCard(report, c, c.scenario);
  } else {
    witness = el("p", { class: "muted", text: c.no_scenario || (c.affects_score ? "no hand found that shows this change" : "no scenario shows this change") });
  }
  return el("article", { class: "change card change-" + c.change }, el("h3", {}, el("code", { text: c.item }), " ", el("span", { class: "badge", text: c.change })), ...body, clauses, witness);
}

async function run() {
  const a = ref($("diff-a").value, "a"), b = ref($("diff-b").value, "b");
  if (a == null || b == null) { $("diff-status").textContent = "choose a file to upload first"; return; }
  $("diff-status").textContent = "comparing… (searching hands for witnesses)";
  $("diff-run").disabled = true;
  const hands = Number(new URLSearchParams(location.search).get("hands"));
  const answer = await api("/diff", Number.isInteger(hands) && hands > 0 ? { a, b, hands } : { a, b });
  $("diff-run").disabled = false;
  $("diff-status").textContent = "";
  const out = $("diff-result");
  if (!answer.ok) { out.replaceChildren(errorBox(answer)); return; }
  const found = answer.changes.filter((c) => c.witness).length;
  const summary = answer.changes.length
    ? answer.changes.length + " rules differ; " + found + " shown on a hand (" + answer.searched.toLocaleString("en") + " hands searched)"
    : "No differences found (" + answer.searched.toLocaleString("en") + " hands searched).";
  out.replaceChildren(el("p", { class: "summary", id: "diff-summary", text: summary }), ...answer.changes.map((c) => changeCard(answer, c)));
}

function updateSheetLink() {
  // B's handout with A's differences marked: a plain link while both are names
  const href = sheetHref(ref($("diff-b").value, "b"), ref($("diff-a").value, "a"));
  $("sheet-link").href = href || "#";
}

function sheetLink() {
  for (const side of ["a", "b"]) $("diff-" + side).addEventListener("change", updateSheetLink);
  $("sheet-link").addEventListener("click", (event) => {
    const a = ref($("diff-a").value, "a"), b = ref($("diff-b").value, "b");
    if (sheetHref(b, a)) return;  // the link itself
    event.preventDefault();
    if (a == null || b == null) { $("diff-status").textContent = "choose a file to upload first"; return; }
    openSheet(b, a, $("diff-status"));
  });
}

function init() {
  const editorText = localStorage.getItem(EDITOR);
  const extra = editorText ? [["@editor", "the rulebook in the editor"]] : [];
  const uploads = [...extra, ["@upload", "an uploaded file"]];
  rulebookOptions($("diff-a"), PAGE.default_rulebook, uploads);
  const other = PAGE.rulebooks.find((r) => r.name !== PAGE.default_rulebook && !r.file);
  rulebookOptions($("diff-b"), other ? other.name : PAGE.default_rulebook, uploads);
  for (const side of ["a", "b"]) {
    const input = $("upload-" + side);
    input.addEventListener("change", async () => {
      const file = input.files[0];
      if (!file) return;
      if (file.size > PAGE.max_bytes) { $("diff-status").textContent = "that file is larger than " + PAGE.max_bytes + " bytes"; return; }
      const safe = file.name.slice(-50).replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^[^A-Za-z0-9_]/, "_");
      uploaded[side] = { text: await file.text(), file: safe.endsWith(".rulebook") ? safe : safe + ".rulebook" };
      $("diff-" + side).value = "@upload";
    });
  }
  $("diff-run").addEventListener("click", run);
  sheetLink();
  const params = new URLSearchParams(location.search);
  if (params.get("a")) $("diff-a").value = params.get("a");
  if (params.get("b")) $("diff-b").value = params.get("b");
  updateSheetLink();
  if (params.get("a") && params.get("b")) run();
}

init();
