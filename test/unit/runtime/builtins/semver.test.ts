import { builtinErr, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const run = (name: string, cases: BuiltinCase[]) => describe(name, () => runCases(name, cases));

describe("builtins: semver (OPA's parser)", () => {
  run("semver.compare", [
    { note: "a < b", args: ["1.0.0", "2.0.0"], want: -1 },
    { note: "a > b", args: ["2.0.0", "1.0.0"], want: 1 },
    { note: "equal", args: ["1.0.0", "1.0.0"], want: 0 },
    { note: "pre-release is lower", args: ["1.0.0-alpha", "1.0.0"], want: -1 },
    { note: "numeric identifiers compare numerically", args: ["1.0.0-alpha.10", "1.0.0-alpha.9"], want: 1 },
    { note: "numeric is lower than alphanumeric", args: ["1.0.0-1", "1.0.0-alpha"], want: -1 },
    { note: "more identifiers are higher", args: ["1.0.0-alpha.1", "1.0.0-alpha"], want: 1 },
    { note: "build metadata is ignored", args: ["1.0.0+build.1", "1.0.0+build.2"], want: 0 },
    { note: "leading v", args: ["v1.2.3", "1.2.3"], want: 0 },
    { note: "leading zeros are accepted (Go ParseInt)", args: ["01.2.3", "1.2.3"], want: 0 },
    { note: "invalid a", args: ["1", "1.0.0"], error: builtinErr('operand 1: string "1" is not a valid SemVer') },
    { note: "invalid b", args: ["1.0.0", "1"], error: builtinErr('operand 2: string "1" is not a valid SemVer') },
    { note: "not a string", args: [1, "1.0.0"], error: typeErr("operand 1 must be string but got number") },
  ]);
  run("semver.is_valid", [
    { note: "valid", args: ["1.0.0"], want: true },
    { note: "pre-release and metadata", args: ["1.0.0-rc.1+build-7"], want: true },
    { note: "missing patch", args: ["1.0"], want: false },
    { note: "empty pre-release identifier", args: ["1.0.0-a..b"], want: false },
    { note: "beyond int64", args: ["9223372036854775808.0.0"], want: false },
    { note: "not a string", args: [1], want: false },
  ]);
});
