import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { send } from "./helpers/http.js";
import { DocumentValidator } from "./helpers/openapiAjv.js";
import type { Schema } from "./helpers/jsonSchemaArb.js";

/** The served document states each rule the server enforces (one test per rule). */
describe("the OpenAPI document states the server's rules", () => {
  let api: TestApi;
  let doc: Schema;
  let v: DocumentValidator;
  const op = (id: string) => v.operations.find((o) => o.id === id)!;
  const bodyOk = (id: string, body: unknown) => v.checkRequest(op(id), { body }) === undefined;
  const paramsOk = (id: string, params: Record<string, string>) => v.checkRequest(op(id), { params }) === undefined;
  const KEY = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
  const mint = (amount: unknown) => ({ input: { asset: KEY, amount }, key: KEY });
  const campaign = (spBudget: unknown) => ({ campaignId: "c", spBudget, from: KEY });

  before(async () => {
    api = await startApi("http://127.0.0.1:9", { WORKER: "off" });
    doc = (await send(api.url, "GET", "/api/v1/openapi.json")).body;
    v = new DocumentValidator(doc);
  });
  after(() => api?.close());

  it("positiveAmounts_refuseZero_whereTheServerDoes_andBudgetsAcceptIt", () => {
    assert.equal(bodyOk("buildMint", mint("0")), false);
    assert.equal(bodyOk("buildMint", mint(0)), false);
    assert.equal(bodyOk("buildMint", mint("1")), true);
    assert.equal(bodyOk("pspCreateCampaign", campaign("0")), true);
    assert.equal(bodyOk("pspCreateCampaign", campaign(0)), true);
  });

  it("amounts_documentTheUint256CeilingAndTheSafeIntegerLimit", () => {
    const max = (2n ** 256n - 1n).toString();
    assert.equal(bodyOk("buildMint", mint(max)), true);
    assert.equal(bodyOk("buildMint", mint((2n ** 256n).toString())), false);
    assert.equal(bodyOk("buildMint", mint(Number.MAX_SAFE_INTEGER)), true);
    assert.equal(bodyOk("buildMint", mint(2 ** 53)), false);
    const text = JSON.stringify(op("buildMint").op.requestBody);
    assert.match(text, /"maxLength":78/);
    assert.match(text, /"format":"uint256"/);
    assert.match(text, /"maximum":9007199254740991/);
  });

  it("contractAndRole_areEnumsOfCanonicalNames_withDeprecatedAliases_andRolesPerContract", () => {
    const grant = (contract: string, role: string) =>
      bodyOk("grantRole", { input: { contract, role, account: KEY }, key: KEY });
    assert.equal(grant("factory", "MANAGER_ROLE"), true);
    assert.equal(grant("Factory", "manager"), true, "deprecated aliases stay valid for one release");
    assert.equal(grant("points", "MANAGER_ROLE"), false, "points defines no MANAGER_ROLE");
    assert.equal(grant("vault", "PAUSER_ROLE"), false);
    const text = JSON.stringify(op("grantRole").op.requestBody);
    assert.match(text, /"enum":\["factory","points","collateralVault","pspVault","oracle"\]/);
    assert.match(text, /"x-aliases":\{"deprecated":true/);
    assert.equal(bodyOk("pspGrantRole", { roleType: "MINTER_ROLE", account: KEY, from: KEY }), false);
    assert.equal(bodyOk("pspGrantRole", { roleType: "ISSUING_ADMIN", account: KEY, from: KEY }), true);
  });

  it("campaignId_isHexOrAPrintableLabel_refusingDotSegments", () => {
    for (const [id, ok] of [
      [`0x${"ab".repeat(32)}`, true],
      ["summer-2026", true],
      ["0", true],
      [".well", true],
      ["..x", true],
      [".", false],
      ["..", false],
      ["0xabc", false],
      ["x".repeat(65), false],
      ["tab\there", false],
    ] as const) {
      assert.equal(paramsOk("pspCampaign", { campaignId: id }), ok, id);
    }
  });

  it("addressesAndEmail_carryNamedFormats_declaredInTheDocument", () => {
    const verify = (email: string) => bodyOk("consoleVerify", { email, code: "123456" });
    assert.equal(verify("ada@example.com"), true);
    assert.equal(verify("not-an-email"), false);
    const upper = "0x70997970C51812DC3A010C7D01B50E0D17DC79C8";
    const badChecksum = "0x70997970c51812dc3a010c7d01b50e0d17dc79C8";
    assert.equal(paramsOk("readBalance", { address: upper }), true);
    assert.equal(paramsOk("readBalance", { address: badChecksum }), false);
    assert.deepEqual(Object.keys(doc["x-formats"]).sort(), ["eip55-address", "email", "uint256"]);
    assert.match(doc.info.description, /eip55-address/);
  });

  it("everyStatusTheServerReturns_isListedPerOperation", () => {
    const statuses = (id: string) => Object.keys(op(id).op.responses);
    for (const id of ["onboardingDeploy", "onboardingRetry", "consoleWizardSave"])
      assert.ok(statuses(id).includes("409"), id);
    assert.ok(statuses("consoleVerify").includes("401"));
    for (const o of v.operations) {
      assert.ok(statuses(o.id).includes("429"), `${o.id}: 429`);
      assert.equal(statuses(o.id).includes("413"), Boolean(o.body), `${o.id}: 413 exactly when it takes a body`);
      assert.ok(!statuses(o.id).includes("405"), `${o.id}: 405 belongs to no operation`);
    }
    assert.match(doc.info.description, /405 METHOD_NOT_ALLOWED/);
    assert.match(doc.components.schemas.ErrorEnvelope.description, /405/);
    assert.ok(
      doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum.includes("METHOD_NOT_ALLOWED"),
    );
  });

  it("configuredChains_areTheOnlyChainIdsTheDocumentAllows", () => {
    assert.equal(paramsOk("listChainContracts", { chainId: "31337" }), true);
    assert.equal(paramsOk("listChainContracts", { chainId: "1" }), false);
  });

  it("freeText_refusesNulAndUnpairedSurrogates_inTheDocumentToo", () => {
    const c = (metadata: string) => bodyOk("pspCreateCampaign", { ...campaign("1"), metadata });
    assert.equal(c("ok 😀"), true);
    assert.equal(c("a\u0000b"), false);
    assert.equal(c("a\ud800b"), false);
  });

  it("info_hasALicence", () => {
    assert.deepEqual(doc.info.license, { name: "MIT", identifier: "MIT" });
  });
});
