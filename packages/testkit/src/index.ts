export { freePort, isPortFree } from "./ports.js";
export { DEV_KEYS, DEV_MNEMONIC, devWallet } from "./keys.js";
export { DevNodeError, contractsDir, startNode, type DevNode, type NodeOptions } from "./node.js";
export { actors, deployProgram, fundedCampaign, type DeployOptions, type ProgramRecord } from "./fixture.js";
export { exchange, signAndSend, startApi, type ApiEntry, type ApiHooks, type ApiService, type TestApi } from "./api.js";
export * from "./safe.js";
export { startFaultProxy, type FaultProxy, type Faults } from "./faultProxy.js";
export { startFakeEtherscan } from "./etherscan.js";
export { startFakeSourcify } from "./sourcify.js";
