// The read side: the catalogue's and v2 keyset pages' ports (the card views' own port is
// `@tcg/rendering`'s `RenderedCardReads`), the repositories behind them, and where their reads go
// (replicas or the primary). The reads themselves stay inside the folder.
export * from './card-query.repository';
export * from './card-keyset.repository.port';
export * from './card-keyset.repository';
export * from './catalogue.repository.port';
export * from './catalogue.repository';
export * from './read-replicas';
