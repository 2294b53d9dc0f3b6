// A Vite plugin for the browser build: the top-level constants of the domain package are declared
// pure, so the bundler drops the ones a page does not use (issue 35). A domain module mixes plain
// values and functions with the zod schemas of the API (`VENDOR_ROLES` beside `VendorRole`); a
// schema is built by calls the bundler cannot prove free of side effects, so once a page used one
// export of a module, every schema of it stayed, and zod with them. The initializer of such a
// constant is wrapped in an arrow function called at once and marked `/* @__PURE__ */`: the same
// value, evaluated at the same place, and gone when nothing reads it.
//
// What a dropped schema no longer does in the browser: register its `.meta({ id })` in zod's
// global registry, which only the server's OpenAPI document reads.

/** Whether the expression may run code when evaluated (a call, `new`, a tagged template). */
function callsSomething(node) {
  if (!node || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(callsSomething);
  if (
    node.type === "ArrowFunctionExpression" ||
    node.type === "FunctionExpression" ||
    node.type === "ClassExpression"
  )
    return false;
  if (
    node.type === "CallExpression" ||
    node.type === "NewExpression" ||
    node.type === "TaggedTemplateExpression"
  )
    return true;
  for (const key in node) {
    if (key === "type" || key === "start" || key === "end" || key === "range" || key === "loc") continue;
    if (callsSomething(node[key])) return true;
  }
  return false;
}

/** @param {(id: string) => boolean} include the modules whose top-level constants are pure */
export function pureDeclarations(include) {
  return {
    name: "pressguard:pure-declarations",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    transform(code, id) {
      if (!include(id)) return null;
      const program = this.parse(code);
      const edits = [];
      for (const statement of program.body) {
        const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
        if (declaration?.type !== "VariableDeclaration" || declaration.kind !== "const") continue;
        for (const declarator of declaration.declarations) {
          if (declarator.id.type === "Identifier" && callsSomething(declarator.init))
            edits.push(declarator.init);
        }
      }
      if (edits.length === 0) return null;
      let out = "";
      let at = 0;
      for (const init of edits) {
        out += `${code.slice(at, init.start)}/* @__PURE__ */ (() => (${code.slice(init.start, init.end)}))()`;
        at = init.end;
      }
      return { code: out + code.slice(at), map: null };
    },
  };
}
