// One HTTP request through fetch, its answer read whole: status, content type, text, and the text
// parsed as JSON (undefined when it is not JSON).
export interface FetchedReply {
  status: number;
  type: string | null;
  text: string;
  body: unknown;
}

export async function fetchJSON(url: string, init: RequestInit = {}): Promise<FetchedReply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, type: res.headers.get("content-type"), text, body };
}
