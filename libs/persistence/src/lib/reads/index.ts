// The read side: the repositories behind the read ports, and where their reads go (replicas or
// the primary). The reads themselves stay inside the folder.
export * from './card-query.repository';
export * from './card-keyset.repository';
export * from './catalogue.repository';
export * from './read-replicas';
