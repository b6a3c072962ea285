export { loadConfig, type Config, type ChainConfig } from "./core/config/env.js";
export { createService, type Service } from "./service.js";
export { ApiError } from "./core/errors.js";
export { ProgramRegistry, type Program, type NewProgram } from "./core/registry/programs.js";
export { ApiKeys } from "./core/auth/apiKeys.js";
export { openDb, type Db } from "./core/db/db.js";
export { migrate } from "./core/db/migrations.js";
export { openApiDocument } from "./server/openapi/document.js";
export { createDevProgramAccount } from "./core/console/devProgram.js";
