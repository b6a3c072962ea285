import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDb } from "./db.js";
import { MIGRATIONS, migrate } from "./migrations.js";

type Migration = { id: string; sql: string };

const memo = new Map<string, Promise<Blob>>();

/**
 * An empty embedded database with every migration applied, as a data-directory archive to start an in-memory
 * database from (`createService(config, { memoryDbSeed })`). Starting PGlite from scratch runs initdb and then the
 * migrations: about 3 CPU-seconds, paid by every test that starts a service. The archive is built once per machine
 * and kept in the OS temporary folder under a name made of PGlite's version and the migrations' text, so a changed
 * migration or PGlite release builds a new one (docs/architecture.md#persistence-and-scale).
 */
export function memoryDbTemplate(migrations: readonly Migration[] = MIGRATIONS): Promise<Blob> {
  const file = templateFile(migrations);
  let template = memo.get(file);
  if (!template) {
    template = readOrBuild(file, migrations);
    memo.set(file, template);
    template.catch(() => memo.delete(file));
  }
  return template;
}

function templateFile(migrations: readonly Migration[]): string {
  const pglite = pgliteVersion();
  const key = createHash("sha256").update(JSON.stringify({ pglite, migrations })).digest("hex").slice(0, 16);
  return path.join(tmpdir(), `points-api-db-template-${key}.tar`);
}

/** PGlite's version, from its package.json (not in its exports map: found beside its entry point). */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      if (pkg.name === "@electric-sql/pglite") return String(pkg.version);
    } catch {
      // No package.json at this level.
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error("@electric-sql/pglite's package.json not found");
    dir = up;
  }
}

async function readOrBuild(file: string, migrations: readonly Migration[]): Promise<Blob> {
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    // Not built yet on this machine.
  }
  const db = await openDb({ dataDir: "memory://" });
  try {
    await migrate(db, migrations);
    const archive = await db.dumpDataDir!();
    // Written aside and renamed: processes building it at once each write a whole file, and a reader never sees half.
    const aside = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(aside, Buffer.from(await archive.arrayBuffer()));
      renameSync(aside, file);
    } catch {
      // A read-only temporary folder costs only the speed-up: the archive still serves this process.
      rmSync(aside, { force: true });
    }
    return archive;
  } finally {
    await db.close();
  }
}
