export { Store, Transaction } from "./store.js";
export { parsePath, formatPath, type StoragePath } from "./path.js";
export { copyJSON } from "./json.js";
