// Writes gateway/openapi.json from the route definitions: npm run -w @petri/gateway openapi
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderOpenApiDocument } from "../src/openapi-document.js";

const target = fileURLToPath(new URL("../openapi.json", import.meta.url));
writeFileSync(target, renderOpenApiDocument());
console.log(`wrote ${target}`);
