// PEM blocks decoded as Go's encoding/pem.Decode does it: the first well-formed block wins, a
// malformed candidate is skipped, and the remainder after the block is returned (OPA checks it,
// e.g. "extra data after a PEM certificate block").
import { tryStdDecode } from "../go/base64.js";

export interface PemBlock {
  type: string;
  headers: Map<string, string>;
  bytes: Buffer;
}

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
const BEGIN = ascii("\n-----BEGIN ");
const END = ascii("\n-----END ");
const DASHES = ascii("-----");

/** Go's getLine: the line without trailing spaces, tabs and CR, and the rest after the LF. */
function getLine(data: Buffer): [Buffer, Buffer] {
  const i = data.indexOf(0x0a);
  let line: Buffer;
  let rest: Buffer;
  if (i < 0) {
    line = data;
    rest = data.subarray(data.length);
  } else {
    line = data.subarray(0, i);
    rest = data.subarray(i + 1);
  }
  let e = line.length;
  while (e > 0 && (line[e - 1] === 0x20 || line[e - 1] === 0x09 || line[e - 1] === 0x0d)) e--;
  return [line.subarray(0, e), rest];
}

export function startsWith(b: Buffer, prefix: Uint8Array): boolean {
  return b.length >= prefix.length && b.subarray(0, prefix.length).equals(prefix);
}

function endsWith(b: Buffer, suffix: Uint8Array): boolean {
  return b.length >= suffix.length && b.subarray(b.length - suffix.length).equals(suffix);
}

function removeSpacesAndTabs(b: Buffer): Buffer {
  return Buffer.from(b.filter((c) => c !== 0x20 && c !== 0x09));
}

/** Decodes the first PEM block of `data`; `undefined` and the whole input when there is none. */
export function pemDecode(input: Buffer | string): [PemBlock | undefined, Buffer] {
  const data = typeof input === "string" ? Buffer.from(input, "utf8") : input;
  let rest = data;
  for (;;) {
    if (startsWith(rest, BEGIN.subarray(1))) {
      rest = rest.subarray(BEGIN.length - 1);
    } else {
      const i = rest.indexOf(BEGIN);
      if (i < 0) return [undefined, data];
      rest = rest.subarray(i + BEGIN.length);
    }
    let typeLine: Buffer;
    [typeLine, rest] = getLine(rest);
    if (!endsWith(typeLine, DASHES)) continue;
    const type = typeLine.subarray(0, typeLine.length - DASHES.length);
    const headers = new Map<string, string>();
    for (;;) {
      if (rest.length === 0) return [undefined, data];
      const [line, next] = getLine(rest);
      const colon = line.indexOf(0x3a);
      if (colon < 0) break;
      headers.set(line.subarray(0, colon).toString("utf8").trim(), line.subarray(colon + 1).toString("utf8").trim());
      rest = next;
    }
    let endIndex: number;
    let endTrailerIndex: number;
    if (headers.size === 0 && startsWith(rest, END.subarray(1))) {
      endIndex = 0;
      endTrailerIndex = END.length - 1;
    } else {
      endIndex = rest.indexOf(END);
      endTrailerIndex = endIndex + END.length;
    }
    if (endIndex < 0) continue;
    const trailerLen = type.length + DASHES.length;
    const afterEnd = rest.subarray(endTrailerIndex);
    if (afterEnd.length < trailerLen) continue;
    const trailer = afterEnd.subarray(0, trailerLen);
    if (!startsWith(trailer, type) || !endsWith(trailer, DASHES)) continue;
    if (getLine(afterEnd.subarray(trailerLen))[0].length !== 0) continue;
    const bytes = tryStdDecode(removeSpacesAndTabs(rest.subarray(0, endIndex)));
    if (bytes === undefined) continue;
    const remainder = getLine(rest.subarray(endIndex + END.length - 1))[1];
    return [{ type: type.toString("utf8"), headers, bytes }, remainder];
  }
}

export function pemEncode(type: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString("base64");
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join("\n")}${lines.length ? "\n" : ""}-----END ${type}-----\n`;
}
