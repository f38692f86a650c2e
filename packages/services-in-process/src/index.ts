export {
  type InProcessServices,
  type InProcessServicesOptions,
  startServicesInProcess,
} from "./services-in-process.js";
