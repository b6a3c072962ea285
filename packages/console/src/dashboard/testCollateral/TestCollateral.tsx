import { useWallet } from "../../wallet/wallet";
import { Card } from "../../components/ui";
import { ActionForm } from "../ActionForm";
import { useDash, useLoad } from "../context";
import { isDevMockStablecoin } from "./mockCode";
import { TEST_COLLATERAL_CAP, testCollateralMint } from "./mintTx";

interface Asset {
  asset: string;
  symbol: string;
  decimals: number;
}

/**
 * "Get test collateral": on a dev chain whose collateral runs the project's MockStablecoin code,
 * an unsigned, capped `mint` for the connected wallet, so minting SP works on the first visit.
 * Shown nowhere else (a testnet token is not ours to mint). See packages/console/README.md.
 */
export function TestCollateral({ asset }: { asset: Asset }) {
  const { program } = useDash();
  const wallet = useWallet();
  const onChain = String(wallet.chainId) === program.chainId;
  const mock = useLoad(async () => {
    const provider = wallet.provider();
    return !!provider && onChain && (await isDevMockStablecoin(provider, program.chainId, asset.asset));
  }, [wallet.chainId, asset.asset]);
  if (!mock.value) return null;
  return (
    <Card title="Test collateral">
      <p className="muted">
        This is a local development chain and {asset.symbol} is the project's test stablecoin: mint some to your wallet
        (at most {TEST_COLLATERAL_CAP.toLocaleString("en-US")} {asset.symbol} at a time). Your wallet signs and pays the
        gas; the server signs nothing.
      </p>
      <ActionForm
        title={`Get test ${asset.symbol}`}
        submit={`Mint test ${asset.symbol}`}
        idPrefix="test-collateral"
        fields={[
          {
            name: "amount",
            label: `Amount (${asset.symbol})`,
            kind: "units",
            decimals: asset.decimals,
            hint: `Up to ${TEST_COLLATERAL_CAP.toLocaleString("en-US")} ${asset.symbol}.`,
          },
        ]}
        build={async (v, from) => {
          const provider = wallet.provider();
          if (!provider) throw new Error("No browser wallet found.");
          return testCollateralMint(provider, program, asset.asset, asset.decimals, from, BigInt(v.amount));
        }}
      />
    </Card>
  );
}
