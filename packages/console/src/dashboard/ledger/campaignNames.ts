import { useDash, useLoad } from "../context";
import { verifiedLabel } from "../campaignLabel";

/** Campaign names (id -> verified label) from the ledger's campaign list, shared by every ledger table. */
export function useCampaignNames() {
  const { client } = useDash();
  const r = useLoad(async () => {
    const { campaigns } = await client.ledger.campaigns();
    const names: Record<string, string> = {};
    for (const c of campaigns) {
      const label = verifiedLabel(c.campaignId, c.metadata);
      if (label !== undefined) names[c.campaignId] = label;
    }
    return names;
  }, []);
  return r.value ?? {};
}
