import type { ResponseData } from "@points/sdk";
import { Card, ErrorBox } from "../../components/ui";
import { verifiedLabel } from "../campaignLabel";
import { useDash, useLoad } from "../context";
import { addressEvents, campaignEvents } from "../ledger/events";
import { SP_DECIMALS } from "../units";
import { tokenAmount, tokenWord } from "../tokenSymbol";
import { useTokenSymbol } from "../useTokenSymbol";
import Chart from "./Chart";
import { collateral, issuancePerDay, merge, pspOutcome, redemptionQueue, spSupply, units } from "./series";

type Asset = ResponseData<"readFactoryState">["assets"][number];

const ZERO = "0x0000000000000000000000000000000000000000";
/** The pictures show this many campaigns at most (the Campaigns page lists them all). */
const MAX_CAMPAIGNS = 12;
const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
const when = (t: number) => new Date(t * 1000).toISOString().slice(0, 19).replace("T", " ") + " UTC";

/** The program's pictures, all from the ledger routes; lazy-loaded with the chart library. */
export default function ProgramCharts({ asset }: { asset: Asset | undefined }) {
  const { client } = useDash();
  const symbol = useTokenSymbol();
  const sp = (v: bigint) => tokenAmount(v, SP_DECIMALS, symbol);
  const supply = symbol === null ? "Supply" : `${symbol} supply`;
  const data = useLoad(async () => {
    const [supply, assetHistory, campaigns, redemptions] = await Promise.all([
      addressEvents(client, ZERO),
      asset ? addressEvents(client, asset.asset) : null,
      client.ledger.campaigns(),
      client.ledger.redemptions({ limit: 500 }),
    ]);
    const shown = campaigns.campaigns.slice(0, MAX_CAMPAIGNS);
    const ledgers = await Promise.all(shown.map((c) => campaignEvents(client, c.campaignId)));
    return {
      overTime: merge(
        spSupply(supply.events),
        asset && assetHistory ? collateral(assetHistory.events, asset.asset) : { t: [], v: [] },
      ),
      campaigns: shown.map((c, i) => ({
        name: verifiedLabel(c.campaignId, c.metadata) ?? `${c.campaignId.slice(0, 10)}… (unverified)`,
        ...pspOutcome(ledgers[i]!.events),
      })),
      issuance: issuancePerDay(ledgers.flatMap((l) => l.events)),
      queue: redemptionQueue(redemptions.requests),
    };
  }, [asset?.asset]);
  const d = data.value;
  const col = (v: bigint | null) => (v === null || !asset ? null : units(v, asset.decimals));

  return (
    <Card title="Pictures of the program">
      <ErrorBox error={data.error} />
      {data.loading && !d && <p className="progress">Reading the ledger…</p>}
      {d && (
        <div className="cards">
          <Chart
            testId="chart-supply"
            empty={`No ${tokenWord(symbol)} minted yet: mint ${tokenWord(symbol)} on this page.`}
            title={`${supply} and ${asset?.symbol ?? "collateral"} collateral over time`}
            kind="line"
            x={d.overTime.t}
            series={[
              { label: supply, values: d.overTime.a.map((v) => (v === null ? null : units(v, SP_DECIMALS))) },
              ...(asset ? [{ label: `Collateral (${asset.symbol})`, values: d.overTime.b.map(col) }] : []),
            ]}
            figures={{
              columns: ["Time", supply, ...(asset ? [`Collateral (${asset.symbol})`] : [])],
              rows: d.overTime.t.map((t, i) => [
                when(t),
                sp(d.overTime.a[i] ?? 0n),
                ...(asset ? [tokenAmount(d.overTime.b[i] ?? 0n, asset.decimals, asset.symbol)] : []),
              ]),
            }}
          />
          <Chart
            testId="chart-psp"
            empty="No campaign yet: create one on the Campaigns page."
            title="pSP outstanding, settled and expired per campaign"
            kind="bars"
            yUnit="pSP"
            stacked
            x={d.campaigns.map((c) => c.name)}
            series={(["outstanding", "settled", "expired"] as const).map((k) => ({
              label: k[0]!.toUpperCase() + k.slice(1),
              values: d.campaigns.map((c) => units(c[k], SP_DECIMALS)),
            }))}
            figures={{
              columns: ["Campaign", "Outstanding", "Settled", "Expired"],
              rows: d.campaigns.map((c) => [c.name, sp(c.outstanding), sp(c.settled), sp(c.expired)]),
            }}
          />
          <Chart
            testId="chart-issuance"
            empty="No pSP issued yet."
            title="pSP issued per day per minter"
            kind="bars"
            yUnit="pSP"
            stacked
            x={d.issuance.days.map(day)}
            series={d.issuance.minters.map((m, i) => ({
              label: m,
              values: d.issuance.amounts[i]!.map((v) => units(v, SP_DECIMALS)),
            }))}
            figures={{
              columns: ["Day (UTC)", "Minter", "Issued"],
              rows: d.issuance.days.flatMap((t, j) =>
                d.issuance.minters
                  .map((m, i) => [day(t), m, d.issuance.amounts[i]![j]!] as const)
                  .filter(([, , v]) => v > 0n)
                  .map(([a, b, v]) => [a, b, sp(v)]),
              ),
            }}
          />
          <Chart
            testId="chart-redemptions"
            empty="No redemption requested yet."
            title="Redemption queue"
            kind="bars"
            x={d.queue.map((q) => q.status)}
            series={[
              { label: `${tokenWord(symbol)} requested`, values: d.queue.map((q) => units(q.amount, SP_DECIMALS)) },
            ]}
            figures={{
              columns: ["Status", "Requests", "Amount"],
              rows: d.queue.map((q) => [q.status, String(q.count), sp(q.amount)]),
            }}
          />
        </div>
      )}
    </Card>
  );
}
