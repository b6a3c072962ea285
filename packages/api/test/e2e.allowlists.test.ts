import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Contract } from "ethers";
import { Factory__factory } from "@points/contracts";
import { startNode, type LocalNode } from "./helpers/node.js";
import { actors, deployProgram } from "./helpers/program.js";
import { signAndSend, startApi, type TestApi } from "./helpers/service.js";

describe("allowlist routes (spec section F), built, signed and broadcast", () => {
  let node: LocalNode;
  let api: TestApi;
  let factory: Contract;
  let auth: Record<string, string>;

  before(async () => {
    node = await startNode();
    const { record } = await deployProgram(node.provider);
    api = await startApi(node.url);
    await api.service.ctx.programs.insert(record);
    const { key } = await api.service.ctx.keys.create("test");
    auth = { authorization: `Bearer ${key}` };
    factory = new Contract(record.factory, Factory__factory.abi, node.provider);
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("whitelistMintAdd_byManager_addsTheAccountOnChain", async () => {
    const { brand, alice } = actors(node.provider);
    const res = await api.call(
      "POST",
      "/studio/sdk/v1/tx/whitelist/mint/add",
      { account: alice.address, from: brand.address },
      auth,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.success, true);
    assert.equal(res.body.data.to, await factory.getAddress());
    assert.equal(res.body.data.from, brand.address);
    await signAndSend(node.provider, brand, res.body.data);
    assert.equal(await factory.isMintWhitelisted(alice.address), true);
  });

  it("whitelistMintAdd_fromANonManager_is403MissingRole_namingContractRoleAndAccount", async () => {
    const { outsider, alice } = actors(node.provider);
    const res = await api.call(
      "POST",
      "/studio/sdk/v1/tx/whitelist/mint/add",
      { account: alice.address, from: outsider.address },
      auth,
    );
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, "MISSING_ROLE");
    assert.equal(res.body.error.details.contract, "factory");
    assert.equal(res.body.error.details.role, "MANAGER_ROLE");
    assert.equal(res.body.error.details.account, outsider.address);
  });

  it("whitelistMintAdd_withoutApiKey_is401", async () => {
    const { brand, alice } = actors(node.provider);
    const res = await api.call("POST", "/studio/sdk/v1/tx/whitelist/mint/add", {
      account: alice.address,
      from: brand.address,
    });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, "UNAUTHORIZED");
  });
});
