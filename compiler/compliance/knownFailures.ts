// The known-failures ratchet: a file of `[{note, reason}]`. A failing case that is not listed is a
// regression; a listed case that passes must be removed (the list only shrinks).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Outcome } from "./run.js";

export interface KnownFailure {
  note: string;
  reason: string;
}

export function readKnownFailures(path: string): Map<string, string> {
  if (!existsSync(path)) return new Map();
  const list = JSON.parse(readFileSync(path, "utf8")) as KnownFailure[];
  return new Map(list.map((k) => [k.note, k.reason]));
}

/** Rewrites the list from outcomes: keeps existing reasons, drops passing cases, adds new failures. */
export function updateKnownFailures(path: string, outcomes: readonly Outcome[], reasonFor: (o: Outcome) => string): void {
  const known = readKnownFailures(path);
  const list: KnownFailure[] = [];
  for (const o of outcomes) {
    if (o.status === "pass") continue;
    list.push({ note: o.note, reason: known.get(o.note) ?? reasonFor(o) });
  }
  list.sort((a, b) => (a.note < b.note ? -1 : a.note > b.note ? 1 : 0));
  writeFileSync(path, `${JSON.stringify(list, null, 2)}\n`);
}
