import { createRequire } from "node:module";
import { defineConfig } from "hardhat/config";
import hardhatEthers from "@nomicfoundation/hardhat-ethers";
import hardhatChaiMatchers from "@nomicfoundation/hardhat-ethers-chai-matchers";
import hardhatMocha from "@nomicfoundation/hardhat-mocha";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatTypechain from "@nomicfoundation/hardhat-typechain";
import hardhatUpgrades from "@openzeppelin/hardhat-upgrades";

const require = createRequire(import.meta.url);

export default defineConfig({
  plugins: [hardhatEthers, hardhatChaiMatchers, hardhatMocha, hardhatNetworkHelpers, hardhatTypechain, hardhatUpgrades],
  solidity: {
    // binaries.soliditylang.org is unreachable here: use the WASM compiler shipped by the
    // `solc` npm package, pinned to exactly this version.
    version: "0.8.28",
    path: require.resolve("solc/soljson.js"),
    settings: {
      optimizer: { enabled: true, runs: 10_000 },
      evmVersion: "cancun",
      outputSelection: { "*": { "*": ["storageLayout"] } },
    },
  },
  networks: {
    localhost: { type: "http", url: process.env.RPC_URL ?? "http://127.0.0.1:8545" },
    // `hardhat --network interval1s node`: one block per second, no automine (deployment benchmark).
    interval1s: { type: "edr-simulated", mining: { auto: false, interval: 1000 } },
  },
  test: { mocha: { timeout: 120_000 } },
});
