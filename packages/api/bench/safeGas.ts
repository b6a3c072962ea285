/**
 * Gas of program operations executed directly by a wallet vs through a 2-of-3 Safe v1.4.1, and
 * of a 10-call MultiSendCallOnly batch vs 10 separate Safe transactions
 * (docs/architecture.md#safe-multisig). Printed, never asserted: `pnpm --filter @points/api bench:safe`.
 */
import { Wallet, id } from "ethers";
import { Factory__factory, Points__factory } from "@points/contracts";
import {
  actors,
  deployProgram,
  devSafe,
  devWallet,
  encodeMultiSend,
  execSafeTx,
  safeTx,
  startNode,
} from "@points/testkit";

const node = await startNode();
try {
  const p = node.provider;
  const { record } = await deployProgram(p);
  const { brand } = actors(p);
  const safe = await devSafe(p);
  const signers = [safe.owners[0]!, safe.owners[1]!];
  const relayer = devWallet(9, p);
  const factory = Factory__factory.connect(record.factory, brand);
  const points = Points__factory.connect(record.points, brand);
  for (const role of ["MANAGER_ROLE", "PAUSER_ROLE"]) await (await factory.grantRole(id(role), safe.address)).wait();
  await (await points.grantRole(id("PAUSER_ROLE"), safe.address)).wait();
  const fi = Factory__factory.createInterface();
  const pi = Points__factory.createInterface();
  const accounts = Array.from({ length: 30 }, () => Wallet.createRandom().address);
  const viaSafe = async (to: string, data: string, operation: 0 | 1 = 0) => {
    const tx = { ...(await safeTx(p, safe.address, { to, data })), operation };
    return (await execSafeTx(relayer, safe.address, tx, signers)).gasUsed;
  };
  const direct = async (to: string, data: string) =>
    (await (await brand.sendTransaction({ to, data })).wait())!.gasUsed;

  const rows: [string, bigint, bigint][] = [];
  rows.push([
    "Factory.addToMintWhitelist",
    await direct(record.factory, fi.encodeFunctionData("addToMintWhitelist", [accounts[0]])),
    await viaSafe(record.factory, fi.encodeFunctionData("addToMintWhitelist", [accounts[1]])),
  ]);
  const pauseD = await direct(record.points, pi.encodeFunctionData("pause"));
  await (await points.unpause()).wait();
  rows.push(["Points.pause", pauseD, await viaSafe(record.points, pi.encodeFunctionData("pause"))]);
  await (await points.unpause()).wait();
  console.log("operation                       direct    via Safe (2-of-3)   overhead");
  for (const [name, d, s] of rows)
    console.log(`${name.padEnd(30)} ${String(d).padStart(7)} ${String(s).padStart(12)} ${String(s - d).padStart(14)}`);

  const calls = accounts
    .slice(10, 20)
    .map((a) => ({ to: record.factory, data: fi.encodeFunctionData("addToMintWhitelist", [a]) }));
  const batch = await viaSafe(safe.infra.multiSendCallOnly, encodeMultiSend(calls), 1);
  let separate = 0n;
  for (const a of accounts.slice(20, 30))
    separate += await viaSafe(record.factory, fi.encodeFunctionData("addToMintWhitelist", [a]));
  console.log(
    `\n10 x addToMintWhitelist: one MultiSendCallOnly Safe tx ${batch}, 10 separate Safe txs ${separate} (saves ${separate - batch})`,
  );
} finally {
  await node.stop();
}
