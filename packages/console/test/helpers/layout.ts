import type { Page } from "playwright-core";

/** How many rows the dashboard's page links take (their distinct tops): 1 when they fit one row. */
export const tabRows = (page: Page) =>
  page
    .getByRole("navigation", { name: "Dashboard sections" })
    .getByRole("link")
    .evaluateAll((links) => new Set(links.map((a) => Math.round(a.getBoundingClientRect().top))).size);

/** Whether the "Find a customer" box shares the program name's row: their vertical spans overlap. */
export async function searchBesideName(page: Page) {
  const name = (await page.locator(".dash-head h2").boundingBox())!;
  const box = (await page.getByRole("search", { name: "Find a customer" }).getByRole("textbox").boundingBox())!;
  return box.y < name.y + name.height && box.y + box.height > name.y;
}

/** The width (px, rounded) of the card titled `title`. */
export const cardWidth = async (page: Page, title: string) =>
  Math.round((await page.getByRole("region", { name: title, exact: true }).boundingBox())!.width);

/** The badges in `selector` narrower than they are tall (squashed into circles), by text. */
export const squashedBadges = (page: Page, selector: string) =>
  page.locator(`${selector} .badge`).evaluateAll((badges) =>
    badges
      .filter((b) => {
        const r = b.getBoundingClientRect();
        return r.width <= r.height;
      })
      .map((b) => b.textContent),
  );

/**
 * What wraps badly in the page's tables: a transaction hash on more than one line, or an on-chain
 * name's "id" marker alone at the start of a line (left of it, nothing of its name).
 */
export const badWraps = (page: Page) =>
  page.locator("table").evaluateAll((tables) => [
    ...tables.flatMap((t) =>
      Array.from(t.querySelectorAll("td code[title]"))
        .filter((c) => c.getClientRects().length > 1)
        .map((c) => `hash ${c.getAttribute("title")}`),
    ),
    ...tables.flatMap((t) =>
      Array.from(t.querySelectorAll(".onchain-name"))
        .filter(
          (n) => n.querySelector(".onchain-toggle")!.getBoundingClientRect().left <= n.getBoundingClientRect().left + 1,
        )
        .map((n) => `id of ${n.textContent}`),
    ),
  ]);
