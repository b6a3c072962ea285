import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from "playwright-core";

export const ARTIFACTS = resolve(dirname(fileURLToPath(import.meta.url)), "../artifacts");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Debian's Chromium, headless, with the flags that keep it off the network and a fresh profile
 * (Playwright takes the profile as userDataDir rather than as --user-data-dir).
 */
export async function launch(viewport: { width: number; height: number }): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = mkdtempSync(join(tmpdir(), "console-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A console error the page printed, or an uncaught exception. */
export interface PageProblem {
  kind: "console" | "pageerror";
  text: string;
  url?: string;
}

/** Collects every console error and uncaught exception of the page. */
export function watchProblems(page: Page): PageProblem[] {
  const problems: PageProblem[] = [];
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() === "error") problems.push({ kind: "console", text: m.text(), url: m.location().url });
  });
  page.on("pageerror", (e) => problems.push({ kind: "pageerror", text: e.message }));
  return problems;
}

let shot = 0;
/** Saves a full-page screenshot as test/artifacts/NN-name.png. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  shot += 1;
  await page.screenshot({ path: join(ARTIFACTS, `${String(shot).padStart(2, "0")}-${name}.png`), fullPage: true });
}
