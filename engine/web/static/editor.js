// Write a rulebook: the language highlighted, diagnostics as you type, the item under the cursor explained.
"use strict";

const $ = (id) => document.getElementById(id);
const source = $("source"), highlight = $("highlight");
const STORE = "riichi-editor-text";
const WORDS = PAGE.words;
const KEYWORDS = new Set(WORDS.keywords), KINDS = new Set(WORDS.kinds), NAMES = new Set(WORDS.names);
const TOKEN = /(#.*)|("(?:[^"\\]|\\.)*"?)|(@[A-Za-z_]\w*)|((?:[0-9]+[mpsz])+(?![A-Za-z0-9_]))|([0-9]+)|([A-Za-z_]\w*)/g;
let errorLines = new Map();

function fileName(text) {
  const m = /^\s*rulebook\s+([A-Za-z_][A-Za-z0-9_]{0,60})/m.exec(text);
  return (m ? m[1] : "editor") + ".rulebook";
}

function paintLine(line) {
  const out = [];
  let last = 0;
  for (const m of line.matchAll(TOKEN)) {
    if (m.index > last) out.push(document.createTextNode(line.slice(last, m.index)));
    let cls = null;
    if (m[1]) cls = "tok-comment";
    else if (m[2]) cls = "tok-string";
    else if (m[3]) cls = "tok-decorator";
    else if (m[4]) cls = "tok-tiles";
    else if (m[5]) cls = "tok-number";
    else if (KEYWORDS.has(m[6])) cls = "tok-keyword";
    else if (KINDS.has(m[6])) cls = "tok-kind";
    else if (NAMES.has(m[6])) cls = "tok-name";
    out.push(cls ? el("span", { class: cls, text: m[0] }) : document.createTextNode(m[0]));
    last = m.index + m[0].length;
  }
  if (last < line.length) out.push(document.createTextNode(line.slice(last)));
  return out;
}

function paint() {
  const lines = source.value.split("\n");
  const nodes = lines.map((line, i) => {
    const severity = errorLines.get(i + 1);
    return el("span", { class: "line" + (severity ? " line-" + severity : "") }, ...paintLine(line), "\n");
  });
  highlight.replaceChildren(...nodes, " ");
  highlight.scrollTop = source.scrollTop;
  highlight.scrollLeft = source.scrollLeft;
}

function upload() { return { text: source.value, file: fileName(source.value) }; }

let checking = 0;
const check = debounce(async () => {
  const mine = ++checking;
  const answer = await api("/check", { rulebook: upload() });
  if (mine !== checking) return;  // a newer check is on its way
  const summary = $("check-summary"), list = $("diagnostics");
  errorLines = new Map();
  if (!answer.ok && answer.error) {
    summary.textContent = answer.error.code.replace(/_/g, " ");
    summary.className = "summary bad";
    list.replaceChildren(el("pre", { class: "diag error", text: answer.error.message }));
    paint();
    return;
  }
  summary.textContent = answer.summary;
  summary.className = "summary " + (answer.errors ? "bad" : "good");
  list.replaceChildren(...answer.diagnostics.map((d) => {
    if (!errorLines.has(d.line) || d.severity === "error") errorLines.set(d.line, d.severity);
    return el("pre", { class: "diag " + d.severity, title: "go to line " + d.line, onclick: () => goTo(d.line, d.column), text: d.rendered });
  }));
  paint();
}, 300);

function goTo(line, column) {
  const lines = source.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  source.focus();
  source.setSelectionRange(offset, offset);
  explainHere();
}

function cursorLine() { return source.value.slice(0, source.selectionStart).split("\n").length; }

let lastAsked = "";
const explainHere = debounce(async () => {
  const line = cursorLine();
  const key = line + "\u0000" + source.value;
  if (key === lastAsked) return;
  lastAsked = key;
  const answer = await api("/explain", { rulebook: upload(), line });
  if (key !== lastAsked) return;
  if (!answer.ok) {
    $("explain-item").textContent = "";
    $("explain").textContent = answer.error.code === "invalid_rulebook" ? "Fix the errors to read the rules in plain English." : answer.error.message;
    return;
  }
  $("explain-item").textContent = answer.item || "(the whole rulebook)";
  $("explain").textContent = answer.text;
}, 350);

function changed() {
  localStorage.setItem(STORE, source.value);
  paint();
  check();
  explainHere();
}

function init() {
  source.value = localStorage.getItem(STORE) || PAGE.starter;
  source.addEventListener("input", changed);
  source.addEventListener("scroll", () => { highlight.scrollTop = source.scrollTop; highlight.scrollLeft = source.scrollLeft; });
  for (const ev of ["click", "keyup"]) source.addEventListener(ev, explainHere);
  source.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey) { e.preventDefault(); document.execCommand("insertText", false, "  "); }
  });
  $("reset").addEventListener("click", () => { source.value = PAGE.starter; changed(); });
  $("sheet").addEventListener("click", () => openSheet({ text: source.value, file: "editor.rulebook" }, null, $("sheet-status")));
  paint();
  check();
  explainHere();
}

init();
