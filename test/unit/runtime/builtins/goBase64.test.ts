// The one base64 codec (Go's encoding/base64 as OPA uses it): Go's error offsets, line breaks
// skipped, padding required, and the native fast path for well-formed text agreeing with the
// byte-by-byte decoder on every input.
import { expect } from "chai";
import { thrown } from "../../../support/errors.js";
import { rawURLEncode, stdDecode, stdEncode, tryStdDecode, urlDecodeLenient, urlEncode } from "../../../../runtime/builtins/go/base64.js";

/** The message of the builtin error `f` throws. */
function message(f: () => unknown): string {
  const err = thrown(f);
  expect(err.code).to.equal("eval_builtin_error");
  return err.message;
}

describe("builtins: goBase64", () => {
  const cases: Array<{ note: string; input: string; want?: string; error?: string }> = [
    { note: "well-formed", input: "aGVsbG8=", want: "hello" },
    { note: "two padding characters", input: "aGk=", want: "hi" },
    { note: "line breaks are skipped anywhere", input: "aGVs\r\nbG8=\n", want: "hello" },
    { note: "non-zero trailing bits are allowed", input: "aGl=", want: "hi" },
    { note: "missing padding", input: "aGVsbG8", error: "illegal base64 data at input byte 4" },
    { note: "a character outside the alphabet", input: "aGV*bG8=", error: "illegal base64 data at input byte 3" },
    { note: "the URL alphabet is not the standard one", input: "a-_=", error: "illegal base64 data at input byte 1" },
    { note: "padding too early", input: "a===", error: "illegal base64 data at input byte 1" },
    { note: "data after the padding", input: "aGk=aGk=", error: "illegal base64 data at input byte 4" },
    { note: "a lone symbol at the end", input: "aGVsb", error: "illegal base64 data at input byte 4" },
  ];
  for (const tc of cases) {
    it(`stdDecode: ${tc.note}`, () => {
      if (tc.error !== undefined) {
        expect(message(() => stdDecode(tc.input))).to.equal(tc.error);
        expect(tryStdDecode(tc.input)).to.equal(undefined);
      } else {
        expect(stdDecode(tc.input).toString("utf8")).to.equal(tc.want);
      }
    });
  }

  it("base64url.decode's padding fix (RFC 7515 appendix C) and its error", () => {
    expect(urlDecodeLenient("aGk").toString()).to.equal("hi");
    expect(urlDecodeLenient("-_8").toString("hex")).to.equal("fbff");
    expect(message(() => urlDecodeLenient("aGVsb"))).to.equal("illegal base64url string: aGVsb");
    expect(message(() => urlDecodeLenient("a+/="))).to.equal("illegal base64 data at input byte 1");
  });

  it("the native fast path gives the byte decoder's answer for random inputs", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n-_";
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20000; i++) {
      let s = "";
      const len = random(14);
      for (let j = 0; j < len; j++) s += alphabet[random(10) < 8 ? random(64) : 64 + random(alphabet.length - 64)];
      const fast = tryStdDecode(s); // a string takes the fast path when it is well-formed
      const slow = tryStdDecode(Buffer.from(s)); // bytes always take Go's decoder
      expect(fast === undefined, JSON.stringify(s)).to.equal(slow === undefined);
      if (fast && slow) expect(fast.equals(slow), JSON.stringify(s)).to.equal(true);
    }
  });

  it("encoders", () => {
    expect(stdEncode("hi?>")).to.equal("aGk/Pg==");
    expect(urlEncode("hi?>")).to.equal("aGk_Pg==");
    expect(rawURLEncode("hi?>")).to.equal("aGk_Pg");
    expect(stdEncode(new Uint8Array([0xfb, 0xff]))).to.equal("+/8=");
  });
});
