// Test support shared by the services' specs; imported by test files only, as @tcg/http-service/testing.
export * from './exception-filters';
export * from './openapi-documents';
export * from './refusal';
export * from './manual-versions';
export * from './v1-parameters';
export * from './streamed-body';
