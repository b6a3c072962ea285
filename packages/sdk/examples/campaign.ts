/**
 * A loyalty campaign end to end through the SDK: allowlist a customer, fund and create a
 * campaign, let a partner issue pSP as a delegated minter, and settle it into SP.
 *
 *   POINTS_API_URL=http://127.0.0.1:3000 POINTS_API_KEY=... RPC_URL=http://127.0.0.1:8545 \
 *   BRAND_PRIVATE_KEY=0x... PARTNER_PRIVATE_KEY=0x... CUSTOMER_ADDRESS=0x... \
 *   node --import tsx examples/campaign.ts
 *
 * The brand wallet holds the program's admin roles and some of its collateral asset.
 */
import { JsonRpcProvider, Wallet, formatUnits, parseUnits, type Signer } from "ethers";
import { PointsApiError, createClient, type PreparedTx } from "@points/sdk";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
};

const provider = new JsonRpcProvider(env("RPC_URL"));
const brand = new Wallet(env("BRAND_PRIVATE_KEY"), provider);
const partner = new Wallet(env("PARTNER_PRIVATE_KEY"), provider);
const customer = env("CUSTOMER_ADDRESS");
const campaignId = process.env.CAMPAIGN_ID ?? `welcome-${Date.now()}`;
const points = createClient({ baseUrl: env("POINTS_API_URL"), apiKey: env("POINTS_API_KEY") });

/** Builds and sends; when the API first asks for another transaction (an approval), sends that first. */
async function run(step: string, build: () => Promise<PreparedTx>, signer: Signer) {
  try {
    await (await build()).send(signer);
  } catch (e) {
    if (!(e instanceof PointsApiError && e.prerequisite)) throw e;
    await e.prerequisite.send(signer);
    await (await build()).send(signer);
  }
  console.log(`ok  ${step}`);
}

const from = { from: brand.address };

// SP moves only between addresses on the Points transfer allowlist: the brand (to receive
// minted SP) and the customer (to receive settled SP).
for (const account of [brand.address, customer]) {
  if (!(await points.points.isTransferWhitelisted(account))) {
    await run(`transfer allowlist + ${account}`, () => points.points.addToTransferWhitelist(account, from), brand);
  }
}

// The campaign budget is SP: mint 100 SP from the collateral asset (the first registered one).
const [{ asset }] = await points.read.assets();
const state = await points.read.factoryState();
const decimals = state.assets.find((a) => a.asset === asset)!.decimals;
if (!(await points.factory.whitelistStatus(brand.address)).mint) {
  await run("mint allowlist + brand", () => points.factory.addToMintWhitelist(brand.address, from), brand);
}
await run(
  "mint 100 SP",
  () => points.build.mint({ asset, amount: parseUnits("100", decimals).toString() }, from),
  brand,
);

const budget = parseUnits("50", 18).toString();
await run(
  `create campaign ${campaignId}`,
  () =>
    points.vault.createCampaign(
      {
        campaignId,
        spBudget: budget,
        settlementDestinations: [customer],
        transferWhitelist: [customer],
        metadata: "Welcome bonus",
      },
      from,
    ),
  brand,
);

// The partner holds no role: it may issue up to 10 pSP on this campaign only (docs/glossary.md#delegated-minter).
const limit = parseUnits("10", 18).toString();
await run(
  "partner becomes a minter",
  () => points.vault.setMinter(campaignId, partner.address, limit, true, from),
  brand,
);
const amount = parseUnits("5", 18).toString();
await run(
  "partner issues 5 pSP",
  () => points.vault.mint(campaignId, customer, amount, "first purchase", { from: partner.address }),
  partner,
);
await run(
  "settle 5 pSP to SP",
  () => points.vault.settle(customer, customer, amount, campaignId, "checkout", from),
  brand,
);

const sp = await points.read.balance(customer);
const psp = await points.vault.balanceOf(campaignId, customer);
const minter = await points.vault.getMinterConfig(campaignId, partner.address);
console.log(
  JSON.stringify({
    campaignId: psp.campaignId.value,
    customerSp: formatUnits(sp.balance, sp.decimals),
    customerPsp: psp.balance,
    partnerIssued: minter.issued,
  }),
);
provider.destroy();
