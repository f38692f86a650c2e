export { startStandalone, type Standalone, type StandaloneOptions, type StandaloneDatabase } from "./host.js";
