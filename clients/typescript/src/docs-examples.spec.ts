import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The TypeScript examples people copy (docs/clients.md and the /docs page) compile against the
 * client as it is: a renamed method or parameter, or a type the API changed, fails here.
 */
const ROOT = resolve(__dirname, '../../..');
const CLIENT_ENTRY = join(ROOT, 'clients/typescript/src/index.ts');

function markdownBlocks(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The text of the /docs page's TypeScript example, as a browser shows it. */
function pageExample(): string {
  const html = readFileSync(join(ROOT, 'apps/api-gateway/src/pages/assets/docs.html'), 'utf8');
  const match = /aria-label="TypeScript example"\s*><code>([\s\S]*?)<\/code><\/pre>/.exec(html);
  if (!match) throw new Error('no TypeScript example on the /docs page');
  return match[1]!
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The compiler's complaints about `sources` (name → code), each a module importing the client. */
function diagnose(sources: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    skipLibCheck: true,
    baseUrl: ROOT,
    paths: { '@tcg-pricing/client': [CLIENT_ENTRY] },
  };
  const host = ts.createCompilerHost(options);
  const files = new Map(Object.entries(sources).map(([name, text]) => [join(ROOT, 'examples', name), text]));
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = files.get(file);
    return text === undefined
      ? getSourceFile(file, language, ...rest)
      : ts.createSourceFile(file, text, language, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(ROOT.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the TypeScript examples in the documentation', () => {
  it('docs/clients.md and the /docs page hold examples that import the client', () => {
    const blocks = markdownBlocks('docs/clients.md');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const code of [...blocks, pageExample()]) expect(code).toContain("from '@tcg-pricing/client'");
  });

  it('compile against the client (and one that calls a method it lacks does not)', () => {
    const sources: Record<string, string> = { 'docs-page.ts': pageExample() };
    markdownBlocks('docs/clients.md').forEach((code, i) => (sources[`clients-md-${i + 1}.ts`] = code));
    // In the same program, so that this check costs nothing: it shows the others could fail.
    sources['wrong.ts'] =
      "import { TcgClient } from '@tcg-pricing/client';\n" +
      "await new TcgClient({ baseUrl: 'http://x', apiKey: 'k' }).v2.sets.list();\n";
    expect(diagnose(sources)).toEqual([
      expect.stringMatching(/^examples\/wrong\.ts:2 Property 'sets' does not exist on type 'V2'/),
    ]);
  });
});
