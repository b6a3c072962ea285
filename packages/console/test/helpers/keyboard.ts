import type { Locator, Page } from "playwright-core";

/**
 * Moves focus with the Tab key only until `target` has it (fails after `max` presses): proof
 * that a keyboard user reaches it in order, without the mouse.
 */
export async function tabTo(page: Page, target: Locator, max = 80) {
  const handle = await target.elementHandle();
  if (!handle) throw new Error("tabTo: no such element");
  for (let i = 0; i < max; i++) {
    if (await handle.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`tabTo: not reached by ${max} Tab presses`);
}

/** Tabs to a text field, clears it and types `text` with the keyboard. */
export async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(text);
}

/** Tabs to a button (or link, or radio) and presses it with Enter (Space for radios and checkboxes). */
export async function press(page: Page, target: Locator, key: "Enter" | "Space" = "Enter") {
  await tabTo(page, target);
  await page.keyboard.press(key);
}
