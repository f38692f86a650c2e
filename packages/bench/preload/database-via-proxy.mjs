// Loaded into every process deploy/local/start.sh starts for the bench (NODE_OPTIONS=--import):
// points the service's DATABASE_URL at the bench's statement-counting proxy
// (PETRI_BENCH_DATABASE_ADDRESS, host:port) instead of PostgreSQL itself. Plain JavaScript:
// the cluster runs built code with plain node. start.sh writes the URL on each service's
// command line, so the environment cannot carry another one.
const address = process.env.PETRI_BENCH_DATABASE_ADDRESS;
if (address && process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  const separator = address.lastIndexOf(":");
  url.hostname = address.slice(0, separator);
  url.port = address.slice(separator + 1);
  process.env.DATABASE_URL = url.toString();
}
