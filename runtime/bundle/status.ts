// Status in OPA's status format (the status plugin's update): labels, each bundle's state, the
// decision logger's state and metrics, and each plugin's state. An optional sink POSTs every
// update as JSON to `<service>/status` (the latest one wins: updates arriving during an upload are
// coalesced into one) and/or prints it on the console.
import type { RegoError } from "../errors.js";
import type { StatusConfig } from "./config.js";

export type PluginState = "OK" | "NOT_READY" | "ERROR";

export interface BundleStatusReport {
  name: string;
  active_revision?: string;
  last_successful_activation?: string;
  last_successful_download?: string;
  last_successful_request?: string;
  last_request?: string;
  /** "snapshot" or "delta": the last downloaded bundle's kind. */
  type?: "snapshot" | "delta";
  code?: string;
  message?: string;
  errors?: string[];
  http_code?: number;
}

export interface StatusReport {
  labels: Record<string, string>;
  bundles: Record<string, BundleStatusReport>;
  decision_logs?: { code?: string; message?: string; http_code?: number; metrics: Record<string, number> };
  plugins: Record<string, { state: PluginState; message?: string }>;
}

/** OPA's error fields of a status entry (code, message, http_code when the server answered). */
export function errorFields(error: RegoError | undefined): { code?: string; message?: string; http_code?: number } {
  if (!error) return {};
  const status = (error.details as { status?: unknown } | undefined)?.status;
  return { code: error.code, message: error.message, ...(typeof status === "number" ? { http_code: status } : {}) };
}

export class StatusReporter {
  /** The last upload's failure (undefined after a success). */
  lastError: RegoError | undefined;
  private pending: StatusReport | undefined;
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(
    private readonly config: StatusConfig,
    private readonly write: (line: string) => void = console.log,
  ) {}

  update(report: StatusReport): void {
    if (this.config.console) this.write(JSON.stringify(report));
    if (!this.config.service) return;
    this.pending = report;
    this.running ??= this.drain();
  }

  /** Resolves once the latest update has been sent (or failed). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    await this.settled();
    this.abort.abort();
  }

  private async drain(): Promise<void> {
    const { postJSON } = await import("./upload.js");
    while (this.pending) {
      const report = this.pending;
      this.pending = undefined;
      try {
        await postJSON(this.config.service!, this.config.resource, report, this.abort.signal);
        this.lastError = undefined;
      } catch (e) {
        this.lastError = e as RegoError;
      }
    }
    this.running = undefined;
  }
}
