// Go's filepath.Match patterns, which OPA uses for `--ignore` and a bundle's `signing.exclude_files`.
/** A pattern of Go's filepath.Match as a RegExp over one name (`*`, `?`, `[a-z]`, `[^x]`, `\\c`);
 * undefined for a malformed pattern, which matches nothing (as OPA ignores Match's error). */
export function goGlob(pattern: string): RegExp | undefined {
  const chars = [...pattern];
  const lit = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;
  let out = "";
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "\\") {
      if (++i >= chars.length) return undefined;
      out += lit(chars[i]!);
    } else if (c === "[") {
      let cls = "";
      if (chars[i + 1] === "^") (cls += "^"), i++;
      let n = 0;
      for (;;) {
        let a = chars[++i];
        if (a === undefined) return undefined;
        if (a === "]" && n > 0) break;
        if (a === "\\") a = chars[++i];
        if (a === undefined || (a === "-" && n === 0) || a === "]") return undefined;
        cls += lit(a);
        if (chars[i + 1] === "-") {
          i += 2;
          let b = chars[i];
          if (b === "\\") b = chars[++i];
          if (b === undefined || b === "-" || b === "]") return undefined;
          cls += `-${lit(b)}`;
        }
        n++;
      }
      out += `[${cls}]`;
    } else out += lit(c);
  }
  try {
    return new RegExp(`^${out}$`, "u");
  } catch {
    return undefined;
  }
}
