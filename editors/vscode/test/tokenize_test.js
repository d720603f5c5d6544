// tokenize_test.js - the TextMate grammar tokenizes .exg as VS Code would.
// Needs vscode-textmate and vscode-oniguruma: `npm install` in editors/vscode,
// or a node_modules folder named by EXGC_NODE_MODULES. Without them it says so
// and exits 77 (ctest: skipped). Exit 0 when every expected token has its scope.
const fs = require("fs");
const path = require("path");

const here = path.join(__dirname, "..");
function load(name) {
  const roots = [process.env.EXGC_NODE_MODULES, path.join(here, "node_modules")].filter(Boolean);
  for (const root of roots) {
    try {
      return require(require.resolve(name, { paths: [root] }));
    } catch (e) { /* next root */ }
  }
  console.log(`skipped: ${name} not found (npm install in editors/vscode, or set EXGC_NODE_MODULES)`);
  process.exit(77);
}
const textmate = load("vscode-textmate");
const oniguruma = load("vscode-oniguruma");

const SAMPLE = [
  "# a comment",
  "import cuda.sm90a as sm",
  "proc saxpy(n: size, a: f32, x: f32[n] @ CudaGmemLinear):",
  "    assert n % 4 == 0",
  "    for i in seq(0, n):",
  "        x[i] = max(2.5 * x[i], -inf)",
  "instr fill(x: [f32][4]):",
  "    emit: \"exg::fill({x});\"",
  "schedule fast from saxpy:",
  "    p = divide_loop(p, \"i\", 4, [\"io\", \"ii\"], perfect=True)",
];

// [line, token text, a scope the token must have]
const EXPECTED = [
  [0, "# a comment", "comment.line.number-sign.exg"],
  [1, "import", "keyword.control.import.exg"],
  [1, "cuda.sm90a", "entity.name.namespace.exg"],
  [1, "sm", "entity.name.namespace.exg"],
  [2, "proc", "storage.type.function.exg"],
  [2, "saxpy", "entity.name.function.exg"],
  [2, "size", "storage.type.exg"],
  [2, "f32", "storage.type.exg"],
  [2, "@", "keyword.operator.annotation.exg"],
  [2, "CudaGmemLinear", "support.type.memory.exg"],
  [3, "assert", "keyword.other.assert.exg"],
  [3, "4", "constant.numeric.exg"],
  [3, "==", "keyword.operator.exg"],
  [4, "for", "keyword.control.exg"],
  [4, "in", "keyword.control.exg"],
  [5, "2.5", "constant.numeric.exg"],
  [5, "inf", "constant.language.infinity.exg"],
  [6, "instr", "storage.type.function.exg"],
  [7, "emit", "variable.other.attribute.exg"],
  [7, "{x}", "variable.parameter.placeholder.exg"],
  [8, "schedule", "storage.type.schedule.exg"],
  [8, "fast", "entity.name.function.schedule.exg"],
  [8, "saxpy", "entity.name.function.exg"],
  [9, "True", "constant.language.boolean.exg"],
];

async function main() {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma", {
    paths: [process.env.EXGC_NODE_MODULES, path.join(here, "node_modules")].filter(Boolean),
  })), "onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (p) => new oniguruma.OnigScanner(p),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => scope !== "source.exg" ? null : textmate.parseRawGrammar(
      fs.readFileSync(path.join(here, "syntaxes", "exg.tmLanguage.json"), "utf8"),
      "exg.tmLanguage.json"),
  });
  const grammar = await registry.loadGrammar("source.exg");
  let stack = textmate.INITIAL;
  const tokens = SAMPLE.map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
  });
  let failed = 0;
  for (const [line, text, scope] of EXPECTED) {
    const tok = tokens[line].find((t) => t.text === text && t.scopes.includes(scope));
    if (tok) {
      console.log(`ok: line ${line + 1} '${text}' is ${scope}`);
    } else {
      failed++;
      const seen = tokens[line].map((t) => `'${t.text}' ${t.scopes.slice(1).join(",")}`).join(" | ");
      console.log(`FAIL: line ${line + 1} '${text}' is not ${scope}: ${seen}`);
    }
  }
  // Language configuration: the JSON parses and its indentation patterns are valid regexes.
  const conf = JSON.parse(fs.readFileSync(path.join(here, "language-configuration.json"), "utf8"));
  const inc = new RegExp(conf.indentationRules.increaseIndentPattern);
  if (!inc.test("    for i in seq(0, n):") || inc.test("    x[i] = 0.0")) {
    failed++;
    console.log("FAIL: increaseIndentPattern");
  }
  console.log(failed ? `${failed} failed` : "PASS");
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log("FAIL: " + e.stack); process.exit(1); });
