import type { ReactNode } from "react";
import { Address } from "../../components/format/Address";
import { useTx } from "../../components/TxDialog";
import { Card, ErrorBox } from "../../components/ui";
import type { Acting, RoleOn } from "../../safe/roleSafes";
import { useWallet } from "../../wallet/wallet";
import { isZeroAddress } from "../addressCheck";
import { programContracts } from "../chain";
import { useDash, useLoad } from "../context";
import { CONTRACT_WORDS } from "../names";
import { accessChange, type Blocker } from "../preflight/checks";
import { tokenWord } from "../tokenSymbol";
import { useTokenSymbol } from "../useTokenSymbol";
import { DeskPolicyCard, POLICY_WORDS } from "./DeskPolicyCard";
import { FeeReceiverCard } from "./FeeReceiverCard";
import { FeesCard } from "./FeesCard";
import { ADMIN, MANAGER, POINTS_ADMIN } from "./Gate";
import { RedeemDelayCard } from "./RedeemDelayCard";
import { durationWords, feeWords } from "./words";

/**
 * The program's settings (src/pages.tsx "settings"): the Factory's redeem delay, fees and fee
 * receiver, and the redemption desk's policy, each shown in words and changed through the review
 * every transaction has. A form shows only when the acting account holds the role the chain asks
 * for (read now with roles/check); the desk policy is signed by a manager's wallet.
 */
