// JSON → JsonValue keeping every number's text (RawNumber), so fixtures that write `1e6` or
// 12345678901234567890 compare exactly. Object keys go into null-prototype objects.
import { RawNumber, type JsonValue } from "../../compiler/ast/opaJson.js";

export function parseJsonLossless(text: string): JsonValue {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`bad JSON at ${i}: ${text.slice(i, i + 20)}`);
  };
  const value = (): JsonValue => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const out: { [k: string]: JsonValue } = Object.create(null);
      ws();
      if (text[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        ws();
        const k = value();
        if (typeof k !== "string") fail();
        ws();
        if (text[i++] !== ":") fail();
        out[k as string] = value();
        ws();
        const d = text[i++];
        if (d === "}") return out;
        if (d !== ",") fail();
      }
    }
    if (c === "[") {
      i++;
      const out: JsonValue[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        const d = text[i++];
        if (d === "]") return out;
        if (d !== ",") fail();
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      if (!m) fail();
      i += m![0].length;
      return JSON.parse(m![0]) as string;
    }
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
    if (m![0] === "true") return true;
    if (m![0] === "false") return false;
    if (m![0] === "null") return null;
    return new RawNumber(m![0]);
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}
