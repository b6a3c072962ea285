import type { Signer, TransactionReceipt } from "ethers";
import type { Core } from "./core.js";
import type { Body, PublicRouteName, ResponseData } from "../types.js";
import { withPrerequisites } from "../prerequisites.js";

type Amount = bigint | string | number;

/** What a brand sets up before it issues pSP (each part optional; done in this order). */
export interface IssuerSetup {
  /** Factory mint/redeem and Points transfer allowlists to add these accounts to. */
  allowlists?: { mint?: string[]; redeem?: string[]; transfer?: string[] };
  /** Collateral to mint into SP (Factory.mint); the collateral approval is sent first when asked. */
  deposit?: { asset: string; amount: Amount };
  /** A campaign to create (its budget in SP is drawn from the signer; the SP approval is sent first when asked). */
  campaign?: { campaignId: string; spBudget: Amount; metadata?: string };
  /** A delegated minter of a campaign (setMinter active) with its issuance limit. */
  minter?: { campaignId: string; minter: string; limit: Amount };
  /** An account given SETTLEMENT_ADMIN_ROLE on the PSPVault (settles and expires pSP). */
  settler?: string;
}

/** One step: a build route and its body without signer and nonce (a Safe batch action as well). */
export type SetupAction = { route: PublicRouteName; body: Record<string, unknown> };

/** The setup as ordered build-route actions, with no request made. */
export function issuerSetupActions(setup: IssuerSetup): SetupAction[] {
  const actions: SetupAction[] = [];
  const lists = { mint: "whitelistMintAdd", redeem: "whitelistRedeemAdd", transfer: "whitelistTransferAdd" } as const;
  for (const list of ["mint", "redeem", "transfer"] as const) {
    for (const account of setup.allowlists?.[list] ?? []) actions.push({ route: lists[list], body: { account } });
  }
  if (setup.deposit) {
    const { asset, amount } = setup.deposit;
    actions.push({ route: "buildMint", body: { input: { asset, amount: String(amount) } } });
  }
  if (setup.campaign) {
    const { campaignId, spBudget, metadata = "" } = setup.campaign;
    actions.push({
      route: "pspCreateCampaign",
      body: { campaignId, spBudget: String(spBudget), settlementDestinations: [], transferWhitelist: [], metadata },
    });
  }
  if (setup.minter) {
    const { campaignId, minter, limit } = setup.minter;
    actions.push({ route: "pspConfigureMinter", body: { campaignId, minter, limit: String(limit), active: true } });
  }
  if (setup.settler) {
    actions.push({ route: "pspGrantRole", body: { roleType: "SETTLEMENT_ADMIN", account: setup.settler } });
  }
  return actions;
}

/** Progress of a direct setup: each step's route and receipt, in order. */
export interface SetupStep {
  index: number;
  route: PublicRouteName;
  receipt: TransactionReceipt;
}

/**
 * Setting a brand up to issue pSP: allowlists, collateral into SP, a campaign, a delegated minter,
 * the settlement role. `issuer` sends the steps one by one from a wallet (each built once the one
 * before is mined, so each is simulated on the state it runs on; an approval the API asks for is
 * sent first); `issuerSafe` builds all of them as ONE Safe transaction (MultiSendCallOnly) to propose.
 */
export function setupNamespace(core: Core, safeBatch: (body: Body<"safeBatch">) => Promise<ResponseData<"safeBatch">>) {
  const program = (p?: string) => p ?? core.program;
  return {
    actions: issuerSetupActions,
    issuer: async (
      setup: IssuerSetup,
      signer: Signer,
      opts: { program?: string; onStep?: (s: SetupStep) => void } = {},
    ): Promise<SetupStep[]> => {
      const from = await signer.getAddress();
      const steps: SetupStep[] = [];
      for (const [index, action] of issuerSetupActions(setup).entries()) {
        // The original /api/v1 build routes name their signer `key`; the others `from`.
        const signerField = action.route === "buildMint" ? "key" : "from";
        const body = { ...action.body, [signerField]: from, program: program(opts.program) };
        const tx = await withPrerequisites(() => core.write(action.route, { body } as never), signer);
        const step = { index, route: action.route, receipt: await tx.send(signer) };
        opts.onStep?.(step);
        steps.push(step);
      }
      return steps;
    },
    issuerSafe: (setup: IssuerSetup, opts: { safe: string; multiSendCallOnly?: string; nonce?: number }) =>
      safeBatch({
        safe: opts.safe,
        multiSendCallOnly: opts.multiSendCallOnly,
        nonce: opts.nonce,
        actions: issuerSetupActions(setup),
      } as Body<"safeBatch">),
  };
}
