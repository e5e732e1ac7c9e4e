// Views as patches: apply the JSON Patch (RFC 6902) an `events` message
// carries in `view_patch` to the view the client holds.
//
// The server sends only `add`, `remove` and `replace`
// (crates/protocol/src/view_patch.rs). The view is never changed in place:
// every object and array on an operation's path is copied first, so a
// view the client kept (the one before, for describing the events) stays
// as it was, and a patch that does not fit throws before anything is
// visible — the caller then asks for a `resync`.

/** @typedef {import("./protocol").ViewPatchOp} ViewPatchOp */

/**
 * The view `doc` with `ops` applied, as a new value; `doc` is untouched.
 * @template T
 * @param {T} doc
 * @param {ViewPatchOp[]} ops
 * @returns {T}
 */
export function applyPatch(doc, ops) {
  let root = /** @type {any} */ (doc);
  for (const op of ops) root = applyOp(root, op);
  return root;
}

/** RFC 6901: "/a/b~1c" → ["a", "b/c"]. */
function tokens(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`bad JSON pointer ${path}`);
  return path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function copy(node) {
  if (Array.isArray(node)) return node.slice();
  if (node !== null && typeof node === "object") return { ...node };
  throw new Error("the patch goes through a value that is not an object or array");
}

/** An array index from a token: digits only, within `max`. */
function index(token, max) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad array index ${token}`);
  const i = Number(token);
  if (i > max) throw new Error(`array index ${i} out of range`);
  return i;
}

function applyOp(root, { op, path, value }) {
  const keys = tokens(path);
  if (!keys.length) {
    if (op === "add" || op === "replace") return value;
    throw new Error(`cannot ${op} the whole document`);
  }
  const top = copy(root);
  let node = top;
  for (const k of keys.slice(0, -1)) {
    const key = Array.isArray(node) ? index(k, node.length - 1) : k;
    if (!Array.isArray(node) && !Object.hasOwn(node, key)) throw new Error(`no ${path}`);
    node[key] = copy(node[key]);
    node = node[key];
  }
  const last = keys[keys.length - 1];
  if (Array.isArray(node)) {
    if (op === "add") node.splice(last === "-" ? node.length : index(last, node.length), 0, value);
    else if (op === "remove") node.splice(index(last, node.length - 1), 1);
    else if (op === "replace") node[index(last, node.length - 1)] = value;
    else throw new Error(`unknown patch operation ${op}`);
  } else {
    const has = Object.hasOwn(node, last);
    if (op === "add") node[last] = value;
    else if (op === "remove" && has) delete node[last];
    else if (op === "replace" && has) node[last] = value;
    else if (op === "remove" || op === "replace") throw new Error(`no ${path}`);
    else throw new Error(`unknown patch operation ${op}`);
  }
  return top;
}
