// extension.js - starts exgc-lsp for .exg files (stdio) and stops it with VS Code.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("exg");
  const command = config.get("server.path", "exgc-lsp");
  const serverOptions = { run: { command, transport: TransportKind.stdio },
                          debug: { command, transport: TransportKind.stdio } };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "exg" }],
    initializationOptions: {
      includeDirs: config.get("includeDirs", []),
      stdlibDir: config.get("stdlibDir", ""),
    },
  };
  client = new LanguageClient("exg", "exgc-lsp", serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
