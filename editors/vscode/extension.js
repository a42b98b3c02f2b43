// Starts `riichi lsp` (or the command set in `riichiRulebook.command`) for .rulebook files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("riichiRulebook").get("command", ["riichi", "lsp"]);
  const server = { command, args: args.length ? args : ["lsp"] };
  client = new LanguageClient(
    "riichiRulebook",
    "Riichi rulebooks",
    { run: server, debug: server },
    { documentSelector: [{ language: "rulebook" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
