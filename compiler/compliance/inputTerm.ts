// `input_term` cases give the input as Rego term text (sets, trailing commas...): parse it with our
// parser and convert the constant term to a value.
import type { Value } from "../../runtime/value/value.js";
import { termToValue } from "../compile.js";
import { parseTerm } from "../syntax/index.js";

export function termTextToValue(text: string): Value {
  return termToValue(parseTerm(text, { file: "input_term" }));
}
