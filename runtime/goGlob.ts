// Go's filepath.Match patterns, which OPA uses for `--ignore` and a bundle's `signing.exclude_files`.
// Matched as Go matches them, in time linear in the name per part of the pattern: every token but
// `*` matches exactly one character, so each part between stars is placed at its leftmost fit (one
// regular expression for the whole pattern would backtrack polynomially on a hostile file name).

/** A compiled pattern: `test(name)` as Go's filepath.Match(pattern, name). */
export interface GoGlob {
  test(name: string): boolean;
}

/** A pattern of Go's filepath.Match (`*`, `?`, `[a-z]`, `[^x]`, `\\c`); undefined for a malformed
 * pattern, which matches nothing (as OPA ignores Match's error). */
export function goGlob(pattern: string): GoGlob | undefined {
  const chars = [...pattern];
  const lit = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;
  // the parts between stars, each as the source of a regular expression of fixed length
  const parts: string[] = [""];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    let out = "";
    if (c === "*") {
      parts.push("");
      continue;
    } else if (c === "?") out = "[^/]";
    else if (c === "\\") {
      if (++i >= chars.length) return undefined;
      out = lit(chars[i]!);
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
      out = `[${cls}]`;
    } else out = lit(c);
    parts[parts.length - 1] += out;
  }
  let res: RegExp[];
  try {
    res = parts.map((p, i) => new RegExp(i === parts.length - 1 ? `(?:${p})$` : p, "uy"));
  } catch {
    return undefined;
  }
  return { test: (name) => matchParts(res, name) };
}

/** The first part at the start, each middle part at its leftmost fit after the previous one, the
 * last part ending the name; what a star spans holds no "/". */
function matchParts(parts: readonly RegExp[], name: string): boolean {
  let pos = at(parts[0]!, name, 0);
  if (pos === undefined) return false;
  for (let k = 1; k < parts.length; k++) {
    let next: number | undefined;
    for (let j = pos; j <= name.length; j += name.codePointAt(j)! > 0xffff ? 2 : 1) {
      next = at(parts[k]!, name, j);
      if (next !== undefined || j === name.length || name[j] === "/") break;
    }
    if (next === undefined) return false;
    pos = next;
  }
  return parts.length > 1 || pos === name.length;
}

/** Where a match of `re` starting at `index` ends, if it matches there. */
function at(re: RegExp, name: string, index: number): number | undefined {
  re.lastIndex = index;
  return re.exec(name) === null ? undefined : re.lastIndex;
}
