// The retry delay of OPA's plugins (its util.DefaultBackoff, used by the bundle downloader and the
// decision log uploader): a base delay multiplied by a factor per failure in a row until it
// reaches the maximum, then a random jitter so that many clients do not retry in step.
const BASE_MS = 100;
const FACTOR = 1.6;
const JITTER = 0.2;

/** The delay before the next attempt after `failures` failures in a row (none: 0), the maximum
 * applying before the jitter. */
export function backoffMs(failures: number, maxMs: number): number {
  if (failures <= 0) return 0;
  let delay = BASE_MS;
  for (let n = failures; n > 0 && delay < maxMs; n--) delay *= FACTOR;
  return Math.min(delay, maxMs) * (1 + JITTER * (Math.random() * 2 - 1));
}
