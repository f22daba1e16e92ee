import type { DomainError } from '@tcg/domain';

/** The error `read` throws, for a spec to look at; a `read` that returns is a failed expectation. */
export function refusalOf(read: () => unknown): DomainError {
  try {
    read();
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('accepted');
}
