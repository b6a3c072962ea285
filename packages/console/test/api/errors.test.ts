import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ERROR_CODES } from "@points/schema";
import { ABIS } from "@points/contracts/program/abi";
import { PointsApiError } from "@points/sdk";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const sentencesPath = "../../src/api/revertSentences.ts";
const errorsPath = "../../src/api/errors.ts";
const { revertSentence, SENTENCE_NAMES } = (await import(sentencesPath)) as {
  revertSentence: (name: string, args: unknown, contract?: string, tokenSymbol?: string | null) => string | undefined;
  SENTENCE_NAMES: readonly string[];
};
interface Described {
  title: string;
  detail?: string;
  fields?: { field: string; message: string }[];
  raw?: string;
}
const { describeError, CODE_SENTENCES } = (await import(errorsPath)) as {
  describeError: (e: unknown) => Described;
  CODE_SENTENCES: Record<string, string>;
};

const errorsOfAbis = () => {
  const names = new Set<string>();
  for (const abi of Object.values(ABIS))
    for (const f of abi as readonly { type: string; name?: string }[]) if (f.type === "error") names.add(f.name!);
  return [...names].sort();
};

const wouldRevert = (name: string, args: Record<string, string>) =>
  new PointsApiError("WOULD_REVERT", `${name}(...)`, {
    status: 422,
    details: { contract: "pspVault", name, args, selector: "0x00000000" },
  });

describe("every error the console can receive has a sentence", () => {
  it("everyCustomErrorOfTheContractAbis_hasASentence", () => {
    const names = errorsOfAbis();
    assert.ok(names.length > 90, `only ${names.length} errors in the ABIs`);
    assert.deepEqual(
      names.filter((n) => !SENTENCE_NAMES.includes(n)),
      [],
    );
    // Each renders without its arguments too (the sentence never throws for a missing argument).
    for (const n of names) assert.ok(revertSentence(n, {}), n);
  });

  it("everyApiErrorCodeOfTheSchema_hasASentence", () => {
    assert.deepEqual(
      Object.keys(ERROR_CODES).filter((c) => !CODE_SENTENCES[c]),
      [],
    );
    for (const c of Object.keys(ERROR_CODES)) {
      const d = describeError(new PointsApiError(c as "INTERNAL", "raw text", { details: {} }));
      assert.notEqual(d.title, c);
      assert.match(d.raw ?? "", new RegExp(`^${c}: raw text`));
    }
  });
});

describe("the exact sentences", () => {
  it("enforcedPause_saysThePausedContractAndWhoUnpauses_rawBehindDetails", () => {
    assert.deepEqual(describeError(wouldRevert("EnforcedPause", {})), {
      title: "The transaction would fail",
      detail: "This contract is paused. An admin must unpause it once the incident is over; then try again.",
      raw: "EnforcedPause()",
    });
  });

  it("invalidCampaignStatus_namesTheStatusInWords", () => {
    const id = "0x" + "ab".repeat(32);
    assert.deepEqual(describeError(wouldRevert("InvalidCampaignStatus", { campaignId: id, status: "3" })), {
      title: "The transaction would fail",
      detail:
        "This campaign is closed, so this step is not allowed: campaigns go from active to paused and back, then to closed, and a closed campaign cannot be funded or reopened. Create a new campaign instead.",
      raw: `InvalidCampaignStatus(campaignId: ${id}, status: 3)`,
    });
  });

  it("redeemDelayNotElapsed_rendersTheReadyTime", () => {
    const at = new Date(Date.now() + 52 * 60_000 - 1_000);
    at.setMilliseconds(0);
    const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
    const readyAt = String(at.getTime() / 1000);
    assert.deepEqual(describeError(wouldRevert("RedeemDelayNotElapsed", { requestId: "2", readyAt })), {
      title: "The transaction would fail",
      detail: `Redemption #2 is not ready yet: ready in 52 min (${hhmm}). Finalize it then, or ask an executor, who may finalize at once.`,
      raw: `RedeemDelayNotElapsed(requestId: 2, readyAt: ${readyAt})`,
    });
  });

  it("invalidInputOnBodyInputAccount_namesTheFieldInWords", () => {
    const message = "must be an address: 0x followed by 40 hex digits";
    const e = new PointsApiError("INVALID_INPUT", `body.input.account: ${message}`, {
      status: 400,
      details: { issues: [{ field: "body.input.account", message }] },
    });
    assert.deepEqual(describeError(e), {
      title: "Some input is not valid",
      fields: [{ field: "Account", message: "not a valid address (0x followed by 40 hex digits)" }],
      raw: `INVALID_INPUT: body.input.account: ${message} {"issues":[{"field":"body.input.account","message":"${message}"}]}`,
    });
  });

  it("addressesAreChecksummed_andRolesNamed", () => {
    assert.equal(
      revertSentence("AccessControlUnauthorizedAccount", {
        account: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        neededRole: "0x0000000000000000000000000000000000000000000000000000000000000000",
      }),
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8 does not hold DEFAULT_ADMIN_ROLE. Have an admin grant it, or sign with an account that holds it.",
    );
  });
});

describe("amounts are in the unit of the contract that raised them", () => {
  it("erc20InsufficientBalance_isSpOnPoints_andSmallestUnitsOnCollateral", () => {
    const args = { sender: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", balance: "1500000000000000000", needed: "2" };
    assert.equal(
      revertSentence("ERC20InsufficientBalance", args, "points", "SP"),
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8 holds 1.5 SP; 0.000000000000000002 SP are needed. Use at most the balance.",
    );
    assert.equal(
      revertSentence("ERC20InsufficientBalance", args, "points", "DEMO"),
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8 holds 1.5 DEMO; 0.000000000000000002 DEMO are needed. Use at most the balance.",
    );
    assert.equal(
      revertSentence("ERC20InsufficientBalance", args, "points"),
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8 holds 1.5; 0.000000000000000002 are needed. Use at most the balance.",
    );
    assert.equal(
      revertSentence("ERC20InsufficientBalance", args, "asset"),
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8 holds 1500000000000000000 (smallest units); 2 (smallest units) are needed. Use at most the balance.",
    );
  });
});
