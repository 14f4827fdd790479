// autocannon ships no types (and @types/autocannon is not a dependency): the little the runtime
// benchmark uses.
declare module "autocannon" {
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  }
  function autocannon(options: { url: string; connections?: number; pipelining?: number; duration?: number; headers?: Record<string, string> }): Promise<Result>;
  export default autocannon;
}
