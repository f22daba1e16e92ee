// The id crosswalk: the ids the feeds said each card and variant has (docs/id-crosswalk.md).
export * from './id-crosswalk.repository.port';
export * from './id-crosswalk.repository';
