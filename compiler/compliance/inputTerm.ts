// `input_term` cases give the input as Rego term text (sets, trailing commas...): parse it with our
// parser and convert the constant term to a value.
import { RegoError } from "../../runtime/errors.js";
import type { Value } from "../../runtime/value/value.js";

export function termTextToValue(_text: string): Value {
  throw new RegoError("rego_parse_error", "input_term needs the Rego parser (not wired yet)");
}