export function Settings() {
  const { client, program, acting, bump, explorerUrl, wallet: mine, version } = useDash();
  const wallet = useWallet();
  const run = useTx();
  const symbol = useTokenSymbol();
  const state = useLoad(() => client.read.factoryState(), []);
  const desk = useLoad(() => client.desk.get(program.id), []);
  const manager = acting([MANAGER]);
  const admin = acting([ADMIN]);
  const pointsAdmin = acting([POINTS_ADMIN]);
  // The preflight: what the chain lets each acting account do, read now (a role may have moved).
  const may = useLoad(async () => {
    const holds = async (who: Acting, r: RoleOn) =>
      !!who.from && (await client.roles.check(r.contract, r.role, who.from)).hasRole;
    const [delay, fees, receiverFix, desk] = await Promise.all([
      holds(manager, MANAGER),
      holds(admin, ADMIN),
      holds(pointsAdmin, POINTS_ADMIN),
      holds({ from: mine, safe: null, role: null }, MANAGER),
    ]);
    return { delay, fees, receiverFix, desk };
  }, [manager.from, admin.from, pointsAdmin.from, mine]);

  const s = state.value;
  const known = (address: string): string | null => {
    const contract = programContracts(program).find(([, a]) => a.toLowerCase() === address.toLowerCase());
    if (contract) return `the program's ${CONTRACT_WORDS[contract[0]]}`;
    if (mine && mine.toLowerCase() === address.toLowerCase()) return "your wallet";
    return null;
  };
  const receiverWords = (address: string): ReactNode =>
    isZeroAddress(address) ? (
      "none (the zero address)"
    ) : (
      <>
        {known(address) && <span data-testid="fee-receiver-name">{known(address)} </span>}
        <Address address={address} explorerUrl={explorerUrl} />
      </>
    );

  /**
   * With a fee above 0 the fee receiver must be able to receive SP (FeeReceiverNotWhitelisted):
   * while transfers are restricted it must be on the Points transfer allowlist.
   */
  const receiverCheck = async (receiver: string, mintBps: number, redeemBps: number): Promise<Blocker | null> => {
    if (!s || (mintBps === 0 && redeemBps === 0) || !s.transferRestricted) return null;
    if (!isZeroAddress(receiver) && (await client.points.isTransferWhitelisted(receiver))) return null;
    const canFix = !!may.value?.receiverFix && !isZeroAddress(receiver) && !!pointsAdmin.from;
    return {
      message: `The fee receiver ${isZeroAddress(receiver) ? "is not set" : receiver + " is not on the Points transfer allowlist"}, and a fee above 0 needs it to receive ${tokenWord(symbol)}, so the Factory would refuse the change. ${isZeroAddress(receiver) ? "Set a fee receiver first." : canFix ? "You administer the Points token: add it first, then try again." : "Ask the Points token's admin to add it."}`,
      fix: canFix
        ? accessChange("transfer", receiver, () =>
            client.points.addToTransferWhitelist(receiver, { from: pointsAdmin.from! }),
          )
        : undefined,
    };
  };

  return (
    <div className="cards">
      <Card title="Current settings">
        <ErrorBox error={state.error} />
        {s && (
          <dl className="kv" aria-label="Current settings">
            <dt>Redeem delay</dt>
            <dd data-testid="setting-redeem-delay">{durationWords(s.redeemDelay)}</dd>
            <dt>Mint fee</dt>
            <dd data-testid="setting-mint-fee">{feeWords(s.mintFeeBps)}</dd>
            <dt>Redeem fee</dt>
            <dd data-testid="setting-redeem-fee">{feeWords(s.redeemFeeBps)}</dd>
            <dt>Fee receiver</dt>
            <dd data-testid="setting-fee-receiver">{receiverWords(s.feeReceiver)}</dd>
            <dt>Redemption desk</dt>
            <dd data-testid="setting-desk-policy">
              {desk.value ? POLICY_WORDS[desk.value.policy] : desk.error ? "not available to this account" : "…"}
            </dd>
          </dl>
        )}
        <ErrorBox error={may.error} />
      </Card>
      {s && (
        <RedeemDelayCard
          key={`delay-${version}`}
          current={s.redeemDelay}
          allowed={may.value?.delay ?? null}
          who={manager}
          onSubmit={(delay) =>
            run({
              title: "Change the redeem delay",
              role: manager.role ?? undefined,
              words: [
                ["Redeem delay", `${durationWords(delay)} (now ${durationWords(s.redeemDelay)})`],
                [
                  "What changes",
                  "A redemption requested from now on waits this long before its requester may finalize it alone; earlier requests keep their own ready time.",
                ],
              ],
              build: () => client.settings.setRedeemDelay(delay, { from: manager.from! }),
              onDone: bump,
            })
          }
        />
      )}
      {s && (
        <FeesCard
          key={`fees-${version}`}
          mint={s.mintFeeBps}
          redeem={s.redeemFeeBps}
          allowed={may.value?.fees ?? null}
          who={admin}
          check={(m, r) => receiverCheck(s.feeReceiver, m, r)}
          onDone={bump}
          onSubmit={(mintFeeBps, redeemFeeBps) =>
            run({
              title: "Change the fees",
              role: admin.role ?? undefined,
              words: [
                ["Mint fee", `${feeWords(mintFeeBps)} (now ${feeWords(s.mintFeeBps)})`],
                ["Redeem fee", `${feeWords(redeemFeeBps)} (now ${feeWords(s.redeemFeeBps)})`],
                ["Paid to", receiverWords(s.feeReceiver)],
              ],
              build: () => client.settings.setFees({ mintFeeBps, redeemFeeBps }, { from: admin.from! }),
              onDone: bump,
            })
          }
        />
      )}
      {s && (
        <FeeReceiverCard
          key={`receiver-${version}`}
          allowed={may.value?.fees ?? null}
          who={admin}
          check={(r) => receiverCheck(r, s.mintFeeBps, s.redeemFeeBps)}
          onDone={bump}
          onSubmit={(receiver) =>
            run({
              title: "Change the fee receiver",
              role: admin.role ?? undefined,
              destructive: `Every mint and redeem fee goes to ${receiver} from now on.`,
              words: [
                ["Fee receiver", receiverWords(receiver)],
                ["Now", receiverWords(s.feeReceiver)],
              ],
              build: () => client.settings.setFeeReceiver(receiver, { from: admin.from! }),
              onDone: bump,
            })
          }
        />
      )}
      {desk.value && (
        <DeskPolicyCard
          desk={desk.value}
          allowed={may.value?.desk ?? null}
          wallet={mine}
          sign={async (policy) => {
            await client.desk.setPolicy(desk.value!, policy, await wallet.signer());
            bump();
          }}
        />
      )}
    </div>
  );
}
