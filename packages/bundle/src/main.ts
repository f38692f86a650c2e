// `npm run bundle [-- --out <dir>] [service ...]`: production bundles of the named services
// (default: all) under <dir> (default: dist/bundles), one directory per service.
import { parseArgs } from "node:util";
import { bundleService } from "./bundle-service.js";
import { SERVICE_NAMES, isBundledService } from "./services.js";

const { values, positionals } = parseArgs({
  options: { out: { type: "string", default: "dist/bundles" } },
  allowPositionals: true,
});
const unknown = positionals.filter((name) => !isBundledService(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown service(s) ${unknown.join(", ")}; expected: ${SERVICE_NAMES.join(", ")}\n`);
  process.exit(2);
}
const services = positionals.length > 0 ? positionals.filter(isBundledService) : SERVICE_NAMES;
for (const service of services) {
  const { dir, dependencies } = await bundleService(service, values.out);
  process.stdout.write(`${service}: ${dir} (${Object.keys(dependencies).length} packages)\n`);
}
