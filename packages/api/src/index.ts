export { loadConfig, type Config, type ChainConfig } from "./config/env.js";
export { createService, type Service } from "./service.js";
export { ApiError } from "./errors.js";
export { ProgramRegistry, type Program, type NewProgram } from "./registry/programs.js";
export { ApiKeys } from "./auth/apiKeys.js";
export { openDb, type Db } from "./db/db.js";
export { migrate } from "./db/migrations.js";
export { openApiDocument } from "./openapi/document.js";
export { createDevProgramAccount } from "./console/devProgram.js";
