// Shared by the pages: the page's data, calls to the HTTP API, tiles drawn as images, small DOM helpers.
"use strict";

const PAGE = JSON.parse(document.getElementById("page-data").textContent);

async function api(path, body) {
  // POST a JSON body; resolves to the contract's answer (ok or not) whatever the status.
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    return { ok: false, error: { code: "network", message: "the server cannot be reached: " + err } };
  }
  try {
    return await response.json();
  } catch (err) {
    return { ok: false, error: { code: "invalid_response", message: "status " + response.status } };
  }
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child == null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const TILE_NAMES = { m: "characters", p: "circles", s: "bamboo" };
const HONOURS = ["", "East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon"];

function tileName(code) {
  const n = Number(code[0]);
  if (code[1] === "z") return HONOURS[n];
  return n === 0 ? "red 5 of " + TILE_NAMES[code[1]] : n + " of " + TILE_NAMES[code[1]];
}

function tileImg(code, extra) {
  return el("img", { src: "/tiles/" + code + ".svg", alt: code, title: tileName(code), class: "tile", "data-tile": code, ...(extra || {}) });
}

function splitTiles(text) {
  // "234m55p" -> ["2m","3m","4m","5p","5p"]; mpsz notation as the contract writes it.
  const out = [];
  let digits = "";
  for (const ch of (text || "").replace(/\s+/g, "")) {
    if (/[0-9]/.test(ch)) digits += ch;
    else if (/[mpsz]/.test(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
  }
  return out;
}

function joinTiles(codes) {
  // ["2m","3m","5p"] -> "23m5p", sorted m, p, s, z with red fives beside the fives.
  const order = (c) => "mpsz".indexOf(c[1]) * 20 + (c[0] === "0" ? 5.5 : Number(c[0]));
  const sorted = [...codes].sort((a, b) => order(a) - order(b));
  let out = "", run = "", suit = "";
  for (const c of sorted) {
    if (c[1] !== suit && run) { out += run + suit; run = ""; }
    suit = c[1]; run += c[0];
  }
  return out + (run ? run + suit : "");
}

// A score request's hand drawn as tiles: the concealed tiles, each meld, the winning tile apart, the indicators.
function handPicture(req) {
  const concealed = splitTiles(req.hand);
  const i = concealed.indexOf(req.win);
  if (i >= 0) concealed.splice(i, 1);
  const parts = [el("span", { class: "tiles small" }, ...concealed.map((c) => tileImg(c)))];
  for (const m of req.melds || []) parts.push(el("span", { class: "tiles small meld", title: m.type }, ...splitTiles(m.tiles).map((c) => tileImg(c))));
  parts.push(el("span", { class: "tiles small win", title: "winning tile" }, tileImg(req.win)));
  const dora = splitTiles(req.dora_indicators || "");
  if (dora.length) parts.push(el("span", { class: "tiles small dora", title: "dora indicators" }, "dora ", ...dora.map((c) => tileImg(c))));
  const ura = splitTiles(req.ura_indicators || "");
  if (ura.length) parts.push(el("span", { class: "tiles small dora", title: "ura indicators" }, "ura ", ...ura.map((c) => tileImg(c))));
  return el("div", { class: "witness-hand" }, ...parts);
}

function rulebookOptions(select, chosen, extra) {
  // the name alone, so that a narrow picker never cuts it off; the title is the option's tooltip
  for (const row of PAGE.rulebooks) select.append(el("option", { value: row.name, text: row.name, ...(row.title ? { title: row.title } : {}) }));
  for (const [value, label] of extra || []) select.append(el("option", { value, text: label }));
  if (chosen != null) select.value = chosen;
}

function debounce(fn, ms) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

function errorBox(answer) {
  return el("div", { class: "error" }, el("strong", { text: answer.error.code.replace(/_/g, " ") }),
    el("pre", { text: answer.error.message }));
}
