// The value model's public surface (see value.ts for the representation).
export * from "./value.js";
export * from "./number.js";
export * from "./compare.js";
export * from "./key.js";
export * from "./set.js";
export * from "./object.js";
export * from "./json.js";
