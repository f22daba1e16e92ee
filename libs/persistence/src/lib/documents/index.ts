// The card documents: rendered by every writer, read by the joined reads.
export * from './card-documents';
