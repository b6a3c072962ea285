/**
 * Gas of program operations executed directly by a wallet vs through a 2-of-3 Safe v1.4.1, and
 * of a 10-call MultiSendCallOnly batch vs 10 separate Safe transactions
 * (docs/architecture.md#safe-multisig). Printed, never asserted: `pnpm --filter @points/api bench:safe`.
 *
 * Two programs of one release get the same setup: "acme" stays with the brand wallet (direct),
 * "bravo" is handed over to the Safe, which gets the brand's roles. Each operation then runs once
 * on each, on mirrored state, so the difference is what execTransaction and the signatures cost.
 */
import { Wallet, id, parseUnits, type TransactionReceipt } from "ethers";
import {
  Factory__factory,
  MockStablecoin__factory,
  PSPVault__factory,
  PointsV2Mock__factory,
  Points__factory,
} from "@points/contracts";
import {
  actors,
  deployProgram,
  devSafe,
  devWallet,
  encodeMultiSend,
  execSafeTx,
  safeTx,
  startNode,
  type ProgramRecord,
} from "@points/testkit";

const SP = (n: number) => parseUnits(String(n), 18);
const fi = Factory__factory.createInterface();
const pi = Points__factory.createInterface();
const vi = PSPVault__factory.createInterface();
const ROLES = ["MANAGER_ROLE", "CAMPAIGN_ADMIN_ROLE", "SETTLEMENT_ADMIN_ROLE", "ISSUING_ADMIN_ROLE"];

const node = await startNode();
try {
  const p = node.provider;
  const { brand } = actors(p);
  const wait = async (t: Promise<{ wait(): Promise<TransactionReceipt | null> }>) => (await (await t).wait())!;
  const acme = await deployProgram(p, "acme");
  const release = { programFactory: acme.programFactory, usdc: acme.usdc };
  const { record: bravo } = await deployProgram(p, "bravo", { release });
  const receiver = Wallet.createRandom().address;

  /** The brand buys 1,000 SP on `r` and leaves 500 in its PSPVault; `receiver` may receive SP. */
  const fund = async (r: ProgramRecord) => {
    const factory = Factory__factory.connect(r.factory, brand);
    const points = Points__factory.connect(r.points, brand);
    const usdc = MockStablecoin__factory.connect(release.usdc, brand);
    await wait(factory.addToMintWhitelist(brand.address));
    for (const a of [brand.address, receiver]) await wait(points.addToTransferWhitelist(a));
    await wait(usdc.mint(brand.address, 1_000_000_000n));
    await wait(usdc.approve(r.factory, 1_000_000_000n));
    await wait(factory.mint(release.usdc, 1_000_000_000n, brand.address));
    await wait(points.transfer(r.pspVault, SP(500)));
  };
  await fund(acme.record);
  await fund(bravo);

  // bravo: the Safe gets the brand's roles, then DEFAULT_ADMIN_ROLE by the two-step handover.
  const safe = await devSafe(p);
  const signers = [safe.owners[0]!, safe.owners[1]!];
  const relayer = devWallet(9, p);
  const viaSafe = async (to: string, data: string, operation: 0 | 1 = 0) => {
    const tx = { ...(await safeTx(p, safe.address, { to, data })), operation };
    return (await execSafeTx(relayer, safe.address, tx, signers)).gasUsed;
  };
  const vault = PSPVault__factory.connect(bravo.pspVault, brand);
  for (const role of ROLES) await wait(vault.grantRole(id(role), safe.address));
  await wait(Factory__factory.connect(bravo.factory, brand).grantRole(id("MANAGER_ROLE"), safe.address));
  await wait(Points__factory.connect(bravo.points, brand).grantRole(id("PAUSER_ROLE"), safe.address));
  for (const c of [bravo.factory, bravo.points])
    await wait(Points__factory.connect(c, brand).beginDefaultAdminTransfer(safe.address));
  await p.send("evm_increaseTime", [1]);
  await p.send("evm_mine", []);
  for (const c of [bravo.factory, bravo.points]) await viaSafe(c, pi.encodeFunctionData("acceptDefaultAdminTransfer"));

  const direct = async (to: string, data: string) => (await wait(brand.sendTransaction({ to, data }))).gasUsed;
  const campaign = id("bench");
  const impl = await (await new PointsV2Mock__factory(relayer).deploy()).getAddress();
  const grantee = Wallet.createRandom().address;
  /** Each operation as [name, target on a program, calldata for its actor (brand or Safe)]. */
  const ops: [string, (r: ProgramRecord) => string, (actor: string) => string][] = [
    [
      "PSPVault.createCampaign",
      (r) => r.pspVault,
      () => vi.encodeFunctionData("createCampaign", [campaign, SP(100), [receiver], [], ""]),
    ],
    ["PSPVault.setMinter", (r) => r.pspVault, (a) => vi.encodeFunctionData("setMinter", [campaign, a, SP(50), true])],
    ["PSPVault.mint (pSP)", (r) => r.pspVault, () => vi.encodeFunctionData("mint", [campaign, grantee, SP(20), ""])],
    [
      "PSPVault.settle",
      (r) => r.pspVault,
      () => vi.encodeFunctionData("settle", [grantee, receiver, SP(5), campaign, ""]),
    ],
    ["Points.pause", (r) => r.points, () => pi.encodeFunctionData("pause")],
    ["Points.unpause", (r) => r.points, () => pi.encodeFunctionData("unpause")],
    ["Factory.grantRole", (r) => r.factory, () => fi.encodeFunctionData("grantRole", [id("PAUSER_ROLE"), grantee])],
    ["Points.upgradeToAndCall", (r) => r.points, () => pi.encodeFunctionData("upgradeToAndCall", [impl, "0x"])],
  ];
  const rows: [string, bigint, bigint][] = [];
  for (const [name, to, data] of ops)
    rows.push([name, await direct(to(acme.record), data(brand.address)), await viaSafe(to(bravo), data(safe.address))]);
  const pad = (v: unknown, n: number) => String(v).padStart(n);
  console.log("operation                        direct   via Safe (2-of-3)   overhead   ratio");
  for (const [name, d, s] of rows)
    console.log(
      `${name.padEnd(30)} ${pad(d, 8)} ${pad(s, 12)} ${pad(s - d, 17)} ${pad((Number(s) / Number(d)).toFixed(2), 7)}`,
    );

  const accounts = Array.from({ length: 20 }, () => Wallet.createRandom().address);
  const whitelist = (a: string) => ({ to: bravo.factory, data: fi.encodeFunctionData("addToMintWhitelist", [a]) });
  const batch = await viaSafe(safe.infra.multiSendCallOnly, encodeMultiSend(accounts.slice(0, 10).map(whitelist)), 1);
  let separate = 0n;
  for (const a of accounts.slice(10)) separate += await viaSafe(bravo.factory, whitelist(a).data);
  console.log(
    `\n10 x Factory.addToMintWhitelist: one MultiSendCallOnly Safe tx ${batch}, 10 separate Safe txs ${separate} ` +
      `(batch/separate ${(Number(batch) / Number(separate)).toFixed(2)}, saves ${separate - batch})`,
  );
} finally {
  await node.stop();
}
