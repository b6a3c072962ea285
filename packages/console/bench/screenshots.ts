/**
 * `pnpm screenshots`: a full-page PNG of every console page at 1440x900 and 390x844, for a person
 * to look at. Starts what the e2e tests start (a Hardhat node, a program with a funded campaign and
 * points issued to two customers, the real API serving the built console), signs in as a person
 * does and walks the sign-in page, the wizard steps and each dashboard page.
 * SHOTS_DIR=<folder> (default /tmp/console-shots). Build the console first (pnpm build).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { id as labelHash, parseUnits, type Wallet } from "ethers";
import type { Page } from "playwright-core";
import { PSPVault__factory, Points__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import { createClient } from "@points/sdk";
import { deployProgram, devWallet, fundedCampaign, startApi, startNode } from "@points/testkit";
import { launch } from "../test/helpers/browser.js";
import { signIn } from "../test/helpers/flow.js";
import { injectWallet } from "../test/helpers/wallet.js";

const OUT = process.env.SHOTS_DIR ?? "/tmp/console-shots";
const WIDTHS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
] as const;
// The wizard steps the console has a URL for, by step number (src/wizard/WizardRoute.tsx).
const STEP_PATHS = ["", "", "wallet", "organization", "chain", "token", "deploy", "progress", "contracts"];
const SP = (n: string) => parseUnits(n, 18);
// The dashboard's pages, by URL segment under /console/program/ (src/pages.tsx), and the sub-pages.
const DASHBOARD = [
  "overview",
  "campaigns",
  "campaigns/spring",
  "campaigns/spring/ledger",
  "allowlists",
  "roles",
  "redemption",
  "settings",
  "redemption-desk",
  "safe",
  "customer",
  "customer/:alice",
  "webhooks",
  "bulk",
];

/** Lets the page's reads land, then saves it whole. */
async function shoot(page: Page, file: string) {
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(1_000);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`  ${file}`);
}

/** Connects the injected wallet where a page asks for it, so the page shows its data and enabled forms. */
async function connect(page: Page, address: string) {
  // The banner's button renders once the session has loaded; checking earlier finds nothing.
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
  const button = page.getByRole("button", { name: "Connect wallet" }).first();
  if (await button.isVisible().catch(() => false)) {
    await button.click();
    await page
      .getByText(address)
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => console.log(`  ${page.url()}: the wallet did not connect`));
  }
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const node = await startNode();
  const [brand, alice, bob] = [1, 2, 3].map((i) => devWallet(i, node.provider)) as [Wallet, Wallet, Wallet];
  // The e2e lists' fixture: a campaign funded with 100 SP, a minter, points issued to two customers.
  const acme = await deployProgram(node.provider, "acme");
  await fundedCampaign(node.provider, acme.record, acme.usdc, "spring", 100n, JSON.stringify({ label: "spring" }));
  const vault = PSPVault__factory.connect(acme.record.pspVault, brand);
  await (await vault.updateSettlementWhitelist(labelHash("spring"), alice, true)).wait();
  await (await Points__factory.connect(acme.record.points, brand).addToTransferWhitelist(alice)).wait();
  await (await vault.setMinter(labelHash("spring"), devWallet(4).address, SP("10"), true)).wait();
  const api = await startApi(pointsApi, node.url, {
    DEV_MAILBOX: "1",
    LEDGER_CONFIRMATIONS: "0",
    LEDGER_POLL_MS: "100",
  });
  await api.service.ctx.programs.insert(acme.record);
  const owner = (await pointsApi.createDevProgramAccount(api.service.ctx, "acme", brand.address)).email;
  const { key } = await api.service.ctx.keys.create("operations");
  const issuer = createClient({ baseUrl: api.url, apiKey: key, program: "acme" }).issuer(brand, {
    salt: "console-screenshots-salt",
  });
  await issuer.issue({ orderRef: "A-1", campaignId: "spring", to: alice.address, amount: SP("30.5") });
  await issuer.issue({ orderRef: "B-1", campaignId: "spring", to: bob.address, amount: SP("7") });
  const settle = { orderRef: "A-1", campaignId: "spring", holder: alice.address, receiver: alice.address };
  await issuer.settle({ ...settle, amount: SP("12.25") });

  try {
    for (const w of WIDTHS) {
      console.log(`${w.width}x${w.height}`);
      const b = await launch({ width: w.width, height: w.height });
      try {
        const page = b.context.pages()[0] ?? (await b.context.newPage());
        page.setDefaultTimeout(20_000);
        await injectWallet(page, node.provider, brand);
        const file = (name: string) => join(OUT, `${name}.${w.name}.png`);

        // The wizard, as a new person: each step the server lets this account open.
        const person = `wizard-${w.name}@example.com`;
        await page.goto(`${api.url}/console/`);
        await page.getByLabel("E-mail address", { exact: true }).waitFor();
        await shoot(page, file("00-sign-in"));
        await signIn(page, api.url, person);
        await page.waitForURL(/\/console\/setup/);
        for (let step = 2; step < STEP_PATHS.length; step++) {
          const res = await page.request.put(`${api.url}/console/v1/wizard`, { data: { step } });
          if (!res.ok()) {
            console.log(`  wizard step ${step} (${STEP_PATHS[step]}): the server refused it (${res.status()})`);
            continue;
          }
          await page.goto(`${api.url}/console/setup/${STEP_PATHS[step]}`);
          await shoot(page, file(`0${step}-wizard-${STEP_PATHS[step]}`));
        }
        await page.context().clearCookies();

        // The dashboard, as the program's owner.
        await page.goto(`${api.url}/console/`);
        await signIn(page, api.url, owner);
        await page.waitForURL(/\/console\/program\//);
        for (const [i, path] of DASHBOARD.entries()) {
          await page.goto(`${api.url}/console/program/${path.replace(":alice", alice.address)}`);
          await connect(page, brand.address);
          const name = path.replace(":alice", "alice").replaceAll("/", "-");
          await shoot(page, file(`${String(10 + i)}-${name}`));
        }
      } finally {
        await b.close();
      }
    }
  } finally {
    await api.close();
    await node.stop();
  }
}

await main();
