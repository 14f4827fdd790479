// Rows and columns of a source (source.ts): `at` fills one object per source instead of making one
// per look-up; it must agree with counting everywhere — line breaks (column 0 of the next row),
// surrogate pairs (one column each), the end of the input — and a location's row and col with it.
import assert from "node:assert/strict";
import { Source } from "../../../../compiler/syntax/source.js";
import { SourceLocation } from "../../../../compiler/syntax/location.js";

/** Row and col counted the slow way, as OPA numbers them. */
function expected(text: string, offset: number): { row: number; col: number } {
  if (text.length === 0) return { row: 1, col: 0 };
  if (offset >= text.length) offset = text.length - 1;
  let row = 1;
  let col = 0;
  for (let i = 0; i < offset; ) {
    const cp = text.codePointAt(i)!;
    if (text.charCodeAt(i) === 10) {
      row++;
      col = 0;
    } else col++;
    i += cp > 0xffff ? 2 : 1;
  }
  if (text.charCodeAt(offset) === 10) return { row: row + 1, col: 0 };
  return { row, col: col + 1 };
}

describe("syntax: source rows and columns", () => {
  const texts = ["", "a", "\n", "ab\ncd\n", "x := \"😀😀\"\ny\n\nz", "😀\n😀a\n"];

  it("at() agrees with counting, at every offset and past the end", () => {
    for (const text of texts) {
      const src = new Source("f.rego", text);
      for (let off = 0; off <= text.length + 1; off++) {
        const want = expected(text, off);
        const at = src.at(off);
        assert.deepEqual({ row: at.row, col: at.col }, want, `${JSON.stringify(text)} @${off} (at)`);
      }
    }
  });

  it("at() refills one object per source", () => {
    const src = new Source("f.rego", "a\nb");
    assert.equal(src.at(0), src.at(2));
    assert.deepEqual({ ...src.at(2) }, { row: 2, col: 1 });
  });

  it("a location's row and col are its source's at its offset", () => {
    const text = "p := 1\n😀 := 2\n";
    const src = new Source("f.rego", text);
    for (let off = 0; off < text.length; off++) {
      const loc = SourceLocation.of(src, off, off, off);
      assert.deepEqual({ row: loc.row, col: loc.col }, expected(text, off));
      // a text starting elsewhere (SpanLocation) points at the same place
      const span = SourceLocation.of(src, off, 0, off);
      assert.deepEqual({ row: span.row, col: span.col, offset: span.offset }, { ...expected(text, off), offset: off });
    }
  });

  it("a location's text spans [start, end), whether or not it starts where it points", () => {
    const text = "p := f(1)\n";
    const src = new Source("f.rego", text);
    const same = SourceLocation.of(src, 5, 5, 9);
    const apart = SourceLocation.of(src, 5, 0, 9);
    assert.deepEqual([same.text, same.offset, apart.text, apart.offset], ["f(1)", 5, "p := f(1)", 5]);
    assert.deepEqual(JSON.parse(JSON.stringify(apart)), { file: "f.rego", row: 1, col: 6, offset: 5, text: "p := f(1)" });
  });
});
