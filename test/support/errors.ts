// Catching the RegoError a call must fail with, so that tests can assert its code, message and
// location. A call that returns (or a promise that resolves) fails the test; so does any other
// kind of exception.
import { expect } from "chai";
import { RegoError } from "regoc";

/** The RegoError `fn` throws. */
export function thrown(fn: () => unknown): RegoError {
  let got: unknown;
  try {
    got = fn();
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(RegoError);
    return e as RegoError;
  }
  return expect.fail(`expected a RegoError, got ${String(got)}`);
}

/** The RegoError `p` rejects with. */
export async function rejected(p: Promise<unknown>): Promise<RegoError> {
  let got: unknown;
  try {
    got = await p;
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(RegoError);
    return e as RegoError;
  }
  return expect.fail(`expected a rejection with a RegoError, got ${String(got)}`);
}
