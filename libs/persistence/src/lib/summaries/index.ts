// The summaries behind /v1/games and /v1/sets, and the marks writers leave.
export * from './summaries';
