/**
 * A client's request as the specs send it through fetch (raw-http.ts is for the bytes on the
 * wire): to `url` (a gateway's, or a service's for the tests that go round the gateway), with
 * `key` as its `x-api-key` — none when it is null or left out — and `headers` over it.
 */
export function fetchWithKey(
  url: string,
  key?: string | null,
  { headers = {}, method = 'GET' }: { headers?: Record<string, string>; method?: string } = {},
): Promise<Response> {
  return fetch(url, { method, headers: { ...(key == null ? {} : { 'x-api-key': key }), ...headers } });
}

/** `fetchWithKey` for a request that must succeed: expects a 200 and gives its JSON body as `T`. */
export async function getJson<T>(url: string, key: string): Promise<T> {
  const res = await fetchWithKey(url, key);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}
