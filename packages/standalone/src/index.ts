export { startStandalone, type Standalone, type StandaloneOptions } from "./host.js";
