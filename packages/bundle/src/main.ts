// `npm run bundle [-- --out <dir>] [service ...]`: production bundles of the named services
// (default: all). Without --out each goes into its own package's dist/bundle and runs there
// against the repo's node_modules (deploy/local/start.sh); with --out, into <dir>/<service>,
// to be copied elsewhere with its package.json installed beside it (the image, tests).
// `npm run bundle -- --standalone`: the standalone host, where `npm start` runs it.
import path from "node:path";
import { parseArgs } from "node:util";
import { bundleServiceInto, workspaceBundleDir } from "./bundle-service.js";
import { bundleStandalone } from "./bundle-standalone.js";
import { SERVICE_NAMES, isBundledService } from "./services.js";

const { values, positionals } = parseArgs({
  options: {
    out: { type: "string" },
    standalone: { type: "boolean", default: false },
  },
  allowPositionals: true,
});
if (values.standalone) {
  if (positionals.length > 0 || values.out !== undefined) {
    process.stderr.write("--standalone takes no service names and no --out\n");
    process.exit(2);
  }
  await bundleStandalone();
  process.exit(0);
}
const unknown = positionals.filter((name) => !isBundledService(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown service(s) ${unknown.join(", ")}; expected: ${SERVICE_NAMES.join(", ")}\n`);
  process.exit(2);
}
const services = positionals.length > 0 ? positionals.filter(isBundledService) : SERVICE_NAMES;
for (const service of services) {
  const { dir, dependencies } =
    values.out === undefined
      ? await bundleServiceInto(service, workspaceBundleDir(service), { runInPlace: true })
      : await bundleServiceInto(service, path.resolve(values.out, service), { runInPlace: false });
  process.stdout.write(`${service}: ${dir} (${Object.keys(dependencies).length} packages)\n`);
}
