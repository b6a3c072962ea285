import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import hre from "hardhat";
import {
  CONTRACT_ARTIFACTS,
  CONTRACT_ROLES,
  PROGRAM_CONTRACTS,
  ROLE_NAMES,
  isDevChainId,
  isRpcUnreachable,
  roleHash,
  roleNameOf,
  rpcChainId,
} from "../../program/index.js";
import { INTERFACES, decodeRevert, revertValues } from "../../program/abi.js";
import { COMPILED } from "../../program/code.js";
import { ethers } from "../helpers/programFixture.js";

describe("program module: the facts every package imports", function () {
  it("roles_ofEveryContract_hashAsTheDeployedContractsOwnConstants", async function () {
    for (const key of PROGRAM_CONTRACTS) {
      const c = await ethers.deployContract(CONTRACT_ARTIFACTS[key]);
      for (const role of CONTRACT_ROLES[key]) {
        expect(await c.getFunction(role)(), `${key}.${role}`).to.equal(roleHash(role));
        expect(roleNameOf(roleHash(role).toUpperCase().replace("0X", "0x"))).to.equal(role);
      }
    }
  });

  it("compiledCode_ofEveryContract_isTheHardhatArtifactsCodeAndAbi", async function () {
    for (const name of Object.values(CONTRACT_ARTIFACTS)) {
      const artifact = await hre.artifacts.readArtifact(name);
      const c = COMPILED[name];
      expect([c.contractName, c.sourceName], name).to.deep.equal([artifact.contractName, artifact.sourceName]);
      expect([c.bytecode, c.deployedBytecode], name).to.deep.equal([artifact.bytecode, artifact.deployedBytecode]);
      expect(c.immutableReferences ?? {}, name).to.deep.equal(artifact.immutableReferences ?? {});
      expect(c.abi, name).to.deep.equal(artifact.abi);
    }
  });

  it("roleNames_areEachProgramRoleOnce_adminFirst_withoutTheProgramFactoryOperator", function () {
    expect(ROLE_NAMES).to.deep.equal([
      "DEFAULT_ADMIN_ROLE",
      "MINTER_ROLE",
      "PAUSER_ROLE",
      "EXECUTOR_ROLE",
      "MANAGER_ROLE",
      "CAMPAIGN_ADMIN_ROLE",
      "ISSUING_ADMIN_ROLE",
      "SETTLEMENT_ADMIN_ROLE",
      "TRANSFER_ADMIN_ROLE",
    ]);
    expect(CONTRACT_ROLES.programFactory).to.deep.equal(["DEFAULT_ADMIN_ROLE", "OPERATOR_ROLE"]);
    expect(roleHash("DEFAULT_ADMIN_ROLE")).to.equal(ethers.ZeroHash);
    expect(roleNameOf(ethers.id("NOT_A_ROLE"))).to.equal(undefined);
  });

  it("devChains_areHardhatAndAnvil_whateverTheIdsType", function () {
    expect([31337, 1337n, "31337", 1, 11155111n].map(isDevChainId)).to.deep.equal([true, true, true, false, false]);
  });

  it("rpcUnreachable_byCodeAnywhereInTheCauseChain_orBySocketMessage_notByARevert", function () {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    expect(isRpcUnreachable(refused)).to.equal(true);
    expect(isRpcUnreachable(new Error("wrapped", { cause: { code: "TIMEOUT" } }))).to.equal(true);
    expect(isRpcUnreachable(new TypeError("fetch failed"))).to.equal(true);
    expect(isRpcUnreachable(Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION" }))).to.equal(
      false,
    );
    expect(isRpcUnreachable(undefined)).to.equal(false);
  });

  it("decodeRevert_namesTheCalledContract_andListsEveryDeclarerButTheProgramFactory", function () {
    const account = "0x00000000000000000000000000000000000000AA";
    const data = INTERFACES.points.encodeErrorResult("AccessControlUnauthorizedAccount", [
      account,
      roleHash("MINTER_ROLE"),
    ]);
    const decoded = decodeRevert(data, "points")!;
    expect(decoded).to.deep.equal({
      contract: "points",
      declaredBy: ["points", "factory", "collateralVault", "pspVault", "oracle"],
      name: "AccessControlUnauthorizedAccount",
      args: { account, neededRole: roleHash("MINTER_ROLE") },
      selector: data.slice(0, 10),
    });
    expect(revertValues(decoded)).to.deep.equal([account, roleHash("MINTER_ROLE")]);
  });

  it("decodeRevert_withoutACalledContract_namesTheOneDeclarer_orEveryDeclarer", function () {
    const taken = INTERFACES.programFactory.encodeErrorResult("BrandTaken", ["acme"]);
    expect(decodeRevert(taken)?.contract).to.equal("programFactory");
    const data = INTERFACES.points.encodeErrorResult("AccessControlUnauthorizedAccount", [
      "0x00000000000000000000000000000000000000AA",
      roleHash("MINTER_ROLE"),
    ]);
    expect(decodeRevert(data)?.contract).to.equal("points or factory or collateralVault or pspVault or oracle");
  });

  it("decodeRevert_ofAProgramFactoryError_standardErrors_andUnknownData", function () {
    const taken = INTERFACES.programFactory.encodeErrorResult("BrandTaken", ["acme"]);
    expect(decodeRevert(taken, "programFactory")).to.deep.equal({
      contract: "programFactory",
      declaredBy: ["programFactory"],
      name: "BrandTaken",
      args: { brand: "acme" },
      selector: taken.slice(0, 10),
    });
    const panic = "0x4e487b710000000000000000000000000000000000000000000000000000000000000011";
    expect(decodeRevert(panic, "factory")).to.deep.equal({
      contract: "factory",
      name: "Panic",
      args: { code: "17" },
      selector: "0x4e487b71",
    });
    expect(decodeRevert("0xdeadbeef", "points")).to.equal(undefined);
    expect(decodeRevert("0x", "points")).to.equal(undefined);
    expect(decodeRevert(undefined)).to.equal(undefined);
  });

  it("rpcChainId_readsTheNodesChainId_andIsUndefinedWhenNothingSensibleAnswers", async function () {
    const replies = ['{"jsonrpc":"2.0","id":1,"result":"0x7a69"}', "<html>not json-rpc</html>"];
    const server = createServer((_req, res) => res.end(replies.shift()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await rpcChainId(url)).to.equal(31337n);
      expect(await rpcChainId(url)).to.equal(undefined);
    } finally {
      server.close();
    }
    expect(await rpcChainId("http://127.0.0.1:9", 500)).to.equal(undefined);
  });
});
