import { ErrorBox } from "../../components/ui";
import { useDash, useLoad } from "../context";
import { campaignEvents } from "../ledger/events";
import { SP_DECIMALS } from "../units";
import { tokenAmount, tokenWord } from "../tokenSymbol";
import { useTokenSymbol } from "../useTokenSymbol";
import Chart from "./Chart";
import { burnDown, units } from "./series";

const when = (t: number) => new Date(t * 1000).toISOString().slice(0, 19).replace("T", " ") + " UTC";

/** A campaign's budget burn-down (available SP over time), from its ledger; lazy-loaded with the chart library. */
export default function CampaignCharts({ id }: { id: string }) {
  const { client } = useDash();
  const symbol = useTokenSymbol();
  const data = useLoad(async () => burnDown((await campaignEvents(client, id)).events), [id]);
  const d = data.value;
  return (
    <>
      <ErrorBox error={data.error} />
      {d && (
        <Chart
          testId="chart-burn-down"
          empty="Nothing funded yet."
          title={`Budget burn-down: ${tokenWord(symbol)} available to issue over time`}
          kind="line"
          yUnit={symbol ?? "SP"}
          x={d.t}
          series={[{ label: "Available", values: d.v.map((v) => units(v, SP_DECIMALS)) }]}
          figures={{
            columns: ["Time", "Available"],
            rows: d.t.map((t, i) => [when(t), tokenAmount(d.v[i]!, SP_DECIMALS, symbol)]),
          }}
        />
      )}
    </>
  );
}
