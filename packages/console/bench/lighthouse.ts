/**
 * `pnpm bench:console`: Lighthouse (driving Debian's Chromium) over the sign-in page, a wizard
 * step and the dashboard of the built console, served by the real API with a program deployed
 * on a local Hardhat node; then the console's JavaScript, initial and in total, gzipped.
 * Targets: performance >= 90, accessibility >= 95, best practices >= 95 on each page, with
 * Lighthouse's mobile settings (its default: a mid-range phone, simulated 4G throttling) and its
 * desktop ones (desktop-config: a desktop screen, simulated cable); initial JavaScript <= 150 kB
 * gzipped. Exits 1 when one is missed.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { launch } from "chrome-launcher";
import * as pointsApi from "@points/api";
import { deployProgram, devWallet, startApi, startNode } from "@points/testkit";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TARGETS = { performance: 90, accessibility: 95, "best-practices": 95 } as const;
const INITIAL_JS_LIMIT = 150_000;
/** Each page is audited with both: Lighthouse's default config is the mobile one. */
const FORM_FACTORS = [
  { name: "mobile", config: undefined },
  { name: "desktop", config: desktopConfig },
] as const;

/** Gzipped bytes of the entry script and the chunks index.html preloads, and of every chunk. */
function bundleSizes() {
  const html = readFileSync(join(DIST, "index.html"), "utf8");
  const initial = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const gz = (f: string) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length;
  const all = readdirSync(join(DIST, "assets")).filter((f) => f.endsWith(".js"));
  return {
    initial: initial.reduce((n, f) => n + gz(f), 0),
    initialFiles: initial,
    total: all.reduce((n, f) => n + gz(`assets/${f}`), 0),
    chunks: all.length,
  };
}

async function signIn(url: string, email: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await post("/console/v1/auth/request-code", { email });
  const box = (await (await fetch(`${url}/console/v1/dev/mailbox`)).json()) as {
    data: { email: string; code: string }[];
  };
  const code = box.data.find((e) => e.email === email)!.code;
  const res = await post("/console/v1/auth/verify", { email, code });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("points_session="));
  if (!cookie) throw new Error(`no session for ${email}`);
  return cookie.split(";")[0];
}

async function main() {
  const node = await startNode();
  const api = await startApi(pointsApi, node.url, { DEV_MAILBOX: "1", LEDGER: "off" });
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  let failed = false;
  try {
    const { record } = await deployProgram(node.provider, "bench");
    await api.service.ctx.programs.insert(record);
    const { email } = await pointsApi.createDevProgramAccount(api.service.ctx, "bench", devWallet(1).address);
    const dashboardCookie = await signIn(api.url, email);
    const wizardCookie = await signIn(api.url, "wizard@example.com");
    await fetch(`${api.url}/console/v1/wizard`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie: wizardCookie },
      body: JSON.stringify({ step: 3 }),
    });
    const pages = [
      { name: "sign-in", url: `${api.url}/console/`, cookie: undefined },
      { name: "wizard (organization)", url: `${api.url}/console/setup/organization`, cookie: wizardCookie },
      { name: "dashboard (overview)", url: `${api.url}/console/program/overview`, cookie: dashboardCookie },
    ];
    for (const f of FORM_FACTORS) {
      console.log(`Lighthouse (${f.name}, simulated throttling)`);
      for (const p of pages) {
        const result = await lighthouse(
          p.url,
          {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: Object.keys(TARGETS),
            extraHeaders: p.cookie ? { Cookie: p.cookie } : undefined,
          },
          f.config,
        );
        const lhr = result!.lhr;
        // LIGHTHOUSE_REPORTS=<folder>: each page's whole report, to read what holds a score down.
        if (process.env.LIGHTHOUSE_REPORTS) {
          mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
          const file = join(process.env.LIGHTHOUSE_REPORTS, `${p.name.split(" ")[0]}.${f.name}.json`);
          writeFileSync(file, JSON.stringify(lhr, null, 1));
        }
        const scores = Object.keys(TARGETS).map((k) => {
          const score = Math.round((lhr.categories[k]?.score ?? 0) * 100);
          const ok = score >= TARGETS[k as keyof typeof TARGETS];
          failed ||= !ok;
          return `${k} ${score}${ok ? "" : ` (target ${TARGETS[k as keyof typeof TARGETS]})`}`;
        });
        const lcp = lhr.audits["largest-contentful-paint"]?.displayValue ?? "?";
        const tbt = lhr.audits["total-blocking-time"]?.displayValue ?? "?";
        const bytes = lhr.audits["total-byte-weight"]?.numericValue ?? 0;
        console.log(
          `  ${p.name.padEnd(24)} ${scores.join(" · ")} · LCP ${lcp} · TBT ${tbt} · ${Math.round(bytes / 1000)} kB transferred`,
        );
      }
    }
    const b = bundleSizes();
    const ok = b.initial <= INITIAL_JS_LIMIT;
    failed ||= !ok;
    console.log(
      `JavaScript (gzip -9): initial ${b.initial} bytes (${b.initialFiles.join(", ")})${ok ? "" : ` over ${INITIAL_JS_LIMIT}`}; all ${b.chunks} chunks ${b.total} bytes`,
    );
  } finally {
    chrome.kill();
    await api.close();
    await node.stop();
  }
  if (failed) {
    console.log("A target was missed.");
    process.exitCode = 1;
  }
}

await main();
