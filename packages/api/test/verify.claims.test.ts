import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { loadConfig } from "../src/index.js";
import type { Db } from "../src/core/db/db.js";
import { VerifyStore, type DueVerification } from "../src/core/verify/store.js";
import { SourceVerifyJob } from "../src/workers/verify/job.js";
import { submissionOf } from "@points/deployer";
import { backends, closeDb, freshDb } from "./helpers/db.js";

const CHAIN = "31337";
const KEY = "claims-test-key-71c2";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A contract due on Etherscan, as onboarding queues it (the Points artifact: any real one will do). */
async function queue(db: Db, address: string): Promise<void> {
  await db.query(
    `INSERT INTO source_verifications (chain_id, address, explorer, artifact, constructor_args, status)
     VALUES ($1, $2, 'etherscan', 'Points', '0x', 'pending')`,
    [CHAIN, address],
  );
}

async function row(db: Db, address: string) {
  const [r] = await db.query<{ status: string; attempts: number; claimed_by: string | null }>(
    "SELECT status, attempts, claimed_by FROM source_verifications WHERE address = $1",
    [address],
  );
  return { status: r!.status, attempts: Number(r!.attempts), claimedBy: r!.claimed_by };
}

/**
 * An Etherscan-style explorer that takes `delayMs` to accept each submission and then reports it
 * verified; it counts the submissions per contract.
 */
async function slowExplorer(delayMs: number) {
  const submissions = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const json = (body: object) => res.setHeader("content-type", "application/json").end(JSON.stringify(body));
      if (req.method === "POST") {
        const address = new URLSearchParams(Buffer.concat(chunks).toString()).get("contractaddress") ?? "?";
        submissions.set(address, (submissions.get(address) ?? 0) + 1);
        setTimeout(() => json({ status: "1", result: `guid-${address}` }), delayMs);
      } else json({ status: "1", result: "Pass - Verified" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return { apiUrl, submissions, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Source verification's claims (docs/architecture.md#the-api-in-three-layers): a claim is renewed
 * by its holder while the explorer is slow, never claimed again by its own holder, taken over by
 * another job only once it lapsed, and a holder whose claim was taken over writes nothing.
 */
for (const backend of backends()) {
  describe(`source verification claims (${backend.name})`, () => {
    let db: Db;
    let store: VerifyStore;
    let n = 0;
    const nextAddress = () => `0x${(++n).toString(16).padStart(40, "0")}`;
    before(async () => {
      db = await freshDb(backend);
      store = new VerifyStore(db);
    });
    afterEach(async () => {
      await db.query("DELETE FROM source_verifications");
    });
    after(() => closeDb(backend, db));

    const claimOne = async (owner: string, leaseMs: number): Promise<DueVerification[]> =>
      store.claim([CHAIN], 10, leaseMs, owner);

    it("claim_neverTakesARowItsOwnClaimHolds_evenOnceTheClaimLapsed", async () => {
      const address = nextAddress();
      await queue(db, address);
      assert.equal((await claimOne("job-a", 1)).length, 1);
      await sleep(20);
      assert.deepEqual(await claimOne("job-a", 60_000), [], "job a still runs it: not a second attempt beside it");
      const taken = await claimOne("job-b", 60_000);
      assert.deepEqual(
        taken.map((v) => [v.address, v.attempts]),
        [[address, 2]],
        "a lapsed claim is another job's to take",
      );
      assert.equal((await row(db, address)).claimedBy, "job-b");
    });

    it("aStaleHolder_writesNoAnswer_renewsNothing_onceAnotherJobTookTheClaimOver", async () => {
      const address = nextAddress();
      await queue(db, address);
      const [mine] = await claimOne("job-a", 1);
      await sleep(20);
      const [theirs] = await claimOne("job-b", 60_000);
      assert.equal(await store.renew(mine!, "job-a", 60_000), false);
      assert.equal(await store.settle(mine!, "job-a", "failed", null, "stale answer"), false);
      assert.equal(await store.later(mine!, "job-a", "stale retry", 0), false);
      assert.deepEqual(await row(db, address), { status: "pending", attempts: 2, claimedBy: "job-b" });
      assert.equal(await store.renew(theirs!, "job-b", 60_000), true);
      assert.equal(await store.settle(theirs!, "job-b", "verified", "https://x.example/a", null), true);
      assert.deepEqual(await row(db, address), { status: "verified", attempts: 2, claimedBy: null });
    });

    it("release_givesAJobsClaimsBack_dueAtOnce_forAnyJob", async () => {
      const address = nextAddress();
      await queue(db, address);
      assert.equal((await claimOne("job-a", 60_000)).length, 1);
      assert.deepEqual(await claimOne("job-b", 60_000), [], "claimed for a minute");
      await store.release("job-a");
      assert.deepEqual(await row(db, address), { status: "pending", attempts: 1, claimedBy: null });
      assert.equal((await claimOne("job-a", 60_000)).length, 1, "its old holder may take it again too");
    });

    it("aSlowExplorer_isAskedOncePerContract_byTwoJobs_whileTheHolderRenewsItsClaim", async (t) => {
      // Each submission takes four times the claim's lease: without renewals the second job
      // would take every claim over and submit each contract again. The first submission of a
      // process parses the compiler's output (18 MB) once, holding the event loop for 0.4 s on
      // an idle machine and seconds on a loaded one, renewals included: it is parsed before the
      // jobs start, so the lease measures renewals, not the machine (production's is 10 min).
      submissionOf({ label: "warm-up", address: nextAddress(), artifact: "Points", constructorArgs: "" }, 31337n);
      const leaseMs = 1_000;
      const explorer = await slowExplorer(4 * leaseMs);
      t.after(() => explorer.close());
      const config = loadConfig({
        CHAINS: JSON.stringify([
          {
            chainId: Number(CHAIN),
            name: "Hardhat",
            rpcUrl: "http://127.0.0.1:9",
            explorerUrl: "https://x.example",
            sourceVerify: { etherscanApiUrl: explorer.apiUrl },
          },
        ]),
        ETHERSCAN_API_KEY: KEY,
        VERIFY_POLL_MS: "50",
      });
      const opts = { chainIds: [CHAIN], pollMs: 50, batch: 16, leaseMs, retryMinMs: 60_000, retryMaxMs: 60_000 };
      const logger = pino({ level: "silent" });
      const jobs = [
        new SourceVerifyJob({ config, db }, logger, opts),
        new SourceVerifyJob({ config, db }, logger, opts),
      ];
      const addresses = [nextAddress(), nextAddress()];
      for (const a of addresses) await queue(db, a);
      for (const j of jobs) j.start();
      t.after(() => Promise.all(jobs.map((j) => j.stop(5_000))));
      const deadline = Date.now() + 30_000;
      while ((await Promise.all(addresses.map((a) => row(db, a)))).some((r) => r.status !== "verified")) {
        assert.ok(Date.now() < deadline, "both contracts verified within 30 s");
        await sleep(50);
      }
      await sleep(2 * leaseMs); // two leases more: a job that took a claim over would have submitted by now
      assert.deepEqual(
        addresses.map((a) => explorer.submissions.get(a)),
        [1, 1],
        "one submission per contract",
      );
      for (const a of addresses)
        assert.deepEqual(await row(db, a), { status: "verified", attempts: 1, claimedBy: null });
    });
  });
}
