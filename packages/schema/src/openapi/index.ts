// `@points/schema/openapi`: the OpenAPI 3.1 document of the route table, for the API to serve and
// the SDK's build to ship. A subpath of its own, so the main entry (the schemas the SDK's types
// and the console's bundle take) carries neither the generator nor its zod augmentation.
export { openApiDocument, type DocumentOptions, type OpenApiDocument } from "./document.js";
export { NAMED_FORMATS } from "./formats.js";
export { securityOf } from "./security.js";
export { OPS_OPERATIONS, registerOpsPaths } from "./ops.js";
