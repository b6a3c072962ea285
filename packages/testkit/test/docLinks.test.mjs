// Every documentation link a source comment gives (`docs/x.md#section`, `packages/api/README.md#keys`, a package's own
// `README.md#section`) names a file that exists and, when it has one, a heading of that file: a comment that points a
// reader at a section must not point at nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SOURCE = /\.(ts|tsx|mjs|sol)$/;
const SKIP = new Set(["node_modules", "dist", "build", "artifacts", "cache", "generated", "types", "typechain-types"]);
const LINK = /(?<![\w/.-])((?:packages\/[\w-]+\/)?(?:docs\/)?[\w.-]+\.md)(?:#([a-z0-9_-]+))?/g;

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith(".")) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (SOURCE.test(name)) yield p;
  }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const anchors = new Map();
function anchorsOf(file) {
  if (!anchors.has(file)) {
    const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
    anchors.set(file, new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]))));
  }
  return anchors.get(file);
}

test("docLinks_everyLinkInASourceComment_namesAFileAndHeadingThatExist", () => {
  const broken = [];
  let checked = 0;
  for (const pkg of readdirSync(path.join(root, "packages"))) {
    const pkgDir = path.join(root, "packages", pkg);
    for (const dir of ["src", "contracts", "program", "scripts"]) {
      if (!existsSync(path.join(pkgDir, dir))) continue;
      for (const file of sources(path.join(pkgDir, dir))) {
        for (const m of readFileSync(file, "utf8").matchAll(LINK)) {
          const [, target, anchor] = m;
          // `README.md`, `CHANGELOG.md` alone are the package's own; `docs/…` and `packages/…` start at the root.
          const resolved = /^(docs|packages)\//.test(target) ? path.join(root, target) : path.join(pkgDir, target);
          const where = `${path.relative(root, file)}: ${m[0]}`;
          checked++;
          if (!existsSync(resolved)) broken.push(`${where} (no file ${path.relative(root, resolved)})`);
          else if (anchor && !anchorsOf(resolved).has(anchor)) broken.push(`${where} (no heading #${anchor})`);
        }
      }
    }
  }
  assert.ok(checked > 100, `found only ${checked} links: the pattern no longer matches how comments cite docs`);
  assert.deepEqual(broken, []);
});
