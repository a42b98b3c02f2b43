// The players' handout (GET /sheet, POST /sheet): a link for rulebooks the server names, the page itself for a
// rulebook held in this browser (the editor's text, an upload), made by POST /sheet and shown from memory.

function sheetHref(rulebook, against) {
  // the GET link when both rulebooks are names; null when one is text held in the browser
  if (typeof rulebook !== "string" || (against != null && typeof against !== "string")) return null;
  const query = new URLSearchParams({ rulebook, format: "html" });
  if (against) query.set("against", against);
  return "/sheet?" + query.toString();
}

async function openSheet(rulebook, against, status) {
  // follow the link, or ask for the page and show it in this tab
  const href = sheetHref(rulebook, against);
  if (href) { location.href = href; return; }
  if (status) status.textContent = "writing the handout…";
  const answer = await api("/sheet", against ? { rulebook, against, format: "html" } : { rulebook, format: "html" });
  if (!answer.ok) { if (status) status.replaceChildren(errorBox(answer)); return; }
  location.href = URL.createObjectURL(new Blob([answer.text], { type: "text/html" }));
}
