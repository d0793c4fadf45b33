// The VS Code extension for .drr rule files: it starts `drrc lsp` for the language features, and provides the two
// commands the server's code lenses name — drr.showView (what the file compiles to) and drr.applyTo (run the
// file's rules on a program) — which ask what they need and then run the server's commands drr.view and
// drr.apply.
'use strict';

const path = require('path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let applyOutput;

// The views the server offers (drr.view); the server lists them in its code lenses too.
const VIEWS = [
  { label: 'automaton', description: 'the matcher automaton, as drrc automaton prints it' },
  { label: 'automaton-dot', description: 'the matcher automaton as a Graphviz graph' },
  { label: 'go', description: 'the Go code drrc gen compiles the rules to' },
];

function serverOptions() {
  const cfg = vscode.workspace.getConfiguration('drr');
  return {
    command: cfg.get('server.path') || 'drrc',
    args: ['lsp', ...(cfg.get('server.args') || [])],
  };
}

function newClient() {
  return new LanguageClient('drr', 'drrc lsp', serverOptions(), {
    documentSelector: [{ language: 'drr' }],
  });
}

// documentURI returns the URI a command is about: its argument's, or the active .drr editor's.
function documentURI(arg) {
  if (arg && arg.uri) {
    return arg.uri;
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.languageId === 'drr') {
    return editor.document.uri.toString();
  }
  return undefined;
}

// executeCommand runs a server command (workspace/executeCommand) and returns its result.
function executeCommand(command, arg) {
  return client.sendRequest('workspace/executeCommand', { command, arguments: [arg] });
}

async function showView(arg) {
  const uri = documentURI(arg);
  if (!uri) {
    vscode.window.showErrorMessage('Open a .drr file to see what it compiles to.');
    return;
  }
  let view = arg && arg.view;
  if (!view) {
    const pick = await vscode.window.showQuickPick(VIEWS, { placeHolder: 'What to show' });
    if (!pick) {
      return;
    }
    view = pick.label;
  }
  try {
    const res = await executeCommand('drr.view', { uri, view });
    const doc = await vscode.workspace.openTextDocument({ content: res.text, language: res.language });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  } catch (err) {
    vscode.window.showErrorMessage(`DRR: ${err.message || err}`);
  }
}

// lastPasses is the pipeline "apply to…" last ran the rules in, offered again.
let lastPasses = 'rules';

async function applyTo(arg) {
  const uri = documentURI(arg);
  if (!uri) {
    vscode.window.showErrorMessage('Open a .drr file to apply its rules.');
    return;
  }
  let program = arg && arg.program;
  let passes = arg && arg.passes;
  if (!program) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: true,
      canSelectFolders: true,
      canSelectMany: false,
      defaultUri: vscode.Uri.file(path.dirname(vscode.Uri.parse(uri).fsPath)),
      openLabel: 'Apply the rules',
      title: 'A program: PIR text (.pir), PIR JSON (.json), or a GraphNet folder',
    });
    if (!picked || picked.length === 0) {
      return;
    }
    program = picked[0].fsPath;
    // The pipeline the rules run in: "rules" alone, or a pipeline with them at a named point (drrc apply -passes).
    passes = await vscode.window.showInputBox({
      title: 'Run the rules in (drrc apply -passes)',
      prompt: '"rules" alone, or a pipeline with the rules at a named point: gpu_inference[before reinplace: rules]',
      value: lastPasses,
    });
    if (passes === undefined) {
      return;
    }
    lastPasses = passes;
  }
  try {
    const rep = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Applying the rules to ${path.basename(program)}`, cancellable: false },
      () => executeCommand('drr.apply', passes && passes !== 'rules' ? { uri, program, passes } : { uri, program }),
    );
    applyOutput.clear();
    applyOutput.append(rep.summary);
    applyOutput.show(true);
  } catch (err) {
    vscode.window.showErrorMessage(`DRR: ${err.message || err}`);
  }
}

async function activate(context) {
  applyOutput = vscode.window.createOutputChannel('DRR apply');
  context.subscriptions.push(
    applyOutput,
    vscode.commands.registerCommand('drr.showView', showView),
    vscode.commands.registerCommand('drr.applyTo', applyTo),
    vscode.commands.registerCommand('drr.restartServer', async () => {
      if (client) {
        await client.stop();
      }
      client = newClient();
      await client.start();
    }),
  );
  client = newClient();
  await client.start();
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate, VIEWS };
