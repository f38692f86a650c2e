/**
 * Test material of the experiments service for other packages' tests (the end-to-end tests
 * send these through the gateway). Not used by the service itself.
 */
export { clientIntakes } from "../domain/intake/client-fixtures.js";
