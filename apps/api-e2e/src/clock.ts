/**
 * Quotas count per clock minute. A test that counts requests against the minute limit first waits
 * for a fresh minute when fewer than `needSeconds` remain, so a boundary never resets its counters
 * half-way (which would make it flaky rather than wrong).
 */
export async function withinOneMinute(needSeconds = 20): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needSeconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}
