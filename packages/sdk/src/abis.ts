/**
 * The program contracts' ABIs (`@points/sdk/abis`), for reading the contracts directly with ethers or viem;
 * written from the contracts' build at each SDK build, so they are the ABIs of the release the SDK was built with.
 */
export * from "./generated/abis.js";
