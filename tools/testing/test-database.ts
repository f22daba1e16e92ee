/** Migrates the fresh test database once per run (filled in with libs/persistence). */
export async function prepareTestDatabase(_url: string): Promise<void> {
  return;
}
