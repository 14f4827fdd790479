// Calendar arithmetic and time zones for the time.* builtins, with Go's rules: a proleptic Gregorian
// calendar on day numbers (no Date objects, so any year works), and zones named as Go's
// time.LoadLocation names them. Zone offsets and abbreviations come from the IANA database through
// Intl (Node ships full ICU); Go reads the same database, so offsets agree.

export interface Civil {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (month may be any integer; it is normalised). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const m0 = month - 1;
  let y = year + Math.floor(m0 / 12);
  const m = (((m0 % 12) + 12) % 12) + 1;
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of a day number (days since 1970-01-01). */
export function civilFromDays(days: number): Civil {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** A location: its offset from UTC (seconds) and abbreviation at an instant (unix seconds). */
export interface Zone {
  readonly name: string;
  offsetAt(unixSec: number): number;
  abbreviationAt(unixSec: number): string;
}

export const UTC: Zone = {
  name: "UTC",
  offsetAt: () => 0,
  abbreviationAt: () => "UTC",
};

// Instants a JS Date can represent (±8.64e15 milliseconds); beyond them there is no zone data to
// ask.
const MAX_DATE_SEC = 8.64e12;

// ICU names zones per locale, with letters only where a locale has a customary abbreviation; the
// IANA database (Go's source) has letters where they are in use and numeric names (+0530, -03)
// elsewhere. Asking a few English locales in turn recovers most of the IANA letters (PST, CET, IST,
// BST, AEST...); when none has letters, the numeric form is the IANA convention.
const ABBREVIATION_LOCALES = ["en-US", "en-GB", "en-AU", "en-IN"];
const GMT_FORM = /^(?:GMT|UTC)(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/;

class IanaZone implements Zone {
  private readonly wall: Intl.DateTimeFormat;
  private abbrevs: Intl.DateTimeFormat[] | undefined;

  constructor(readonly name: string) {
    this.wall = new Intl.DateTimeFormat("en-US", {
      timeZone: name,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  }

  offsetAt(unixSec: number): number {
    const sec = Math.floor(unixSec);
    if (Math.abs(sec) > MAX_DATE_SEC) return 0;
    const f: Record<string, string> = {};
    for (const p of this.wall.formatToParts(new Date(sec * 1000))) f[p.type] = p.value;
    let year = Number(f.year);
    if (f.era === "BC" || f.era === "B") year = 1 - year;
    const wall = daysFromCivil(year, Number(f.month), Number(f.day)) * 86400 + Number(f.hour) * 3600 + Number(f.minute) * 60 + Number(f.second);
    return wall - sec;
  }

  abbreviationAt(unixSec: number): string {
    const sec = Math.floor(unixSec);
    if (Math.abs(sec) > MAX_DATE_SEC) return this.name;
    const date = new Date(sec * 1000);
    this.abbrevs ??= ABBREVIATION_LOCALES.map((l) => new Intl.DateTimeFormat(l, { timeZone: this.name, timeZoneName: "short" }));
    let numeric = "";
    for (const f of this.abbrevs) {
      const name = f.formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "";
      const m = GMT_FORM.exec(name);
      if (m === null || m[1] === undefined) return name; // letters (or plain GMT/UTC)
      if (numeric === "") {
        const hh = m[2]!.padStart(2, "0");
        numeric = m[3] === undefined || m[3] === "00" ? `${m[1]}${hh}` : `${m[1]}${hh}${m[3]}`;
      }
    }
    return numeric;
  }
}

export class UnknownZoneError extends Error {}

const zones = new Map<string, Zone>();

function hostZoneName(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Go's time.LoadLocation (with "Local" as the host's zone); throws UnknownZoneError with Go's text. */
export function loadZone(name: string): Zone {
  if (name === "" || name === "UTC") return UTC;
  const cached = zones.get(name);
  if (cached !== undefined) return cached;
  if (name.includes("..") || name.startsWith("/") || name.startsWith("\\")) throw new UnknownZoneError("time: invalid location name");
  let zone: Zone;
  if (name === "Local") {
    const host = hostZoneName();
    zone = host === "UTC" || host === "Etc/UTC" ? UTC : new IanaZone(host);
  } else {
    let resolved: string;
    try {
      // Offsets such as "+05:00" are zones to newer Intl versions, not to Go.
      if (/^[+-]/.test(name)) throw new RangeError(name);
      resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      throw new UnknownZoneError(`unknown time zone ${name}`);
    }
    // Intl matches zone names case-insensitively; Go's zoneinfo lookup does not.
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) throw new UnknownZoneError(`unknown time zone ${name}`);
    zone = new IanaZone(name);
  }
  zones.set(name, zone);
  return zone;
}

/**
 * The unix seconds of a wall-clock time in a zone, as Go's time.Date resolves it: look up the offset
 * at the wall time read as UTC, and if the result falls under a different offset, use that one.
 */
export function wallToUnix(zone: Zone, wallSec: number): number {
  const offset = zone.offsetAt(wallSec);
  if (offset === 0) return wallSec;
  const utc = wallSec - offset;
  const actual = zone.offsetAt(utc);
  return wallSec - (actual === offset ? offset : actual);
}
