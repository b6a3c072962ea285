import type { Page } from "playwright-core";
import { screenshot } from "./browser.js";

/** The newest sign-in code the API's dev mailbox holds for `email`. */
export async function mailboxCode(apiUrl: string, email: string): Promise<string> {
  const res = await fetch(`${apiUrl}/console/v1/dev/mailbox`);
  const body = (await res.json()) as { data: { email: string; code: string; sentAt: string }[] };
  const entries = body.data.filter((e) => e.email === email).sort((a, b) => b.sentAt.localeCompare(a.sentAt));
  if (!entries[0]) throw new Error(`no code for ${email} in the dev mailbox`);
  return entries[0].code;
}

/** Step 1 as a person does it: e-mail, code from the mailbox, sign in. */
export async function signIn(page: Page, apiUrl: string, email: string, shot?: string) {
  await page.getByLabel("E-mail address", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("6-digit code", { exact: true }).waitFor();
  await page.getByLabel("6-digit code", { exact: true }).fill(await mailboxCode(apiUrl, email));
  if (shot) await screenshot(page, shot);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Waits until the server holds wizard step `step` or later for `email`. The page saves step 2 as the wizard opens, so its
 * heading shows before that save lands: a state a test then writes straight to the store could be overwritten by it.
 */
export async function savedStep(
  users: { get(email: string): Promise<{ wizard: { step: number } }> },
  email: string,
  step: number,
): Promise<void> {
  // A bound only for a clear failure; the wait itself ends on the saved state.
  for (const deadline = Date.now() + 120_000; (await users.get(email)).wizard.step < step;) {
    if (Date.now() > deadline) throw new Error(`the console never saved wizard step ${step} for ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByLabel("E-mail address", { exact: true }).waitFor();
}

/** The step the stepper marks as current. */
export const currentStep = (page: Page) => page.locator('.stepper [aria-current="step"] .name').innerText();

/** The stepper's current step once it reads `name` (it may update a frame after the step's heading shows). */
export async function stepNow(page: Page, name: string): Promise<string> {
  await page.locator('.stepper [aria-current="step"] .name', { hasText: name }).waitFor();
  return currentStep(page);
}

/**
 * Drives the transaction dialog: (optionally) the prerequisite approval, then the call itself;
 * waits for the receipt and closes. Returns the dialog's text at the receipt.
 */
export async function signInDialog(page: Page, shot: string, opts: { approval?: boolean } = {}) {
  const dialog = page.getByRole("dialog");
  if (opts.approval) {
    await dialog.getByRole("button", { name: "Sign approval" }).click();
  }
  await dialog.getByRole("button", { name: "Sign and send" }).waitFor();
  await screenshot(page, `${shot}-review`);
  await dialog.getByRole("button", { name: "Sign and send" }).click();
  await dialog.getByText("Confirmed").waitFor();
  const text = await dialog.innerText();
  await screenshot(page, `${shot}-receipt`);
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.waitFor({ state: "hidden" });
  return text;
}

/**
 * Opens the tab whose panel holds a form (a campaign's forms sit in tabs, src/components/Tabs.tsx),
 * by the tab the panel is labelled by, as an operator would: a form outside any tab is left as is.
 */
export async function openTabOf(page: Page, form: string) {
  await page.locator(`form[data-form="${form}"]`).waitFor({ state: "attached" });
  const panel = page.locator(`[role="tabpanel"]:has(form[data-form="${form}"])`);
  if ((await panel.count()) === 0 || (await panel.isVisible())) return;
  const id = await panel.getAttribute("id");
  await page.locator(`[role="tab"][aria-controls="${id}"]`).click();
  // React renders the choice after the click has returned: wait for the tab to say it is chosen.
  await page.locator(`[role="tab"][aria-controls="${id}"][aria-selected="true"]`).waitFor();
  await panel.waitFor();
}

/** Fills one of the dashboard's action forms by its labels and submits it, in its tab when it has one. */
export async function submitForm(page: Page, form: string, fields: Record<string, string>) {
  await openTabOf(page, form);
  const f = page.locator(`form[data-form="${form}"]`);
  for (const [label, value] of Object.entries(fields)) await f.getByLabel(label, { exact: true }).fill(value);
  await f.locator('button[type="submit"]').click();
}
