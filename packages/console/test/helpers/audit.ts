import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./browser.js";

/** The two widths every page must fit without sideways scrolling: a laptop and a phone. */
export const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Where the audit's screenshots go (git-ignored with the rest of test/artifacts). */
export const LAYOUT_SHOTS = join(ARTIFACTS, "layout");

/**
 * The page as it is, at 1440 px and at 390 px: no sideways scroll (document scrollWidth <=
 * clientWidth), a full-page screenshot of each (layout/<name>-<width>.png), and axe-core finds
 * no serious or critical violation. The viewport goes back to what it was.
 */
export async function auditPage(page: Page, name: string) {
  const before = page.viewportSize();
  mkdirSync(LAYOUT_SHOTS, { recursive: true });
  try {
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      await page.screenshot({ path: join(LAYOUT_SHOTS, `${name}-${size.width}.png`), fullPage: true });
      assert.ok(
        scrollWidth <= clientWidth,
        `${name} at ${size.width} px scrolls sideways: ${scrollWidth} > ${clientWidth}`,
      );
      const { violations } = await new AxeBuilder({ page }).analyze();
      const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      assert.deepEqual(
        bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        [],
        `${name} at ${size.width} px: axe-core`,
      );
    }
  } finally {
    if (before) await page.setViewportSize(before);
  }
}
