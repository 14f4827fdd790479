// Go's filepath.Match patterns (bundle signing's exclude_files, --ignore): as Go matches them, and in
// time linear in the name, whatever the file names a bundle server sends.
import { expect } from "chai";
import fc from "fast-check";
import { goGlob } from "../../../runtime/goGlob.js";

type Token = "a" | "b" | "/" | "?" | "*" | "[ab]" | "[^a]" | "é" | "😀";

/** Go's semantics, by brute force: `*` any run without "/", `?` one character but "/". */
function reference(tokens: readonly Token[], name: readonly string[]): boolean {
  if (tokens.length === 0) return name.length === 0;
  const [t, ...rest] = tokens;
  if (t === "*") {
    for (let n = 0; n <= name.length; n++) {
      if (reference(rest, name.slice(n))) return true;
      if (name[n] === "/") return false;
    }
    return false;
  }
  if (name.length === 0) return false;
  const c = name[0]!;
  const ok = t === "?" ? c !== "/" : t === "[ab]" ? c === "a" || c === "b" : t === "[^a]" ? c !== "a" : c === t;
  return ok && reference(rest, name.slice(1));
}

describe("goGlob", () => {
  it("matches as Go's filepath.Match", () => {
    // a class that takes "/" is left out here: Go places each part at its leftmost fit, which can
    // differ from the brute force (next test)
    const token = fc.constantFrom<Token>("a", "b", "/", "?", "*", "[ab]", "é", "😀");
    const char = fc.constantFrom("a", "b", "/", "é", "😀", "c");
    fc.assert(
      fc.property(fc.array(token, { maxLength: 7 }), fc.array(char, { maxLength: 9 }), (tokens, name) => {
        expect(goGlob(tokens.join(""))!.test(name.join(""))).to.equal(reference(tokens, name));
      }),
      { seed: 20261129, numRuns: 5000 },
    );
  });

  it("places each part at its leftmost fit, as Go's Match does", () => {
    // Go: the star takes "", [^a] takes the emoji, and the trailing star cannot take the "/"
    expect(goGlob("*[^a]*")!.test("😀/")).to.equal(false);
    expect(goGlob("*[^a]")!.test("😀/")).to.equal(true);
    expect(goGlob("a*")!.test("ab/c")).to.equal(false);
  });

  it("takes time linear in the name: several stars against a long hostile name", () => {
    const started = Date.now();
    expect(goGlob("*-*-*-*.json")!.test("a-".repeat(5000))).to.equal(false);
    expect(goGlob("*-*-*-*.json")!.test(`${"a-".repeat(5000)}.json`)).to.equal(true);
    // a bound, not a measurement: a backtracking match takes minutes here
    expect(Date.now() - started).to.be.below(1000);
  });
});
